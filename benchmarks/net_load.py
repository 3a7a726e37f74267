"""Load on one host: one host process with many tables, each with WebSocket clients playing their seats and a
bot, all at once; prints the action round trip (an ``act`` sent until its ``ack`` arrives: the engine's check,
the fsync'd log write and the states sent to every seat included), the host process's peak memory, and the CPU
the host and the clients used per round trip.

    python benchmarks/net_load.py [--tables 200] [--mission planet-nine/03] [--pace SECONDS]

The host runs in a child process (so its memory is its own) on a free loopback port; its table folder is a
temporary one. Every client is a bot playing random legal actions until its game ends; the run is bounded in
time. By default every bot plays at the pace of a hosted table's bots (``crewkit host --delay``, 0.6 s): the
host's bots wait that long between two moves, and each client pauses 0 to 2x as long (at random, so the tables
do not act in step) before it acts; the pause is not part of the round trip. ``--pace 0`` is the saturation
test: every bot acts the instant its turn comes, so every table always waits on the host and the round trip
measures how many actions the machine's cores get through, not how fast one is answered (Little's law:
round trip = actions outstanding / actions per second; docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from crewkit.net import DEFAULT_BOT_DELAY  # noqa: E402 - after the checkout is on the path


async def _serve(folder: Path, tables: int, mission: str, seats: list[str], pace: float) -> None:
    from crewkit.net.protocol import join_link
    from crewkit.net.server import Host, Limits, raise_open_files_limit
    from crewkit.net.table import HostedTable, TableConfig

    raise_open_files_limit()
    # every client comes from 127.0.0.1, all at once: no cap per address
    host = Host(folder, Limits(ping_interval=None, ping_timeout=None, connections=1_000_000, handshakes=1_000_000),
                bot_delay=pace)
    for i in range(tables):
        host.add(HostedTable.create(folder, TableConfig("crew", mission, len(seats), f"load-{i}", seats), "fast"))
    await host.start("127.0.0.1", 0)
    links = [[join_link("ws", "127.0.0.1", host.port, t.id, s.code) for s in t.seats if s.code]
             for t in host.tables.values()]
    print(json.dumps(links), flush=True)
    await asyncio.Event().wait()


async def _play(link: str, seed: int, trips: list[float], deadline: float, pace: float) -> bool:
    from crewkit.net.client import TableClient

    rng = random.Random(seed)
    client = await TableClient.connect(link, timeout=60, check=False)  # measure the host, not the clients' checks
    sent: dict[int, float] = {}
    decided: set[tuple[int, bool]] = set()
    thinking: asyncio.Task[None] | None = None

    async def decide(state: dict[str, Any]) -> None:
        if pace:  # the bot's pause; meanwhile the client reads on (an ack is timed when it arrives)
            await asyncio.sleep(rng.uniform(0, 2 * pace))
        if state["window"] and (rng.random() < 0.7 or not state["legal"]):
            sent[await client.pass_window()] = time.perf_counter()
        elif state["legal"]:
            sent[await client.act(rng.choice(state["legal"]))] = time.perf_counter()

    try:
        while time.monotonic() < deadline:
            message = await client.recv(timeout=max(1.0, deadline - time.monotonic()))
            now = time.perf_counter()
            if message["type"] in ("ack", "error") and message.get("id") in sent:
                trips.append(now - sent.pop(message["id"]))
                if message["type"] == "error":
                    decided.clear()
            state = client.state
            if state is None:
                continue
            if state["over"]:
                return True
            key = (state["seq"], state["window"])
            if not state["turn"] or key in decided or (thinking is not None and not thinking.done()):
                continue
            decided.add(key)
            if pace:
                thinking = asyncio.get_running_loop().create_task(decide(state))
            else:
                await decide(state)
        return False
    finally:
        if thinking is not None:
            thinking.cancel()
        await client.close()


async def _load(links: list[list[str]], seconds: float, pace: float) -> tuple[list[float], int]:
    trips: list[float] = []
    deadline = time.monotonic() + seconds
    done = await asyncio.gather(*(_play(link, i * 10 + j, trips, deadline, pace)
                                  for i, table in enumerate(links) for j, link in enumerate(table)))
    return trips, sum(done)


def _cpu_seconds(pid: int) -> float:
    """CPU time (user and system, every thread) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--mission", default="planet-nine/03")
    parser.add_argument("--seats", default="human,human,fast", help="per table: human seats get a client")
    parser.add_argument("--seconds", type=float, default=300, help="stop after this long, finished or not")
    parser.add_argument("--pace", type=float, default=DEFAULT_BOT_DELAY,
                        help="the host's bots wait this many seconds between two moves and each client pauses 0 to "
                             f"2x as long before it acts (default {DEFAULT_BOT_DELAY:g}: crewkit host's bot pace; "
                             "0: every bot at once, the saturation test)")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)  # the child: host the tables
    args = parser.parse_args()
    seats = args.seats.split(",")
    if args.serve:
        asyncio.run(_serve(args.serve, args.tables, args.mission, seats, args.pace))
        return
    with tempfile.TemporaryDirectory() as folder:
        child = subprocess.Popen([sys.executable, __file__, "--serve", folder, "--tables", str(args.tables),
                                  "--mission", args.mission, "--seats", args.seats, "--pace", str(args.pace)], stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            started = time.perf_counter()
            links = json.loads(child.stdout.readline())
            print(f"{args.tables} tables hosted in {time.perf_counter() - started:.1f} s; "
                  f"{sum(map(len, links))} clients play", flush=True)
            started = time.perf_counter()
            cpu_before, clients_before = _cpu_seconds(child.pid), time.process_time()
            trips, finished = asyncio.run(_load(links, args.seconds, args.pace))
            elapsed = time.perf_counter() - started
            host_cpu, clients_cpu = _cpu_seconds(child.pid) - cpu_before, time.process_time() - clients_before
            rss = _peak_rss_mib(child.pid)
        finally:
            child.kill()
            child.wait()
    trips.sort()
    p50 = statistics.median(trips) * 1000
    p95 = trips[int(len(trips) * 0.95)] * 1000
    count = max(1, len(trips))
    print(f"{finished} of {sum(map(len, links))} clients saw their game end in {elapsed:.1f} s; "
          f"{len(trips)} round trips: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {trips[-1] * 1000:.1f} ms; "
          f"host peak memory {rss:.0f} MiB")
    print(f"CPU per round trip: host {host_cpu / count * 1000:.2f} ms (the bots' moves and every state included), "
          f"clients {clients_cpu / count * 1000:.2f} ms; {os.cpu_count()} cores")
    met = p95 <= 50 and rss < 1024
    print(f"issue 28's target (p95 at most 50 ms, host memory under 1 GiB) at pace {args.pace:g} s: "
          f"{'met' if met else 'not met'}")


if __name__ == "__main__":
    main()
