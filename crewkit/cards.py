"""Cards, suits and decks.

A deck is built from a rule set's ``deck`` block. Every card gets a compact integer id (its index in the
deck), so the engine can keep hands and piles as bitmasks (``1 << card.id``). Card strings are
``"<suit> <rank>"`` with the rule set's suit names, case-insensitive (``"Pink 9"``, ``"rocket 4"``); a lone
special card is written by its label or name (Hammer's ``"10"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from crewkit.errors import CrewkitError

# Category of a card for deciding a trick: the special card beats trumps, trumps beat the led suit.
SPECIAL = "special"
TRUMP = "trump"
LED = "led"


class CardError(CrewkitError, ValueError):
    """A card string that names no card of the deck."""


@dataclass(frozen=True, slots=True)
class Suit:
    """One suit of a deck. ``index`` is its position in the deck's suit list."""

    name: str
    code: str
    ranks: tuple[int, ...]
    trump: bool = False
    index: int = 0

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``suit`` is ``None`` for a lone special card (Hammer's 10)."""

    id: int
    suit: Suit | None
    rank: int
    label: str = ""  # the special card's label; empty for suited cards
    bit: int = field(default=0, compare=False, repr=False)  # 1 << id, stored: the hot path reads it often
    is_trump: bool = field(default=False, compare=False, repr=False)
    # "pink 9" (a special card: its label), stored: every observation and record names its cards
    name: str = field(default="", init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bit", 1 << self.id)
        object.__setattr__(self, "is_trump", self.suit is not None and self.suit.trump)
        object.__setattr__(self, "name", self.label if self.suit is None else f"{self.suit.name} {self.rank}")

    @property
    def is_special(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card({self.name!r})"


@dataclass(frozen=True, slots=True)
class SpecialSpec:
    name: str
    label: str
    code: str
    rank: int = 0


@dataclass(frozen=True)
class Deck:
    """All cards of one game, in a fixed order: suits as listed, ranks ascending, then specials."""

    suits: tuple[Suit, ...]
    cards: tuple[Card, ...]
    _by_name: dict[str, Card] = field(repr=False, compare=False, default_factory=dict)
    _suit_by_name: dict[str, Suit] = field(repr=False, compare=False, default_factory=dict)
    # built on first use: cards by suit index and by rank (a dict on the deck itself, because hashing a
    # frozen deck hashes all its cards, which a per-deck cache elsewhere would pay on every lookup)
    _by_suit: dict[int, tuple[Card, ...]] = field(repr=False, compare=False, default_factory=dict)
    _by_rank: dict[int, tuple[Card, ...]] = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def build(
        cls,
        suits: Iterable[tuple[str, str, Sequence[int], bool]],
        specials: Iterable[SpecialSpec] = (),
        remove: Iterable[str] = (),
    ) -> Deck:
        """Build a deck from ``(name, code, ranks, trump)`` tuples, lone specials and removed card strings."""
        suit_objs = tuple(
            Suit(name=name, code=code, ranks=tuple(ranks), trump=trump, index=i)
            for i, (name, code, ranks, trump) in enumerate(suits)
        )
        raw: list[tuple[Suit | None, int, str]] = [(s, r, "") for s in suit_objs for r in s.ranks]
        raw += [(None, sp.rank, sp.label) for sp in specials]
        removed = {_norm(x) for x in remove}
        kept = [t for t in raw if _norm(t[2] if t[0] is None else f"{t[0].name} {t[1]}") not in removed]
        cards = tuple(Card(id=i, suit=s, rank=r, label=lab) for i, (s, r, lab) in enumerate(kept))
        by_name: dict[str, Card] = {}
        for c in cards:
            by_name[_norm(c.name)] = c
            if c.suit is not None:
                by_name[_norm(f"{c.suit.code} {c.rank}")] = c
                by_name[_norm(f"{c.suit.code}{c.rank}")] = c
        for sp in specials:
            for c in cards:
                if c.suit is None and c.label == sp.label:
                    by_name[_norm(sp.name)] = c
                    by_name[_norm(sp.code)] = c
        deck = cls(suits=suit_objs, cards=cards)
        deck._by_name.update(by_name)
        deck._suit_by_name.update({_norm(s.name): s for s in suit_objs})
        return deck

    def __len__(self) -> int:
        return len(self.cards)

    def cards_of_suit(self, suit: Suit) -> tuple[Card, ...]:
        """The cards of ``suit`` in this deck, in rank order (empty for a suit of another deck)."""
        if not self._by_suit:
            for s in self.suits:
                self._by_suit[s.index] = tuple(c for c in self.cards if c.suit == s)
        if suit.index < len(self.suits) and self.suits[suit.index] == suit:
            return self._by_suit[suit.index]
        return ()

    def cards_of_rank(self, rank: int) -> tuple[Card, ...]:
        """The suited cards of ``rank`` in this deck, in suit order."""
        if not self._by_rank:
            for c in self.cards:
                if c.suit is not None:
                    self._by_rank[c.rank] = self._by_rank.get(c.rank, ()) + (c,)
        return self._by_rank.get(rank, ())

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def suit(self, name: str) -> Suit:
        try:
            return self._suit_by_name[_norm(name)]
        except KeyError:
            known = ", ".join(s.name for s in self.suits)
            raise CardError(f"unknown suit {name!r}; this deck has {known}") from None

    def has_suit(self, name: str) -> bool:
        return _norm(name) in self._suit_by_name

    def card(self, text: object) -> Card:
        """Parse a card string (``"pink 9"``, ``"Rocket 4"``, ``"P9"``, ``"10"``)."""
        if not isinstance(text, str):
            raise CardError(f"expected a card string such as 'pink 9', found {text!r}")
        found = self._by_name.get(_norm(text))
        if found is not None:
            return found
        parts = text.split()
        if len(parts) == 2 and _norm(parts[0]) in self._suit_by_name:
            suit = self._suit_by_name[_norm(parts[0])]
            ranks = ", ".join(str(r) for r in suit.ranks)
            raise CardError(f"{suit.name} has no card {parts[1]!r} in this deck (ranks: {ranks})")
        known = ", ".join(s.name for s in self.suits)
        raise CardError(f"{text!r} is not a card: expected '<suit> <rank>' with a suit among {known}")

    def mask(self, cards: Iterable[Card]) -> int:
        m = 0
        for c in cards:
            m |= 1 << c.id
        return m

    def from_mask(self, mask: int) -> list[Card]:
        out = []
        cards = self.cards
        while mask:
            low = mask & -mask
            out.append(cards[low.bit_length() - 1])
            mask ^= low
        return out

    def suit_mask(self, suit: Suit) -> int:
        return self.mask(c for c in self.cards if c.suit is suit)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def mask_ids(mask: int) -> list[int]:
    """The card ids of the set bits of ``mask`` (a set of cards as a bitmask), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sort_key(card: Card) -> tuple[int, int]:
    """Hand order: by suit as listed in the deck, then rank; specials last."""
    return (card.suit.index if card.suit is not None else 1_000, card.rank)
