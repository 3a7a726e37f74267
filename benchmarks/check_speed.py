"""How fast ``crewkit check`` answers an author (issue 29, item 1): every bundled mission at 3, 4 and 5 players.

    python benchmarks/check_speed.py [--missions 1-50] [--players 3,4,5] [--workers 2] [--authored]
                                     [--write docs/performance.md]

Each cell (a mission at one player count) is ``crewkit check MISSION --players N --workers W`` at its defaults
(±3 points, the solver on 60 deals, 20,000 plays each), run through the library with its progress lines. For
each cell: the time to the first estimate (the first block of 25 deals), to an estimate within ±10 points, to
±3 points (the bots' 95% interval; the check's precision), to the end (the solver's 60 deals done too), and to
"impossible" where the check says so; the deals played and the bots' success. ``--authored`` times the missions
of ``tests/analysis/authored`` (written as an author would: plain tasks, conditions, impossible ones) at every
player count they allow. The slowest cells are named at the end. Targets: first estimate within 10 s (about
±10 points), ±3 points within 60 s, "impossible" with its reason within 10 s.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.analysis.check import check_mission  # noqa: E402
from crewkit.spec.bundled import mission_path  # noqa: E402
from crewkit.spec.errors import SpecError  # noqa: E402
from crewkit.spec.loader import load_mission, load_ruleset  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WIDTH = re.compile(r"±(\d+(?:\.\d+)?) pts")


@dataclass
class Cell:
    mission: str
    players: int
    first: float = float("nan")
    ten: float = float("nan")
    three: float = float("nan")
    done: float = float("nan")
    impossible: float = float("nan")
    deals: int = 0
    success: float = float("nan")
    winnable: str = ""
    error: str = ""
from bench_args import missions_arg  # noqa: E402 (a sibling script module)


def run_cell(path: str, players: int, workers: int) -> Cell:
    cell = Cell(Path(path).stem if path.endswith(".yaml") else path, players)
    t0 = time.perf_counter()

    def line(text: str) -> None:
        now = time.perf_counter() - t0
        if "impossible" in text:
            if cell.impossible != cell.impossible:
                cell.impossible = now
            return
        widths = [float(w) for w in WIDTH.findall(text)]
        if not widths:
            return
        if cell.first != cell.first:
            cell.first = now
        widest = max(widths)
        if widest <= 10.0 and cell.ten != cell.ten:
            cell.ten = now
        if widest <= 3.0 and cell.three != cell.three:
            cell.three = now

    report = check_mission(path, games=3000, players=[players], bot="fast", precision=0.03, solver_games=60,
                           workers=workers, on_line=line)
    cell.done = time.perf_counter() - t0
    if not report.valid:  # the typo: its position is the answer, timed as "all done"
        cell.error = report.format_text().splitlines()[0]
        return cell
    (pc,) = report.counts
    if pc.error:
        cell.error = pc.error
        return cell
    cell.deals = pc.games
    cell.success = pc.bot_successes / max(1, pc.games)
    decided = pc.solver["winnable"] + pc.solver["unwinnable"]
    cell.winnable = f"{pc.solver['winnable']}/{decided}" + (f" ({pc.solver['unknown']} unk.)" if pc.solver["unknown"]
                                                           else "")
    return cell


def fmt(x: float) -> str:
    return "-" if x != x else f"{x:.1f}"



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--missions", type=missions_arg, default=list(range(1, 51)))
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--authored", action="store_true", help="the authored missions instead of the bundled ones")
    ap.add_argument("--write", type=Path, help="append the table to this file (docs/performance.md)")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    jobs: list[tuple[str, int]] = []
    if args.authored:
        crew = load_ruleset("crew")
        for path in sorted((ROOT / "tests" / "analysis" / "authored").glob("*.yaml")):
            try:
                allowed = set(load_mission(str(path)).players(crew))
            except SpecError:  # the typo: invalid, its check stops at the position (timed as one cell)
                allowed = {4}
            jobs += [(str(path), n) for n in counts if n in allowed]
    else:
        jobs = [(str(mission_path(f"planet-nine/{m:02d}")), n) for m in args.missions for n in counts]
    head = ("| mission | players | first estimate (s) | ±10 pts (s) | ±3 pts (s) | all done (s) | impossible (s) "
            "| deals | bot success | solver winnable |")
    rows = [head, "|" + "---|" * 10]
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}, "
          f"{args.workers} workers, {platform.python_implementation()} {platform.python_version()}", flush=True)
    print(head, flush=True)
    cells: list[Cell] = []
    t_all = time.perf_counter()
    for path, n in jobs:
        cell = run_cell(path, n, args.workers)
        cells.append(cell)
        row = (f"| {cell.mission} | {n} | {fmt(cell.first)} | {fmt(cell.ten)} | {fmt(cell.three)} | {fmt(cell.done)} "
               f"| {fmt(cell.impossible)} | {cell.deals} | "
               f"{'-' if cell.success != cell.success else f'{100 * cell.success:.1f}%'} | {cell.winnable} |"
               + (f" {cell.error}" if cell.error else ""))
        rows.append(row)
        print(row, flush=True)
    ok = [c for c in cells if not c.error]
    summary = [f"{len(ok)} cells in {time.perf_counter() - t_all:.0f} s, load {os.getloadavg()[0]:.1f} at the end."]
    for label, key in (("first estimate", "first"), ("±10 points", "ten"), ("±3 points", "three"),
                       ("all done", "done")):
        vals = [(getattr(c, key), c) for c in ok if getattr(c, key) == getattr(c, key)]
        if vals:
            worst, c = max(vals, key=lambda v: v[0])
            over = sum(1 for v, _ in vals if v > (10 if key in ("first", "ten") else 60))
            limit = 10 if key in ("first", "ten") else 60
            summary.append(f"- {label}: slowest {worst:.1f} s ({c.mission} at {c.players} players); "
                           f"{over} of {len(vals)} cells over {limit} s")
    slow = sorted(ok, key=lambda c: -c.done)[:5]
    summary.append("- slowest cells to the end: " + ", ".join(f"{c.mission}@{c.players} {c.done:.1f} s" for c in slow))
    summary += [f"- {c.mission}@{c.players}: invalid, said after {c.done:.1f} s: {c.error}" for c in cells if c.error]
    imp = [c for c in ok if c.impossible == c.impossible]
    if imp:
        summary.append("- impossible said after: " + ", ".join(f"{c.mission}@{c.players} {c.impossible:.1f} s"
                                                               for c in imp))
    print("\n".join(summary), flush=True)
    if args.write:
        with args.write.open("a", encoding="utf-8") as f:
            f.write("\n" + "\n".join(rows) + "\n\n" + "\n".join(summary) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
