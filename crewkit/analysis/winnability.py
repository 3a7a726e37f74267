"""Winnability per number of tasks (or difficulty total): the share of random deals the perfect-information solver can
win.

This reproduces the curves of de Jong's analysis of The Crew (Leiden, 2021, Figure 3) for any rule set and
mission shape: for each task count ``k``, ``deals`` random deals of the mission's rules with ``k`` plain tasks
(the mission's task tokens dropped), each solved

- with a **free** draft: the players divide the tasks, each keeping the number of tasks the draft gives it
  (the solver searches the division, :mod:`crewkit.families.trick_taking.solve.core`), and
- with **fixed** owners: the draft runs in its normal order and each seat takes a task chosen at random.

Under a rule set of task cards with objectives (``tasks.deck``, Mission Deep Sea) ``k`` is the mission's
difficulty total instead: the cards are drawn by difficulty as the mission's ``draw_tasks`` step draws them;
the free draft lets the solver try every way of taking them (passes and named numbers included), fixed owners
take them in draft order at random (the numbers are still the solver's).

Deal ``i`` of ``k`` tasks is seeded ``"{seed}:{k}:{i}"`` (the same deal for both drafts), the fixed owners
``"{seed}:owners:{k}:{i}"``. The deals and their solver are the family's (:meth:`Family.winnability
<crewkit.games.protocol.Family.winnability>`; The Crew's: ``crewkit.families.trick_taking.analysis.winnability``);
this module runs them in worker processes and reports them. The share counts winnable deals among the decided ones, with a 95% Wilson
interval; deals the solver could not decide within ``timeout`` seconds are reported as undecided.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crewkit.analysis.pool import ProgressCallback, iter_jobs
from crewkit.analysis.stats import wilson_interval
from crewkit.games.protocol import FamilyWinnability, TooManyTasks, WinnabilityError

DRAFTS = ("free", "fixed")


@dataclass
class Row:
    """One task count under one draft."""

    tasks: int
    draft: str  # free | fixed
    winnable: int = 0
    unwinnable: int = 0
    unknown: int = 0
    seconds: list[float] = field(default_factory=list)

    @property
    def decided(self) -> int:
        return self.winnable + self.unwinnable

    @property
    def share(self) -> float:
        """Winnable share of the decided deals (NaN when none was decided)."""
        return self.winnable / self.decided if self.decided else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.winnable, self.decided) if self.decided else (float("nan"), float("nan"))

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "tasks": self.tasks,
            "draft": self.draft,
            "deals": self.decided + self.unknown,
            "winnable": self.winnable,
            "unwinnable": self.unwinnable,
            "undecided": self.unknown,
            "share": _num(self.share),
            "ci_low": _num(low),
            "ci_high": _num(high),
            "median_seconds": round(statistics.median(self.seconds), 4) if self.seconds else None,
            "max_seconds": round(max(self.seconds), 4) if self.seconds else None,
        }


def _num(x: float) -> float | None:
    return None if x != x else round(x, 6)


@dataclass
class Winnability:
    ruleset: str
    mission: str
    players: int
    deals: int
    seed: str
    timeout: float
    rows: list[Row]
    seconds: float
    workers: int
    unit: str = "tasks"  # tasks | difficulty (task cards drawn by a difficulty total)
    mission_default: bool = False  # no mission was named: the default one shapes the deals (said in the output)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "mission": self.mission,
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "timeout": self.timeout,
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "unit": self.unit,
            "mission_default": self.mission_default,
            "rows": [r.to_json() for r in self.rows],
        }

    def to_csv(self) -> str:
        buf = io.StringIO()
        keys = list(Row(0, "free").to_json())
        w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
        w.writeheader()
        for r in self.rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.to_json().items()})
        return buf.getvalue()

    def format_text(self, *, chart: bool = True, width: int = 40) -> str:
        from crewkit.analysis.compare import text_bar

        cards = self.unit == "difficulty"
        shape = "task cards drawn by difficulty" if cards else "tasks without tokens"
        lines = [
            f"winnability: {self.ruleset} / {self.mission} ({shape}), {self.players} players, "
            f"{self.deals} deals per {'difficulty total' if cards else 'task count'}, seed {self.seed!r}, "
            f"solver timeout {self.timeout:g} s",
            *([f"(no --mission given: {self.mission}'s rules shape the deals, its "
               f"{'difficulty total' if cards else 'task count and tokens'} replaced; --mission names another)"]
              if self.mission_default else []),
            "",
            f"{'diff.' if cards else 'tasks':>5} {'draft':<5} {'winnable':>9} {'share':>7}  {'95% interval':<15} "
            f"{'undecided':>9}",
        ]
        for r in self.rows:
            low, high = r.interval
            share = "n/a" if r.share != r.share else f"{100 * r.share:5.1f}%"
            ci = "" if low != low else f"[{100 * low:.1f}, {100 * high:.1f}]"
            lines.append(f"{r.tasks:>5} {r.draft:<5} {r.winnable:>4}/{r.decided:<4} {share:>7}  {ci:<15} "
                         f"{r.unknown:>9}")
        if chart:
            lines += ["", "winnable share (█ share, [ ] 95% interval):"]
            for r in self.rows:
                if r.decided:
                    bar = text_bar(r.share, r.interval, width)
                else:
                    bar = "|" + " " * (width + 1) + "| no deal decided"
                lines.append(f"{r.tasks:>3} {r.draft:<5} {bar}")
        undecided = sum(r.unknown for r in self.rows)
        lines += ["", f"{undecided} deal(s) undecided within {self.timeout:g} s; time {self.seconds:.1f} s "
                      f"({self.workers} worker{'s' if self.workers != 1 else ''})"]
        return "\n".join(lines)


# ---------------------------------------------------------------------------- deals
#: the most tasks a deal may have (a deck holds far fewer task cards: The Crew's has 36)
MAX_TASKS = 100


def parse_tasks(text: str) -> list[int]:
    """``"1-40"``, ``"4,8,12"`` or ``"1-10,20"`` as a sorted list of task counts, each from 1 to
    :data:`MAX_TASKS` (ValueError when malformed or out of range, before any range is built)."""
    out: set[int] = set()
    if len(text) > 1000:
        raise ValueError(f"expected task counts such as 1-40 or 4,8,12, found {len(text)} characters")
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise ValueError(f"expected task counts such as 1-40 or 4,8,12, found {text!r}") from None
        if a < 1 or b < a:
            raise ValueError(f"expected task counts from 1 upwards (low-high), found {part!r}")
        if b > MAX_TASKS:
            raise ValueError(f"expected task counts from 1 to {MAX_TASKS} (a deck holds far fewer task cards), "
                             f"found {part!r}")
        out.update(range(a, b + 1))
    if not out:
        raise ValueError(f"expected task counts such as 1-40 or 4,8,12, found {text!r}")
    return sorted(out)


def default_mission(ruleset: str) -> str:
    """The mission that shapes the deals of ``ruleset`` when none is named (its family's answer)."""
    return answer_for(ruleset).default_mission(ruleset)


def answer_for(ruleset: str) -> FamilyWinnability:
    """The winnability of ``ruleset``'s family; for a family without one, the SpecError at the rule set's
    ``family:`` line naming the families that have one."""
    from crewkit.games import (
        UnknownFamily,
        family_for,
        family_named,
        family_names,
        refuse_other_family,
        winnability_of,
    )

    family = family_for(ruleset)
    answer = winnability_of(family)
    if answer is None:
        def answers(name: str) -> bool:
            try:
                return winnability_of(family_named(name)) is not None
            except UnknownFamily:
                return False

        refuse_other_family(ruleset, " or ".join(n for n in family_names() if answers(n)))
        raise WinnabilityError(f"{family.title}: no solver decides its deals")  # not reached: refused above
    return answer


def winnability(
    task_counts: Sequence[int],
    deals: int,
    *,
    ruleset: str = "crew",
    mission: str = "planet-nine/10",
    players: int = 4,
    drafts: Sequence[str] = DRAFTS,
    seed: str = "winnability",
    timeout: float = 20.0,
    workers: int = 1,
    readings: Mapping[str, str] | None = None,
    progress: ProgressCallback | None = None,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
) -> Winnability:
    """Solve ``deals`` deals per task count and draft; rows in task order, free before fixed."""
    if deals < 1:
        raise ValueError("winnability needs at least one deal per task count")
    for d in drafts:
        if d not in DRAFTS:
            raise ValueError(f"unknown draft {d!r}: free or fixed")
    answer = answer_for(ruleset)
    unit = "tasks"
    for k in task_counts:
        if answer.shape(ruleset, mission, players, k, readings) == "difficulty":  # fail early, in this process
            unit = "difficulty"  # task cards drawn to a difficulty total (Mission Deep Sea)
    # made as the workers take them, and counted as they come: neither the jobs nor the results are kept
    jobs = ((k, i, d) for k in task_counts for d in drafts for i in range(deals))
    t0 = time.perf_counter()
    init_args = (ruleset, mission, players, dict(readings) if readings else None, seed, timeout)
    stream = iter_jobs(answer.job, jobs, total=len(task_counts) * len(drafts) * deals, workers=workers,
                       initializer=answer.init, initargs=init_args, progress=progress, max_chunk=1,
                       oversubscribe=oversubscribe, on_note=on_note)
    rows = {(k, d): Row(k, d) for k in task_counts for d in drafts}
    for (k, _i, d), (status, seconds) in stream:
        row = rows[k, d]
        setattr(row, status, getattr(row, status) + 1)
        row.seconds.append(seconds)
    return Winnability(ruleset, mission, players, deals, seed, timeout, list(rows.values()),
                       time.perf_counter() - t0, stream.workers, unit)


# ---------------------------------------------------------------------------- plot
def plot(result: Winnability, path: str) -> None:
    """The winnable share per task count, one curve per draft with its 95% intervals, to ``path``."""
    from crewkit.analysis.compare import require_matplotlib

    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for draft, style in (("free", "o-"), ("fixed", "s--")):
        rows = [r for r in result.rows if r.draft == draft and r.decided]
        if not rows:
            continue
        xs = [r.tasks for r in rows]
        ys = [r.share for r in rows]
        lows = [r.share - r.interval[0] for r in rows]
        highs = [r.interval[1] - r.share for r in rows]
        ax.errorbar(xs, ys, yerr=[lows, highs], fmt=style, capsize=2, markersize=3,
                    label=f"{draft} {'draft' if draft == 'free' else 'owners'}")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("difficulty total" if result.unit == "difficulty" else "number of tasks")
    ax.set_ylabel("winnable share of deals")
    per = "difficulty total" if result.unit == "difficulty" else "task count"
    ax.set_title(f"{result.ruleset}, {result.players} players: {result.deals} deals per {per}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def dumps_json(result: Winnability) -> str:
    return json.dumps(result.to_json(), indent=1, ensure_ascii=False)


__all__ = ["DRAFTS", "Row", "TooManyTasks", "Winnability", "WinnabilityError", "answer_for", "default_mission",
           "dumps_json", "parse_tasks", "plot", "winnability"]
