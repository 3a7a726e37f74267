"""The expert's card decisions judged one by one: how often a card loses a deal that was still winnable.

    python benchmarks/expert_blunders.py collect --mission planet-nine/36 --games 20 --out /tmp/blunders36.json
    python benchmarks/expert_blunders.py eval /tmp/blunders36.json '{}' '{"rollout_weight": 0.5}'

``collect`` plays deal ``i`` (seeded ``f"{seed}:{i}"`` as ``crewkit simulate --seed SEED`` seeds game ``i``)
with four expert bots and, at every card decision of the game, asks the perfect-information solver (the true
hands, ``--nodes`` plays a position) for each legal card whether the crew can still win after it. A position
where some card keeps the deal winnable and another loses it (both decided) is *critical*; those are saved
(the seed, the number of actions before it, the seat, the losing and the keeping cards). The other positions
cannot tell the variants apart.

``eval`` rebuilds each saved position, lets an :class:`ExpertBot` with each parameter set (JSON keyword
arguments) choose from the seat's observation, and counts a *blunder* where it picks a losing card: the
blunder share of each variant with its 95% interval, its CPU per decision, and the positions only one of two
variants blundered in (paired: every variant sees the same positions with the same bot seeds; ``--repeats``
plays each position with more bot seeds). The seeds of ``expert-targets`` are those of the issue's measure.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _collect_one(args: tuple[str, int, str, int, dict[str, Any]]) -> dict[str, Any]:
    from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
    from crewkit.families.trick_taking.bots.expert import ExpertBot
    from crewkit.families.trick_taking.engine.blocks.tricks import Play
    from crewkit.families.trick_taking.engine.game import TRICKS
    from crewkit.families.trick_taking.family import play_game
    from crewkit.families.trick_taking.solve import SearchAborted, TrickSearch

    mission, players, game_seed, nodes, kw = args

    def winnable(g: Any) -> bool | None:
        if g.is_over():
            return bool(g.outcome().result == "success")
        if g.phase != TRICKS:
            return None
        try:
            return bool(TrickSearch(g).run(max_nodes=nodes))
        except SearchAborted:
            return None

    rules = load_rules("crew", mission, players)
    spec = game_spec("crew", mission, players)
    game = start_game(rules, spec, game_seed)
    play_game(game, [ExpertBot(s, game_seed, **kw) for s in range(game.n)])
    g = start_game(rules, spec, game_seed)
    positions: list[dict[str, Any]] = []
    decisions = 0
    for j, a in enumerate(game.actions):
        if type(a) is Play and g.phase == TRICKS:
            legal = [b for b in g.legal_actions(a.seat) if type(b) is Play]
            if len(legal) > 1:
                decisions += 1
                good: list[int] = []
                bad: list[int] = []
                for b in legal:
                    g2 = g.clone()
                    g2.apply(b)
                    w = winnable(g2)
                    if w is True:
                        good.append(b.card.id)
                    elif w is False:
                        bad.append(b.card.id)
                if good and bad:
                    positions.append({"seed": game_seed, "prefix": j, "seat": a.seat, "good": good, "bad": bad,
                                      "trick": len(g.tricks) + 1, "pos": len(g.plays), "played": a.card.id,
                                      "legal": len(legal)})
        g.apply(a)
    return {"seed": game_seed, "won": game.outcome().result == "success", "decisions": decisions,
            "positions": positions, "actions": pickle.dumps(list(game.actions)).hex()}


def _eval_one(args: tuple[str, int, dict[str, Any], int, list[dict[str, Any]], str]) -> list[tuple[int, int, float]]:
    """(1 blunder / 0 kept / -1 undecided, the repeat, CPU seconds) for each repeat and variant."""
    from crewkit.families.trick_taking.bots.expert import ExpertBot

    mission, players, p, k, variants, actions = args
    obs = _position(mission, players, p, actions)
    out: list[tuple[int, int, float]] = []
    for r in range(k):
        for kw in variants:
            bot = ExpertBot(p["seat"], f"{p['seed']}:blunder:{r}", **kw)
            t0 = time.process_time()
            card = bot.act(obs).card.id  # type: ignore[attr-defined]
            dt = time.process_time() - t0
            out.append((1 if card in p["bad"] else 0 if card in p["good"] else -1, r, dt))
    return out


def _position(mission: str, players: int, p: dict[str, Any], actions: str) -> Any:
    """The seat's observation at a saved position."""
    from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
    from crewkit.families.trick_taking.playing import TrickTakingGame

    rules = load_rules("crew", mission, players)
    g = start_game(rules, game_spec("crew", mission, players), p["seed"])
    for a in pickle.loads(bytes.fromhex(actions))[: p["prefix"]]:  # the expert's own game up to the position
        g.apply(a)
    return TrickTakingGame(g).seat_observation(p["seat"])


def _unsafe(mission: str, players: int, p: dict[str, Any], actions: str) -> bool:
    from crewkit.families.trick_taking.bots.safety import safe_plays
    from crewkit.families.trick_taking.engine.blocks.tricks import Play

    obs = _position(mission, players, p, actions)
    req = tuple(a for a in (obs.required or obs.legal) if type(a) is Play)
    return len(safe_plays(obs, req)) < len(req)


