"""Static types of the condition language.

A type is a kind (``int``, ``bool``, ``card`` ...), an element type for lists, and a ``maybe`` marker for
values that can be ``none`` (``won_by(card)`` before the card is won). ``ANY`` stands for "already
reported": it is compatible with everything so one mistake does not cascade into many messages.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Type:
    kind: str
    elem: Type | None = None
    maybe: bool = False

    def __str__(self) -> str:
        if self.kind == "list":
            inner = str(self.elem) if self.elem is not None else "any"
            text = f"list[{inner}]"
        else:
            text = self.kind
        return text + ("?" if self.maybe and self.kind != "none" else "")

    @property
    def is_list(self) -> bool:
        return self.kind == "list"

    def strict(self) -> Type:
        """This type without the maybe-none marker."""
        return Type(self.kind, self.elem) if self.maybe else self

    def or_none(self) -> Type:
        """This type, possibly none."""
        if self.kind in ("none", "any"):
            return self
        return Type(self.kind, self.elem, True)

    def describe(self) -> str:
        """Words for messages: ``a number``, ``a list of cards``, ``a player or none``."""
        base = _ARTICLE.get(self.kind)
        if self.kind == "list":
            base = "a list of " + (
                _PLURAL.get(self.elem.kind, "values") if self.elem is not None else "values"
            )
        if base is None:
            base = self.kind
        if self.maybe and self.kind not in ("none", "any"):
            base += " or none"
        return base

    def plural(self) -> str:
        if self.kind == "list":
            return "lists"
        return _PLURAL.get(self.kind, "values")


_ARTICLE = {
    "int": "a number",
    "bool": "a boolean",
    "str": "a string",
    "card": "a card",
    "suit": "a suit",
    "player": "a player",
    "trick": "a trick",
    "task": "a task",
    "none": "none",
    "any": "a value",
}
_PLURAL = {
    "int": "numbers",
    "bool": "booleans",
    "str": "strings",
    "card": "cards",
    "suit": "suits",
    "player": "players",
    "trick": "tricks",
    "task": "tasks",
    "none": "nones",
    "any": "values",
}

INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
CARD = Type("card")
SUIT = Type("suit")
PLAYER = Type("player")
TRICK = Type("trick")
TASK = Type("task")
NONE = Type("none")
ANY = Type("any")


def LIST(elem: Type) -> Type:  # noqa: N802 - reads like a type constructor
    """The type of lists of ``elem``."""
    return Type("list", elem)


def maybe(t: Type) -> Type:
    """``t`` or none."""
    return t.or_none()


def assignable(actual: Type, expected: Type) -> bool:
    """Can a value of type ``actual`` be used where ``expected`` is needed?

    Players are seat numbers, so numbers and players mix. Lenient about none: a maybe-none value is accepted where a value is needed (the evaluator reports
    none at run time), so guarded expressions such as ``played(c) and trick_of(c).number > 2`` check.
    """
    if actual.kind == "any" or expected.kind == "any":
        return True
    if actual.kind == "none":
        return expected.maybe or expected.kind == "none"
    if actual.kind != expected.kind:
        # Players are seat numbers: a number may stand for a player and the other way round.
        return {actual.kind, expected.kind} == {"int", "player"}
    if actual.kind == "list":
        a, e = actual.elem, expected.elem
        if a is None or e is None:
            return True
        return assignable(a, e)
    return True


def comparable(a: Type, b: Type) -> bool:
    """May values of these types be compared with ``==``/``!=``?"""
    if a.kind in ("any", "none") or b.kind in ("any", "none"):
        return True
    return assignable(a.strict(), b.strict()) or assignable(b.strict(), a.strict())


def unify(a: Type, b: Type) -> Type | None:
    """The common type of two branches or list items (None if there is none)."""
    if a.kind == "any":
        return b
    if b.kind == "any":
        return a
    if a.kind == "none":
        return b.or_none()
    if b.kind == "none":
        return a.or_none()
    maybe_ = a.maybe or b.maybe
    if {a.kind, b.kind} == {"int", "player"}:
        return Type("player", None, maybe_)
    if a.kind != b.kind:
        return None
    if a.kind == "list":
        ae, be = a.elem or ANY, b.elem or ANY
        elem = unify(ae, be)
        if elem is None:
            return None
        return Type("list", elem, maybe_)
    return Type(a.kind, None, maybe_)
