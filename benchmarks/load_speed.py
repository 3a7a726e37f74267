"""How long loading takes: every bundled mission compiled under each rule set it names, at each player count.

    python benchmarks/load_speed.py [--runs N]

Each run is a fresh interpreter (cold caches): it counts the CPU seconds of ``compile_game`` over every
(rule set, mission, players) a bundled mission allows (Hammer's and the Persian reading's card sets once per
player count) and how many times a DSL text was parsed (``crewkit.dsl.parse`` and ``parse_template``): the
spec layer parses each text once per game name (``docs/architecture.md``, "Loading"). CPU time, not the
wall clock, so a shared machine moves the figure less; say the load (``uptime``) next to it anyway.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import json, time
import crewkit.dsl as dsl
from crewkit.engine import setup
from crewkit.spec import bundled
from crewkit.spec.loader import load_doc

parses = 0
_parse, _template = dsl.parse, dsl.parse_template

def counting(fn):
    def run(*args, **kwargs):
        global parses
        parses += 1
        return fn(*args, **kwargs)
    return run

dsl.parse, dsl.parse_template = counting(_parse), counting(_template)
jobs = []
for path in bundled.bundled_missions():
    if path.parent.name in ("hammer", "persian"):
        continue
    data = load_doc(path).data or {}
    for ruleset in data.get("rulesets") or ["crew"]:
        for players in data.get("players") or [3, 4, 5]:
            jobs.append((ruleset, bundled.mission_id_for(path), players))
jobs += [("hammer", "hammer", n) for n in (3, 4, 5)] + [("crew-persian", "persian", 4)]
refused = 0
t0 = time.process_time()
for ruleset, mission, players in jobs:
    try:
        setup.compile_game(ruleset, mission, players)
    except Exception:
        refused += 1
print(json.dumps({"games": len(jobs), "refused": refused, "cpu": time.process_time() - t0, "parses": parses}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results = []
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
        results.append(json.loads(out.stdout))
    cpu = [r["cpu"] for r in results]
    first = results[0]
    print(
        f"{first['games']} games compiled ({first['refused']} refused), {first['parses']} DSL texts parsed; "
        f"CPU s per run: median {statistics.median(cpu):.2f}, best {min(cpu):.2f} ({args.runs} runs)"
    )


if __name__ == "__main__":
    main()
