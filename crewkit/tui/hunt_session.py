"""One game of Not Alone at the terminal: the engine's game, who sits where (people or bots) and their names.

No rules here: the session asks the game who it waits for (:meth:`BoardGame.waiting`) and what a seat may do
(:meth:`BoardGame.legal_actions`); the bots of empty seats are reached through one function,
:func:`bot_action`, so the project's Not Alone bots replace the random chooser in one place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from crewkit.effects.ruleset import EffectRuleSet
from crewkit.engine.actions import Action
from crewkit.engine.board import BoardGame, board_ruleset_path, load_board_ruleset, new_board_game
from crewkit.engine.board_observation import BoardObservation
from crewkit.engine.errors import SetupError
from crewkit.errors import UsageError

BOARD_FAMILIES = ("not-alone",)  # the ``family:`` of the rule sets the Not Alone table plays
HUMAN = "human"
BOT_NAMES = ("random",)  # the bots a Not Alone seat may take (--bot, --seats)


def is_board_ruleset(ref: str | None) -> bool:
    """Whether ``ref`` (a bundled name or a path) names a rule set of the board family: its ``family:`` line,
    or that of the rule set it ``extends:`` (read from the lines: no YAML load, the CLI stays quick)."""
    if not ref:
        return False
    try:
        path = board_ruleset_path(ref)
    except SetupError:
        return False
    for _ in range(8):
        try:
            with open(path, encoding="utf-8") as fh:
                top = dict(line.split(":", 1) for line in fh if line[:1].isalpha() and ":" in line)
        except (OSError, UnicodeDecodeError):
            return False
        value = {k: v.split("#")[0].strip().strip("'\"") for k, v in top.items()}
        if "family" in value:
            return value["family"] in BOARD_FAMILIES
        if not value.get("extends"):
            return False
        path = path.parent / value["extends"]
    return False


def bot_action(game: BoardGame, seat: int, rng: random.Random, bot: str = "random") -> Action:
    """The action of the bot in ``seat``: one of the engine's legal actions for that seat (it sees nothing
    the seat may not know: legal actions are its own). The one place where a Not Alone bot is chosen."""
    legal = game.legal_actions(seat)
    if not legal:
        raise RuntimeError(f"the game waits for {game.seat_name(seat)} but offers no action")
    return rng.choice(legal)


def seat_kinds(players: int, side: str | None, seats: Sequence[str] | None) -> list[str]:
    """Per seat ``human`` or a bot name. ``seats`` (``--seats``) wins; else one person on ``side``
    (``creature``: seat 0; ``hunted``, the default: the first Hunted) and bots elsewhere."""
    if seats:
        kinds = [HUMAN if s == HUMAN else ("random" if s == "bot" else s) for s in seats]
        if len(kinds) != players:
            raise UsageError(f"--seats lists {len(kinds)} seats for {players} players")
        bad = [k for k in kinds if k != HUMAN and k not in BOT_NAMES]
        if bad:
            raise UsageError(f"--seats: no Not Alone bot {bad[0]!r}; Not Alone bots: {', '.join(BOT_NAMES)}")
        return kinds
    human = 0 if side == "creature" else 1
    return [HUMAN if s == human else "random" for s in range(players)]


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
    game: BoardGame = field(init=False)
    rng: random.Random = field(init=False)
    loaded: EffectRuleSet = field(init=False)  # read and checked once; every new game at the table reuses it

    def __post_init__(self) -> None:
        if not self.names:
            self.names = seat_names(self.kinds)
        self.loaded = load_board_ruleset(self.ruleset)
        self.new_game(self.seed)

    def new_game(self, seed: str) -> None:
        self.seed = seed
        self.game = new_board_game(self.loaded, self.players, seed=seed, names=self.names)
        self.rng = random.Random(f"crewkit-tui-bots:{seed}")

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
        action = bot_action(self.game, seat, self.rng, self.kinds[seat])
        self.game.apply(action)
        return action
