"""Builds the golden records of issue 11 items 1-2 (run by hand: `python tests/records/build_unplayed_records.py`).

- mission 16 with 3 players: a 9 stays unplayed in the 14-card hand and no 9 wins a trick (success);
- mission 46 with 3 players: a pink card stays unplayed and the collector wins every other pink (success with
  the reading `unplayed-card=not-needed`; the same game under `counts-as-missed` fails);
- mission 17 under `nines-after-tasks=until-nines-out`: play goes on after the tasks until every 9 is out, once
  ending in success and once with a 9 winning a trick after the tasks were done (failure).

Games are found by a depth-first search over the engine in which the 14-card seat never plays the card chosen to
stay unplayed. The expected outcomes are written by hand in `missions/expected.yaml`.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.gold_frame import HandTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.engine.setup import new_game

HERE = Path(__file__).parent / "missions"
OPTIONAL = (Communicate, Distress, HandTask)


def required(game: Game, keep: Any) -> list[Any]:
    return [a for a in game.legal_actions() if not isinstance(a, OPTIONAL)
            and not (isinstance(a, Play) and a.card is keep)]


def search(game: Game, keep: Any, accept: Callable[[Game], bool], rng: random.Random, budget: list[int]) -> Game | None:
    if game.is_over():
        return game if accept(game) else None
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    actions = required(game, keep)
    rng.shuffle(actions)
    for action in actions:
        child = game.clone()
        child.apply(action)
        found = search(child, keep, accept, rng, budget)
        if found is not None:
            return found
    return None


def find(mission: str, readings: dict[str, str], keep_suit: str | None, keep_rank: int | None,
         accept: Callable[[Game], bool], tries: int = 300) -> Game:
    for i in range(tries):
        game = new_game("crew", f"planet-nine/{mission}", 3, seed=f"unplayed-{i}", readings=readings)
        big = max(range(3), key=lambda s: len(game.deal.hands[s]))
        keep = next((c for c in game.hand(big) if (keep_suit is None or (c.suit and c.suit.name == keep_suit))
                     and (keep_rank is None or c.rank == keep_rank)), None)
        if keep is None:
            continue
        won = search(game, keep, accept, random.Random(i), [3000])
        if won is not None:
            return won
    raise SystemExit(f"{mission}: nothing found")


def write(name: str, game: Game) -> None:
    record = game_to_record(game)
    for key in ("outcome", "reason", "result"):
        record.pop(key, None)
    (HERE / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"{name}: {game.outcome().reason}")


def unplayed(game: Game) -> list[str]:
    return [c.name for s in range(game.n) for c in game.hand(s)]


def build() -> None:
    sys.setrecursionlimit(10_000)
    g16 = find("16", {}, None, 9, lambda g: g.outcome().result == "success" and g.tricks[-1].number == 13)
    write("16-unplayed-nine-success", g16)
    g46 = find("46", {"unplayed-card": "not-needed"}, "pink", None,
               lambda g: g.outcome().result == "success" and len(g.tricks) == 13)
    write("46-unplayed-not-needed-success", g46)
    record = game_to_record(g46)
    record["readings"] = {"unplayed-card": "counts-as-missed"}
    for key in ("outcome", "reason", "result"):
        record.pop(key, None)
    (HERE / "46-unplayed-counts-as-missed-failure.json").write_text(json.dumps(record, indent=1) + "\n",
                                                                     encoding="utf-8")
    on = {"nines-after-tasks": "until-nines-out"}

    def tasks_then_nines(g: Game) -> bool:
        tasks_at = max((t.trick or 0) for t in g.tasks)
        return g.outcome().result == "success" and g.tricks[-1].number > tasks_at + 1

    write("17-until-nines-out-success", find("17", on, None, None, tasks_then_nines))

    def nine_wins_late(g: Game) -> bool:
        return (g.outcome().result == "failure" and "was won by" in g.outcome().reason
                and all(t.done for t in g.tasks) and max(t.trick or 0 for t in g.tasks) < len(g.tricks))

    write("17-until-nines-out-failure", find("17", on, None, None, nine_wins_late))


if __name__ == "__main__":
    build()
