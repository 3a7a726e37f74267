"""Blocks by name, and a trick-taking rule set's composition of blocks (compiled once per :class:`Rules`).

Like :mod:`crewkit.engine.phase`, typed against the trick-taking family's ``Game`` and ``Rules``: the
composition is that family's (a family of its own brings its engine through :class:`crewkit.games.protocol.Family`;
a family on the phase machine names its machine blocks with :func:`machine_block_named`).

crewkit's own blocks live in :mod:`crewkit.families.trick_taking.engine.blocks`; an installed package adds
blocks through the ``crewkit.blocks`` entry-point group (an entry point names a
:class:`~crewkit.engine.phase.Block` subclass, or a module whose import registers blocks with
:func:`~crewkit.engine.phase.register`). Both are imported on first need: the trick-taking blocks when a rule
set of that family is first composed (:data:`FAMILY_BLOCK_MODULES`), an installed package's when one of its
block names is asked for. A family run by the phase machine (:mod:`crewkit.engine.machine`) registers its
machine blocks from its own package.

A rule set names its phases in ``flow:`` (default: ``[setup, draft, tricks]``; with ``rounds:``,
``[choose-mission, tricks]``) and its cross-cutting blocks in ``blocks:``. The composition always holds the
co-operative defaults (:data:`DEFAULT_BLOCKS`) and the blocks its other keys imply (``dummy:`` → the dummy
seat, a secret deal → secret tasks, ``rounds:`` → chip scoring), less those a chosen block replaces.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.engine.errors import SetupError
from crewkit.engine.phase import BLOCKS, Block, CardHook, Handler, PlayHook, TrickHook, register
from crewkit.spec.bundled import TRICK_TAKING

if TYPE_CHECKING:
    from crewkit.engine.actions import Action
    from crewkit.engine.machine import MachineBlock
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.rules import Rules
    from crewkit.families.trick_taking.engine.state import Deal

ENTRY_POINT_GROUP = "crewkit.blocks"
DEFAULT_BLOCKS = ("objectives", "communication", "distress", "gold-frame", "draws")

FAMILY_BLOCK_MODULES: dict[str, tuple[str, ...]] = {
    TRICK_TAKING: tuple(f"crewkit.families.trick_taking.engine.blocks.{m}" for m in (
        "communication", "distress", "draft", "draws", "dummy", "gold_frame", "objectives", "rounds",
        "secret_tasks", "setup_steps", "tricks")),
}
"""crewkit's own block modules of the trick-taking family (each registers its blocks when imported), imported
when a rule set of it is first composed, so that a command pays only for the family it plays. A family of the
phase machine registers its blocks itself: its package imports them before it opens a game."""
_families_loaded: set[str] = set()
_entry_points_loaded = False


def load_family_blocks(family: str) -> None:
    """Register crewkit's own blocks of ``family`` (once)."""
    if family not in _families_loaded:
        for module in FAMILY_BLOCK_MODULES[family]:
            importlib.import_module(module)
        _families_loaded.add(family)


def load_entry_points(name: str | None = None) -> None:
    """Register the blocks of installed packages: those of the entry points called ``name`` (an entry point is
    named for its block), else every one (once). Only the entry points loaded are imported."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    from importlib.metadata import entry_points

    found = False
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if name is not None and ep.name != name:
            continue
        found = True
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in is named; crewkit's own blocks keep working
            raise SetupError(f"the building block {ep.name!r} ({ep.value}) cannot be loaded: {exc}") from None
        if isinstance(obj, type) and issubclass(obj, Block):
            register(obj)
        elif isinstance(obj, type):
            from crewkit.engine.machine import MachineBlock, register_machine_block

            if issubclass(obj, MachineBlock):
                register_machine_block(obj)
    if name is None or not found:  # a module entry point may register blocks of other names: load them all
        _entry_points_loaded = True
        if name is not None:
            load_entry_points()


def known_action_types() -> frozenset[str]:
    """The action types of installed packages' blocks (with those of crewkit's own blocks imported so far), for
    checking a record: crewkit's own are all listed in the record schema (a test keeps that list whole), so no
    family's blocks are imported for them."""
    from crewkit.engine.actions import ACTION_TYPES
    from crewkit.games import installed_action_types

    load_entry_points()
    return frozenset(ACTION_TYPES) | installed_action_types()


def block_named(name: str) -> Block:
    """An instance of the block called ``name`` (crewkit's own, registered, or from an installed package)."""
    load_family_blocks(TRICK_TAKING)
    cls = BLOCKS.get(name)
    if cls is None:
        load_entry_points(name)
        cls = BLOCKS.get(name)
    if cls is None:
        raise SetupError(f"there is no building block {name!r}; blocks: {', '.join(sorted(BLOCKS))}")
    return cls()


