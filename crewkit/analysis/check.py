"""``crewkit check MISSION.yaml``: validate a mission, then play sampled deals and warn about what looks wrong.

For each allowed player count (or the ones asked for), ``games`` deals seeded ``f"{seed}:{i}"`` are
solved (perfect-information winnability, a node budget per deal) and played by a bot. The report gives
the winnable share, the bot's success rate, the most common failure reasons, and warnings:

- a condition whose ``fail_if`` or ``done_if`` is never true, or always true, over the sample (each is
  evaluated after every trick of every sampled game, and after every play for ``after-play`` conditions,
  on the engine's view);
- a role of the mission that was never bound;
- task tokens that cannot all be honoured (a numbered token above the task count, duplicate tokens, more
  tokens than tasks, Ω together with the last number);
- no sampled deal winnable.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.analysis.choice_report import ChoiceStats
from crewkit.analysis.stats import wilson_interval

ProgressCallback = Callable[[int, int], None]


@dataclass
class ConditionTrace:
    id: str
    fail_text: str
    done_text: str
    evaluations: int = 0
    fail_true: int = 0
    done_true: int = 0
    errors: list[str] = field(default_factory=list)

    def warnings(self, winnable: int = 0) -> list[str]:
        """``winnable``: deals the solver found winning lines for. A done_if the bot never reached is then the
        bot's limit, not the mission's: no "may never be fulfilled" warning."""
        out = []
        if self.errors:
            out.append(f"condition {self.id}: evaluation failed: {self.errors[0]}")
        if not self.evaluations:
            return out
        if self.fail_text:
            if self.fail_true == 0:
                out.append(f"condition {self.id}: fail_if was never true in {self.evaluations} checks "
                           f"({self.fail_text!r}): it may never fire")
            elif self.fail_true == self.evaluations:
                out.append(f"condition {self.id}: fail_if was always true ({self.fail_text!r}): every game fails on it")
        if self.done_text:
            if self.done_true == 0 and not winnable:
                out.append(f"condition {self.id}: done_if was never true in {self.evaluations} checks "
                           f"({self.done_text!r}): it may never be fulfilled")
            elif self.done_true == self.evaluations:
                out.append(f"condition {self.id}: done_if was always true ({self.done_text!r}): it is fulfilled at once")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "evaluations": self.evaluations, "fail_if_true": self.fail_true,
                "done_if_true": self.done_true, "errors": self.errors[:3]}


@dataclass
class PlayerCountReport:
    players: int
    games: int = 0
    bot_successes: int = 0
    solver: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)  # grouped (numbers, cards, seats left out)
    examples: dict[str, str] = field(default_factory=dict)  # a group's first reason, details filled in
    conditions: list[ConditionTrace] = field(default_factory=list)
    roles_bound: Counter[str] = field(default_factory=Counter)
    roles: tuple[str, ...] = ()
    error: str = ""
    loss_reasons: Counter[str] = field(default_factory=Counter)  # deals the solver proved lost before a card
    static: str = ""  # impossible, decided from the rules alone (the family's CheckedCount.impossible)
    choices: ChoiceStats = field(default_factory=ChoiceStats)  # the bots' setup decisions and their deals

    def impossible(self) -> str:
        """Why no deal can be won, in words, when the check has shown it: from the rules alone, or every deal
        the solver decided (at least ``MIN_LOST``) lost and the bots never winning; "" otherwise."""
        if self.static:
            return self.static
        lost = self.solver["unwinnable"]
        if lost < MIN_LOST or self.solver["winnable"] or self.bot_successes:
            return ""
        unknown = self.solver["unknown"]
        undecided = f", {unknown} undecided at its budget" if unknown else ""
        if sum(self.loss_reasons.values()) == lost:
            (why, count), = self.loss_reasons.most_common(1)
            alike = "" if count == lost else f"; on {lost - count} of them for a like reason"
            return f"{why} (the solver proved every deal it decided lost before a card is played: {lost}{alike}" \
                   f"{undecided})"
        return (f"no deal was won: the solver proved each of the {lost} deals it decided lost{undecided}, and the "
                f"bots won none of {self.games}")

    def warnings(self) -> list[str]:
        if self.error:
            return []
        out: list[str] = []
        for trace in self.conditions:
            out.extend(trace.warnings(self.solver["winnable"]))
        for role in self.roles:
            if self.games and not self.roles_bound.get(role):
                out.append(f"role {role} was never bound in {self.games} games")
        decided = self.solver["winnable"] + self.solver["unwinnable"]
        if self.impossible():
            out.append("impossible: no deal can be won (the reason is given above)")
        elif decided and not self.solver["winnable"]:
            out.append(f"no sampled deal is winnable ({decided} decided by the solver)")
        return out

    def to_json(self) -> dict[str, Any]:
        low, high = wilson_interval(self.bot_successes, self.games)
        decided = self.solver["winnable"] + self.solver["unwinnable"]
        return {
            "players": self.players,
            "games": self.games,
            "error": self.error or None,
            "bot": {"successes": self.bot_successes,
                    "success_rate": round(self.bot_successes / self.games, 6) if self.games else None,
                    "interval95": [round(low, 6), round(high, 6)]},
            "solver": {**{k: self.solver.get(k, 0) for k in ("winnable", "unwinnable", "unknown")},
                       "winnable_share": round(self.solver["winnable"] / decided, 6) if decided else None,
                       "interval95": [round(x, 6) for x in wilson_interval(self.solver["winnable"], decided)]
                       if decided else None},
            "impossible": self.impossible() or None,
            "solver_loss_reasons": [{"reason": r, "count": c} for r, c in self.loss_reasons.most_common()],
            "failure_reasons": [{"reason": r, "count": c, "example": self.examples.get(r, r)}
                                for r, c in self.reasons.most_common()],
            "conditions": [c.to_json() for c in self.conditions],
            "choices": self.choices.rows(),
            "roles_bound": dict(self.roles_bound),
            "warnings": self.warnings(),
        }


@dataclass
class CheckReport:
    path: str
    valid: bool
    issues: list[str]  # rendered spec issues
    mission: str = ""
    ruleset: str = ""
    bot: str = ""
    static_warnings: list[str] = field(default_factory=list)
    counts: list[PlayerCountReport] = field(default_factory=list)
    issue_json: list[dict[str, Any]] = field(default_factory=list)
    precision: float | None = None  # the target half-width of the bot's success interval
    interrupted: bool = False  # stopped by Ctrl-C (or check_mission's stop()): the estimate so far
    seconds: float = 0.0  # how long the sampling took (not in the JSON: it would differ between equal runs)

    @property
    def warnings(self) -> list[str]:
        out = list(self.static_warnings)
        for c in self.counts:
            out.extend(f"{c.players} players: {w}" for w in c.warnings())
        return out

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "valid": self.valid, "issues": self.issue_json, "mission": self.mission,
                "ruleset": self.ruleset, "bot": self.bot, "precision": self.precision,
                "interrupted": self.interrupted,
                "static_warnings": self.static_warnings,
                "player_counts": [c.to_json() for c in self.counts], "warnings": self.warnings}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def format_text(self) -> str:
        if not self.valid:
            return "\n".join(self.issues) + f"\n{self.path}: invalid ({len(self.issues)} issue(s))"
        lines = [f"{self.path}: valid ({self.mission} under {self.ruleset})"]
        if self.interrupted:
            lines.append(f"interrupted after {self.seconds:.1f} s: the estimate so far")
        for note in self.issues:  # warnings from the validator
            lines.append(note)
        for c in self.counts:
            lines.append("")
            if c.error:
                lines.append(f"{c.players} players: cannot be played: {c.error}")
                continue
            if c.impossible():
                lines.append(f"{c.players} players: impossible: {c.impossible()}")
            low, high = wilson_interval(c.bot_successes, c.games)
            decided = c.solver["winnable"] + c.solver["unwinnable"]
            lines.append(f"{c.players} players, {c.games} deals:")
            if sum(c.solver.values()):
                share = f"{100 * c.solver['winnable'] / decided:.1f}%" if decided else "-"
                wl, wh = wilson_interval(c.solver["winnable"], decided)
                ci = f" (95% {100 * wl:.1f}–{100 * wh:.1f}%)" if decided else ""
                lines.append(f"  winnable      {c.solver['winnable']}/{decided} decided = {share}{ci}, "
                             f"{c.solver['unknown']} unknown")
            lines.append(f"  bot ({self.bot})  {c.bot_successes}/{c.games} = "
                         f"{100 * c.bot_successes / max(1, c.games):.1f}% (95% {100 * low:.1f}–{100 * high:.1f}%, "
                         f"±{50 * (high - low):.1f} pts)")
            lines.extend(c.choices.lines())
            for reason, count in c.reasons.most_common(3):
                lines.append(f"  fails most    {count:>3}  {c.examples.get(reason, reason)}"
                             + (" (and similar)" if count > 1 else ""))
        warnings = self.warnings
        lines.append("")
        if warnings:
            lines.append(f"{len(warnings)} warning(s):")
            lines.extend(f"  warning: {w}" for w in warnings)
        else:
            lines.append("no warnings")
        return "\n".join(lines)


@dataclass(frozen=True)
class CheckGame:
    """One sampled deal of ``crewkit check`` played by the bots: the outcome, the roles bound and, per condition
    (on the first ``TRACED`` deals of a player count), (checks, fail_if true, done_if true, errors)."""

    index: int
    success: bool
    reason: str
    roles: tuple[str, ...]
    conditions: tuple[tuple[int, int, int, tuple[str, ...]], ...]
    error: str = ""
    example: str = ""  # the failure reason in full (``reason`` is its normalised group)
    choices: tuple[tuple[str, str], ...] = ()  # the setup's decisions, labelled (choice_report.choice_labels)


@dataclass(frozen=True)
class SolvedDeal:
    """One sampled deal of ``crewkit check`` solved with every hand known: the verdict (winnable, unwinnable or
    unknown at the node budget) and, for a deal lost before the first card, why (:attr:`SolveResult.why`)."""

    index: int
    status: str
    why: str = ""
    error: str = ""


#: the deals of each player count whose conditions are traced (the warnings "never true" and "always true"):
#: enough checks to tell, and the replay costs as much as the game itself on missions checked after every play
TRACED = 200
BOTS, SOLVER = "bots", "solver"
_CHECK: dict[str, Any] = {}


def _init_check(path: str, ruleset: str, counts: Sequence[int], bot: str, seed: str, solver: bool,
                solver_nodes: int | None, solver_games: int | None) -> None:
    import multiprocessing
    import signal
    import threading

    if multiprocessing.parent_process() is not None and threading.current_thread() is threading.main_thread():
        # a worker: Ctrl-C is the main process's to handle (it stops the pool and prints the estimate so far)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _CHECK.clear()
    _CHECK.update(path=path, ruleset=ruleset, bot=bot, seed=seed, solver=solver, solver_nodes=solver_nodes,
                  solver_games=solver_games)


def _check_one(job: tuple[tuple[str, int], int]) -> CheckGame | SolvedDeal:
    """Deal ``i`` of a stream: played by the bots, or solved (stream ``(SOLVER, players)``)."""
    from crewkit.engine.errors import SetupError
    from crewkit.games import check_of, family_for

    (kind, players), i = job
    family = family_for(_CHECK["ruleset"])
    answer = check_of(family)
    assert answer is not None  # check_mission refuses a family without one before any worker starts
    game_seed = f"{_CHECK['seed']}:{i}"
    try:
        game = family.open(_CHECK["ruleset"], _CHECK["path"], players, game_seed)
    except SetupError as exc:
        if kind == SOLVER:
            return SolvedDeal(i, "", error=f"deal {i}: {exc}")
        return CheckGame(i, False, "", (), (), error=f"deal {i}: {exc}")
    if kind == SOLVER:
        status, why = answer.solve_deal(game, _CHECK["solver_nodes"])
        return SolvedDeal(i, status, why)
    from crewkit.analysis.simulate import normalise_reason
    from crewkit.games.driver import play_out

    play_out(game, family.seat_players(game, _CHECK["bot"], game_seed))
    outcome = game.outcome()
    ok = outcome.result == "success"
    deal = answer.played(game, traced=i < TRACED)
    return CheckGame(i, ok, "" if ok else normalise_reason(outcome.reason), deal.roles, deal.conditions,
                     example="" if ok else outcome.reason, choices=deal.choices)


def _check_succeeded(result: CheckGame | SolvedDeal) -> bool:
    return result.success if isinstance(result, CheckGame) else result.status == "winnable"


class CheckStopped(Exception):
    """``check_mission``'s ``stop()`` said stop (``crewkit check --watch``: the file changed)."""


