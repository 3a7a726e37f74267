"""Block ``tricks`` (phase): the cards are played, one trick after another, judged by the rules kernel.

Who may play what (:func:`legal_play_mask`: follow suit, free cards), the play itself, and the end of a trick:
the kernel names the winner, the trick is stored, and the trick-end hooks of the other blocks run in order
(task scoring, mission conditions, the end of the game, draws, round settlement, ...). Per-card lookups shared
by every game of one rule set are built once (:func:`fast_tables`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewkit.cards import Card, Suit, mask_ids
from crewkit.engine.actions import Action, CardAction, register_card_action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import TRICKS, Block, Handler, Phase, register
from crewkit.families.trick_taking.engine.kernel import deck_strength_table, follow_mask, trick_winner
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Event, Trick

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@dataclass(frozen=True, slots=True)
class Play(CardAction):
    type = "play"


register_card_action(Play)


@register
class Tricks(Block):
    name = "tricks"
    phase = Phase.TRICKS

    def actions(self) -> dict[type, Handler]:
        return {Play: play}  # type: ignore[dict-item]

    def start(self, g: Game) -> None:
        fast = fast_tables(g.rules)
        g._cards = g.rules.deck.cards
        g._play_actions = fast.play_actions
        g._strengths = fast.strengths
        g._free_mask, g._free_not_first, g._free_not_last = fast.free_masks

    def to_act(self, g: Game) -> int | None:
        return g.turn

    def legal(self, g: Game, seat: int) -> list[Action]:
        out: list[Action] = []
        if seat == g.turn:
            plays = g._play_actions[seat]
            out = [plays[i] for i in mask_ids(legal_play_mask(g, seat))]
        # as g.optional_actions(seat), without the extra list; mid-trick only the blocks that offer then
        for optional in g.hooks.optional_in_trick if g.plays else g.hooks.optional:
            out.extend(optional(g, seat))
        return out

    def describe(self, g: Game) -> str:
        return f"trick {len(g.tricks) + 1} of {g.total_tricks}, seat {g.turn} to play"


@dataclass(frozen=True, slots=True)
class FastTables:
    play_actions: tuple[tuple[Play, ...], ...]  # [seat][card id]
    strengths: tuple[tuple[int, ...], ...]  # kernel.strength_table: [led suit + 1][card id]
    free_masks: tuple[int, int, int]  # all free cards, those barred from trick 1, from the last trick


_FAST: dict[int, tuple[Rules, FastTables]] = {}


def fast_tables(rules: Rules) -> FastTables:
    hit = _FAST.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    deck = rules.deck
    tables = FastTables(
        play_actions=tuple(tuple(Play(s, c) for c in deck.cards) for s in range(rules.seats)),
        strengths=deck_strength_table(deck, rules.precedence),
        free_masks=(
            deck.mask(fc.card for fc in rules.free_cards),
            deck.mask(fc.card for fc in rules.free_cards if fc.not_first),
            deck.mask(fc.card for fc in rules.free_cards if fc.not_last),
        ),
    )
    if len(_FAST) > 256:
        _FAST.clear()
    _FAST[id(rules)] = (rules, tables)
    return tables


def trick_led_suit(plays: Sequence[tuple[int, Card]], special_lead: str) -> Suit | None:
    """The colour a trick's players must follow: the lead's; after a led special card (Hammer's 10) the next
    coloured card's under the ``next-card`` rule (``no-suit``: that trick has none). The one rule of it: the engine
    and a hosted seat's view (which gets the cards, not the colour) both read it."""
    if not plays:
        return None
    first = plays[0][1].suit
    if first is not None or special_lead != "next-card":
        return first
    return next((c.suit for _, c in plays if c.suit is not None), None)


def legal_play_mask(g: Game, seat: int) -> int:
    led = g.led_suit
    legal = follow_mask(g.hands[seat], g.rules.suit_masks[led.index] if led is not None and g.rules.must_follow
                        else 0, g._free_mask)
    forbidden = 0
    if g._free_mask:
        number = len(g.tricks) + 1
        if number == 1:
            forbidden |= g._free_not_first
        if number == g.total_tricks:
            forbidden |= g._free_not_last
    if forbidden and legal & ~forbidden:
        legal &= ~forbidden
    return legal


def play(g: Game, a: Play) -> None:
    if g.phase != TRICKS:
        raise IllegalAction("not-playing", g.current_block.not_playing(g))
    seat = a.seat
    card = a.card
    if seat != g.turn:
        raise IllegalAction("not-your-turn", f"seat {seat} cannot play now: it is seat {g.turn}'s turn")
    hand = g.hands[seat]
    if not hand & card.bit:
        raise IllegalAction("card-not-in-hand", f"seat {seat} does not hold {card}")
    if not legal_play_mask(g, seat) & card.bit:
        raise IllegalAction(*why_illegal(g, seat, card))
    g.hands[seat] = hand & ~card.bit
    for hook in g.hooks.card_played:
        hook(g, seat, card)
    g.plays.append((seat, card))
    if g.led_suit is None:
        g.led_suit = trick_led_suit(g.plays, g.rules.special_lead)
    g.events.append(Event("play", seat, card))
    if len(g.plays) == g.n:
        finish_trick(g)
    else:
        g.turn = (seat + 1) % g.n
        for after in g.hooks.after_play:
            after(g)


def why_illegal(g: Game, seat: int, card: Card) -> tuple[str, str]:
    number = len(g.tricks) + 1
    if card.bit & g._free_not_first and number == 1:
        return "not-in-first-trick", f"{card} may not be played in the first trick"
    if card.bit & g._free_not_last and number == g.total_tricks:
        return "not-in-last-trick", f"{card} may not be played in the last trick"
    led = g.led_suit
    if led is not None:
        held = g.rules.deck.from_mask(g.hands[seat] & g.rules.suit_masks[led.index])
        if held:
            return "must-follow", f"seat {seat} must follow {led}: holds {held[0]}"
    return "illegal-play", f"seat {seat} may not play {card} now"


def finish_trick(g: Game) -> None:
    plays = tuple(g.plays)
    led = g.led_suit
    best = plays[trick_winner([c.id for _, c in plays], g._strengths[led.index + 1 if led is not None else 0])]
    winner, winning_card = best
    number = len(g.tricks) + 1
    trick = Trick(number, g.leader, plays, winner, winning_card, led)
    g.tricks.append(trick)
    card_trick = g.card_trick
    mask = 0
    for _, c in plays:
        card_trick[c.id] = trick
        mask |= c.bit
    g.won[winner] |= mask
    g.tricks_won[winner] += 1
    g.plays = []
    g.led_suit = None
    g.leader = winner
    g.turn = winner
    g.events.append(Event("trick", winner, winning_card, f"trick {number}"))
    # after the trick's own event: the log reads "wins trick 3", then "turns up" (the dummy's cards)
    for collected in g.hooks.trick_collected:
        collected(g)
    for hook in g.hooks.trick_end:
        if hook(g, trick, mask) or g._outcome is not None:
            return
