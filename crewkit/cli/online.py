"""``crewkit host`` (a table others join over the network) and ``crewkit join LINK`` (take a seat at one)."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crewkit.cli.options import (
    delay_seconds,
    players_option,
    positive_seconds,
    reading_option,
    ruleset_option,
    seed_option,
)
from crewkit.errors import UsageError
from crewkit.net import DEFAULT_BOT_DELAY

if TYPE_CHECKING:  # asyncio and ssl are imported where they run: every other command's start-up pays nothing
    import ssl

DEFAULT_PORT = 8765
DEFAULT_FOLDER = "crewkit-tables"


def add_host_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "host",
        help="host a table: friends join from their own terminal with `crewkit join LINK`",
        description="Host a table that people join over the network, each seeing only what their seat may know "
        "(the game runs here; a client only sends actions). Takes what `crewkit play` takes; prints one join "
        "link per human seat (each with its own invite code: send each person theirs). Every action is written "
        "to the table folder before it is acknowledged: run `crewkit host --dir FOLDER` again after a crash and "
        "every unfinished table there resumes, with the same links. By default only this machine can connect "
        "(--bind 127.0.0.1); to play over a network use --certfile/--keyfile (wss://) or an ssh tunnel.",
        parents=[ruleset_option(None, "rule set name or path (default: the campaign's, else the first rule set "
                                "the mission lists, else crew)"),
                 players_option(None, "number of players (default: the number of --seats, else 4)"),
                 seed_option(None, "seed for the deal (default: random)"),
                 reading_option("play with another reading of an unclear rule (repeatable; see docs/variants.md)")],
    )
    p.add_argument("--campaign", metavar="PATH|NAME", help="a campaign: its rule set, readings and missions")
    p.add_argument("--mission", help="the mission to play (e.g. planet-nine/01; default: the campaign's first)")
    p.add_argument("--seats", help="who sits where: human or a bot name per seat, e.g. human,human,bot,bot "
                                   "(default: every seat human)")
    p.add_argument("--bot", metavar="NAME", help="the bot of seats given as 'bot' and of seats handed to a bot "
                                                 "(default: the game family's)")
    p.add_argument("--names", help="names of the seats, comma-separated (a person joining may give their own)")
    p.add_argument("--dir", default=DEFAULT_FOLDER, metavar="FOLDER",
                   help=f"the table folder: new tables go there, unfinished ones there resume (default: ./{DEFAULT_FOLDER})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default: {DEFAULT_PORT}; 0: any free one)")
    p.add_argument("--bind", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0: every network)")
    p.add_argument("--link-host", metavar="NAME", help="the host name the printed links use (default: --bind, "
                                                       "or this machine's name when binding to every network)")
    p.add_argument("--certfile", type=Path, help="TLS certificate (PEM): serve wss:// links")
    p.add_argument("--keyfile", type=Path, help="TLS private key (PEM) of --certfile")
    p.add_argument("--web", action="store_true",
                   help="also serve each human seat's table as a web page (a browser link per seat, for a friend "
                        "without Python; needs the web extra: pip install 'crewkit[web]')")
    p.add_argument("--web-port", type=int, metavar="PORT",
                   help="the web pages' port (default: --port + 1; 0: any free one)")
    p.add_argument("--delay", type=delay_seconds, default=DEFAULT_BOT_DELAY,
                   help=f"seconds between two bot moves (default: {DEFAULT_BOT_DELAY:g})")
    p.add_argument("--bot-after", type=positive_seconds, metavar="SECONDS",
                   help="hand the seat of a person who left to a bot after this many seconds (back when they return)")
    return p


def add_join_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("join", help="take your seat at a hosted table (the link the host gave you)",
                       description="Join a table hosted with `crewkit host`: the link carries your seat's invite "
                                   "code, so keep it to yourself. If you drop, join again with the same link.")
    p.add_argument("link", help="the join link, ws://HOST:PORT/TABLE#CODE (or wss://)")
    p.add_argument("--name", help="your name at the table (default: the seat's)")
    p.add_argument("--cafile", type=Path, help="trust this certificate (a host's self-signed one) for wss://")
    p.add_argument("--plain", action="store_true",
                   help="the plain line client instead of the table screen (used anyway when the output is not a "
                        "terminal)")
    return p


# ---------------------------------------------------------------------------- host
def _table_config(args: argparse.Namespace) -> tuple[Any, str]:
    """The table's configuration from the options (checked: a bad one is a usage error), and the bot spec."""
    from crewkit.games import family_for
    from crewkit.net.table import TableConfig, TableError, check_names

    readings = dict(args.reading)
    ruleset, mission = args.ruleset, args.mission
    campaign = None
    if args.campaign:
        from crewkit.spec.campaigns import load_campaign

        camp = load_campaign(args.campaign, deep=False)
        ruleset = ruleset or camp.ruleset
        readings = {**camp.readings, **readings}
        key = mission or next(iter(camp.missions), None)
        entry = next((e for e in camp.entries if e.key == key), None)
        if key is None or key not in camp.missions:
            raise UsageError(f"--mission {mission}: not a mission of campaign {camp.name!r}; its missions: "
                             f"{', '.join(camp.missions)}")
        mission = str(entry.path) if entry is not None and entry.path is not None else key
        # the logbook's keys: the finished game counts as an attempt of this campaign's mission
        campaign = {"identity": camp.identity, "mission": key,
                    "version": str(getattr(entry, "version", "") or ""), "source": str(args.campaign)}
    from crewkit.spec.mission_rulesets import choose_ruleset

    ruleset = choose_ruleset(ruleset, mission)
    family = family_for(ruleset)
    if family.needs_mission and not mission:
        mission = "planet-nine/01"
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    players = args.players if args.players is not None else (len(seats) if seats else 4)
    if seats is None:
        seats = ["human"] * players
    if len(seats) != players:
        raise UsageError(f"--seats lists {len(seats)} seats for {players} players")
    bot = family.bot_spec(args.bot)
    kinds = {"human", "bot", *family.bot_names()}
    bad = [s for s in seats if s not in kinds]
    if bad:
        raise UsageError(f"--seats: unknown seat kind {bad[0]!r}; use {', '.join(sorted(kinds))}")
    if "human" not in seats:
        raise UsageError("--seats: a hosted table needs at least one human seat (`crewkit simulate` plays bots alone)")
    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if names and len(names) != players:
        raise UsageError(f"--names lists {len(names)} names for {players} players")
    try:
        names = check_names(names)
    except TableError as exc:
        raise UsageError(f"--names: {exc}") from None
    seats = [bot if s == "bot" else s for s in seats]
    seed = args.seed if args.seed is not None else secrets.token_hex(4)
    return TableConfig(ruleset, mission, players, seed, seats, readings, names, campaign), bot


