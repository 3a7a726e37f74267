"""What one seat can track from its own observation: the cards played per suit, the trumps out, the voids shown.

Everything comes from :class:`~crewkit.families.trick_taking.engine.observation.Observation` (the public
tricks and the seat's own hand): a card the seat cannot see is never named, only counted as unseen. A void is
shown when a seat did not follow the led suit where the rules oblige it to (``must_follow``), except with a
card playable at any time (``free_cards``) and for the dummy seat (JARVIS plays from its face-up cards only:
not following says nothing about its face-down ones).
"""

from __future__ import annotations

from dataclasses import dataclass

from crewkit.cards import Card, Suit, sort_key
from crewkit.families.trick_taking.engine.observation import Observation


@dataclass(frozen=True)
class SuitTrack:
    """One suit as the seat sees it."""

    suit: Suit
    played: tuple[Card, ...]  # in rank order
    in_hand: tuple[Card, ...]  # the seat's own cards of the suit
    unseen: int  # neither played nor in the seat's hand (held by others, or set aside)


@dataclass(frozen=True)
class Tracker:
    """The card tracker of one seat: per suit (trumps last), and per seat the suits it showed void in."""

    seat: int
    suits: tuple[SuitTrack, ...]
    voids: dict[int, tuple[Suit, ...]]  # seat -> suits, in deck order; only seats with a void

    @property
    def trumps(self) -> tuple[SuitTrack, ...]:
        return tuple(s for s in self.suits if s.suit.trump)


def card_tracker(obs: Observation) -> Tracker:
    """The tracker of ``obs.seat`` from its observation only (public plays and its own hand)."""
    rules = obs.rules
    plays: list[tuple[Suit | None, list[tuple[int, Card]]]] = []
    for trick in obs.tricks:
        plays.append((trick.plays[0][1].suit if trick.plays else None, list(trick.plays)))
    current = list(obs.current_trick)
    if current:
        plays.append((current[0][1].suit, current))
    played = {card.id for _, trick_plays in plays for _, card in trick_plays}
    hand = {card.id for card in obs.hand}
    free = {f.card.id for f in rules.free_cards}
    voids: dict[int, list[Suit]] = {}
    if rules.must_follow:
        for led, trick_plays in plays:
            if led is None:
                continue
            for seat, card in trick_plays[1:]:
                if card.suit != led and card.id not in free and seat != obs.dummy_seat:
                    shown = voids.setdefault(seat, [])
                    if led not in shown:
                        shown.append(led)
    tracks = []
    suits = sorted(rules.deck.suits, key=lambda s: (s.trump, s.index))
    for suit in suits:
        cards = [c for c in rules.deck.cards if c.suit == suit]
        tracks.append(SuitTrack(
            suit=suit,
            played=tuple(sorted((c for c in cards if c.id in played), key=sort_key)),
            in_hand=tuple(sorted((c for c in cards if c.id in hand), key=sort_key)),
            unseen=sum(1 for c in cards if c.id not in played and c.id not in hand),
        ))
    order = {s.index: i for i, s in enumerate(rules.deck.suits)}
    return Tracker(obs.seat, tuple(tracks),
                   {seat: tuple(sorted(v, key=lambda s: order[s.index])) for seat, v in sorted(voids.items())})


def winner_after(obs: Observation, card: Card) -> int | None:
    """The seat that would be winning the current trick once ``obs.seat`` plays ``card`` (by the rules'
    precedence; the cards already in the trick are public). ``None`` when the precedence decides nothing."""
    from crewkit.families.trick_taking.engine.kernel import deck_strength_table, trick_winner

    plays = [*obs.current_trick, (obs.seat, card)]
    led = plays[0][1].suit
    table = deck_strength_table(obs.rules.deck, obs.rules.precedence)
    row = table[led.index + 1 if led is not None else 0]
    return plays[trick_winner([c.id for _, c in plays], row)][0]
