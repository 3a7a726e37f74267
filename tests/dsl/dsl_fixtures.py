"""Decks and views shared by the DSL tests (a plain module: no conftest name clashes)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from crewkit.cards import Deck, SpecialSpec
from crewkit.dsl import CheckEnv, SimpleView, Type, check, evaluate, parse
from crewkit.dsl.types import BOOL

COLOURS = ["blue", "green", "yellow", "pink"]


def crew_deck() -> Deck:
    suits = [(n, n[0].upper(), range(1, 10), False) for n in COLOURS]
    return Deck.build([*suits, ("rocket", "R", range(1, 5), True)])


def hammer_deck() -> Deck:
    suits = [(n, n[0].upper(), range(1, 10), False) for n in ["red", "blue", "yellow", "green"]]
    return Deck.build(suits, specials=[SpecialSpec(name="ten", label="10", code="X", rank=10)])


CREW = crew_deck()
HAMMER = hammer_deck()


def crew_env(roles: Iterable[str] = (), expect: Type | None = BOOL, **bound: Type) -> CheckEnv:
    return CheckEnv(CREW, frozenset(roles), bound, expect)


def run(
    text: str,
    view: SimpleView,
    roles: Iterable[str] = (),
    expect: Type | None = BOOL,
    bindings: dict[str, object] | None = None,
    bound: dict[str, Type] | None = None,
) -> object:
    """Parse, check (against the view's deck and roles) and evaluate."""
    expr = parse(text)
    env = CheckEnv(view.deck, frozenset(roles) | frozenset(view.role_seats), bound or {}, expect)
    check(expr, env)
    return evaluate(expr, view, bindings or {})


def crew_view(tricks: Sequence[Sequence[str]], **kwargs: object) -> SimpleView:
    """A 4-player Crew view after the given tricks (the first led by seat 0, the commander)."""
    kwargs.setdefault("total", 10)
    return SimpleView.from_plays(CREW, tricks, **kwargs)  # type: ignore[arg-type]


def sample_view() -> SimpleView:
    """Two tricks played, one card of a third on the table; tasks and a role."""
    return SimpleView.from_plays(
        CREW,
        [["pink 1", "pink 3", "pink 9", "pink 2"], ["blue 1", "blue 2", "rocket 1", "blue 3"]],
        tasks=[("pink 1", 2, "omega"), ("blue 2", 1, None), ("green 5", 0, "1")],
        role_seats={"sick": 2},
        hands={1: ["pink 8", "green 5"]},
        current=["yellow 4"],
        total=10,
    )
