"""Every option of every reading of every bundled rule set and mission, played: the invariants hold.

An alternative reading is code nobody runs by default, so it rots unseen (Hammer's `ten-leads=no-suit` once made
every trick colourless). Here each option is switched on alone and random games are played with random legal
actions (optional ones too), checked after every action by code that does not ask the engine how:

- must-follow: a seat that held a card of the colour to follow played that colour or a free card; a free card
  barred from the first trick is never played there;
- the trick winner and winning card, from the resolved rule set's `trick_winner` order;
- card conservation: every card is in exactly one place (a hand, the dummy's columns, a won pile, the trick on
  the table, the cards set aside) or is a card the rule set never deals;
- scores (Hammer): every round's chip changes against the table of RULES.md §4 computed here, the chips move by
  exactly those changes, and the zero-sum readings are zero-sum.

New readings are picked up from the YAML files: nothing to add here when a reading is added.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import pytest

from crewkit.cards import Card, Suit
from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game, Trick
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.spec import bundled
from crewkit.spec.loader import load_mission, load_ruleset

# a game to play under each rule set: (mission or mission set, player counts to cycle through)
BASE = {
    "crew": ("planet-nine/06", [3, 4, 5]),
    "crew-3p-challenge": ("planet-nine/04", [3]),
    "crew-jarvis": ("planet-nine/04", [2]),
    "crew-deep-sea": ("deep-sea/11", [3, 4, 5]),
    "crew-deep-sea-tonoja": ("deep-sea/05", [2]),
    "crew-persian": ("persian", [3, 4, 5]),
    "hammer": ("hammer", [4]),
}
GAMES_PER_OPTION = 3


def _cases() -> Iterator[tuple[str, str, tuple[int, ...], dict[str, str]]]:
    names = [p.stem for p in bundled.bundled_rulesets()]
    for name in names:
        assert name in BASE, f"add a game to play under the new rule set {name!r} to BASE"
        mission, players = BASE[name]
        for reading in load_ruleset(name).data.get("readings") or []:
            for option in reading["options"]:
                yield name, mission, tuple(players), {reading["id"]: option}
    for path in bundled.bundled_missions():
        ms = load_mission(str(path))
        readings = ms.data.get("readings") or []
        if not readings:
            continue
        players = tuple(ms.data.get("players") or [3, 4, 5])
        rulesets = [r for r in ms.data.get("rulesets") or ["crew"] if r in names]
        if "crew" in rulesets and "crew-jarvis" not in rulesets:
            rulesets.append("crew-jarvis")  # every logbook mission is meant to be playable with JARVIS
        for reading in readings:
            for option in reading["options"]:
                for rs in rulesets:
                    counts = (2,) if BASE[rs][1] == [2] else players  # the two-player rule sets (JARVIS, Tonoja)
                    yield rs, ms.id, counts, {reading["id"]: option}


CASES = list(_cases())


def _id(case: tuple[str, str, tuple[int, ...], dict[str, str]]) -> str:
    rs, mission, _, readings = case
    (rid, option), = readings.items()
    return f"{rs}:{mission}:{rid}={option}"


# ---------------------------------------------------------------------------------------------- independent rules
def led_colour(plays: list[tuple[int, Card]], special_lead: str) -> Suit | None:
    """The colour to follow: the lead's; after a led special card the next coloured card's (or none)."""
    if not plays:
        return None
    if plays[0][1].suit is not None:
        return plays[0][1].suit
    if special_lead == "no-suit":
        return None
    return next((c.suit for _, c in plays if c.suit is not None), None)


def trick_winner(plays: tuple[tuple[int, Card], ...], order: list[str], special_lead: str) -> tuple[int, Card]:
    led = led_colour(list(plays), special_lead)

    def strength(card: Card) -> tuple[int, int] | None:
        for i, category in enumerate(order):
            if category == "special" and card.suit is None:
                return i, -card.rank
            if category == "trump" and card.suit is not None and card.suit.trump:
                return i, -card.rank
            if category == "led" and led is not None and card.suit == led:
                return i, -card.rank
        return None

    ranked = [(s, seat, card) for seat, card in plays if (s := strength(card)) is not None]
    if not ranked:
        return plays[0]
    _, seat, card = min(ranked, key=lambda r: r[0])
    return seat, card


def check_play(game: Game, action: Play, play_spec: Mapping[str, Any]) -> None:
    """Before ``action`` is applied: it respects must-follow and the free cards' barred tricks."""
    hand = game.rules.deck.from_mask(game.hands[action.seat])
    free = {game.rules.deck.card(fc["card"]): fc.get("not_in_tricks", []) for fc in play_spec.get("free_cards") or []}
    card = action.card
    if card in free and "first" in free[card] and len(game.tricks) == 0:
        assert len(hand) == 1, f"{card} played in the first trick"
    led = led_colour(list(game.plays), str(play_spec.get("special_lead", "next-card")))
    if led is None or not play_spec.get("must_follow", True) or card in free:
        return
    if any(c.suit == led for c in hand):
        assert card.suit == led, f"seat {action.seat} held {led.name} but played {card} (trick {len(game.tricks) + 1})"