def _ssl_context(args: argparse.Namespace) -> ssl.SSLContext | None:
    import ssl
    if (args.certfile is None) != (args.keyfile is None):
        raise UsageError("--certfile and --keyfile go together")
    if args.certfile is None:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(args.certfile, args.keyfile)
    except (OSError, ssl.SSLError) as exc:
        raise UsageError(f"--certfile {args.certfile} / --keyfile {args.keyfile}: cannot use them: {exc}") from None
    return context


def _has_game_options(args: argparse.Namespace) -> bool:
    return any(v is not None for v in (args.ruleset, args.mission, args.players, args.seats, args.campaign,
                                        args.seed, args.names)) or bool(args.reading)


def cmd_host(args: argparse.Namespace) -> int:
    import asyncio

    from crewkit.net.server import Host, raise_open_files_limit
    from crewkit.net.table import HostedTable

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is 0 to 65535")
    if args.web_port is not None and not args.web:
        raise UsageError("--web-port goes with --web")
    if args.web:
        _check_web_extra()
        if args.web_port is None:
            args.web_port = args.port + 1 if 0 < args.port < 65535 else 0
        if not 0 <= args.web_port <= 65535:
            raise UsageError(f"--web-port {args.web_port}: a port is 0 to 65535")
    context = _ssl_context(args)
    raise_open_files_limit()  # connections are open files: the hard limit, not the usual soft 1,024
    folder = Path(args.dir)
    host = Host(folder, bot_delay=args.delay, log=_say)
    host.bot_after = args.bot_after
    resumed = host.resume_all()
    new = None
    if _has_game_options(args) or not resumed:
        config, bot = _table_config(args)
        folder.mkdir(parents=True, exist_ok=True)
        new = host.add(HostedTable.create(folder, config, bot))
    if args.bind in ("0.0.0.0", "::", ""):
        _say(f"warning: --bind {args.bind} opens the tables to every network this machine is on; anyone who can "
             "reach the port may try to join (the links' invite codes keep them out). "
             + ("" if context else "Without --certfile/--keyfile the traffic is not encrypted: prefer wss:// or "
                                   "an ssh tunnel."))
    try:
        return asyncio.run(_host(host, args, context, resumed, new))
    except asyncio.CancelledError:  # SIGTERM: stopped as by Ctrl-C (the web seats' processes ended too)
        return 0
    finally:
        for table in host.tables.values():
            table.close()


