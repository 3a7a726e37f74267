"""The package declares what it imports: every third-party module crewkit's code imports (found in the AST,
lazy imports inside functions included) comes from a distribution named in pyproject.toml, and the tests'
own imports come from the runtime dependencies or the ``dev`` extra."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# a module whose distribution is not installed here (an optional extra) is named as its distribution
_NOT_INSTALLED = {"matplotlib": "matplotlib"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(req: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    assert match, req
    return _norm(match.group(1))


def _declared(*groups: str) -> set[str]:
    project = PYPROJECT["project"]
    names = {_requirement_name(r) for r in project["dependencies"]}
    for group in groups:
        names |= {_requirement_name(r) for r in project["optional-dependencies"][group]}
    return names


def _imported_top_modules(folder: Path) -> dict[str, str]:
    """Top-level modules imported by the files under ``folder`` (absolute imports), each with one file."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return found


def _third_party(found: dict[str, str], local: set[str]) -> dict[str, str]:
    return {m: f for m, f in found.items() if m not in sys.stdlib_module_names and m not in local}


def _distributions(module: str) -> set[str]:
    dists = importlib.metadata.packages_distributions().get(module)
    if dists:
        return {_norm(d) for d in dists}
    if module in _NOT_INSTALLED:
        return {_NOT_INSTALLED[module]}
    pytest.fail(f"{module!r} is imported but no installed distribution provides it")


def test_the_walk_finds_imports() -> None:
    found = _third_party(_imported_top_modules(ROOT / "crewkit"), {"crewkit"})
    assert {"yaml", "lark", "textual", "rich", "platformdirs"} <= set(found)


def test_every_runtime_import_is_declared() -> None:
    runtime = _declared()
    extras = {g for g in PYPROJECT["project"]["optional-dependencies"] if g != "dev"}
    optional = _declared(*extras)
    missing = []
    for module, where in sorted(_third_party(_imported_top_modules(ROOT / "crewkit"), {"crewkit"}).items()):
        dists = _distributions(module)
        if dists & runtime:
            continue
        if dists & optional:
            continue  # an extra (matplotlib for --plot): imported lazily, where it is needed
        missing.append(f"{module} (from {sorted(dists)}, imported in {where})")
    assert not missing, "imported by crewkit but not declared in pyproject.toml: " + ", ".join(missing)


def test_every_test_import_is_declared() -> None:
    declared = _declared(*PYPROJECT["project"]["optional-dependencies"])
    local = {"crewkit", "tests"} | {p.stem for p in (ROOT / "tests").rglob("*.py")} | {
        p.stem for p in (ROOT / "benchmarks").glob("*.py")}
    missing = []
    for folder in ("tests", "benchmarks"):
        for module, where in sorted(_third_party(_imported_top_modules(ROOT / folder), local).items()):
            if not _distributions(module) & declared:
                missing.append(f"{module} (imported in {where})")
    assert not missing, "imported by the tests but not declared in pyproject.toml: " + ", ".join(missing)


def test_license_file_matches_the_declared_license() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in text