#: the widest ± half-widths at which a check reports its estimate again (a "checkpoint"), down to its precision
LEVELS = (0.10, 0.07, 0.05, 0.04, 0.03, 0.02, 0.01)


class _Progress:
    """The estimate as it refines, from each result as it is counted: a line (``on_line``) at each checkpoint:
    when every player count has its first block of deals, each time the widest 95% interval falls below the
    next of :data:`LEVELS` (down to the precision asked for), and when a player count is found impossible."""

    def __init__(self, reports: dict[int, PlayerCountReport], precision: float | None,
                 on_line: Callable[[str], None] | None, stop: Callable[[], bool] | None) -> None:
        import time

        self.reports = reports
        self.levels = [x for x in LEVELS if precision is None or x >= precision - 1e-12]
        self.on_line = on_line
        self.stop = stop
        self.t0 = time.perf_counter()
        self.first = False
        self.said_impossible: set[int] = set()
        self.bots: dict[int, list[CheckGame]] = {n: [] for n in reports}
        self.solved: dict[int, list[SolvedDeal]] = {n: [] for n in reports}

    def elapsed(self) -> float:
        import time

        return time.perf_counter() - self.t0

    def __call__(self, stream: tuple[str, int], i: int, result: CheckGame | SolvedDeal) -> None:
        kind, n = stream
        if isinstance(result, SolvedDeal):
            self.solved[n].append(result)
            _merge_solved(self.reports[n], [result])
        else:
            self.bots[n].append(result)
            _merge(self.reports[n], [result])
        if self.stop is not None and self.stop():
            raise CheckStopped
        if self.on_line is None:
            return
        live = [pc for pc in self.reports.values() if not pc.error]
        for pc in live:
            reason = pc.impossible()
            if reason and pc.players not in self.said_impossible:
                self.said_impossible.add(pc.players)
                self.on_line(f"{self.elapsed():.1f} s: {pc.players} players: impossible: {reason}")
        if kind != BOTS or not live or any(pc.games < 25 for pc in live):
            return
        widest = max(half_width(pc.bot_successes, pc.games) for pc in live)
        if not self.first or any(widest <= x + 1e-12 for x in self.levels):
            self.first = True
            self.levels = [x for x in self.levels if x < widest - 1e-12]
            self.on_line(self.line())

    def line(self, head: str = "") -> str:
        parts = []
        for pc in self.reports.values():
            if pc.error:
                continue
            hw = half_width(pc.bot_successes, pc.games)
            rate = 100 * pc.bot_successes / max(1, pc.games)
            decided = pc.solver["winnable"] + pc.solver["unwinnable"]
            unknown = pc.solver["unknown"]
            solver = ""
            if decided:
                solver = f", solver {pc.solver['winnable']}/{decided} winnable" + (
                    f", {unknown} undecided" if unknown else "")
            elif unknown:
                solver = f", solver {unknown} undecided"
            parts.append(f"{pc.players} players {rate:.1f}% ±{100 * hw:.1f} pts ({pc.games} deals{solver})")
        return f"{self.elapsed():.1f} s: {head}" + "; ".join(parts)