def _check_web_extra() -> None:
    """``--web`` needs the web extra (textual-serve and aiohttp): say how to install it, not a traceback."""
    import importlib.util

    missing = [m for m in ("textual_serve", "aiohttp") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"--web needs the web extra ({', '.join(missing)} is not installed): "
                         "pip install 'crewkit[web]'")


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def _host(host: Any, args: argparse.Namespace, context: ssl.SSLContext | None, resumed: list[Any],
                new: Any) -> int:
    import asyncio
    import contextlib
    import signal
    import socket
    main = asyncio.current_task()
    if main is not None:
        with contextlib.suppress(NotImplementedError):  # no signal handlers in this event loop (Windows)
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
    try:
        await host.start(args.bind, args.port, context)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}") from None
    scheme = "wss" if context else "ws"
    link_host = args.link_host or (socket.gethostname() if args.bind in ("0.0.0.0", "::", "") else args.bind)
    seats_web = None
    if args.web:
        from crewkit.net.web import WebSeats

        seats_web = WebSeats(host, scheme, str(args.certfile) if args.certfile else None, args.bind, link_host, _say)
        try:
            await seats_web.start(args.bind, args.web_port, context)
        except OSError as exc:
            await host.stop()
            raise UsageError(f"--web: cannot listen on {args.bind}:{args.web_port}: {exc.strerror or exc}") from None
    try:
        return await _serve(host, args, scheme, link_host, seats_web, resumed, new)
    finally:
        if seats_web is not None:
            await seats_web.stop()


async def _serve(host: Any, args: argparse.Namespace, scheme: str, link_host: str, seats_web: Any,
                 resumed: list[Any], new: Any) -> int:
    from crewkit.net.protocol import join_link

    for table in [*resumed, *([new] if new else [])]:
        word = "resumed" if table is not new else "new"
        print(f"table {table.id} ({word}: {table.config.mission or table.config.ruleset}, "
              f"{table.config.players} players) in {table.folder}", flush=True)
        for seat in table.seats:
            if seat.code is not None:
                print(f"  {seat.name}: crewkit join '{join_link(scheme, link_host, host.port, table.id, seat.code)}'",
                      flush=True)
                if seats_web is not None:
                    print(f"  {' ' * len(seat.name)}  or in a browser: "
                          f"{seats_web.link(link_host, table.id, seat.code)}", flush=True)
            elif seat.index == table.game.dummy_seat:
                commander = table.seats[table.game.controller(seat.index)].name
                print(f"  {seat.name}: played by the commander, {commander}", flush=True)
            else:
                print(f"  {seat.name}: bot ({seat.bot_spec})", flush=True)
    if seats_web is not None:
        print(f"web pages on {'https' if scheme == 'wss' else 'http'}://{args.bind}:{seats_web.port}/", flush=True)
    print(f"listening on {scheme}://{args.bind}:{host.port}/ (Ctrl-C stops; `crewkit host --dir {args.dir}` "
          "resumes). Commands: bot NAME, back NAME, status, next [MISSION]", flush=True)
    await _console(host)
    return 0


COMMANDS = ("bot NAME (a bot plays that seat), back NAME (its person again), status, next [MISSION] (the next "
            "game at the same table, same links)")


def _campaign_mission(campaign: dict[str, str], wanted: str | None,
                      won: bool | None = None) -> tuple[str | None, dict[str, str] | None, str]:
    from crewkit.spec.campaigns import load_campaign

    camp = load_campaign(campaign["source"], deep=False)
    keys = list(camp.missions)
    if wanted is not None:
        if wanted not in keys:
            raise UsageError(f"{wanted}: not a mission of campaign {camp.name!r}; its missions: {', '.join(keys)}")
        key, why = wanted, "as asked"
    elif won:
        at = keys.index(campaign["mission"]) if campaign["mission"] in keys else -1
        if at + 1 >= len(keys):
            raise UsageError(f"the campaign {camp.name!r} is complete: name a mission (next MISSION)")
        key, why = keys[at + 1], "the campaign's next mission (a success)"
    else:
        key, why = campaign["mission"], "the same mission again (a failure)"
    entry = next((e for e in camp.entries if e.key == key), None)
    mission = str(entry.path) if entry is not None and entry.path is not None else key
    return mission, {**campaign, "mission": key, "version": str(getattr(entry, "version", "") or "")}, why