def check_trick(trick: Trick, play_spec: Mapping[str, Any]) -> None:
    order = list(play_spec.get("trick_winner") or ["special", "trump", "led"])
    want = trick_winner(trick.plays, order, str(play_spec.get("special_lead", "next-card")))
    assert (trick.winner, trick.winning_card) == want, f"trick {trick.number} {trick.plays}: engine says " \
                                                       f"{trick.winner} with {trick.winning_card}, rules say {want}"


def check_cards(game: Game) -> None:
    deck = game.rules.deck
    places = [h for seat, h in enumerate(game.hands) if seat != game.dummy_seat]
    if game.dummy_seat is not None:  # the dummy's cards: its columns, and in its hand a card passed to it
        columns = deck.mask(c for col in game.dummy_columns for c in col)
        places += [columns, game.hands[game.dummy_seat] & ~columns]
        tops = deck.mask(col[-1] for col in game.dummy_columns if col)
        assert game.hands[game.dummy_seat] & columns & ~tops == 0, "a face-down dummy card is in its hand"
    places += game.won
    places.append(deck.mask(c for _, c in game.plays))
    places.append(deck.mask(game.deal.set_aside))
    union = 0
    for mask in places:
        assert not union & mask, f"a card is in two places: {deck.from_mask(union & mask)}"
        union |= mask
    missing = deck.mask(deck.cards) & ~union & ~game.rules.undealt_mask
    assert not missing, f"cards vanished: {deck.from_mask(missing)}"


# Hammer's five mission cards, from the table in RULES.md §4: (penalty score, hidden achiever, challenge success)
def _hammer_round(number: int, tricks: list[Trick], total: int, dealer: int, n: int) -> tuple[list[int], int | None,
                                                                                             bool]:
    won: list[list[Card]] = [[] for _ in range(n)]
    count = [0] * n
    for t in tricks:
        won[t.winner].extend(t.cards)
        count[t.winner] += 1
    last = tricks[-1].winner if tricks and tricks[-1].number == total else None

    def taken(seat: int, test: Any) -> int:
        return sum(1 for c in won[seat] if test(c))

    def every(test: Any, of: Any) -> int | None:
        return next((p for p in range(n) if of(p) == test), None)

    red = lambda c: c.suit is not None and c.suit.name == "red"  # noqa: E731
    five = lambda c: c.suit is not None and c.rank == 5  # noqa: E731
    if number == 1:
        scores = [90 - 40 * count[p] for p in range(n)]
        hidden = every(total, lambda p: count[p])
        success = count[dealer] == total
    elif number == 2:
        scores = [90 - 40 * taken(p, red) for p in range(n)]
        hidden = every(9, lambda p: taken(p, red))
        success = taken(dealer, red) == 9
    elif number == 3:
        scores = [40 * count[p] - 90 * taken(p, five) for p in range(n)]
        hidden = every(4, lambda p: taken(p, five))
        success = taken(dealer, five) == 4
    elif number == 4:
        first = tricks[0].winner if tricks else None
        scores = [40 * count[p] - 180 * (first == p) - 180 * (last == p) for p in range(n)]
        hidden, success = None, first == dealer and last == dealer
    else:
        scores = [20 * count[p] - 180 * taken(p, lambda c: c.name == "blue 7") for p in range(n)]
        hidden, success = None, taken(dealer, lambda c: c.name == "blue 7") == 1
    if hidden == dealer:
        hidden = None
    return scores, hidden, success


HIDDEN_PAYMENT = {1: 150, 2: 90, 3: 90}
CHALLENGE_PAYMENT = {1: (150, 90), 2: (90, 90), 3: (90, 90), 4: (40, 90), 5: (40, 90)}