def sign_p(a_only: int, b_only: int) -> float:
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)


def main(argv: list[str] | None = None) -> int:
    from crewkit.analysis.stats import wilson_interval

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play the expert's games and save their critical positions")
    c.add_argument("--mission", default="planet-nine/36")
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--games", type=int, default=20)
    c.add_argument("--first", type=int, default=0, help="the first game index")
    c.add_argument("--seed", default="expert-targets")
    c.add_argument("--nodes", type=int, default=300_000, help="solver budget per position")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--params", default="{}", help="the playing expert's keyword arguments (JSON)")
    c.add_argument("--out", required=True, help="JSON file of the positions")
    e = sub.add_parser("eval", help="the blunder share of expert variants on saved positions")
    e.add_argument("positions", help="a file written by collect")
    e.add_argument("variants", nargs="+", help="ExpertBot keyword arguments as JSON, one per variant")
    e.add_argument("--repeats", type=int, default=1, help="bot seeds per position")
    e.add_argument("--workers", type=int, default=1)
    e.add_argument("--limit", type=int, default=0, help="only the first N positions")
    e.add_argument("--only", choices=("all", "unsafe"), default="all",
                   help="unsafe: only the positions where a legal card takes a teammate's task card (safe_plays)")
    args = ap.parse_args(argv)

    if args.cmd == "collect":
        kw = json.loads(args.params)
        jobs: list[tuple[str, int, str, int, dict[str, Any]]] = [
            (args.mission, args.players, f"{args.seed}:{i}", args.nodes, kw)
                for i in range(args.first, args.first + args.games)]
        t0 = time.perf_counter()
        with Pool(args.workers) as pool:
            games = list(pool.imap(_collect_one, jobs))
        for gm in games:
            print(f"{gm['seed']}: {'won' if gm['won'] else 'lost'}, {gm['decisions']} decisions, "
                  f"{len(gm['positions'])} critical, the expert lost {sum(p['played'] in p['bad'] for p in gm['positions'])}",
                  flush=True)
        data = {"mission": args.mission, "players": args.players, "params": kw, "games": games}
        Path(args.out).write_text(json.dumps(data))
        n = sum(len(gm["positions"]) for gm in games)
        lost = sum(p["played"] in p["bad"] for gm in games for p in gm["positions"])
        print(f"{sum(gm['won'] for gm in games)}/{len(games)} won; {n} critical positions, {lost} blunders in play; "
              f"{time.perf_counter() - t0:.0f} s; saved {args.out}")
        return 0

    data = json.loads(Path(args.positions).read_text())
    mission, players = data["mission"], data["players"]
    positions = [p for gm in data["games"] for p in gm["positions"]]
    actions = {gm["seed"]: gm["actions"] for gm in data["games"]}
    if args.only == "unsafe":
        positions = [p for p in positions if _unsafe(mission, players, p, actions[p["seed"]])]
    if args.limit:
        positions = positions[: args.limit]
    seeds = sorted({p["seed"] for p in positions})
    variants = [json.loads(v) for v in args.variants]
    t0 = time.perf_counter()
    evals: list[tuple[str, int, dict[str, Any], int, list[dict[str, Any]], str]] = [
        (mission, players, p, args.repeats, variants, actions[p["seed"]]) for p in positions]
    with Pool(args.workers) as pool:
        results = list(pool.imap(_eval_one, evals))
    nv = len(variants)
    # marks[v][(position, repeat)]
    marks: list[dict[tuple[int, int], int]] = [{} for _ in range(nv)]
    cpu: list[list[float]] = [[] for _ in range(nv)]
    for i, res in enumerate(results):
        for j, (mark, r, dt) in enumerate(res):
            v = j % nv
            marks[v][(i, r)] = mark
            cpu[v].append(dt)
    total = len(positions) * args.repeats
    print(f"{mission}, {players} players: {len(positions)} critical positions of {len(seeds)} games x "
          f"{args.repeats} seeds, {time.perf_counter() - t0:.0f} s")
    for v in range(nv):
        b = sum(m == 1 for m in marks[v].values())
        lo, hi = wilson_interval(b, total)
        cs = sorted(cpu[v])
        p95 = cs[min(len(cs) - 1, int(0.95 * len(cs)))] if cs else 0.0
        line = (f"  {args.variants[v]}: blunders {b}/{total} = {b / total:.3f} [{lo:.3f}, {hi:.3f}], "
                f"CPU p95 {p95:.2f} s, max {cs[-1] if cs else 0:.2f} s")
        if v:
            only0 = sum(marks[0][k] == 1 and marks[v][k] != 1 for k in marks[v])
            onlyv = sum(marks[v][k] == 1 and marks[0][k] != 1 for k in marks[v])
            line += f"; blundered only first / only this: {only0} / {onlyv}, sign test p = {sign_p(only0, onlyv):.3f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
