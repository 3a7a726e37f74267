"""The board-of-places family (``family: not-alone``: Not Alone and its advanced rules) behind the one game
interface.

:class:`NotAloneGame` is a thin adapter of :class:`~crewkit.families.not_alone.board.BoardGame` (a game on the phase
machine) to :class:`~crewkit.games.protocol.GameInPlay`; :data:`FAMILY` opens games, replays records
(:func:`crewkit.families.not_alone.record.replay_board`), puts its bots (:mod:`crewkit.families.not_alone.bots`) behind the one
driver and counts a finished game for ``simulate`` and ``compare``: success is the Hunted's win, a game's
length its rounds.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from crewkit.effects.ruleset import EffectRuleSet
from crewkit.engine.actions import Action
from crewkit.engine.errors import SetupError
from crewkit.families.not_alone.board import BoardGame, load_board_ruleset, with_readings
from crewkit.families.not_alone.bots import BoardBot
from crewkit.families.not_alone.record import BoardReplay, board_record, replay_board
from crewkit.families.not_alone.state import LONE, CardsState
from crewkit.games.driver import BotError, play_out
from crewkit.games.protocol import (
    EngineGame,
    FamilyAnswers,
    FamilyCheck,
    FamilyReview,
    FamilyWinnability,
    FamilyWords,
    GameInPlay,
    GameOutcome,
    GameSummary,
    LoggedAttempt,
    Replayed,
    RulesetListing,
    SeatPlayer,
)
from crewkit.spec.errors import SpecIssue

if TYPE_CHECKING:
    from crewkit.spec.model import Mission, RuleSet

NAME = "not-alone"


def deal_fingerprint(game: BoardGame) -> str:
    """The shuffled effect card decks as dealt, hands and draw piles (equal fingerprints: the same shuffles)."""
    cards = game.state(CardsState)
    return "|".join(
        ",".join([*(c for hand in cards.hands[deck] for c in hand), *cards.draw[deck]]) for deck in cards.draw
    )


class NotAloneGame(EngineGame):
    """A :class:`~crewkit.families.not_alone.board.BoardGame` as a :class:`~crewkit.games.protocol.GameInPlay`; keeps the
    readings it was opened with (its record names them) and its deal's fingerprint (taken before play)."""

    __slots__ = ("fingerprint", "readings")
    engine: BoardGame

    def __init__(self, engine: BoardGame, readings: Mapping[str, str] | None = None,
                 fingerprint: str | None = None) -> None:
        super().__init__(engine)
        self.readings = dict(readings or {})
        self.fingerprint = deal_fingerprint(engine) if fingerprint is None else fingerprint

    @property
    def family(self) -> NotAlone:
        return FAMILY

    def waiting(self) -> tuple[int, ...]:
        return self.engine.waiting()

    def window(self) -> tuple[int, ...]:
        return ()  # nobody acts out of turn: the game names who it waits for

    def may_act_out_of_turn(self, seat: int) -> bool:
        return False

    def observation(self, seat: int) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(self.engine.observation(seat))))
        return data

    def public_log(self) -> list[str]:
        return [line.text for line in self.engine.lines if line.seats is None]

    def seat_log(self, seat: int) -> list[str]:
        return [line.text for line in self.engine.lines if line.visible_to(seat)]

    def outcome(self) -> GameOutcome:
        g = self.engine
        o = g.outcome()
        if not g.is_over() or not g.winners:
            return GameOutcome(o.result, o.reason)
        return GameOutcome(o.result, o.reason, tuple(g.winners), g.title(g.role_of(g.winners[0])))

    def clone(self) -> NotAloneGame:
        return NotAloneGame(self.engine.clone(), self.readings, self.fingerprint)

    def record(self) -> dict[str, Any]:
        return board_record(self.engine, self.readings)


@functools.lru_cache(maxsize=32)
def _ruleset(ruleset: str, readings: tuple[tuple[str, str], ...]) -> EffectRuleSet:
    loaded = load_board_ruleset(ruleset)  # cached per file version
    return with_readings(loaded, dict(readings)) if readings else loaded


class BoardSeat:
    """A board bot for the one driver (:func:`crewkit.games.driver.play_out`): it decides from its seat's
    observation and legal actions only, and never acts out of turn."""

    __slots__ = ("bot", "seat")

    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        self.seat = bot.seat

    def act(self, game: GameInPlay) -> Action:
        engine: BoardGame = game.engine
        legal = engine.legal_actions(self.seat)
        action = self.bot.choose(engine.observation(self.seat), legal)
        if action not in legal:
            raise BotError(f"the bot of seat {self.seat} chose {action}, which is not legal now")
        return action

    def offer(self, game: GameInPlay) -> Action | None:
        return None


def play_board_game(game: BoardGame, bots: Sequence[BoardBot], max_actions: int = 20_000) -> BoardGame:
    """Play an engine game to its end with one bot per seat, through the one driver; returns the game."""
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a {game.n}-player game")
    play_out(NotAloneGame(game), [BoardSeat(b) for b in bots], max_actions)
    return game


