"""What one phase machine for both families would cost the trick-taking family (issue 27, item 4).

crewkit runs the board family on :class:`crewkit.engine.machine.Machine` and the trick-taking family on its
own :class:`crewkit.families.trick_taking.engine.game.Game`. To price running the trick-taking family on the
Machine, this script drives the *same* games two ways, in the same run, with the same random legal choices:

* ``Game``: ``legal_actions()`` then ``apply()`` on the trick-taking game, as the bots' driver does;
* ``Machine``: the Machine's own control flow (whose turn, the phase's handler table, ``_settle`` after every
  action, the outcome) wrapped around the same Game state and the same blocks: each phase of the rule set's
  flow becomes a :class:`MachineBlock` that defers the rules to the Game's block.

The second keeps the Game's own flow bookkeeping as well, so its extra time is an upper bound of what one
machine would add per action. Both must produce the same actions and outcome (checked). ``clone`` is timed
both ways too (the bots' sampled worlds and the solver's search clone games).

    python benchmarks/one_machine.py [--games 400] [--mission planet-nine/25] [--players 4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.engine.actions import Action  # noqa: E402
from crewkit.engine.machine import Machine, MachineBlock  # noqa: E402
from crewkit.engine.phase import Block  # noqa: E402
from crewkit.families.trick_taking.analysis.loading import load_rules  # noqa: E402
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES  # noqa: E402
from crewkit.families.trick_taking.engine.game import Game  # noqa: E402
from crewkit.families.trick_taking.engine.rules import Rules  # noqa: E402


class TrickPhase(MachineBlock["TrickGameOnMachine"]):
    """One phase of the trick-taking flow as a machine phase: the rules stay in the Game's block."""

    def __init__(self, block: Block, handlers: dict[type, Callable[[Game, Any], None]]) -> None:
        super().__init__(None)
        self.block = block
        self._table = {kind: self._handler(kind, handlers[kind]) for kind in handlers}

    @staticmethod
    def _handler(kind: type, handler: Callable[[Game, Any], None]) -> Callable[[TrickGameOnMachine, Any], None]:
        def run(m: TrickGameOnMachine, action: Any) -> None:
            handler(m.game, action)
            m.game.actions.append(action)

        return run

    @property
    def label(self) -> str:
        return str(self.block.name)

    def actions(self) -> dict[type, Callable[[TrickGameOnMachine, Any], None]]:
        return self._table

    def enter(self, m: TrickGameOnMachine) -> bool:
        return m.game.current_block is self.block

    def proceed(self, m: TrickGameOnMachine) -> None:
        g = m.game
        if g.is_over():
            out = g.outcome()
            m.finish((0,) if out.result == "success" else (), out.reason)
        elif g.current_block is not self.block:
            m.advance()

    def waiting(self, m: TrickGameOnMachine) -> tuple[int, ...]:
        seat = self.block.to_act(m.game)
        return () if seat is None else (seat,)

    def legal(self, m: TrickGameOnMachine, seat: int) -> list[Action]:
        return self.block.legal(m.game, seat)

    def describe(self, m: TrickGameOnMachine) -> str:
        return str(self.block.describe(m.game))


class TrickGameOnMachine(Machine):
    def __init__(self, game: Game) -> None:
        self.game = game
        comp = game.composition
        flow = [TrickPhase(b, dict(comp.handlers)) for b in comp.flow]
        super().__init__(flow, game.n, game.seed)
        self.begin()

    def say(self, text: str, seats: Any = None) -> None:  # the Game keeps its own events
        return None

    def clone_extra(self, other: TrickGameOnMachine) -> None:
        other.game = self.game.clone()


def required(legal: list[Action]) -> list[Action]:
    return [a for a in legal if not isinstance(a, OPTIONAL_TYPES)]


def play_on_game(rules: Rules, seeds: list[str]) -> tuple[float, int, list[tuple[list[Action], str]]]:
    actions = 0
    games: list[tuple[list[Action], str]] = []
    start = time.perf_counter()
    for seed in seeds:
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            legal = required(game.legal_actions())
            game.apply(legal[int(rng.random() * len(legal))])
        actions += len(game.actions)
        games.append((game.actions, game.outcome().result))
    return time.perf_counter() - start, actions, games


def play_on_machine(rules: Rules, seeds: list[str]) -> tuple[float, int, list[tuple[list[Action], str]]]:
    actions = 0
    games: list[tuple[list[Action], str]] = []
    start = time.perf_counter()
    for seed in seeds:
        m = TrickGameOnMachine(Game.new(rules, seed=seed))
        rng = random.Random(seed)
        while not m.is_over():
            legal = required(m.legal_actions())
            m.apply(legal[int(rng.random() * len(legal))])
        actions += len(m.game.actions)
        games.append((m.game.actions, m.game.outcome().result))
    return time.perf_counter() - start, actions, games


def clones(rules: Rules, seeds: list[str], machine: bool) -> tuple[float, int]:
    """Clone every position of the games once (as the bots' and solver's searches do)."""
    count = 0
    elapsed = 0.0
    for seed in seeds:
        game = Game.new(rules, seed=seed)
        m: Game | TrickGameOnMachine = TrickGameOnMachine(game) if machine else game
        rng = random.Random(seed)
        while not m.is_over():
            t0 = time.perf_counter()
            m.clone()
            elapsed += time.perf_counter() - t0
            count += 1
            legal = required(m.legal_actions())
            m.apply(legal[int(rng.random() * len(legal))])
    return elapsed, count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mission", default="planet-nine/25")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3, help="runs per row; the median is shown")
    args = ap.parse_args(argv)

    rules = load_rules("crew", args.mission, args.players)
    seeds = [f"one-machine:{i}" for i in range(args.games)]
    # the same games both ways: same actions and outcome, or the comparison means nothing
    _, _, on_game = play_on_game(rules, seeds)
    _, _, on_machine = play_on_machine(rules, seeds)
    if on_game != on_machine:
        raise SystemExit("the machine-driven games differ from the Game's: the comparison is void")

    def median_us(fn: Callable[[], tuple[float, int]]) -> float:
        runs = []
        for _ in range(args.repeat):
            seconds, count = fn()
            runs.append(seconds / count * 1e6)
        return statistics.median(runs)

    game_apply = median_us(lambda: play_on_game(rules, seeds)[:2])
    machine_apply = median_us(lambda: play_on_machine(rules, seeds)[:2])
    game_clone = median_us(lambda: clones(rules, seeds, machine=False))
    machine_clone = median_us(lambda: clones(rules, seeds, machine=True))
    print(f"crew · {args.mission} · {args.players} players · {args.games} games of random legal actions, "
          f"identical both ways · median of {args.repeat}")
    print(f"{'per action (legal + apply)':<30} Game {game_apply:7.1f} µs   Machine {machine_apply:7.1f} µs   "
          f"+{(machine_apply / game_apply - 1) * 100:.0f}%")
    print(f"{'per clone':<30} Game {game_clone:7.1f} µs   Machine {machine_clone:7.1f} µs   "
          f"+{(machine_clone / game_clone - 1) * 100:.0f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