async def _next_game(host: Any, rest: str) -> None:
    """``next [TABLE] [MISSION]``: the next game at a table whose game is over (the only one, or TABLE)."""
    from crewkit.errors import CrewkitError
    from crewkit.net.table import Refusal

    words = rest.split()
    tables = [t for t in host.tables.values() if t.game.is_over()]
    if words and words[0] in host.tables:
        tables = [host.tables[words.pop(0)]]
    if len(tables) != 1:
        print("next: " + ("no table's game is over yet (status says whom they wait for)" if not tables else
                          f"{len(tables)} tables' games are over: next TABLE [MISSION] "
                          f"({', '.join(t.id for t in tables)})"), flush=True)
        return
    table = tables[0]
    wanted = words[0] if words else None
    config = table.config
    try:
        if config.campaign is not None and config.campaign.get("source"):
            won = table.game.outcome().result == "success"
            mission, campaign, why = _campaign_mission(config.campaign, wanted, won)
        elif wanted is not None:
            mission, campaign, why = wanted, None, "as asked"
        else:
            mission, campaign, why = config.mission, None, "the same mission, a new deal"
        await host.next_game(table, mission, campaign)
    except (UsageError, Refusal) as exc:
        print(f"next: {getattr(exc, 'message', None) or exc}", flush=True)
        return
    except CrewkitError as exc:
        print(f"next: {exc}", flush=True)
        return
    print(f"table {table.id}: game {table.game_number}, {campaign['mission'] if campaign else mission} ({why}); "
          "every seat joins it by itself", flush=True)


async def _console(host: Any) -> None:
    """The host's commands on standard input (hand a seat to a bot and back, show the tables); without a
    terminal (end of input) the host serves on until it is stopped."""
    import asyncio

    from crewkit.net.lines import LineReader, read_stdin_lines
    from crewkit.net.table import Refusal

    reader = LineReader(read_stdin_lines())
    while True:
        line = await reader.next()
        if not line:
            await asyncio.Event().wait()  # no more commands: serve until stopped
        words = line.split(maxsplit=1)
        if not words:
            continue
        command, rest = words[0], (words[1].strip() if len(words) > 1 else "")
        if command == "status":
            for table in host.tables.values():
                print(f"table {table.id}: {table.status()}", flush=True)
            continue
        if command == "next":
            await _next_game(host, rest)
            continue
        if command not in ("bot", "back"):
            print(f"commands: {COMMANDS}", flush=True)
            continue
        found = [(t, s) for t in host.tables.values() for s in t.seats if s.name.casefold() == rest.casefold()]
        if len(found) != 1:
            print(f"{command}: no single seat is called {rest!r}", flush=True)
            continue
        table, seat = found[0]
        try:
            await table.set_bot(seat.index, command == "bot")
        except Refusal as exc:
            print(f"{command}: {exc.message}", flush=True)
        else:
            print(f"{seat.name}: {'a bot plays this seat' if command == 'bot' else 'back to its person'}", flush=True)


# ---------------------------------------------------------------------------- join
def cmd_join(args: argparse.Namespace) -> int:
    import asyncio
    import ssl

    from crewkit.net.plain import run_plain

    context = None
    if args.cafile is not None:
        try:
            context = ssl.create_default_context(cafile=str(args.cafile))
        except (OSError, ssl.SSLError) as exc:
            raise UsageError(f"--cafile {args.cafile}: {exc}") from None
    if args.name is not None:
        from crewkit.net.protocol import MAX_NAME

        if not args.name.strip() or len(args.name) > MAX_NAME or not args.name.isprintable():
            raise UsageError(f"--name: 1 to {MAX_NAME} printable characters")
    if args.plain or not sys.stdout.isatty() or not sys.stdin.isatty():
        return asyncio.run(run_plain(args.link, args.name, context))
    return asyncio.run(join_table(args.link, args.name, context))


async def join_table(link: str, name: str | None, context: ssl.SSLContext | None) -> int:
    """``crewkit join`` in a terminal: the seat drawn by the same table screen as ``crewkit play`` (the plain
    client, saying why, for a game whose table cannot be drawn from a seat's view yet)."""
    from crewkit.net.client import TableClient
    from crewkit.net.plain import play_plain
    from crewkit.net.table_app import NoTableScreen, run_table_app

    client = await TableClient.connect(link, name, ssl_context=context)
    try:
        code, fatal, note = await run_table_app(client)
    except NoTableScreen as exc:
        print(f"crewkit: {exc.why}: this seat is played with the plain client.", flush=True)
        return await play_plain(client)
    if fatal:
        print(f"crewkit: {fatal}", file=sys.stderr)
    elif note:
        print(note)
    return code
