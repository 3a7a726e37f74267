"""The names a rule set may use in ``flow:`` and ``blocks:``: crewkit's own blocks and installed ones.

The spec layer checks names (with their file position) before the engine sees them; it does not import the
engine. ``tests/engine/test_block_registry.py`` keeps these lists equal to the engine's registry
(:mod:`crewkit.engine.registry`). A block of another package is known by its entry point's name in the
``crewkit.blocks`` group (read from the installed metadata, without importing the package).
"""

from __future__ import annotations

PHASES = ("setup", "draft", "tricks", "choose-mission")
CROSS_CUTTING = ("objectives", "communication", "distress", "gold-frame", "draws", "dummy-seat", "secret-tasks",
                 "chip-scoring")
ENTRY_POINT_GROUP = "crewkit.blocks"


def installed_block_names() -> set[str]:
    from importlib.metadata import entry_points  # read only for a name that is not crewkit's own

    return {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}


def unknown_block(name: str, phase: bool) -> str | None:
    """Why ``name`` cannot be used (in ``flow:`` when ``phase``, else in ``blocks:``); None when it can."""
    own, other = (PHASES, CROSS_CUTTING) if phase else (CROSS_CUTTING, PHASES)
    if name in own:
        return None
    if name in other:
        where = "blocks:" if phase else "flow:"
        kind = "a block that hooks into phases" if phase else "a phase"
        return f"{name!r} is {kind}: list it under {where}"
    if name in installed_block_names():
        return None
    return f"there is no building block {name!r}; known: {', '.join(own)} (or a package's crewkit.blocks entry point)"
