"""Where DSL appears in a spec: one table, the only place DSL texts are parsed and checked.

Each :class:`DslSite` names a place in a rule set or mission (a path, ``*`` standing for every item of a
list), the type the expression must have and the names it may use. The loader (:mod:`crewkit.spec.loader`)
checks every site of a file with :func:`check_site`, through a :class:`DslChecks` that keeps what it parsed, and
hands the syntax trees to the engine in the typed model (:class:`crewkit.spec.model.Dsl`); the engine compiles
them and parses nothing again. ``crewkit validate`` and a game's loading thus run the same check in the same
environment: the rule set's deck, the roles the mission binds, and the most players the file allows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.cards import Deck

if TYPE_CHECKING:  # the DSL (and lark) load only when an expression is checked
    from crewkit import dsl

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class DslSite:
    kind: str  # ruleset | mission | task-cards
    path: tuple[str, ...]  # "*" matches every item of a list
    expect: str  # bool | int | any: the type of the whole expression
    bound: tuple[tuple[str, str], ...] = ()  # variables bound by the engine when it evaluates: (name, type)
    roles: bool = False  # the mission's roles (bound by its setup steps) may be named
    template: bool = False  # a text with {expressions} inside (a condition's reason)

    def env(self, deck: Deck, roles: Sequence[str] = (), seats: int | None = None) -> dsl.CheckEnv:
        from crewkit import dsl

        types = {"bool": dsl.BOOL, "int": dsl.INT, "player": dsl.PLAYER}
        return dsl.CheckEnv(
            deck=deck,
            roles=frozenset(roles) if self.roles else frozenset(),
            bound={name: types[t] for name, t in self.bound},
            expect=types.get(self.expect),  # "any": None, no constraint
            seats=seats,
        )


_P = (("p", "player"),)  # the player being scored
# a task card's objective: the player who took it, and the number it asked them for (crewkit.spec.taskcards)
_OWNER = (("owner", "player"), ("chosen", "int"))
SITES: tuple[DslSite, ...] = (
    DslSite("mission", ("conditions", "*", "fail_if"), "bool", roles=True),
    DslSite("mission", ("conditions", "*", "done_if"), "bool", roles=True),
    DslSite("mission", ("conditions", "*", "reason"), "any", roles=True, template=True),
    DslSite("mission", ("communication", "closed_if"), "bool", roles=True),
    DslSite("mission", ("scoring", "penalty", "score"), "int", _P),
    DslSite("mission", ("scoring", "penalty", "settled_if"), "bool"),
    DslSite("mission", ("scoring", "hidden", "achieved_if"), "bool", _P),
    DslSite("mission", ("scoring", "challenge", "success_if"), "bool"),
    DslSite("mission", ("scoring", "challenge", "fail_if"), "bool"),
    DslSite("task-cards", ("cards", "*", "fail_if"), "bool", _OWNER),
    DslSite("task-cards", ("cards", "*", "done_if"), "bool", _OWNER),
    DslSite("task-cards", ("cards", "*", "reason"), "any", _OWNER, template=True),
    DslSite("task-cards", ("cards", "*", "may_take_if"), "bool", (("owner", "player"),)),
    DslSite("task-cards", ("cards", "*", "redeal_if"), "bool"),
)


def site(*path: str) -> DslSite:
    """The site with this exact path (``site("scoring", "penalty", "score")``)."""
    for s in SITES:
        if s.path == path:
            return s
    raise KeyError(path)


def sites_in(data: Any, kind: str) -> Iterator[tuple[DslSite, Path, str]]:
    """Every DSL text of a document of ``kind``: (site, concrete path, text); non-strings are skipped."""
    for s in SITES:
        if s.kind != kind:
            continue
        for path, value in _expand(data, s.path, ()):
            if isinstance(value, str):
                yield s, path, value


def _expand(node: Any, pattern: tuple[str, ...], at: Path) -> Iterator[tuple[Path, Any]]:
    if not pattern:
        yield at, node
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        if isinstance(node, list):
            for i, item in enumerate(node):
                yield from _expand(item, rest, (*at, i))
    elif isinstance(node, Mapping) and head in node:
        yield from _expand(node[head], rest, (*at, head))


def check_site(s: DslSite, text: str, deck: Deck, roles: Sequence[str] = (), *, seats: int | None = None) -> Any:
    """Parse and check ``text`` for site ``s``: the AST (a template's parts), or :class:`crewkit.dsl.DslError`.

    ``seats`` (the most players the file allows) bounds seat numbers and the cost estimate."""
    from crewkit import dsl

    env = s.env(deck, roles, seats)
    if s.template:
        parts = dsl.parse_template(text)
        for part in parts:
            if not isinstance(part, str):
                dsl.check(part, env)
        return parts
    expr = dsl.parse(text)
    dsl.check(expr, env)
    return expr


class DslChecks:
    """Parses and checks DSL texts, each (site, text, environment) once, keeping the trees (or the error).

    One per loading of a file: validating it (every reading option too) and building its typed model share
    the work, so a text is parsed and checked once however many passes read it."""

    __slots__ = ("_done",)

    def __init__(self) -> None:
        self._done: dict[tuple[Any, ...], Any] = {}

    def check(self, s: DslSite, text: str, deck: Deck, roles: Sequence[str] = (), *,
              seats: int | None = None) -> Any:
        """:func:`check_site`, remembered; raises the same :class:`crewkit.dsl.DslError` each time."""
        from crewkit import dsl

        # decks compare by their suits and cards (two builds of one ``deck`` block are equal)
        key = (s, text, deck.suits, deck.cards, tuple(roles) if s.roles else (), seats)
        found = self._done.get(key, _MISSING)
        if found is _MISSING:
            try:
                found = check_site(s, text, deck, roles, seats=seats)
            except dsl.DslError as exc:
                found = exc
            self._done[key] = found
        if isinstance(found, dsl.DslError):
            raise found
        return found


_MISSING = object()


def mission_roles(mission: Mapping[str, Any]) -> list[str]:
    """Role names bound by a mission's setup steps (the names its conditions may use)."""
    roles: list[str] = []
    for step in mission.get("setup", []) or []:
        if not isinstance(step, Mapping):
            continue
        for body in step.values():
            if isinstance(body, Mapping):
                if isinstance(body.get("role"), str):
                    roles.append(body["role"])
                for r in body.get("roles", []) or []:
                    if isinstance(r, str):
                        roles.append(r)
                    elif isinstance(r, Mapping) and isinstance(r.get("role"), str):
                        roles.append(r["role"])
    return roles
