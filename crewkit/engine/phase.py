"""The trick-taking blocks' vocabulary: the :class:`Phase` names, the :class:`Block` interface, the block registry.

This is the interface of the *trick-taking* family's blocks, typed against its ``Game``, ``Rules``, ``Deal`` and
``Trick`` (imported for types only): a block here reads and changes a trick-taking game's state through the
hooks that game's fast flow calls. It stays here, not in the family's package, because the ``crewkit.blocks``
entry points of other packages name it; it is not generic on purpose (making it so would put a layer of
indirection on the trick-taking hot paths, which call these hooks per card). A family of its own does not use
it: the phase machine's generic blocks are :class:`crewkit.engine.machine.MachineBlock` (the board family's), and
a family may keep any engine behind :class:`crewkit.games.protocol.Family` (docs/architecture.md, "write a family").

A rule set is a composition of blocks. A *phase block* owns one phase of the flow (``setup``, ``draft``,
``tricks``, ``choose-mission``, ...): it says who acts, which actions are legal, what an action does and how
the phase reads in words. A *cross-cutting block* (communication, the distress signal, the dummy seat, the gold
frame, secret tasks, chip scoring, ...) adds actions and hooks to the phases it touches, as boardgame.io's
plugins do. Blocks are stateless objects: the state lives on the game, so cloning a game never clones a block.

The registry maps a block's name (the word used in a rule set's ``flow:`` and ``blocks:``) to its class.
crewkit's own blocks register themselves in :mod:`crewkit.families.trick_taking.engine.blocks`; another
package adds blocks through the ``crewkit.blocks`` entry-point group (each entry point names a :class:`Block`
subclass, or a module whose import registers its blocks).
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Self

from crewkit.engine.errors import IllegalAction

if TYPE_CHECKING:
    from crewkit.cards import Card
    from crewkit.engine.actions import Action
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.rules import Rules
    from crewkit.families.trick_taking.engine.state import Deal, Trick

class Phase(enum.StrEnum):
    """Where in its flow a game is. The only place phase names are spelled (they compare equal to strings)."""

    SETUP = "setup"
    DRAFT = "draft"
    DISTRESS_PASS = "distress-pass"
    CHOOSE_MISSION = "choose-mission"
    TRICKS = "tricks"
    OVER = "over"



# the members as plain module constants: reading an Enum class attribute is slow in Python 3.11 (hot paths)
SETUP, DRAFT, DISTRESS_PASS = Phase.SETUP, Phase.DRAFT, Phase.DISTRESS_PASS
CHOOSE_MISSION, TRICKS, OVER = Phase.CHOOSE_MISSION, Phase.TRICKS, Phase.OVER

Handler = Callable[["Game", "Action"], None]
TrickHook = Callable[["Game", "Trick", int], bool]  # (game, trick, mask of its cards) -> True: stop here
PlayHook = Callable[["Game"], None]
CardHook = Callable[["Game", int, "Card"], None]  # (game, seat, card) as a card leaves a hand


class BlockState:
    """The base of a block's own state on a game (a small dataclass per block, e.g. ``MatchState`` of chip
    scoring): kept in the game by its class (``game.set_state(s)``, ``game.state(MatchState)``) and copied by
    :meth:`copy` when the game is cloned. Override :meth:`copy` to copy mutable fields (lists, dicts)."""

    __slots__ = ()

    def copy(self) -> Self:
        return copy.copy(self)


class Block:
    """One building block of a rule set. Override what the block does; every hook is optional.

    * ``name``: its word in a rule set (``flow:`` for phases, ``blocks:`` for cross-cutting ones).
    * ``phase``: the phase it runs, for a phase block (``None`` for a cross-cutting block).
    * ``actions()``: the action types it carries out, each with its handler ``(game, action)``.
    * ``start(game)``: once when a game is created (after the deal); ``enter(game)``: when its phase comes up
      in the flow; False skips the phase.
    * ``to_act``, ``legal``, ``apply``, ``describe``: the phase's surface while it is current.
    * ``optional(game, seat)``: actions a seat may take although it is not its turn (communication, ...).
    * ``trick_end()``: hooks run in order when a trick is complete; ``after_play()``: after a card that does
      not complete a trick; ``card_played()``: as a card leaves a hand.
    * ``needs(hook, rules)``: whether one of its hooks can do anything under a rule set (default: yes); the
      composition leaves the others out, so a rule set pays nothing on the hot path for rules it lacks.
    * ``clone()``: blocks keep no game state, so the block itself. A block's own state is a :class:`BlockState`
      on the game (``game.set_state`` in ``start``, ``game.state(Kind)`` to read it), copied by ``Game.clone``.
    """

    name: ClassVar[str] = ""
    phase: ClassVar[Any] = None  # a Phase (or a plug-in's phase name) for a phase block
    takes_every_action: ClassVar[bool] = False  # the phase handles every action itself (setup steps)
    takes_dealer: ClassVar[bool] = False  # a first dealer may be named for a game with this block
    replaces: ClassVar[tuple[str, ...]] = ()  # blocks this one stands in for (left out of the composition)
    order: ClassVar[int] = 50  # hooks of several blocks run by this order (lower first)

    def actions(self) -> dict[type, Handler]:
        return {}

    def prepare(self, g: Game, deal: Deal) -> None:
        """While the game is built from its deal (before the commander is known)."""
        return None

    def choose_commander(self, g: Game) -> int | None:
        """The commander, when this block decides it (else None)."""
        return None

    def start(self, g: Game) -> None:
        return None

    def started(self, g: Game) -> None:
        """Once the flow has begun (the first phase entered)."""
        return None

    def enter(self, g: Game) -> bool:
        return True

    def to_act(self, g: Game) -> int | None:
        return None

    def legal(self, g: Game, seat: int) -> list[Action]:
        return []

    def apply(self, g: Game, action: Action) -> None:
        raise IllegalAction("unknown-action", f"this rule set has no {action.type!r} action")

    def describe(self, g: Game) -> str:
        return self.name

    def not_playing(self, g: Game) -> str:
        """Why no card may be played while this phase is current."""
        return f"cards are played only after the {self.describe(g)}"

    def optional(self, g: Game, seat: int) -> Iterable[Action]:
        return ()

    def trick_end(self) -> TrickHook | None:
        return None

    def after_play(self) -> PlayHook | None:
        return None

    def card_played(self) -> CardHook | None:
        return None

    def trick_collected(self) -> PlayHook | None:
        """Run when a trick's cards are gathered and its event logged, before the next play (e.g. the dummy's cards turn up)."""
        return None

    def needs(self, hook: str, rules: Rules) -> bool:
        """Whether this block's ``hook`` can act under ``rules``; when False the composition leaves it out.

        ``hook`` is ``"optional"``, ``"trick_end"``, ``"after_play"``, ``"card_played"``, ``"trick_collected"``,
        or ``"optional_in_trick"``: whether ``optional`` may offer an action while cards of the trick are on
        the table (False for a block whose ``optional`` returns nothing once a trick has begun). Answer False
        only when the hook is certain to do nothing for every game of ``rules``: it is a speed-up, never a
        change of the rules."""
        return True

    def clone_state(self, g: Game, other: Game) -> None:
        """Copy into ``other`` (a shallow copy of ``g``) mutable state this block keeps outside its
        :class:`BlockState` (which ``Game.clone`` copies itself)."""
        return None

    def clone(self) -> Block:
        return self


BLOCKS: dict[str, type[Block]] = {}


def register(cls: type[Block]) -> type[Block]:
    """Class decorator: make a block known by its ``name``."""
    if not cls.name:
        raise ValueError(f"block class {cls.__name__} has no name")
    BLOCKS[cls.name] = cls
    return cls