class NotAlone:
    """The board-of-places family: one Creature against the Hunted."""

    name = NAME
    title = "Not Alone"  # how reports name the family
    words = FamilyWords(length="rounds", sides=("Hunted", "Creature"), lone="Creature")
    needs_mission = False
    default_bot = "heuristic"
    solvable = False
    action_types: frozenset[str] = frozenset()  # its actions are crewkit's own (the record schema's)
    tui: str | None = "crewkit.families.not_alone.tui.terminal:TERMINAL"  # its table at the terminal (crewkit.tui.family)

    def rulesets(self) -> list[Path]:
        return []  # in crewkit's rulesets/ folder

    def ruleset_data(self, ref: str, readings: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
        board = load_board_ruleset(ref)
        if readings:
            board = with_readings(board, readings)
        return board.name, copy.deepcopy(dict(board.data))

    def ruleset_issues(self, path: Path) -> list[SpecIssue]:
        from crewkit.effects.files import effect_file_issues

        return effect_file_issues(path, "not-alone-ruleset")

    def listing(self, path: Path) -> RulesetListing:
        from crewkit.spec.loader import resolve_ruleset_data

        merged = resolve_ruleset_data(path)[0]  # extends: resolved (its schema is checked by validate)
        return RulesetListing(tuple(int(p) for p in merged.get("players") or []),
                              f"its own game ({NAME} family, not trick-taking)")

    def ruleset(self, ruleset: str, readings: Mapping[str, str] | None = None) -> EffectRuleSet:
        """The rule set by bundled name or path with other options for some readings (loaded once)."""
        return _ruleset(ruleset, tuple(sorted((readings or {}).items())))

    def open(self, ruleset: str, mission: str | None, players: int, seed: str,
             readings: Mapping[str, str] | None = None, names: Sequence[str] | None = None) -> NotAloneGame:
        if mission:
            raise SetupError(f"rule set {ruleset} is a game of its own: it plays no mission (found {mission!r})")
        return NotAloneGame(BoardGame(self.ruleset(ruleset, readings), players, seed, names), readings)

    def replay(self, record: Mapping[str, Any], names: Sequence[str] | None = None) -> Replayed:
        result = replay_board(record, names)
        game = None if result.game is None else NotAloneGame(result.game, record.get("readings") or {})
        return Replayed(game, result.error)

    @staticmethod
    def _engine_replay(replayed: Replayed) -> BoardReplay:
        game = None if replayed.game is None else cast(NotAloneGame, replayed.game).engine
        return BoardReplay(game, replayed.error)

    def replay_text(self, replayed: Replayed) -> str:
        from crewkit.families.not_alone.record import board_replay_text

        return board_replay_text(self._engine_replay(replayed))

    def replay_json(self, replayed: Replayed) -> dict[str, Any]:
        from crewkit.families.not_alone.record import board_replay_json

        return board_replay_json(self._engine_replay(replayed))

    def bot_names(self) -> list[str]:
        from crewkit.families.not_alone.bots import board_bot_names

        return board_bot_names()

    def bot_spec(self, spec: str | None, sides: Mapping[str, str | None] | None = None) -> str:
        from crewkit.families.not_alone.bots import parse_side_bots, side_label

        sides = sides or {}
        return side_label(*parse_side_bots(spec or self.default_bot, sides.get("creature"), sides.get("hunted")))

    def mission_specs(self, ruleset: str, mission: str, players: int,
                      readings: Mapping[str, str] | None = None) -> tuple[RuleSet, Mission]:
        raise SetupError(f"rule set {ruleset} is a game of its own: it plays no mission (found {mission!r})")

    def logbook_extra_attempts(self, ruleset: str) -> int:
        return 0  # no distress signal in this game

    def logbook_attempt(self, game: GameInPlay) -> LoggedAttempt | None:
        return None  # a game of its own: no campaign's mission to count

    def check(self) -> FamilyCheck | None:
        return None  # no missions to check

    def review(self) -> FamilyReview | None:
        return None  # the review asks the solver, and none searches a game of hidden places

    def winnability(self) -> FamilyWinnability | None:
        return None  # no solver decides a deal of hidden places

    def bots_json(self, spec: str) -> dict[str, str] | None:
        from crewkit.families.not_alone.bots import parse_side_bots

        return dict(zip(("creature", "hunted"), parse_side_bots(spec), strict=True))

    def seat_players(self, game: GameInPlay, spec: str, seed: str) -> list[SeatPlayer]:
        from crewkit.families.not_alone.bots import side_bots

        return [BoardSeat(bot) for bot in side_bots(game.engine, spec, seed)]  # the Creature's, then the Hunted's

    def solve(self, game: GameInPlay, timeout: float | None, max_nodes: int | None) -> tuple[str | None, int]:
        return None, 0  # no solver for a game of hidden places

    def summary(self, game: GameInPlay) -> GameSummary:
        g = cast(NotAloneGame, game)
        engine = g.engine
        rounds = engine.round
        return GameSummary(engine.winners != (LONE,), rounds, engine.outcome().reason, float(rounds), g.fingerprint)


FAMILY = NotAlone()

if TYPE_CHECKING:  # a type checker checks that it answers every optional answer too
    _ANSWERS: FamilyAnswers = FAMILY
