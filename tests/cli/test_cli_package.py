"""The command line as a package: the library never imports it, shared options come from one parent parser
each, one progress bar, and the entry points (`crewkit`, `python -m crewkit`, `python -m crewkit.cli`) work."""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from crewkit.cli import build_parser, options
from crewkit.cli.progress import progress_bar

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "crewkit"


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def test_the_library_never_imports_the_cli() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "cli" or rel == Path("__main__.py"):
            continue
        bad = sorted(m for m in _imports(path) if m == "crewkit.cli" or m.startswith("crewkit.cli."))
        if bad:
            offenders.append(f"{rel}: {', '.join(bad)}")
    assert not offenders, offenders


def _commands() -> dict[str, argparse.ArgumentParser]:
    out: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    out[f"{name} {sub}".strip()] = child
                    walk(child, f"{name} {sub}")

    walk(build_parser(), "")
    return out


def _option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return next((a for a in parser._actions if flag in a.option_strings), None)


@pytest.mark.parametrize(("flag", "kind"), [
    ("--players", options.positive_int), ("--games", options.positive_int), ("--workers", options.positive_int),
    ("--reading", options.reading),
])
def test_a_shared_option_has_one_type_everywhere(flag: str, kind: object) -> None:
    users = {name: _option(p, flag) for name, p in _commands().items() if _option(p, flag) is not None}
    if flag == "--players":
        users.pop("check")  # a list of counts (3,4,5), not one count
    assert len(users) >= 3, users
    assert {name: a.type for name, a in users.items() if a is not None} == {name: kind for name in users}


def test_shared_options_read_the_same_in_every_command() -> None:
    commands = _commands()
    workers = {_option(p, "--workers").help for n, p in commands.items()
               if _option(p, "--oversubscribe") is not None and n != "check"}
    assert workers == {"parallel processes (default: 1; at most the number of CPUs unless --oversubscribe)"}
    # check answers an author at once: every CPU unless told (issue 29)
    assert _option(commands["check"], "--workers").help.startswith(  # type: ignore[union-attr]
        "parallel processes (default: every CPU this process may use; at most that many unless --oversubscribe)")
    formats = {n: _option(p, "--format") for n, p in commands.items() if _option(p, "--format") is not None}
    assert len(formats) >= 8
    for name, action in formats.items():
        assert action.help == f"output format (default: {action.default})", name
        assert action.default == action.choices[0], name
    seeds = {n: _option(p, "--seed") for n, p in commands.items() if _option(p, "--seed") is not None}
    assert {"simulate", "play", "solve", "compare", "check", "winnability"} <= set(seeds)


def test_parent_parsers_do_not_share_state_between_commands() -> None:
    parser = build_parser()
    a = parser.parse_args(["simulate", "--mission", "planet-nine/01", "--reading", "x=y"])
    b = parser.parse_args(["simulate", "--mission", "planet-nine/01"])
    assert a.reading == [("x", "y")] and b.reading == []


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    with progress_bar("x", 10) as update:  # pytest captures output: not a terminal
        assert update is None
    monkeypatch.setattr(sys, "stdout", _Terminal())
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with progress_bar("x", 10, enabled=False) as update:
        assert update is None
    with progress_bar("x", 1) as update:  # one step: nothing to show
        assert update is None
    with progress_bar("simulating", 10) as update:
        assert update is not None
        update(5, 10)
    assert "simulating" in err.getvalue()


def test_entry_points() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"crewkit": "crewkit.cli:main"}
    for module in ("crewkit", "crewkit.cli"):
        out = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, cwd=ROOT,
                             timeout=120)
        assert out.returncode == 0 and out.stdout.startswith("crewkit "), out.stderr
