"""The import graph is one-way: cards → dsl → spec → engine core → families → analysis → campaign → cli/tui.

Read from the source (AST), imports inside functions included (a function-level import is still an edge: it
must not be what keeps a cycle from failing at import time); imports under ``if TYPE_CHECKING:`` are not
edges (they never run).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# the layer of each top-level part of the package, lowest first; a module may import only its own layer or lower
LAYERS: dict[str, int] = {
    "errors": 0, "atomic": 0, "safetext": 0, "usercache": 0, "nativelib": 0, "cards": 0,  # utilities (no imports from higher layers)
    "dsl": 1,
    "spec": 2, "effects": 2,  # effects read spec files; spec never imports effects
    "engine": 3, "games": 3,  # the shared core (the phase machine, actions, blocks by name); the game interface
    "families": 4,  # each family's engine, bots (and the trick-taking search) behind the interface
    "analysis": 5,
    "campaign": 6,
    "cli": 7, "tui": 7, "lsp": 7, "__main__": 7,
    "net": 7,  # hosted tables: the host and its clients, a front end like the terminal app
}
LAYER_NAMES = ["cards & utilities", "dsl", "spec", "engine core", "families", "analysis", "campaign", "cli/tui"]


def module_files(root: Path, package: str = "crewkit") -> dict[str, Path]:
    out = {}
    for f in sorted((root / package).rglob("*.py")):
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def import_edges(mods: dict[str, Path]) -> dict[str, dict[str, list[tuple[int, bool]]]]:
    """module -> imported module -> [(line, inside a function)]."""
    edges: dict[str, dict[str, list[tuple[int, bool]]]] = {}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        out: dict[str, list[tuple[int, bool]]] = {}

        def visit(node: ast.AST, in_function: bool, package: str = package, mod: str = mod,
                  out: dict[str, list[tuple[int, bool]]] = out) -> None:
            for child in ast.iter_child_nodes(node):
                if _is_type_checking(child):
                    continue
                inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                targets: list[str] = []
                if isinstance(child, ast.ImportFrom):
                    if child.level:
                        base = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                        source = ".".join(base + ([child.module] if child.module else []))
                    else:
                        source = child.module or ""
                    for alias in child.names:
                        sub = f"{source}.{alias.name}"
                        targets.append(sub if sub in mods else source)
                elif isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                for target in targets:
                    if target in mods and target != mod:
                        out.setdefault(target, []).append((child.lineno, inner))
                visit(child, inner)

        visit(ast.parse(path.read_text(encoding="utf-8")), False)
        edges[mod] = out
    return edges


def layer_of(mod: str) -> int | None:
    parts = mod.split(".")
    if len(parts) > 3 and parts[1] == "families" and parts[3] == "tui":
        return LAYERS["tui"]  # a family's table screens and widgets sit with the app shell they plug into
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def upward_imports(edges: dict[str, dict[str, list[tuple[int, bool]]]]) -> list[str]:
    found = []
    for mod, targets in sorted(edges.items()):
        low = layer_of(mod)
        for target, where in sorted(targets.items()):
            high = layer_of(target)
            if low is not None and high is not None and high > low:
                found.append(f"{mod}:{where[0][0]} imports {target} ({LAYER_NAMES[low]} → {LAYER_NAMES[high]})")
    return found


def cycles(edges: dict[str, dict[str, list[tuple[int, bool]]]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in edges:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def _describe_cycle(comp: list[str], edges: dict[str, dict[str, list[tuple[int, bool]]]]) -> str:
    links = [f"{a}:{line}{' (in a function)' if fn else ''} → {b}"
             for a in comp for b, where in sorted(edges[a].items()) if b in comp for line, fn in where[:1]]
    return "; ".join(links)


def test_no_module_imports_a_higher_layer() -> None:
    edges = import_edges(module_files(ROOT))
    assert upward_imports(edges) == []


def test_no_import_cycles_even_through_function_level_imports() -> None:
    edges = import_edges(module_files(ROOT))
    assert [_describe_cycle(c, edges) for c in cycles(edges)] == []


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {m.split(".")[1] for m in module_files(ROOT) if "." in m}
    assert parts - set(LAYERS) == set()


def test_the_checker_finds_a_cycle_held_by_a_function_level_import_and_an_upward_import(tmp_path: Path) -> None:
    pkg = tmp_path / "crewkit"
    (pkg / "spec").mkdir(parents=True)
    (pkg / "engine").mkdir()
    for d in (pkg, pkg / "spec", pkg / "engine"):
        (d / "__init__.py").write_text("")
    (pkg / "spec" / "reader.py").write_text("def f():\n    from crewkit.engine import compiler\n")
    (pkg / "engine" / "compiler.py").write_text(
        "from typing import TYPE_CHECKING\nfrom crewkit.spec import reader\nif TYPE_CHECKING:\n    from crewkit.engine import runner\n")
    (pkg / "engine" / "runner.py").write_text("from . import compiler\n")
    edges = import_edges(module_files(tmp_path))
    assert edges["crewkit.engine.runner"] == {"crewkit.engine.compiler": [(1, False)]}
    assert "crewkit.engine.runner" not in edges["crewkit.engine.compiler"]  # TYPE_CHECKING only
    assert cycles(edges) == [["crewkit.engine.compiler", "crewkit.spec.reader"]]
    assert upward_imports(edges) == ["crewkit.spec.reader:2 imports crewkit.engine.compiler (spec → engine core)"]
