"""What one seat can track from its own observation: the cards played per suit, the trumps out, the voids shown.

Everything comes from :class:`~crewkit.families.trick_taking.engine.observation.Observation` (the public
tricks and the seat's own hand): a card the seat cannot see is never named, only counted as unseen. A void is
shown when a seat did not follow its trick's led suit where the rules oblige it to (``must_follow``), except
with a card playable at any time (``free_cards``) and for the dummy seat (JARVIS plays from its face-up cards
only: not following says nothing about its face-down ones): :func:`shown_voids`, which the bots read too.
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
    played = {card.id for trick in obs.tricks for _, card in trick.plays} | {card.id for _, card in obs.current_trick}
    hand = {card.id for card in obs.hand}
    voids = shown_voids(obs)
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


def shown_voids(obs: Observation) -> dict[int, list[Suit]]:
    """Per seat, the suits it showed void in (first shown first): the one rule of voids, for the tracker and
    for the bots' :class:`~crewkit.families.trick_taking.bots.knowledge.Knowledge`.

    A seat shows a void when it plays another suit than its trick's own led suit (Hammer: after a led 10, the
    next card's), where the rules oblige it to follow, with a card that must follow (not a free card); never the
    dummy seat (JARVIS follows with its face-up cards only)."""
    rules = obs.rules
    voids: dict[int, list[Suit]] = {}
    if not rules.must_follow:
        return voids
    free = {f.card.id for f in rules.free_cards}
    for plays, led in [*((tr.plays, tr.led_suit) for tr in obs.tricks), (obs.current_trick, obs.led_suit)]:
        if led is None:
            continue
        for seat, card in plays:
            if card.suit != led and card.id not in free and seat != obs.dummy_seat:
                shown = voids.setdefault(seat, [])
                if led not in shown:
                    shown.append(led)
    return voids


def winner_after(obs: Observation, card: Card) -> int | None:
    """The seat that would be winning the current trick once ``obs.seat`` plays ``card`` (by the rules'
    precedence; the cards already in the trick are public). ``None`` when the precedence decides nothing."""
    from crewkit.families.trick_taking.engine.kernel import deck_strength_table, trick_winner

    plays = [*obs.current_trick, (obs.seat, card)]
    led = plays[0][1].suit
    table = deck_strength_table(obs.rules.deck, obs.rules.precedence)
    row = table[led.index + 1 if led is not None else 0]
    return plays[trick_winner([c.id for _, c in plays], row)][0]
