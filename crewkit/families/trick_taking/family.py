"""The trick-taking family (The Crew, JARVIS, the Persian reading, Hammer) behind the one game interface.

:class:`TrickTakingGame` is a thin adapter of the engine's :class:`~crewkit.families.trick_taking.engine.game.Game` (which keeps its
own fast flow) to :class:`~crewkit.games.protocol.GameInPlay`; :data:`FAMILY` opens games, replays records
(:func:`crewkit.families.trick_taking.engine.record.replay_record`), puts the bots of :mod:`crewkit.families.trick_taking.bots` behind the one driver
(:class:`BotSeat`; :func:`play_game` plays an engine game to its end) and counts a finished game for
``simulate`` and ``compare``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES, Bot
from crewkit.families.trick_taking.engine.blocks.rounds import match_of
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation, Table, observe, table_snapshot
from crewkit.families.trick_taking.engine.observation_json import match_json
from crewkit.families.trick_taking.engine.record import Replay, game_to_record, replay_record
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.engine.state import Event
from crewkit.games.driver import BotError, play_out
from crewkit.games.protocol import (
    EngineGame,
    FamilyWords,
    GameInPlay,
    GameOutcome,
    GameSummary,
    Replayed,
    RulesetListing,
    SeatPlayer,
)
from crewkit.spec.bundled import rulesets_dir
from crewkit.spec.errors import SpecIssue

if TYPE_CHECKING:
    from crewkit.spec.model import Mission, RuleSet

NAME = "trick-taking"


def _event_text(e: Event) -> str:
    parts = [e.kind]
    if e.seat is not None:
        parts.append(f"seat {e.seat}")
    if e.card is not None:
        parts.append(e.card.name)
    if e.detail:
        parts.append(e.detail)
    return " ".join(parts)


class TrickTakingGame(EngineGame):
    """A trick-taking :class:`~crewkit.families.trick_taking.engine.game.Game` as a :class:`~crewkit.games.protocol.GameInPlay`."""

    __slots__ = ("_table",)
    engine: Game

    def __init__(self, engine: Game) -> None:
        super().__init__(engine)
        self._table: tuple[int, Table] | None = None  # a window's shared table, valid while no action is applied

    @property
    def family(self) -> TrickTaking:
        return FAMILY

    def waiting(self) -> tuple[int, ...]:
        seat = self.engine.to_act
        return () if seat is None else (seat,)

    def window(self) -> tuple[int, ...]:
        g = self.engine
        if g.is_over() or not g.in_communication_window():
            return ()
        return tuple((g.leader + i) % g.n for i in range(g.n))  # from the leader, clockwise

    def may_act_out_of_turn(self, seat: int) -> bool:
        return self.engine.has_optional_actions(seat)  # the engine's predicate: one rule for bots, app and checks

    def table(self) -> Table:
        """The part of every seat's observation they share now (one snapshot per window, for speed)."""
        count = len(self.engine.actions)
        if self._table is None or self._table[0] != count:
            self._table = (count, table_snapshot(self.engine, lazy_optional=True))
        return self._table[1]

    def seat_observation(self, seat: int) -> Observation:
        """The engine's observation of ``seat`` (what the family's bots read)."""
        g = self.engine
        if g.in_communication_window():
            return observe(g, seat, lazy_optional=True, table=self.table())
        return observe(g, seat, g.legal_actions(seat))

    def observation(self, seat: int) -> dict[str, Any]:
        data = observe(self.engine, seat).to_json()
        # the mission card's number of each secret mission this seat sees (its own, the revealed ones): the
        # Persian reading completes them in number order
        numbers = {t.card.name: number for t in self.engine.tasks
                   if isinstance(number := getattr(t, "number", None), int)}
        if numbers:
            for task in data["tasks"]:
                if task["card"] in numbers:
                    task["number"] = numbers[task["card"]]
        match = match_of(self.engine)
        if match is not None:  # Hammer: the rounds, the chips, the dealer's choice (public)
            data["match"] = match_json(match, self.engine.dealer, self.engine.mode)
        return data

    def public_log(self) -> list[str]:
        return [_event_text(e) for e in self.engine.events_for(-1)]

    def seat_log(self, seat: int) -> list[str]:
        return [_event_text(e) for e in self.engine.events_for(seat)]

    def outcome(self) -> GameOutcome:
        o = self.engine.outcome()
        g = self.engine
        if match_of(g) is not None and g.is_over():  # Hammer: the seats with the most chips win
            match = match_of(g)
            assert match is not None
            best = max(match.chips)
            winners = tuple(s for s, c in enumerate(match.chips) if c == best)
            return GameOutcome(o.result, o.reason, winners, "")
        if o.result == "success":
            return GameOutcome(o.result, o.reason, tuple(range(g.n)), "the crew")
        return GameOutcome(o.result, o.reason, (), "")

    def clone(self) -> TrickTakingGame:
        return TrickTakingGame(self.engine.clone())

    def record(self) -> dict[str, Any]:
        return game_to_record(self.engine)


