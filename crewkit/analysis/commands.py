"""Command-line front ends of the analysis tools: ``solve``, ``compare``, ``diff``, ``check`` and ``winnability``.

``crewkit.cli`` wires them in::

    from crewkit.analysis import commands as analysis_commands
    analysis_commands.add_solve_parser(sub)      # in build_parser(), after the other sub-parsers
    analysis_commands.add_compare_parser(sub)
    analysis_commands.add_diff_parser(sub)
    analysis_commands.add_check_parser(sub)
    analysis_commands.add_winnability_parser(sub)
    COMMANDS.update(solve=analysis_commands.cmd_solve, compare=analysis_commands.cmd_compare,
                    diff=analysis_commands.cmd_diff, check=analysis_commands.cmd_check,
                    winnability=analysis_commands.cmd_winnability)

Exit codes: 0 done (whatever the verdict), 1 invalid input (a spec error, an unreadable record, a mission
that does not validate, matplotlib missing for ``--plot``), 2 usage error (raised as ``crewkit.cli.UsageError``).
Heavy modules are imported inside the commands so that ``crewkit --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crewkit.argtypes import positive_int, positive_seconds, precision, reading

EXIT_OK = 0
EXIT_INVALID = 1

_RAW = argparse.RawDescriptionHelpFormatter


def _usage(message: str) -> Exception:
    from crewkit.cli import UsageError

    return UsageError(message)


def _note(message: str) -> None:
    """A remark about how the command runs (not a result): on stderr."""
    print(f"crewkit compare: {message}", file=sys.stderr)


def _player_list(text: str) -> list[int]:
    try:
        out = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected player counts such as 3,4,5, found {text!r}") from None
    if not out or any(n < 1 for n in out):
        raise argparse.ArgumentTypeError(f"expected player counts such as 3,4,5, found {text!r}")
    return out


def _progress_bar(label: str, total: int, enabled: bool) -> tuple[Any, Any]:
    """A transient rich progress bar with ETA on stderr when stdout and stderr are terminals; else nothing."""
    if not (enabled and sys.stdout.isatty() and sys.stderr.isatty()) or total <= 1:
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from crewkit.safetext import raw

    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                   TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), transient=True,
                   console=Console(file=raw(sys.stderr)))  # draws with escape sequences: not escaped
    bar.start()
    task = bar.add_task(label, total=total)

    def update(done: int, _total: int) -> None:
        bar.update(task, completed=done)

    return bar, update


def precision_bar(label: str, enabled: bool) -> tuple[Any, Any]:
    """A transient progress bar for a run towards a precision (``run_streams``'s status): games played of the
    estimated total, the widest 95% interval so far (± points) and an ETA; on stderr, only on a terminal."""
    if not (enabled and sys.stdout.isatty() and sys.stderr.isatty()):
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from crewkit.safetext import raw

    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed}/{task.total} games"),
                   TextColumn("{task.fields[interval]}"), TimeElapsedColumn(), TextColumn("ETA"),
                   TimeRemainingColumn(), transient=True, console=Console(file=raw(sys.stderr)))
    bar.start()
    task = bar.add_task(label, total=None, interval="")

    def update(st: Any) -> None:
        text = "" if st.half_width is None else f"95% interval ±{100 * st.half_width:.1f} pts"
        bar.update(task, completed=st.done, total=max(st.total, st.done), interval=text)

    return bar, update


def add_cluster_options(p: argparse.ArgumentParser) -> None:
    """``--precision`` is added per command (its default differs); ``--cluster`` is the same everywhere."""
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="run the games on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' for a "
                        "LocalCluster of --workers processes here (needs pip install \"crewkit[dask]\"); results "
                        "are identical to --workers")


def check_cluster(args: argparse.Namespace) -> None:
    """A clear usage error when ``--cluster`` is given without Dask distributed installed."""
    if getattr(args, "cluster", None):
        from crewkit.analysis.pool import ClusterUnavailable, require_distributed

        try:
            require_distributed()
        except ClusterUnavailable as exc:
            raise _usage(str(exc)) from None


# ============================================================================ solve
SOLVE_HELP = """\
Decide whether the crew can still succeed when every hand is known (perfect information), and print one
winning line. Give a game record (the position after its actions, or after the first N with --after), or a
deal by --mission/--players/--seed (the position right after the deal).

Pending choices are searched too: setup steps (questions are answered with their first answer), the task
draft (searched as the tricks are played, a task going to whoever wins it within the number of tasks each
seat drafts; with mission conditions or draws, every distinct assignment, easiest-looking first) and, on
5-player gold-frame missions, handing a task on. Communication and the distress signal are never searched: they cannot change the answer.

Missions without conditions or neighbour draws are searched by a C version of the search (built with the
package, or compiled once into ~/.cache/crewkit with the system C compiler); it finds the same answer and
line as the Python search, about fifty times faster. Without a C compiler the Python search runs.
The last line of the output says which search ran ("search" in JSON: core-c, core or engine).

environment:
  CREWKIT_NATIVE=0   always use the Python search
  CREWKIT_CACHE=DIR  where the compiled C search is kept (default: $XDG_CACHE_HOME/crewkit or ~/.cache/crewkit)
  CC=COMPILER        the C compiler to use (default: cc)

examples:
  crewkit solve --mission planet-nine/10 --players 4 --seed 7
  crewkit solve game.json --after 12 --timeout 30 --format json
"""


def add_solve_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("solve", help="can the crew still win with all hands known? print a winning line",
                       description=SOLVE_HELP, formatter_class=_RAW)
    p.add_argument("record", nargs="?", metavar="RECORD", help="a game record (.json) to solve from")
    p.add_argument("--after", type=int, metavar="N", help="use only the record's first N actions")
    p.add_argument("--mission", help="mission id (planet-nine/10) or path, instead of a record")
    p.add_argument("--players", type=positive_int, default=4, help="number of players (default: 4)")
    p.add_argument("--seed", default="", help="seed of the deal (default: empty)")
    p.add_argument("--ruleset", default="crew", help="rule set name or path (default: crew)")
    p.add_argument("--reading", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option (repeatable)")
    p.add_argument("--timeout", type=positive_seconds, metavar="SEC", help="stop after SEC seconds (status unknown)")
    p.add_argument("--nodes", type=positive_int, metavar="N", help="stop after N searched plays (status unknown)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    return p


def _game_from_args(args: argparse.Namespace) -> Any:
    if args.record and args.mission:
        raise _usage("give either a RECORD or --mission, not both")
    if args.record:
        from crewkit.engine.record import replay_record

        path = Path(args.record)
        if not path.is_file():
            raise _usage(f"{args.record}: no such file")
        from crewkit.cli import load_record_file
        from crewkit.spec.errors import render_issue
        from crewkit.spec.loader import source_lines

        # the same size, nesting and schema checks as `crewkit replay`
        record, issues = load_record_file(path)
        if issues:
            lines = source_lines(path)
            for issue in issues:
                print(render_issue(issue, lines), file=sys.stderr)
            return None
        if args.after is not None:
            if args.after < 0:
                raise _usage("--after needs a number of actions of at least 0")
            record = dict(record)
            record["actions"] = list(record.get("actions") or [])[: args.after]
        replay = replay_record(record)
        if replay.error is not None or replay.game is None:
            print(f"crewkit solve: {args.record}: {replay.error}", file=sys.stderr)
            return None
        return replay.game
    if args.after is not None:
        raise _usage("--after needs a RECORD")
    if not args.mission:
        raise _usage("give a RECORD or --mission (with --players and --seed)")
    from crewkit.engine.setup import new_game

    return new_game(args.ruleset, args.mission, args.players, args.seed, dict(args.reading) or None)


def line_text(game: Any, line: list[Any]) -> list[str]:
    """The line replayed on a copy of ``game``: setup choices, then one row per trick."""
    from crewkit.engine.actions import Play

    g = game.clone()
    out: list[str] = []
    seen = len(g.tricks)
    pending: list[str] = []
    for action in line:
        if isinstance(action, Play):
            pending.append(f"{action.seat}:{action.card}")
        else:
            out.append(f"  {_action_text(action)}")
        g.apply(action)
        if len(g.tricks) > seen:
            for t in g.tricks[seen:]:
                done = [task for task in g.tasks if task.trick == t.number]
                tasks = f"  tasks: {', '.join(str(x.card) for x in done)}" if done else ""
                out.append(f"  trick {t.number:>2}: {'  '.join(pending):<60} won by seat {t.winner}{tasks}")
                pending = []
            seen = len(g.tricks)
    if pending:
        out.append(f"  trick {len(g.tricks) + 1:>2}: {'  '.join(pending)}")
    out.append(f"  outcome: {g.outcome()}")
    return out


def _action_text(action: Any) -> str:
    data = action.to_json()
    seat = data.pop("seat")
    kind = data.pop("type")
    rest = " ".join(str(v) for v in data.values())
    return f"seat {seat} {kind} {rest}".rstrip()


def cmd_solve(args: argparse.Namespace) -> int:
    from crewkit.solve import solve

    game = _game_from_args(args)
    if game is None:
        return EXIT_INVALID
    result = solve(game, timeout=args.timeout, max_nodes=args.nodes)
    if args.format == "json":
        out = {
            "ruleset": game.spec.ruleset if game.spec else game.rules.ruleset_name,
            "mission": game.spec.mission if game.spec else game.rules.mission_id,
            "players": game.rules.players,
            "seed": game.seed,
            "actions_before": len(game.actions),
            **result.to_json(),
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return EXIT_OK
    verdict = {"winnable": "winnable: the crew can still succeed",
               "unwinnable": "not winnable: no sequence of plays succeeds",
               "unknown": "unknown: the search stopped before deciding"}[result.status]
    print(verdict + (f" ({result.note})" if result.note else ""))
    if result.line:
        print(f"winning line ({len(result.line)} actions, seats as seat:card):")
        for row in line_text(game, result.line):
            print(row)
    starts = f", {result.starts} assignments/setups tried" if result.starts > 1 else ""
    how = {"core-c": "the C search", "core": "the Python search", "engine": "the engine-driven search"}
    by = f" ({how.get(result.engine, result.engine)})" if result.nodes else ""
    print(f"searched {result.nodes} plays in {result.seconds:.3f} s{starts}{by}")
    if result.conditions:
        print(conditions_text(result.conditions))
    return EXIT_OK


def conditions_text(paths: list[dict[str, str]]) -> str:
    """One line on how the solver checked the mission's conditions (fast paths and the slower one)."""
    groups: dict[str, list[str]] = {}
    for d in paths:
        key = d["path"] if d["path"] != "compiled" else f"compiled:{d['how']}"
        groups.setdefault(key, []).append(d["id"])
    parts = []
    for key, ids in groups.items():
        names = ", ".join(ids)
        if key.startswith("compiled:"):
            parts.append(f"{names} compiled into the search ({key.split(':', 1)[1]})")
        elif key == "winners":
            parts.append(f"{names} read only trick winners (checked once per sequence of winners)")
        elif key == "dsl":
            parts.append(f"{names} evaluated through the DSL after every trick or play (the slower path)")
        else:
            parts.append(f"{names} checked by the engine-driven search (the slowest path)")
    return "conditions: " + "; ".join(parts)


# ============================================================================ compare
COMPARE_HELP = """\
Compare variants on paired deals: every variant plays the same seeds ("SEED:0", "SEED:1", ...), so
variants that share a deck play the same hands and the bots get the same seeds. Per variant: the bot's
success rate with a 95% Wilson interval, the solver-winnable share (an upper bound for any crew; deals
the solver cannot decide within its node budget are counted as unknown), mean tricks and the most common
failure reasons. Each variant is compared with the first: the difference in success rate with a 95%
(Newcombe) interval, McNemar's test on the paired outcomes (exact below 25 discordant pairs, else χ²),
and Wilcoxon and t-tests on the paired scores (tasks done; tricks played for missions without tasks).

variant syntax: comma-separated KEY=VALUE pairs
  ruleset=NAME (rs)   mission=ID (m)   players=N (p)   bot=NAME (b)   reading=ID:OPTION (r, repeatable)
  label=TEXT (the name shown)
  missing keys come from --ruleset/--mission/--players/--bot; --reading applies to every variant.

examples:
  crewkit compare --mission planet-nine/10 --games 200 bot=heuristic bot=rules
  crewkit compare "ruleset=crew,mission=planet-nine/16" "mission=planet-nine/16,reading=early-success:play-to-end"
  crewkit compare --campaign planet-nine --players 4 --games 50 --workers 4 --plot curve.svg

Results are identical for any --workers (the solver's limit is a node budget; --solver-timeout trades
that for wall-clock limits). A progress bar with ETA shows on a terminal; nothing when piped.
"""


def add_compare_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("compare", help="compare variants on the same deals (bots, solver, paired statistics)",
                       description=COMPARE_HELP, formatter_class=_RAW)
    p.add_argument("variants", nargs="*", metavar="VARIANT", help="variant spec strings (see above)")
    p.add_argument("--campaign", metavar="PATH|NAME",
                   help="compare every mission of this campaign instead (difficulty curve): a bundled or "
                        "installed name, a folder, a campaign.yaml or a .zip")
    p.add_argument("--ruleset", default="crew", help="default rule set (default: crew; campaign: its own)")
    p.add_argument("--mission", help="default mission for variants that name none")
    p.add_argument("--players", type=positive_int, default=None,
                   help="default number of players (default: 4; a campaign: its first allowed count)")
    p.add_argument("--bot", default="heuristic", help="default bot: heuristic, rules or random (default: heuristic)")
    p.add_argument("--reading", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="a reading for every variant (repeatable)")
    p.add_argument("--games", type=positive_int, default=5000,
                   help="the most deals per variant (default: 5000); fewer once --precision is reached")
    p.add_argument("--precision", type=precision, default=0.03, metavar="H",
                   help="play deals in blocks of 25 until every variant's 95%% interval is at most ±H (0.03 or 3%%; "
                        "default: 0.03); a campaign's missions stop one by one")
    p.add_argument("--seed", default="compare", help="master seed (default: compare)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="parallel processes (default: 1; at most the number of CPUs unless --oversubscribe)")
    p.add_argument("--oversubscribe", action="store_true", help="allow --workers above the number of CPUs")
    add_cluster_options(p)
    p.add_argument("--no-solver", action="store_true", help="skip the solver (no winnable share)")
    p.add_argument("--solver-nodes", type=positive_int, default=20_000, metavar="N",
                   help="solver budget per deal in searched plays (default: 20000)")
    p.add_argument("--solver-games", type=positive_int, default=200, metavar="N",
                   help="run the solver on the first N deals of each variant only (default: 200); the winnable "
                        "share has its own interval")
    p.add_argument("--solver-timeout", type=positive_seconds, metavar="SEC",
                   help="also stop the solver after SEC seconds per deal (results may then vary between runs)")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text", help="output format (default: text)")
    p.add_argument("--no-chart", action="store_true", help="text output without the bar chart")
    p.add_argument("--plot", metavar="FILE", help="also draw a chart to FILE.png or FILE.svg (needs matplotlib)")
    return p


def cmd_compare(args: argparse.Namespace) -> int:
    from crewkit.analysis import compare as cmp_mod

    check_cluster(args)
    if args.plot:
        if Path(args.plot).suffix.lower() not in (".png", ".svg", ".pdf"):
            raise _usage(f"--plot {args.plot}: the file must end in .png or .svg")
        try:
            cmp_mod.require_matplotlib()
        except cmp_mod.PlotUnavailable as exc:
            print(f"crewkit compare: {exc}", file=sys.stderr)
            return EXIT_INVALID
    if args.campaign and args.variants:
        raise _usage("give variants or --campaign, not both")
    solver = not args.no_solver
    if args.campaign:
        from crewkit.spec.loader import load_campaign

        camp = load_campaign(args.campaign)
        players = args.players or (camp.players[0] if camp.players else 4)
        bar, status = precision_bar("compare", args.format == "text")
        try:
            result = cmp_mod.compare_campaign(
                args.campaign, players, args.games, args.seed, bot=args.bot,
                ruleset=args.ruleset if args.ruleset != "crew" else None, workers=args.workers, solver=solver,
                solver_nodes=args.solver_nodes, solver_timeout=args.solver_timeout, status=status,
                oversubscribe=args.oversubscribe, on_note=_note, precision=args.precision, cluster=args.cluster,
                solver_games=args.solver_games)
        finally:
            if bar is not None:
                bar.stop()
    else:
        if not args.variants:
            raise _usage("give at least one VARIANT (e.g. bot=heuristic bot=rules) or --campaign")
        defaults = {"ruleset": args.ruleset, "mission": args.mission, "players": args.players or 4, "bot": args.bot,
                    "readings": list(args.reading)}
        try:
            variants = [cmp_mod.parse_variant(text, defaults, index=i) for i, text in enumerate(args.variants)]
        except cmp_mod.VariantError as exc:
            raise _usage(str(exc)) from None
        labels = [v.label for v in variants]
        if len(set(labels)) != len(labels):
            variants = [cmp_mod.Variant(f"{v.label} #{i + 1}", v.ruleset, v.mission, v.players, v.bot, v.readings)
                        for i, v in enumerate(variants)]
        bar, status = precision_bar("compare", args.format == "text")
        try:
            result = cmp_mod.compare(variants, args.games, args.seed, workers=args.workers, solver=solver,
                                     solver_nodes=args.solver_nodes, solver_timeout=args.solver_timeout,
                                     status=status, oversubscribe=args.oversubscribe, on_note=_note,
                                     precision=args.precision, cluster=args.cluster, solver_games=args.solver_games)
        except cmp_mod.VariantError as exc:
            print(f"crewkit compare: {exc}", file=sys.stderr)
            return EXIT_INVALID
        finally:
            if bar is not None:
                bar.stop()
    if args.format == "json":
        print(cmp_mod.dumps_json(result))
    elif args.format == "csv":
        print(result.to_csv(), end="")
    else:
        print(result.format_text(chart=not args.no_chart))
    if args.plot:
        cmp_mod.plot(result, args.plot)
        if args.format == "text":
            print(f"chart written to {args.plot}")
    return EXIT_OK


# ============================================================================ winnability
WINNABILITY_HELP = """\
The winnable share of random deals per number of tasks, decided by the perfect-information solver: the
curves of de Jong's analysis of The Crew (Leiden, 2021, Figure 3) for any rule set and mission shape. For
each task count, --deals random deals of the mission's rules with that many plain tasks (its task tokens
dropped) are solved with a free draft (the players divide the tasks, each keeping the number the draft
gives it; the solver searches the division) and/or with fixed owners (the draft in its normal order, each
seat taking a task at random). Deal I of K tasks is seeded "SEED:K:I", the same deal for both drafts.

Per task count and draft: the winnable share of the decided deals with a 95% Wilson interval, and how many
deals the solver could not decide within --timeout seconds (undecided). A text chart follows the table;
--plot also draws both curves to a PNG or SVG file (needs matplotlib: pip install crewkit[plot]).
With a time limit, a deal near the limit may be decided in one run and not in another.

examples:
  crewkit winnability --players 4 --tasks 1-40 --deals 200 --workers 2 --plot figure3.svg
  crewkit winnability --tasks 4,8,12 --deals 20 --draft fixed --format csv
"""


def add_winnability_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("winnability", help="winnable share of random deals per number of tasks (solver)",
                       description=WINNABILITY_HELP, formatter_class=_RAW)
    p.add_argument("--players", type=positive_int, default=4, help="number of players (default: 4)")
    p.add_argument("--tasks", default="1-40", metavar="RANGE",
                   help="task counts: 1-40, 4,8,12 or 1-10,20 (default: 1-40; at most the rule set's task cards)")
    p.add_argument("--deals", type=positive_int, default=100, metavar="N", help="deals per task count (default: 100)")
    p.add_argument("--draft", choices=["free", "fixed", "both"], default="both",
                   help="free draft, fixed owners or both (default: both)")
    p.add_argument("--ruleset", default="crew", help="rule set name or path (default: crew)")
    p.add_argument("--mission", default="planet-nine/10",
                   help="mission whose rules shape the deals (default: planet-nine/10; its task count and "
                        "tokens are replaced)")
    p.add_argument("--reading", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option (repeatable)")
    p.add_argument("--seed", default="winnability", help="master seed (default: winnability)")
    p.add_argument("--timeout", type=positive_seconds, default=20.0, metavar="SEC",
                   help="solver time limit per deal; later deals count as undecided (default: 20)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="parallel processes (default: 1; at most the number of CPUs unless --oversubscribe)")
    p.add_argument("--oversubscribe", action="store_true", help="allow --workers above the number of CPUs")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text", help="output format (default: text)")
    p.add_argument("--no-chart", action="store_true", help="text output without the chart")
    p.add_argument("--plot", metavar="FILE", help="also draw both curves to FILE.png or FILE.svg (needs matplotlib)")
    return p


def cmd_winnability(args: argparse.Namespace) -> int:
    from crewkit.analysis import compare as cmp_mod
    from crewkit.analysis import winnability as win_mod

    if args.plot:
        if Path(args.plot).suffix.lower() not in (".png", ".svg", ".pdf"):
            raise _usage(f"--plot {args.plot}: the file must end in .png or .svg")
        try:
            cmp_mod.require_matplotlib()
        except cmp_mod.PlotUnavailable as exc:
            print(f"crewkit winnability: {exc}", file=sys.stderr)
            return EXIT_INVALID
    try:
        counts = win_mod.parse_tasks(args.tasks)
    except ValueError as exc:
        raise _usage(f"--tasks: {exc}") from None
    drafts = win_mod.DRAFTS if args.draft == "both" else (args.draft,)
    readings = dict(args.reading) or None
    usable: list[int] = []
    too_many: list[int] = []
    try:
        for k in counts:
            try:
                win_mod.shaped_rules(args.ruleset, args.mission, args.players, k, readings)
                usable.append(k)
            except win_mod.TooManyTasks as exc:
                if not too_many:
                    reason = str(exc).split(": ", 1)[-1]
                too_many.append(k)
    except win_mod.WinnabilityError as exc:
        raise _usage(f"--mission {args.mission}: {exc}") from None
    if too_many:
        if not usable:
            raise _usage(f"--tasks {args.tasks}: {reason}")
        print(f"crewkit winnability: task counts {too_many[0]}-{too_many[-1]} skipped: {reason}", file=sys.stderr)
    counts = usable
    bar, update = _progress_bar("winnability", len(counts) * len(drafts) * args.deals, args.format == "text")
    try:
        result = win_mod.winnability(counts, args.deals, ruleset=args.ruleset, mission=args.mission,
                                     players=args.players, drafts=drafts, seed=args.seed, timeout=args.timeout,
                                     workers=args.workers, readings=readings, progress=update,
                                     oversubscribe=args.oversubscribe,
                                     on_note=lambda note: print(f"crewkit winnability: {note}", file=sys.stderr))
    finally:
        if bar is not None:
            bar.stop()
    if args.format == "json":
        print(win_mod.dumps_json(result))
    elif args.format == "csv":
        print(result.to_csv(), end="")
    else:
        print(result.format_text(chart=not args.no_chart))
    if args.plot:
        win_mod.plot(result, args.plot)
        if args.format == "text":
            print(f"chart written to {args.plot}")
    return EXIT_OK


# ============================================================================ diff
DIFF_HELP = """\
Show the rule differences between two rule sets or two missions (bundled names or file paths), computed
from the resolved specs (extends: applied, the chosen readings applied): added (+), removed (-) and
changed (~) keys as dotted paths with their old and new values, and the readings whose choice, options
or question differ. Names, titles and descriptions are listed last.

examples:
  crewkit diff crew crew-3p-challenge
  crewkit diff planet-nine/16 planet-nine/17 --format json
  crewkit diff crew crew --reading-b distress-after-failure=...   (a reading against the default)
"""


def add_diff_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("diff", help="rule differences between two rule sets or two missions",
                       description=DIFF_HELP, formatter_class=_RAW)
    p.add_argument("a", metavar="A", help="rule set or mission (name or path)")
    p.add_argument("b", metavar="B", help="rule set or mission (name or path)")
    p.add_argument("--kind", choices=["ruleset", "mission"], help="what A and B are (default: guessed)")
    p.add_argument("--reading-a", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option of A (repeatable)")
    p.add_argument("--reading-b", action="append", type=reading, default=[], metavar="ID=OPTION",
                   help="select a reading option of B (repeatable)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    return p


def cmd_diff(args: argparse.Namespace) -> int:
    from crewkit.analysis.diff import diff_specs

    try:
        result = diff_specs(args.a, args.b, kind=args.kind, readings_a=dict(args.reading_a) or None,
                            readings_b=dict(args.reading_b) or None)
    except ValueError as exc:  # two different kinds, or a file that is neither
        raise _usage(str(exc)) from None
    print(result.dumps() if args.format == "json" else result.format_text())
    return EXIT_OK


# ============================================================================ check
CHECK_HELP = """\
Check a mission file as an author: validate it first (exit 1 with every issue at file:line:column when
invalid), then play sampled deals for each allowed player count (or --players) and report the share the
solver finds winnable, the bot's success rate, which task or condition fails most, and warnings:
a condition whose fail_if/done_if is never or always true over the sample (evaluated after every trick,
and after every play for after-play conditions), a role that is never bound, a task-token order that
cannot be met, no winnable deal.

examples:
  crewkit check my-mission.yaml
  crewkit check missions/planet-nine/44-countdown-rockets.yaml --games 50 --players 3,4 --format json
"""


def add_check_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("check", help="validate a mission, then sample deals: winnability, bot success, warnings",
                       description=CHECK_HELP, formatter_class=_RAW)
    p.add_argument("mission", metavar="MISSION.yaml", nargs="?", help="the mission file")
    p.add_argument("--campaign", metavar="PATH|NAME",
                   help="check a whole campaign instead (a folder, campaign.yaml, .zip or name): its difficulty "
                        "curve per mission and player count, with warnings where it goes the wrong way")
    p.add_argument("--workers", type=positive_int, default=1, help="parallel processes (default: 1)")
    p.add_argument("--oversubscribe", action="store_true", help="allow --workers above the number of CPUs")
    add_cluster_options(p)
    p.add_argument("--games", type=positive_int, default=None,
                   help="the most deals per player count (default: 3000; --campaign: 20); fewer once --precision "
                        "is reached")
    p.add_argument("--precision", type=precision, default=0.03, metavar="H",
                   help="play deals in blocks of 25 until the bot's 95%% interval is at most ±H per player count "
                        "(0.03 or 3%%; default: 0.03)")
    p.add_argument("--solver-games", type=positive_int, default=60, metavar="N",
                   help="solve only the first N deals of each player count (default: 60): the winnable share "
                        "comes from this smaller sample, with its own interval")
    p.add_argument("--players", type=_player_list, metavar="N[,N...]",
                   help="player counts to sample (default: every count the mission allows)")
    p.add_argument("--ruleset", help="rule set (default: the mission's first)")
    p.add_argument("--bot", default="heuristic", help="bot for every seat (default: heuristic)")
    p.add_argument("--seed", default="check", help="master seed (default: check)")
    p.add_argument("--no-solver", action="store_true", help="skip the solver")
    p.add_argument("--solver-nodes", type=positive_int, default=20_000, metavar="N",
                   help="solver budget per deal in searched plays (default: 20000)")
    p.add_argument("--strict", action="store_true", help="exit 1 when there are warnings")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    return p


def cmd_check(args: argparse.Namespace) -> int:
    from crewkit.analysis.check import check_mission

    if args.campaign:
        if args.mission:
            raise _usage("give a mission file or --campaign, not both")
        return _check_campaign(args)
    if not args.mission:
        raise _usage("give a mission file (MISSION.yaml) or --campaign PATH")
    if not Path(args.mission).is_file():
        raise _usage(f"{args.mission}: no such file")
    check_cluster(args)
    bar, status = precision_bar("check", args.format == "text")
    try:
        report = check_mission(args.mission, games=args.games or 3000, players=args.players, ruleset=args.ruleset,
                               bot=args.bot, seed=args.seed, solver=not args.no_solver,
                               solver_nodes=args.solver_nodes, status=status, precision=args.precision,
                               solver_games=args.solver_games, workers=args.workers, cluster=args.cluster,
                               oversubscribe=args.oversubscribe,
                               on_note=lambda note: print(f"crewkit check: {note}", file=sys.stderr))
    finally:
        if bar is not None:
            bar.stop()
    if args.format == "json":
        print(report.dumps())
    elif not report.valid:
        print(report.format_text(), file=sys.stderr)
    else:
        print(report.format_text())
    if not report.valid:
        return EXIT_INVALID
    if args.strict and report.warnings:
        return EXIT_INVALID
    return EXIT_OK


def _check_campaign(args: argparse.Namespace) -> int:
    from crewkit.analysis.campaign_check import campaign_variants, check_campaign
    from crewkit.spec.campaigns import load_campaign

    try:
        total = len(campaign_variants(load_campaign(args.campaign, deep=False), args.players, args.bot,
                                      args.ruleset)) * (args.games or 20)
    except Exception:  # an invalid campaign: check_campaign reports it with positions
        total = 0
    bar, update = _progress_bar("check", total, args.format == "text")
    try:
        report = check_campaign(args.campaign, games=args.games or 20, players=args.players, ruleset=args.ruleset,
                                bot=args.bot, seed=args.seed, solver=not args.no_solver,
                                solver_nodes=args.solver_nodes, workers=args.workers, progress=update)
    finally:
        if bar is not None:
            bar.stop()
    if args.format == "json":
        print(report.dumps())
    else:
        print(report.format_text(), file=sys.stdout if report.valid else sys.stderr)
    if not report.valid or (args.strict and report.warnings()):
        return EXIT_INVALID
    return EXIT_OK


__all__ = [
    "add_check_parser",
    "add_compare_parser",
    "add_diff_parser",
    "add_solve_parser",
    "add_winnability_parser",
    "cmd_check",
    "cmd_compare",
    "cmd_diff",
    "cmd_solve",
    "line_text",
]
