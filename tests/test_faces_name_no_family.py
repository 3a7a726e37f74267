"""The faces above the families name no family: ``crewkit/spec``, ``crewkit/analysis``, ``crewkit/cli``,
``crewkit/campaign``, ``crewkit/net`` and the app shell ``crewkit/tui`` import no module under
``crewkit/families/`` (issue 46), read from the source as tests/test_import_graph.py reads it (imports inside
functions count; ``if TYPE_CHECKING:`` ones do not). A family's own ``tui/`` is the family's, not the shell's.

A family answers them through :class:`crewkit.games.protocol.Family` and its optional answers
(:class:`crewkit.games.protocol.FamilyAnswers`), and the shell through the family's terminal face
(:class:`crewkit.tui.family.FamilyTUI`). No face imports a family; ``STILL_IMPORTED`` is where one would be listed
with its reason (the test fails on a new import and on a listed one that is gone, so the list stays the truth).
"""

from __future__ import annotations

from tests.test_import_graph import ROOT, import_edges, module_files

FACES = ("crewkit.spec", "crewkit.analysis", "crewkit.cli", "crewkit.campaign", "crewkit.net", "crewkit.tui")

STILL_IMPORTED: dict[str, set[str]] = {}


def family_imports() -> dict[str, set[str]]:
    mods = module_files(ROOT)
    found: dict[str, set[str]] = {}
    for mod, targets in import_edges(mods).items():
        if not mod.startswith(FACES):
            continue
        hits = {t for t in targets if t.startswith("crewkit.families")}
        if hits:
            found[mod] = hits
    return found


def test_faces_import_no_family_but_the_listed() -> None:
    found = family_imports()
    new = {m: sorted(t - STILL_IMPORTED.get(m, set())) for m, t in found.items() if t - STILL_IMPORTED.get(m, set())}
    assert not new, f"a face imports a family's module (answer it through crewkit.games.protocol.Family): {new}"
    gone = {m: sorted(t - found.get(m, set())) for m, t in STILL_IMPORTED.items() if t - found.get(m, set())}
    assert not gone, f"no longer imported: take these out of STILL_IMPORTED: {gone}"
