"""Deck and deal arithmetic of a resolved rule set: one implementation, used by ``crewkit validate`` and the engine.

Below the engine on purpose (ARCHITECTURE.md): the spec layer checks that a deal fits the deck with the very
function the engine uses when a game starts, so a rule set that passes ``validate`` is never refused at the
table for its deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crewkit.cards import Deck, SpecialSpec


class DealError(ValueError):
    """A deal that cannot be made; ``path`` is where in the rule set the problem lies."""

    def __init__(self, message: str, path: tuple[str | int, ...]) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def build_deck(deck_spec: Mapping[str, Any]) -> Deck:
    """The deck of a rule set's ``deck`` block (suits, lone specials, removed cards)."""
    suits = [
        (s["name"], s.get("code", s["name"][:1].upper()), s["ranks"], bool(s.get("trump", False)))
        for s in deck_spec.get("suits", [])
    ]
    specials = [
        SpecialSpec(name=sp["name"], label=str(sp.get("label", sp["name"])), code=sp.get("code", ""),
                    rank=int(sp.get("rank", 0)))
        for sp in deck_spec.get("specials", []) or []
    ]
    return Deck.build(suits, specials, deck_spec.get("remove", []) or [])


def per_count(value: Any, players: int) -> Any:
    """A value given once or per player count (``{"4": 10}``): the one for ``players``, else ``None``."""
    if isinstance(value, Mapping):
        if str(players) in value:
            return value[str(players)]
        if players in value:
            return value[players]
        return None
    return value


def hand_sizes_for(deal: Mapping[str, Any], players: int) -> tuple[int, ...] | None:
    """Cards per seat (seat 0 first) for ``players``, or ``None`` when the rule set gives none."""
    sizes = per_count(deal.get("hands"), players)
    if sizes is None:
        return None
    if isinstance(sizes, int):
        return (sizes,) * players
    return tuple(int(x) for x in sizes)


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Where the cards of one deal go, for one player count."""

    hand_sizes: tuple[int, ...]
    set_aside: int  # set aside unseen before dealing
    dummy: int  # the dummy seat's columns (JARVIS): columns × (face-down + face-up)
    undealt: int  # never dealt (Hammer's 10)

    @property
    def needed(self) -> int:
        return sum(self.hand_sizes) + self.set_aside + self.dummy + self.undealt


def dummy_cards(dummy: Any) -> int:
    """Cards a dummy seat takes: ``columns`` stacks of ``face_down`` + ``face_up`` cards (defaults 7, 1, 1)."""
    if not isinstance(dummy, Mapping):
        return 0
    return int(dummy.get("columns", 7)) * (int(dummy.get("face_down", 1)) + int(dummy.get("face_up", 1)))


def deal_plan(ruleset: Mapping[str, Any], players: int, deck: Deck) -> DealPlan:
    """The deal of ``ruleset`` at ``players``; :class:`DealError` when it has no hand sizes or overflows the deck."""
    deal = ruleset.get("deal") or {}
    sizes = hand_sizes_for(deal, players)
    if sizes is None:
        raise DealError(f"the rule set gives no hand sizes for {players} players", ("deal", "hands"))
    if len(sizes) != players:
        raise DealError(f"{len(sizes)} hand sizes listed for {players} players", ("deal", "hands", str(players)))
    plan = DealPlan(
        hand_sizes=sizes,
        set_aside=int(per_count(deal.get("set_aside", 0), players) or 0),
        dummy=dummy_cards(ruleset.get("dummy")),
        undealt=len(deal.get("undealt") or []),
    )
    if plan.needed > len(deck):
        parts = [f"{sum(sizes)} in the hands"]
        parts += [f"{n} {what}" for n, what in ((plan.set_aside, "set aside"), (plan.dummy, "for the dummy's columns"),
                                                 (plan.undealt, "never dealt")) if n]
        raise DealError(f"with {players} players the deal needs {plan.needed} cards ({', '.join(parts)}) "
                        f"but the deck has {len(deck)}", ("deal", "hands"))
    return plan