class BotSeat:
    """A trick-taking bot (:class:`~crewkit.families.trick_taking.bots.base.Bot`) for the one driver: it reads its seat's
    observation only; an optional action from ``act`` while a required one is due, or a required one from
    ``optional``, is a bug of the bot (:class:`~crewkit.games.driver.BotError`)."""

    __slots__ = ("bot", "seat")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seat = bot.seat

    def act(self, game: GameInPlay) -> Action:
        obs = cast(TrickTakingGame, game).seat_observation(self.seat)
        action = self.bot.act(obs)
        if type(action) in OPTIONAL_TYPES and obs.required:
            raise BotError(f"the bot of seat {self.seat} returned the optional {action!r} from act()")
        return action

    def offer(self, game: GameInPlay) -> Action | None:
        g = cast(TrickTakingGame, game)
        obs = observe(g.engine, self.seat, lazy_optional=True, table=g.table())
        action = self.bot.optional(obs)
        if action is not None and type(action) not in OPTIONAL_TYPES:
            raise BotError(f"the bot of seat {self.seat} returned {action!r} from optional(): not optional")
        return action


class TrickTaking:
    """The trick-taking family."""

    name = NAME
    title = "The Crew"  # how reports name the family
    words = FamilyWords(length="tricks")
    needs_mission = True
    default_bot = "fast"
    solvable = True

    action_types: frozenset[str] = frozenset()  # its actions are crewkit's own (the record schema's)
    tui: str | None = "crewkit.families.trick_taking.tui.terminal:TERMINAL"  # its table at the terminal (crewkit.tui.family)

    def rulesets(self) -> list[Path]:
        return []  # in crewkit's rulesets/ folder

    def ruleset_data(self, ref: str, readings: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
        from crewkit.spec.loader import load_ruleset

        rs = load_ruleset(ref, readings)
        return rs.name, dict(rs.data)

    def ruleset_issues(self, path: Path) -> list[SpecIssue]:
        from crewkit.spec.files import check_file

        return check_file(path, "ruleset")

    def listing(self, path: Path) -> RulesetListing:
        from crewkit.spec.loader import load_ruleset

        data = load_ruleset(path.stem if path.parent == rulesets_dir() else str(path)).data
        folder = (data.get("scoring") or {}).get("missions") or ((data.get("tasks") or {}).get("secret") or {}).get(
            "missions")
        return RulesetListing(tuple(int(p) for p in data.get("players") or []),
                              f"mission set {folder}" if folder else "campaign missions",
                              str(folder) if folder else None)

    def open(self, ruleset: str, mission: str | None, players: int, seed: str,
             readings: Mapping[str, str] | None = None, names: Sequence[str] | None = None) -> TrickTakingGame:
        return TrickTakingGame(new_game(ruleset, mission or "", players, seed, readings))

    def wrap(self, engine: Game) -> TrickTakingGame:
        """An engine game (a hand-made position, a solver's) as a game in play."""
        return TrickTakingGame(engine)

    def replay(self, record: Mapping[str, Any], names: Sequence[str] | None = None) -> Replayed:
        result = replay_record(record)
        return Replayed(None if result.game is None else TrickTakingGame(result.game), result.error)

    @staticmethod
    def _engine_replay(replayed: Replayed) -> Replay:
        return Replay(None if replayed.game is None else cast(TrickTakingGame, replayed.game).engine, replayed.error)

    def replay_text(self, replayed: Replayed) -> str:
        from crewkit.families.trick_taking.engine.replay_text import replay_text

        return replay_text(self._engine_replay(replayed))

    def replay_json(self, replayed: Replayed) -> dict[str, Any]:
        from crewkit.families.trick_taking.engine.replay_text import replay_json

        return replay_json(self._engine_replay(replayed))

    def bot_names(self) -> list[str]:
        from crewkit.families.trick_taking.bots.registry import bot_names

        return bot_names()

    def bot_spec(self, spec: str | None, sides: Mapping[str, str | None] | None = None) -> str:
        from crewkit.families.trick_taking.bots.registry import make_bot

        if any((sides or {}).values()):
            from crewkit.errors import UsageError

            raise UsageError("--creature-bot and --hunted-bot are for Not Alone rule sets (one Creature, the Hunted)")
        spec = spec or self.default_bot
        make_bot(spec, 0, "")  # an unknown name raises UnknownBot listing the names
        return spec

    def bots_json(self, spec: str) -> dict[str, str] | None:
        return None

    def mission_specs(self, ruleset: str, mission: str, players: int,
                      readings: Mapping[str, str] | None = None) -> tuple[RuleSet, Mission]:
        from crewkit.families.trick_taking.engine.setup import specs_for

        return specs_for(ruleset, mission, players, readings)

    def logbook_extra_attempts(self, ruleset: str) -> int:
        from crewkit.families.trick_taking.engine.setup import logbook_extra_attempts

        return logbook_extra_attempts(ruleset)

    def seat_players(self, game: GameInPlay, spec: str, seed: str) -> list[SeatPlayer]:
        from crewkit.families.trick_taking.bots.registry import make_bot

        return [BotSeat(make_bot(spec, seat, seed)) for seat in range(game.seats)]  # a dummy seat's bot too

    def solve(self, game: GameInPlay, timeout: float | None, max_nodes: int | None) -> tuple[str | None, int]:
        from crewkit.families.trick_taking.solve import solve

        res = solve(cast(TrickTakingGame, game).engine.clone(), timeout=timeout, max_nodes=max_nodes)
        return res.status, res.nodes

    def summary(self, game: GameInPlay) -> GameSummary:
        g = cast(TrickTakingGame, game).engine
        outcome = g.outcome()
        fingerprint = "|".join(",".join(sorted(c.name for c in hand)) for hand in g.deal.hands)
        match = match_of(g)
        if match is not None:
            rounds = sum(r.tricks for r in match.round_results)
            return GameSummary(False, rounds, outcome.reason, float(len(g.tricks)), fingerprint,
                               tuple(float(c) for c in match.chips), match.first_dealer,
                               tuple(r.mode for r in match.round_results))
        score = float(g.tasks_done if g.tasks else len(g.tricks))
        return GameSummary(outcome.result == "success", len(g.tricks), outcome.reason, score, fingerprint)


def play_game(game: Game, bots: Sequence[Bot], max_actions: int = 10_000) -> Game:
    """Play an engine game to its end with one bot per seat, through the one driver; returns the game."""
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a {game.n}-player game")
    play_out(TrickTakingGame(game), [BotSeat(b) for b in bots], max_actions)
    return game


FAMILY = TrickTaking()
