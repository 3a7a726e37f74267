"""One game of Not Alone at the terminal: the game in play, who sits where (people or bots) and their names,
and the attempt saved, recorded and kept in the logbook like a Crew mission's.

No rules here: the session asks the game who it waits for and what a seat may do (the one game interface,
:mod:`crewkit.games`); the bots of the other seats are the board bots of :mod:`crewkit.families.not_alone.bots` (by name,
``--bot``), each deciding from its own seat's observation and legal actions. Saves are atomic (the save
machinery of :mod:`crewkit.campaign.saves`); a record replays with ``crewkit replay``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.engine.actions import Action
from crewkit.errors import UsageError
from crewkit.families.not_alone.board import BoardGame
from crewkit.families.not_alone.bots import BoardBot, board_bot_names, make_board_bot
from crewkit.families.not_alone.observation import BoardObservation
from crewkit.families.not_alone.tui.text import Catalog
from crewkit.games import family_for
from crewkit.games.protocol import Family, GameInPlay
from crewkit.tui.services import Services, unfinished_save

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
    """One table of Not Alone: its seats and bots, the game in play, and (with ``services``) the attempt saved
    after every action, its record written and its result kept in the logbook when it ends."""

    ruleset: str
    players: int
    kinds: list[str]
    seed: str
    names: list[str] = field(default_factory=list)
    readings: dict[str, str] = field(default_factory=dict)  # --reading: other options of unclear rules
    services: Services | None = None  # saves, logbook and records; None: nothing is written (a test's table)
    base_seed: str | None = None  # the seed asked for (--seed): the next games' seeds derive from it
    play: GameInPlay = field(init=False)
    bots: dict[int, BoardBot] = field(init=False)
    finished: HuntFinished | None = field(init=False, default=None)
    games: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        if not self.names:
            self.names = seat_names(self.kinds)
        self._install(self.family.open(self.ruleset, None, self.players, self.seed, self.readings, self.names))
        self.games = 1  # saved from its first action on: a game saved earlier at this table is offered first

    @property
    def family(self) -> Family:
        return family_for(self.ruleset)

    @property
    def game(self) -> BoardGame:
        """The engine's game (what the table draws)."""
        engine: BoardGame = self.play.engine
        return engine

    def new_game(self, seed: str) -> None:
        self._install(self.family.open(self.ruleset, None, self.players, seed, self.readings, self.names))
        self.games += 1
        self.save()

    def next_seed(self) -> str:
        """The seed of the next game at this table: derived from the first when one was given."""
        return f"{self.base_seed}/{self.games}" if self.base_seed else secrets.token_hex(4)

    def _install(self, play: GameInPlay) -> None:
        self.play = play
        self.seed = play.seed
        self.finished = None
        loaded = self.game.ruleset
        self.bots = {s: make_board_bot(k, s, self.seed, loaded) for s, k in enumerate(self.kinds) if k != HUMAN}

    # ------------------------------------------------------------------ saved attempts
    @property
    def save_key(self) -> str:
        from crewkit.campaign.saves import attempt_key

        return attempt_key(self.family.name, self.ruleset, self.ruleset, self.players)

    def save(self) -> None:
        """Save the game so far (atomically; a finished game leaves no save). Saving never stops play."""
        if self.services is None:
            return
        try:
            if self.play.is_over():
                self.services.saves.clear(self.save_key)
            else:
                self.services.saves.save(self.save_key, self.play.record())
        except Exception:  # a full disk, a read-only home: play goes on (the Crew's table does the same)
            pass

    def saved_record(self) -> dict[str, Any] | None:
        """The unfinished game saved at this table (same rule set and player count), if any."""
        return None if self.services is None else unfinished_save(self.services.saves, self.save_key)

    def resume(self, record: dict[str, Any]) -> str | None:
        """Go on with a saved game (replayed through its family's record reader); why not, as text."""
        replayed = self.family.replay(record, self.names)
        if replayed.game is None or replayed.error is not None:
            return str(replayed.error or "the saved game cannot be replayed")
        if replayed.game.is_over():
            return "the saved game is already over"
        self._install(replayed.game)
        return None

    def abandon(self, record: dict[str, Any]) -> None:
        """A new game was chosen over the saved one: the logbook counts it as abandoned."""
        if self.services is not None:
            try:
                self.services.logbook.record_attempt(
                    campaign=self.family.name, mission=self.ruleset, players=self.players, ruleset=self.ruleset,
                    seed=str(record.get("seed", "")), result="abandoned",
                    reason="a new game was started instead of resuming this one", distress_used=False)
            except Exception:
                pass
        self.discard_saved()

    def discard_saved(self) -> None:
        if self.services is not None:
            try:
                self.services.saves.clear(self.save_key)
            except Exception:
                pass

    # ------------------------------------------------------------------ seats
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

    @property
    def catalog(self) -> Catalog:
        """What the rule set prints (the places, the cards): the table's words."""
        return Catalog.of(self.game)

    def waiting(self) -> tuple[int, ...]:
        return self.play.waiting()

    def is_over(self) -> bool:
        return self.play.is_over()

    def legal_actions(self, seat: int) -> list[Action]:
        return self.play.legal_actions(seat)

    def bot_seat(self) -> int | None:
        """A bot the game waits for (bots go first during a secret choice: the people then choose unhurried)."""
        return next((s for s in self.play.waiting() if not self.is_human(s)), None)

    def human_seat(self) -> int | None:
        return next((s for s in self.play.waiting() if self.is_human(s)), None)

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action) -> None:
        """Apply through the game (raises IllegalAction, the game unchanged); save the game so far."""
        self.play.apply(action)
        self.save()

    def bot_move(self, seat: int) -> Action:
        """The bot of ``seat`` decides from its own observation and legal actions; the game applies it."""
        legal = self.play.legal_actions(seat)
        action = self.bots[seat].choose(self.game.observation(seat), legal)
        self.apply(action)
        return action

    # ------------------------------------------------------------------ the end
    def finish(self) -> HuntFinished:
        """The game is over: its record is written and its result kept in the logbook (once)."""
        if self.finished is not None:
            return self.finished
        outcome = self.play.outcome()
        errors: list[str] = []
        path: Path | None = None
        if self.services is not None:
            try:
                path = self.services.write_record(self.play.record(), self.ruleset, self.seed)
            except Exception as exc:
                errors.append(f"could not write the game record: {exc}")
            try:
                self.services.logbook.record_attempt(
                    campaign=self.family.name, mission=self.ruleset, players=self.players, ruleset=self.ruleset,
                    seed=self.seed, result=outcome.result, reason=outcome.words(), distress_used=False,
                    record_path=str(path) if path else None)
            except Exception as exc:
                errors.append(f"could not write the logbook: {exc}")
            self.discard_saved()
        self.finished = HuntFinished(outcome.words(), path, errors)
        return self.finished


@dataclass(frozen=True)
class HuntFinished:
    """What became of a finished game: its result in words, where its record went, what could not be written."""

    words: str
    record_path: Path | None
    errors: list[str]