def half_width(successes: int, games: int) -> float:
    low, high = wilson_interval(successes, games)
    return (high - low) / 2


_SEAT_NUMBER = re.compile(r" \(seat \d+\)")

#: deals the solver must prove lost (none won, by it or the bots) before a player count is called impossible
MIN_LOST = 3


def check_mission(
    path: str | Path,
    *,
    games: int = 20,
    players: Sequence[int] | None = None,
    ruleset: str | None = None,
    bot: str = "heuristic",
    seed: str = "check",
    solver: bool = True,
    solver_nodes: int | None = 20_000,
    progress: ProgressCallback | None = None,
    precision: float | None = None,
    solver_games: int | None = None,
    workers: int = 1,
    cluster: str | None = None,
    status: Any = None,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
    on_line: Callable[[str], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> CheckReport:
    """Validate ``path`` and, when valid, sample deals per player count (see the module docs).

    With ``precision`` H, ``games`` is a cap: each player count plays deals in blocks of 25 until the bot's
    95% interval is at most ±H. The solver runs on the first ``solver_games`` deals of each count (all of
    them when None), two deals beside each block of the bots', so the first estimate comes at once and the
    solver's share refines with it. ``workers`` / ``cluster`` run the deals in parallel with identical results.

    ``on_line(text)`` hears the estimate at each checkpoint (:class:`_Progress`). Ctrl-C, or ``stop()``
    returning true, ends the sampling: the report holds the deals counted so far, ``interrupted`` set."""
    from crewkit.analysis.pool import Target, run_streams
    from crewkit.spec.bundled import looks_like_path, mission_path
    from crewkit.spec.errors import issue_to_json, render_issue
    from crewkit.spec.files import check_file
    from crewkit.spec.loader import load_mission, load_ruleset, source_lines

    p = Path(path)
    if not p.exists() and not looks_like_path(str(path)):
        p = mission_path(str(path))  # a mission id: planet-nine/05
    issues = check_file(p, "mission")
    lines = source_lines(p)
    errors = [i for i in issues if i.severity == "error"]
    report = CheckReport(str(path), not errors, [render_issue(i, lines) for i in issues],
                         issue_json=[issue_to_json(i) for i in issues])
    if errors:
        return report
    mission = load_mission(str(p))
    from crewkit.spec.mission_rulesets import choose_ruleset

    rs_name = choose_ruleset(ruleset, str(p))
    rs = load_ruleset(rs_name)
    report.mission, report.ruleset, report.bot = mission.id, rs.name, bot
    report.precision = precision
    from crewkit.engine.errors import SetupError
    from crewkit.games import check_of, family_for

    family = family_for(rs_name)
    answer = check_of(family)
    if answer is None:
        raise SetupError(f"{path}: rule set {rs.name!r} is a game of the {family.title} family, whose games have no "
                         "missions to check")
    report.static_warnings = answer.static_warnings(mission.data)
    allowed = list(mission.players(rs))
    counts = list(players) if players else allowed
    refused = [n for n in counts if n not in allowed]
    if refused:
        raise SetupError(f"{path}: {refused[0]} players cannot play this mission with rule set {rs.name!r} "
                         f"(it allows {', '.join(map(str, allowed)) or 'no player count'})")
    family.bot_spec(bot)  # an unknown bot fails here, with the list of names
    reports: dict[int, PlayerCountReport] = {}
    live: list[int] = []
    for n in counts:
        pc = reports[n] = PlayerCountReport(n, choices=ChoiceStats(quiet=answer.quiet_choices))
        try:
            shape = answer.count(rs_name, str(p), n)
        except SetupError as exc:
            pc.error = str(exc)
            continue
        pc.roles = shape.roles
        pc.conditions = [ConditionTrace(cid, fail, done) for cid, fail, done in shape.conditions]
        pc.static = shape.impossible
        live.append(n)
    report.counts = [reports[n] for n in counts]
    follow = _Progress({n: reports[n] for n in live}, precision, on_line, stop)
    for n in live:
        if reports[n].static and on_line is not None:
            follow.said_impossible.add(n)
            on_line(f"0.0 s: {n} players: impossible: {reports[n].static}")

    def on_status(st: Any) -> None:
        if progress is not None:
            progress(st.done, st.total)
        if status is not None:
            status(st)

    streams: list[tuple[str, int]] = [(BOTS, n) for n in live]
    targets = {(BOTS, n): Target(games, precision) for n in live}
    cap = games if solver_games is None else min(games, solver_games)
    if solver and cap > 0:
        streams += [(SOLVER, n) for n in live]
        # the solver behind the bots: their estimate is refined first (issue 29: ±3 points within 60 s)
        targets.update({(SOLVER, n): Target(cap, None, checkpoint=2, blocks=True, background=True) for n in live})
    init_args = (str(p), rs_name, live, bot, seed, solver, solver_nodes, solver_games)
    try:
        run_streams(_check_one, streams, _check_succeeded, targets, workers=workers, cluster=cluster,
                    initializer=_init_check, initargs=init_args, status=on_status, oversubscribe=oversubscribe,
                    on_note=on_note, max_chunk=4, on_result=follow)
    except (KeyboardInterrupt, CheckStopped):
        report.interrupted = True
    report.seconds = follow.elapsed()
    if on_line is not None and live and not report.interrupted:
        on_line(follow.line("done: "))
    return report


def _merge_solved(pc: PlayerCountReport, solved: Sequence[SolvedDeal]) -> None:
    for d in solved:
        if d.error:
            pc.error = d.error
            return
        pc.solver[d.status] += 1
        if d.status == "unwinnable" and d.why:
            pc.loss_reasons[_SEAT_NUMBER.sub("", d.why)] += 1  # the same reason whichever seat the role has


def _merge(pc: PlayerCountReport, played: Sequence[CheckGame]) -> None:
    for g in played:
        if g.error:
            pc.error = g.error
            return
        pc.games += 1
        if g.success:
            pc.bot_successes += 1
        else:
            pc.reasons[g.reason] += 1
            pc.examples.setdefault(g.reason, g.example)
        for role in g.roles:
            pc.roles_bound[role] += 1
        pc.choices.add(g.choices, g.success)
        for trace, (evals, fail, done, errs) in zip(pc.conditions, g.conditions, strict=False):
            trace.evaluations += evals
            trace.fail_true += fail
            trace.done_true += done
            for e in errs:
                if len(trace.errors) < 3:
                    trace.errors.append(e)


__all__ = ["CheckReport", "ConditionTrace", "PlayerCountReport", "check_mission"]
