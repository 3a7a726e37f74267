"""The adversarial search's view of its state for the mission formulas, and which cards the formulas can tell
apart (:mod:`crewkit.families.trick_taking.solve.adversarial`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from crewkit.cards import Card
from crewkit.families.trick_taking.engine.game import Trick
from crewkit.families.trick_taking.solve.view import StateView


class RoundView(StateView):
    """The engine's view surface (``crewkit.dsl.view.View``) over the search state, for the mission formulas: a
    round has no commander but its dealer, no roles and no tasks."""

    __slots__ = ()

    def commander(self) -> int | None:
        return self._s.dealer

    def role(self, name: str) -> int | None:
        return None

    def roles(self) -> dict[str, int | None]:
        return {}

    def trick_of(self, card: Card) -> Trick | None:
        return self._s.card_trick.get(card.id)

    def tricks(self) -> Sequence[Trick]:
        return self._s.tricks

    def tasks(self) -> Sequence[Any]:
        return ()


def sum_masks(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


_CARD = r"\b({suits})\s+(\d+)\b"
_RANK = re.compile(r"\brank\s*==\s*(\d+)|\bcards_of_rank\s*\(\s*(\d+)\s*\)")
_SUIT_WORDS = frozenset("if else cards_won won_by cards_of c suit count".split())


def card_classes(texts: Sequence[str], cards: Sequence[Card], suits: Sequence[str]) -> list[int] | None:
    """Which cards the round's scoring formulas can tell apart, read from their texts (conservatively): a class
    per card (two cards of one suit and class, next to each other among the cards left, are equivalent in the
    search), or None when the texts read cards in a way this reading does not know (no merging then).

    Known: words that cannot tell two cards of one suit apart (the cooperative solver's list, suits, who won
    which card), a card named (``blue 7``: a class of its own) and a rank compared for equality (``c.rank == 5``,
    ``cards_of_rank(5)``: that rank's cards in their own class)."""
    from crewkit.families.trick_taking.solve.scope import conditions_merge_safe

    named: set[tuple[str, int]] = set()
    ranks: set[int] = set()
    card_re = re.compile(_CARD.format(suits="|".join(re.escape(s) for s in suits)))
    rest = []
    for text in texts:
        named |= {(m.group(1), int(m.group(2))) for m in card_re.finditer(text)}
        text = card_re.sub(" ", text)
        ranks |= {int(m.group(1) or m.group(2)) for m in _RANK.finditer(text)}
        rest.append(_RANK.sub(" ", text))
    if not conditions_merge_safe(rest, [*_SUIT_WORDS, *suits]):
        return None
    out = []
    for c in cards:
        if c.suit is not None and (c.suit.name, c.rank) in named:
            out.append(1000 + c.id)
        elif c.rank in ranks:
            out.append(1)
        else:
            out.append(0)
    return out