def machine_block_named(name: str, params: Any = None) -> MachineBlock[Any]:
    """An instance of the machine block (a phase of a non-trick-taking flow) called ``name``, with ``params``
    (its entry in the rule set's ``flow:``)."""
    from crewkit.engine.machine import MACHINE_BLOCKS

    cls = MACHINE_BLOCKS.get(name)
    if cls is None:
        load_entry_points(name)
        cls = MACHINE_BLOCKS.get(name)
    if cls is None:
        raise SetupError(f"there is no building block {name!r}; blocks: {', '.join(sorted(MACHINE_BLOCKS))}")
    return cls(params)


@dataclass(frozen=True, slots=True)
class Hooks:
    """The hooks of a composition: only those a block defines and its rule set needs (:meth:`Block.needs`), so
    that a rule set pays nothing for the rules it lacks. Offers and trick hooks run in the blocks' ``order``."""

    optional: tuple[Callable[[Game, int], Iterable[Action]], ...]
    optional_in_trick: tuple[Callable[[Game, int], Iterable[Action]], ...]  # those that may offer mid-trick
    trick_end: tuple[TrickHook, ...]
    after_play: tuple[PlayHook, ...]
    card_played: tuple[CardHook, ...]
    trick_collected: tuple[PlayHook, ...]
    # building and cloning a game: the blocks' methods, only where a block overrides Block's no-op
    prepare: tuple[Callable[[Game, Deal], None], ...]
    choose_commander: tuple[Callable[[Game], int | None], ...]
    start: tuple[Callable[[Game], None], ...]
    started: tuple[Callable[[Game], None], ...]
    clone_state: tuple[Callable[[Game, Game], None], ...]


@dataclass(frozen=True, slots=True)
class Composition:
    flow: tuple[Block, ...]  # the phases, in order
    blocks: tuple[Block, ...]  # every block: the phases, then the cross-cutting ones by their order
    handlers: dict[type, Handler]  # action type -> the block's handler
    hooks: Hooks
    takes_dealer: bool

    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.blocks)


_COMPOSED: dict[int, tuple[Rules, Composition]] = {}


def compose(rules: Rules) -> Composition:
    """The blocks of ``rules``: its flow and its cross-cutting blocks, their handlers and hooks."""
    hit = _COMPOSED.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    flow = tuple(block_named(name) for name in rules.flow)
    for b in flow:
        if b.phase is None:
            raise SetupError(f"flow: {b.name!r} is not a phase (it is a block that hooks into phases; list it "
                             "under blocks:)")
    names = list(DEFAULT_BLOCKS)
    if rules.dummy is not None:
        names.append("dummy-seat")
    if rules.secret is not None:
        names.append("secret-tasks")
    if rules.scoring is not None:
        names.append("chip-scoring")
    names += [n for n in rules.blocks if n not in names]
    extra = [block_named(n) for n in names]
    replaced = {r for b in (*flow, *extra) for r in b.replaces}
    extra = sorted((b for b in extra if b.name not in replaced), key=lambda b: b.order)
    blocks = (*flow, *extra)
    handlers: dict[type, Handler] = {}
    owner: dict[type, str] = {}
    for b in blocks:
        for kind, handler in b.actions().items():
            if kind in handlers:
                raise SetupError(f"blocks {owner[kind]!r} and {b.name!r} both carry out {kind.__name__} actions")
            handlers[kind] = handler
            owner[kind] = b.name

    by_order = sorted(blocks, key=lambda b: b.order)

    def hooks_of(hook: str, get: Callable[[Block], object]) -> tuple[Any, ...]:
        return tuple(h for h in (get(b) for b in by_order if b.needs(hook, rules)) if h is not None)

    def overriding(method: str) -> tuple[Any, ...]:  # in the order of ``blocks``, as the game has run them
        return tuple(getattr(b, method) for b in blocks if getattr(type(b), method) is not getattr(Block, method))

    offering = [b for b in extra if type(b).optional is not Block.optional and b.needs("optional", rules)]
    hooks = Hooks(
        optional=tuple(b.optional for b in offering),
        optional_in_trick=tuple(b.optional for b in offering if b.needs("optional_in_trick", rules)),
        trick_end=hooks_of("trick_end", lambda b: b.trick_end()),
        after_play=hooks_of("after_play", lambda b: b.after_play()),
        card_played=hooks_of("card_played", lambda b: b.card_played()),
        trick_collected=hooks_of("trick_collected", lambda b: b.trick_collected()),
        prepare=overriding("prepare"),
        choose_commander=overriding("choose_commander"),
        start=overriding("start"),
        started=overriding("started"),
        clone_state=overriding("clone_state"),
    )
    comp = Composition(flow, blocks, handlers, hooks, any(b.takes_dealer for b in blocks))
    if len(_COMPOSED) > 256:
        _COMPOSED.clear()
    _COMPOSED[id(rules)] = (rules, comp)
    return comp