def expected_deltas(game: Game, index: int) -> list[Fraction]:
    res = game.state(MatchState).round_results[index]
    rd = game.rules.readings
    n = game.n
    number = int(res.mission.rsplit("/", 1)[-1])
    tricks = game.state(MatchState).round_tricks[index]
    total = 9
    scores, hidden, success = _hammer_round(number, tricks, total, res.dealer, n)
    deltas = [Fraction(0)] * n
    scorers = list(range(n))
    if res.mode == "challenge":
        assert res.result == ("success" if success else "failure"), res
        win, lose = CHALLENGE_PAYMENT[number]
        amount = win if success else -lose
        for q in range(n):
            if q != res.dealer:
                deltas[q] -= amount
                deltas[res.dealer] += amount
        if rd.get("challenge-others-score") != "penalty-too":
            return deltas
        scorers = [p for p in range(n) if p != res.dealer]
    if hidden is not None and hidden in scorers:
        if rd.get("hidden-payment") == "replaces":
            scores[hidden] = 0
        for q in range(n):
            if q != hidden:
                deltas[q] -= HIDDEN_PAYMENT[number]
                deltas[hidden] += HIDDEN_PAYMENT[number]
    for p in scorers:
        deltas[p] += scores[p]
        if rd.get("automatic-90") == "other-players":
            for q in range(n):
                if q != p:
                    deltas[q] -= Fraction(scores[p], n - 1)
    return deltas


def check_rounds(game: Game, before: list[Fraction], seen: int) -> None:
    rd = game.rules.readings
    for i in range(seen, len(game.state(MatchState).round_results)):
        res = game.state(MatchState).round_results[i]
        assert list(res.deltas) == expected_deltas(game, i), f"round {res.round} ({res.mission}, {res.mode})"
        if res.mode == "challenge" and rd.get("challenge-others-score") != "penalty-too" \
                or rd.get("automatic-90") == "other-players":
            assert sum(res.deltas) == 0, f"round {res.round} is zero-sum under these readings"
        after = [c + d for c, d in zip(before, res.deltas, strict=True)]
        if rd.get("cannot-pay") == "pay-what-they-have":
            after = [max(Fraction(0), c) for c in after]
        assert list(res.chips) == after
        before = after


# ---------------------------------------------------------------------------------------------- the sweep
def play_checked(game: Game, rng: random.Random) -> None:
    play_spec = game.rules.raw_ruleset.get("play") or {}
    scoring = game.scoring is not None
    chips = list(game.state(MatchState).chips) if scoring else []
    rounds_seen = 0
    for _ in range(5000):
        if game.is_over():
            break
        actions = game.legal_actions()
        assert actions, f"no legal action in phase {game.phase}"
        if game.in_communication_window() and rng.random() < 0.3:
            optional = game.optional_actions(rng.randrange(game.n))
            if optional:
                actions = optional
        action = rng.choice(actions)
        tricks_before = len(game.tricks)
        if isinstance(action, Play):
            check_play(game, action, play_spec)
        game.apply(action)
        if len(game.tricks) > tricks_before:
            check_trick(game.tricks[-1], play_spec)
        elif scoring and len(game.state(MatchState).round_results) > rounds_seen:
            check_trick(game.state(MatchState).round_tricks[-1][-1], play_spec)
        if scoring and len(game.state(MatchState).round_results) > rounds_seen:
            check_rounds(game, chips, rounds_seen)
            rounds_seen = len(game.state(MatchState).round_results)
            chips = list(game.state(MatchState).chips)
        check_cards(game)
    assert game.is_over(), "the game does not end"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_reading_option_keeps_the_invariants(case: tuple[str, str, tuple[int, ...], dict[str, str]]) -> None:
    ruleset, mission, counts, readings = case
    for i in range(GAMES_PER_OPTION):
        players = counts[i % len(counts)]
        try:
            game = new_game(ruleset, mission, players, seed=f"sweep-{i}", readings=readings)
        except SetupError as exc:  # a mission refused under a rule set says so; nothing else may refuse
            assert "cannot be played under" in str(exc), exc
            return
        play_checked(game, random.Random(f"{_id(case)}:{i}"))


def test_the_sweep_covers_every_option() -> None:
    """Guards the case list itself: each rule set contributes every option of every one of its readings."""
    for path in bundled.bundled_rulesets():
        data = load_ruleset(path.stem).data
        for reading in data.get("readings") or []:
            for option in reading["options"]:
                assert any(c[0] == path.stem and c[3] == {reading["id"]: option} for c in CASES)
    assert any(c[3] == {"ten-leads": "no-suit"} for c in CASES)


def test_independent_rules_catch_a_colourless_trick() -> None:
    """The checker itself: a trick led red in which blue beat red is refused (the old `no-suit` defect)."""
    game = new_game("hammer", "hammer/01", 4, seed="x", readings={"dealer-start": "chosen"})
    card = game.rules.deck.card
    plays = ((0, card("red 5")), (1, card("blue 4")), (2, card("red 2")), (3, card("green 9")))
    bad = Trick(1, 0, plays, 0, card("red 5"), None)
    check_trick(bad, game.rules.raw_ruleset["play"])  # red 5 wins: fine
    with pytest.raises(AssertionError):
        check_trick(Trick(1, 0, plays, 3, card("green 9"), None), game.rules.raw_ruleset["play"])
