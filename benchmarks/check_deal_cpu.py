"""CPU time per deal of `crewkit check`'s bot stream, in one process: what one worker spends on a deal.

    python benchmarks/check_deal_cpu.py planet-nine/46 3 [--deals 40] [--bot fast]

The deals are the check's own (its seed ``check`` and deal numbers from 1000, played by the check's deal
function), so two trees compared with this script play the same games; the success share is printed to show it.
The first deal (number 500) is played before the clock starts: it builds the fast bot's C library and the
mission's condition program. Timed with ``time.process_time``: independent of the other load on the machine as
far as a shared CPU allows. ``check_speed.py`` measures the whole command; this one the part that moves when the
play-outs change.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crewkit.analysis import check  # noqa: E402
from crewkit.spec.bundled import mission_path  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mission", help="a bundled mission, e.g. planet-nine/46")
    parser.add_argument("players", type=int)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--bot", default="fast", help="the check's bot (default: fast, as crewkit check)")
    args = parser.parse_args()
    check._init_check(str(mission_path(args.mission)), "crew", [args.players], args.bot, "check", False, None, None)
    check._check_one(((check.BOTS, args.players), 500))
    start = time.process_time()
    won = sum(check._check_one(((check.BOTS, args.players), i)).success for i in range(1000, 1000 + args.deals))
    per_deal = (time.process_time() - start) / args.deals
    print(f"{args.mission} at {args.players} players: {per_deal:.4f} s of CPU a deal over {args.deals} deals, "
          f"bots' success {won}/{args.deals}")


if __name__ == "__main__":
    main()
