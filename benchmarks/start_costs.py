"""What each task assignment of the check's deals costs alone, and how orders of them would share the budget
(issue 47).

    python benchmarks/start_costs.py --files benchmarks/authored/12-low-winners.yaml --players 5 --save costs.json
    python benchmarks/start_costs.py --load costs.json             # the simulation again, without the searches
    python benchmarks/start_costs.py --missions 12 --players 5 --deals 20 --verbose
    python benchmarks/start_costs.py --files benchmarks/authored/12-low-winners.yaml --only 11,14 --cap 4000000 --verbose

Where a deal is several starts (task assignments drafted through the engine, setup choices), the solver
searches them in passes of growing budgets, in the order of its affinity score, until one is won or the check's
budget (20,000 plays, a C play counting 1/50: a million C plays) is spent. Here every start of the check's deals
(seeds ``check:0`` ...) is searched alone, as the solver's pass without a budget of its own searches it, up to
``--cap`` C plays: won (and at what cost), lost, or undecided at the cap. Each start also gets cheap signals a
ranking could read: the affinity score and the progress of one cooperative play-out with every hand known (tasks
done and goal tricks won by the fast bot's policy, :mod:`crewkit.families.trick_taking.bots.conditions`).

Then the passes are replayed on these costs, for a few schedules and orders (``oracle``: the cheapest winning
start first, what no ranking can beat), and the deals each leaves undecided are counted. A start's plays are
taken as additive over passes (each pass going on where the last stopped); the solver restarts a start's split
of its first plays on each pass, keeping its table of lost positions, so the replay is an estimate, which
reproduces the solver's undecided deals on authored mission 12 at 5 players.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.families.trick_taking.analysis.check import SOLVER_NATIVE_WEIGHT  # noqa: E402
from crewkit.families.trick_taking.engine.game import Game  # noqa: E402
from crewkit.families.trick_taking.solve import solver as S  # noqa: E402
from crewkit.spec.bundled import mission_path  # noqa: E402

# per start: "score" (affinity), "verdict" (won / lost / undecided), "plays" (C plays), "progress" (play-out)
Start = dict[str, Any]


def playout_progress(game: Game) -> int:
    """Tasks done plus goal tricks won by one cooperative play-out of ``game`` with every hand known."""
    from crewkit.families.trick_taking.bots.conditions import choose_play_cond, cond_world, condition_setup
    from crewkit.families.trick_taking.bots.knowledge import world_from
    from crewkit.families.trick_taking.bots.sim import choose_play

    obs = game.observation(game.leader)
    base = world_from(obs, list(game.hands))
    judged = condition_setup(obs)
    if judged is None:
        while base.status == 0:
            base.play(choose_play(base))
        return base.done
    w = cond_world(base, *judged)
    while w.status == 0:
        w.play(choose_play_cond(w))
    return w.done + w.goal_won


def measure_deal(game: Game, cap: int, weight: int) -> list[Start]:
    """Every start of ``game`` in the solver's order, each searched alone up to ``cap`` C plays."""
    starts = S._starts(game, gold_frame=True, deadline=None, max_nodes=None)
    if not isinstance(starts, list):
        return []
    starts.sort(key=lambda s: -s.score)
    few = len(starts) <= S._FEW_STARTS
    out: list[Start] = []
    for st in starts:
        if few:
            st.growth = S._SPLIT_GROWTH_FEW
        ok, _line = S._run_start(st, None, None, "summary", None, True, True, cap / weight, weight)
        scale = 1 if st.native else weight  # plays of the Python search count as weight C plays
        verdict = {True: "won", False: "lost", None: "undecided"}[ok]
        g = st.game
        progress = playout_progress(g) if g is not None and not g.is_over() else 0
        out.append({"score": st.score, "verdict": verdict, "plays": st.nodes * scale, "progress": progress})
    return out


def replay(starts: Sequence[Start], order: Sequence[int], budgets: Sequence[int | None], total: int) -> bool:
    """Whether the passes ``budgets`` (C plays per start and pass; None: what is left) over ``starts`` in
    ``order`` reach a won start within ``total`` C plays (see the module docstring)."""
    spent = 0
    got = [0] * len(starts)
    done = [False] * len(starts)
    for budget in budgets:
        for j in order:
            if done[j]:
                continue
            left = total - spent
            if left <= 0:
                return False
            give = left if budget is None else min(budget, left)
            st = starts[j]
            need = st["plays"] - got[j] if st["verdict"] != "undecided" else None
            if need is not None and need <= give:
                spent += need
                done[j] = True
                if st["verdict"] == "won":
                    return True
            else:
                spent += give
                got[j] += give
    return False


