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

from crewkit.families.trick_taking.engine.blocks.rounds import match_of
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import Replay, replay_record
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.games.protocol import (
    FamilyAnswers,
    FamilyCheck,
    FamilyReview,
    FamilyWinnability,
    FamilyWords,
    GameInPlay,
    GameSummary,
    LoggedAttempt,
    Replayed,
    RulesetListing,
    SeatPlayer,
)
from crewkit.spec.bundled import rulesets_dir
from crewkit.spec.errors import SpecIssue

if TYPE_CHECKING:
    from crewkit.spec.model import Mission, RuleSet

NAME = "trick-taking"


from crewkit.families.trick_taking.playing import BotSeat, TrickTakingGame, _event_text, play_game  # noqa: E402,F401


class TrickTaking:
    """The trick-taking family."""

    name = NAME
    title = "The Crew"  # how reports name the family
    words = FamilyWords(length="tricks", windows=True)
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

    def logbook_attempt(self, game: GameInPlay) -> LoggedAttempt | None:
        from crewkit.families.trick_taking.engine.setup import counts_in_logbook

        engine = game.engine
        if not counts_in_logbook(engine):
            return None
        outcome = engine.outcome()
        return LoggedAttempt(outcome.result, outcome.reason, engine.distress_used())

    def check(self) -> FamilyCheck:
        from crewkit.families.trick_taking.analysis.check import CHECK

        return CHECK

    def review(self) -> FamilyReview:
        from crewkit.families.trick_taking.review import REVIEW

        return REVIEW

    def winnability(self) -> FamilyWinnability:
        from crewkit.families.trick_taking.analysis.winnability import WINNABILITY

        return WINNABILITY

    def seat_players(self, game: GameInPlay, spec: str, seed: str) -> list[SeatPlayer]:
        from crewkit.families.trick_taking.bots.registry import make_bot

        return [BotSeat(make_bot(spec, seat, seed)) for seat in range(game.seats)]  # a dummy seat's bot too

    def solve(self, game: GameInPlay, timeout: float | None, max_nodes: int | None) -> tuple[str | None, int]:
        from crewkit.families.trick_taking.solve import solve

        res = solve(cast(TrickTakingGame, game).engine.clone(), timeout=timeout, max_nodes=max_nodes)
        return res.status, res.nodes

    def solve_report(self, game: GameInPlay, *, timeout: float | None, max_nodes: int | None,
                     names: Sequence[str] | None, as_json: bool) -> str:
        from crewkit.families.trick_taking.solve.report import solve_report

        return solve_report(cast(TrickTakingGame, game).engine, timeout=timeout, max_nodes=max_nodes, names=names,
                            as_json=as_json)

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


FAMILY = TrickTaking()

if TYPE_CHECKING:  # a type checker checks that it answers every optional answer too
    _ANSWERS: FamilyAnswers = FAMILY
