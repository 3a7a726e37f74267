"""One game of Not Alone at the terminal: the engine's game, who sits where (people or bots) and their names.

No rules here: the session asks the game who it waits for (:meth:`BoardGame.waiting`) and what a seat may do
(:meth:`BoardGame.legal_actions`); the bots of the other seats are the board bots of :mod:`crewkit.bots.board`
(by name, ``--bot``), each deciding from its own seat's observation and legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from crewkit.bots.board import BoardBot, board_bot_names, make_board_bot
from crewkit.effects.ruleset import EffectRuleSet
from crewkit.engine.actions import Action
from crewkit.engine.board import BoardGame, load_board_ruleset, new_board_game
from crewkit.engine.board_observation import BoardObservation
from crewkit.engine.board_setup import with_readings
from crewkit.errors import UsageError

HUMAN = "human"
DEFAULT_BOT = "heuristic"  # the strongest Not Alone bot; it decides in milliseconds


def bot_names() -> list[str]:
    """The bots a Not Alone seat may take (``--bot``, ``--seats``)."""
    return board_bot_names()


def seat_kinds(
    players: int, side: str | None, seats: Sequence[str] | None, bot: str | None = None
) -> list[str]:
    """Per seat ``human`` or a bot name. ``seats`` (``--seats``) wins; else one person on ``side``
    (``creature``: seat 0; ``hunted``, the default: the first Hunted) and ``bot`` (default: heuristic) elsewhere."""
    bot = bot or DEFAULT_BOT
    if bot not in bot_names():
        raise UsageError(f"--bot {bot}: Not Alone bots: {', '.join(bot_names())}")
    if seats:
        kinds = [HUMAN if s == HUMAN else (bot if s == "bot" else s) for s in seats]
        if len(kinds) != players:
            raise UsageError(f"--seats lists {len(kinds)} seats for {players} players")
        bad = [k for k in kinds if k != HUMAN and k not in bot_names()]
        if bad:
            raise UsageError(
                f"--seats: no Not Alone bot {bad[0]!r}; Not Alone bots: {', '.join(bot_names())}"
            )
        return kinds
    human = 0 if side == "creature" else 1
    return [HUMAN if s == human else bot for s in range(players)]


def seat_names(kinds: Sequence[str]) -> list[str]:
    """``Player`` (``Player 1``, ``Player 2`` … at a hotseat table) for people, ``Bot 1``, ``Bot 2`` … for bots."""
    humans = sum(1 for k in kinds if k == HUMAN)
    bots = sum(1 for k in kinds if k != HUMAN)
    names: list[str] = []
    h = b = 0
    for kind in kinds:
        if kind == HUMAN:
            h += 1
            names.append("Player" if humans == 1 else f"Player {h}")
        else:
            b += 1
            names.append("Bot" if bots == 1 else f"Bot {b}")
    return names


@dataclass
class HuntSession:
    ruleset: str
    players: int
    kinds: list[str]
    seed: str
    names: list[str] = field(default_factory=list)
    readings: dict[str, str] = field(default_factory=dict)  # --reading: other options of unclear rules
    game: BoardGame = field(init=False)
    bots: dict[int, BoardBot] = field(init=False)
    loaded: EffectRuleSet = field(init=False)  # read and checked once; every new game at the table reuses it

    def __post_init__(self) -> None:
        if not self.names:
            self.names = seat_names(self.kinds)
        self.loaded = with_readings(load_board_ruleset(self.ruleset), self.readings)
        self.new_game(self.seed)

    def new_game(self, seed: str) -> None:
        self.seed = seed
        self.game = new_board_game(self.loaded, self.players, seed=seed, names=self.names)
        self.bots = {
            s: make_board_bot(k, s, seed, self.loaded) for s, k in enumerate(self.kinds) if k != HUMAN
        }

    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    @property
    def hotseat(self) -> bool:
        return len(self.humans) > 1

    def is_human(self, seat: int) -> bool:
        return self.kinds[seat] == HUMAN

    def observation(self, seat: int) -> BoardObservation:
        return self.game.observation(seat)

    def bot_seat(self) -> int | None:
        """A bot the game waits for (bots go first during a secret choice: the people then choose unhurried)."""
        return next((s for s in self.game.waiting() if not self.is_human(s)), None)

    def human_seat(self) -> int | None:
        return next((s for s in self.game.waiting() if self.is_human(s)), None)

    def bot_move(self, seat: int) -> Action:
        """The bot of ``seat`` decides from its own observation and legal actions; the game applies it."""
        legal = self.game.legal_actions(seat)
        action = self.bots[seat].choose(self.game.observation(seat), legal)
        self.game.apply(action)
        return action