def orders() -> dict[str, Callable[[Sequence[Start]], list[int]]]:
    """Ways to order a deal's starts: the solver's (affinity score), play-out progress first, the oracle."""
    def by_score(starts: Sequence[Start]) -> list[int]:
        return list(range(len(starts)))  # measured in the solver's order

    def by_progress(starts: Sequence[Start]) -> list[int]:
        return sorted(range(len(starts)), key=lambda j: (-starts[j]["progress"], j))

    def oracle(starts: Sequence[Start]) -> list[int]:
        def key(j: int) -> tuple[int, int]:
            st = starts[j]
            return (0, st["plays"]) if st["verdict"] == "won" else (1, j)
        return sorted(range(len(starts)), key=key)

    return {"affinity score": by_score, "play-out progress": by_progress, "oracle": oracle}


def schedules(n_starts: int, weight: int) -> dict[str, list[int | None]]:
    """The solver's passes for ``n_starts`` and one alternative, in C plays."""
    passes = S._budgets(n_starts)
    solver = [None if b is None else b * weight for b in passes]
    small = [b for b in solver if b is not None][:2]
    return {"the solver's passes": solver, "two small passes, then all to one": [*small, None]}


def simulate(deals: dict[str, list[Start]], total: int, weight: int) -> list[tuple[str, str, list[str]]]:
    """(schedule, order, undecided deals) for every schedule and order."""
    rows: dict[tuple[str, str], list[str]] = {}
    for deal, starts in deals.items():
        if not starts:
            continue
        for sname, budgets in schedules(len(starts), weight).items():
            for oname, order in orders().items():
                left = rows.setdefault((sname, oname), [])
                if not replay(starts, order(starts), budgets, total):
                    left.append(deal)
    return [(s, o, und) for (s, o), und in rows.items()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--missions", default="", help="comma-separated bundled mission numbers")
    ap.add_argument("--files", nargs="+", default=[], metavar="PATH", help="mission files")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--nodes", type=int, default=20_000, help="the solve's budget (the check's default)")
    ap.add_argument("--native-weight", type=int, default=SOLVER_NATIVE_WEIGHT)
    ap.add_argument("--cap", type=int, default=1_000_000, help="C plays per start searched alone")
    ap.add_argument("--save", metavar="PATH", help="write the measured costs as JSON")
    ap.add_argument("--load", metavar="PATH", help="read costs written by --save instead of searching")
    ap.add_argument("--verbose", action="store_true", help="each deal's starts")
    ap.add_argument("--only", default="", help="comma-separated deal numbers: search only these of the --deals")
    args = ap.parse_args(argv)
    weight = args.native_weight
    total = args.nodes * weight
    if args.load:
        deals: dict[str, list[Start]] = json.loads(Path(args.load).read_text())
    else:
        from crewkit.games import family_for

        missions = [str(mission_path(f"planet-nine/{int(m):02d}")) for m in args.missions.split(",") if m]
        missions += [str(f) for f in args.files]
        if len(missions) != 1:
            ap.error("give one mission (--missions N or --files PATH)")
        family = family_for("crew")
        deals = {}
        t0 = time.perf_counter()
        only = {int(d) for d in args.only.split(",") if d}
        for i in range(args.deals):
            if only and i not in only:
                continue
            game = family.open("crew", missions[0], args.players, f"check:{i}")
            deals[str(i)] = measure_deal(game.engine, args.cap, weight)
        print(f"searched {sum(len(s) for s in deals.values())} starts of {len(deals)} deals alone, up to "
              f"{args.cap:,} C plays each: {time.perf_counter() - t0:.0f} s")
        if args.save:
            Path(args.save).write_text(json.dumps(deals))
    if args.verbose:
        for deal, starts in deals.items():
            cells = " ".join(f"{s['verdict'][0]}{s['plays'] // 1000}k/p{s['progress']}" for s in starts)
            print(f"deal {deal}: {cells}")
    print("| passes | order | undecided | deals |")
    print("|---|---|---:|---|")
    for sname, oname, und in simulate(deals, total, weight):
        print(f"| {sname} | {oname} | {len(und)} | {','.join(und)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
