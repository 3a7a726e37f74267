"""The rules kernel against brute-force readings of the rules (RULES.md: winning a trick, following suit,
task tokens), written over plain lists and sets, without bitmasks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.cards import LED, SPECIAL, TRUMP
from crewkit.families.trick_taking.engine.kernel import (
    ARROW_TOO_EARLY,
    ARROWS,
    LAST_TOO_EARLY,
    NUMBER_OUT_OF_TURN,
    NUMBER_TOO_LATE,
    NUMBERED,
    OMEGA,
    follow_mask,
    strength_table,
    token_kinds,
    token_violation,
    trick_winner,
)


@st.composite
def decks(draw: st.DrawFn) -> tuple[list[int], list[int], list[bool], int]:
    """(suit per card, rank per card, trump per card, number of suits): a few suits, maybe specials."""
    n_suits = draw(st.integers(1, 4))
    trump_suits = draw(st.sets(st.integers(0, n_suits - 1), max_size=1))
    suits: list[int] = []
    ranks: list[int] = []
    for s in range(n_suits):
        for r in range(1, draw(st.integers(1, 6)) + 1):
            suits.append(s)
            ranks.append(r)
    for r in range(1, draw(st.integers(0, 3)) + 1):
        suits.append(-1)
        ranks.append(r)
    return suits, ranks, [s in trump_suits for s in suits], n_suits


def brute_winner(cards: list[int], led: int, suits: list[int], ranks: list[int], trumps: list[bool],
                 precedence: list[str]) -> int:
    """Go down the categories named in ``play.trick_winner``, strongest first; the first category present in
    the trick wins with its highest card. Categories not named rank below all named ones, together."""
    def category(c: int) -> str | None:
        if suits[c] < 0:
            return SPECIAL
        if trumps[c]:
            return TRUMP
        if suits[c] == led:
            return LED
        return None  # a plain card off the led suit never wins

    groups = [{cat} for cat in precedence] + [{SPECIAL, TRUMP, LED} - set(precedence)]
    for group in groups:
        present = [i for i, c in enumerate(cards) if category(c) in group]
        if present:
            top = max(ranks[cards[i]] for i in present)
            return min(i for i in present if ranks[cards[i]] == top)
    return 0


@settings(max_examples=300, deadline=None)
@given(data=st.data(), deck=decks(), precedence=st.permutations([SPECIAL, TRUMP, LED]))
def test_trick_winner_matches_brute_force(data: st.DataObject, deck: tuple, precedence: list[str]) -> None:
    suits, ranks, trumps, n_suits = deck
    keep = data.draw(st.integers(0, 3))
    prec = precedence[:keep]
    cards = data.draw(st.lists(st.integers(0, len(suits) - 1), min_size=1, max_size=5, unique=True))
    led = data.draw(st.sampled_from([suits[cards[0]], -1, *range(n_suits)]))
    table = strength_table(suits, ranks, trumps, n_suits, prec)
    got = trick_winner(cards, table[led + 1])
    assert got == brute_winner(cards, led, suits, ranks, trumps, prec)
    # strength 0 means "cannot win": exactly the plain cards off the led suit
    for c in cards:
        assert (table[led + 1][c] == 0) == (suits[c] >= 0 and not trumps[c] and suits[c] != led)


@settings(max_examples=300, deadline=None)
@given(deck=decks(), data=st.data())
def test_follow_mask_matches_brute_force(deck: tuple, data: st.DataObject) -> None:
    suits, _ranks, _trumps, n_suits = deck
    hand = data.draw(st.sets(st.integers(0, len(suits) - 1)))
    free = data.draw(st.sets(st.integers(0, len(suits) - 1)))
    led = data.draw(st.integers(-1, n_suits - 1))
    led_mask = sum(1 << c for c in range(len(suits)) if suits[c] == led) if led >= 0 else 0
    got = follow_mask(sum(1 << c for c in hand), led_mask, sum(1 << c for c in free))
    # must follow suit if you can; a free card may always be played
    of_led = {c for c in hand if led >= 0 and suits[c] == led}
    want = (of_led | (hand & free)) if of_led else hand
    assert {c for c in range(len(suits)) if got >> c & 1} == want


TOKENS = [*NUMBERED, OMEGA, *ARROWS]


def brute_token_failures(tokens: list[str | None], when: list[int | None], t: int) -> set[tuple[int, int]]:
    """The token rules broken in trick ``t`` by the completion history ``when`` (trick per task, None: never),
    read from the rule text: tasks completed in one trick are simultaneous; task k must be among the k-th
    completed; Ω is completed last; an arrow not before a lower arrow."""
    done_before = sum(1 for w in when if w is not None and w < t)
    done_now = done_before + sum(1 for w in when if w == t)
    open_after = {i for i, w in enumerate(when) if w is None or w > t}
    out: set[tuple[int, int]] = set()
    for i, tok in enumerate(tokens):
        if when[i] is not None and when[i] < t:
            continue  # judged earlier
        now = when[i] == t
        if tok in NUMBERED:
            k = int(tok)
            if now and not (done_before < k <= done_now):
                out.add((NUMBER_OUT_OF_TURN, i))
            if not now and k <= done_now:
                out.add((NUMBER_TOO_LATE, i))
        elif tok == OMEGA and now and open_after:
            out.add((LAST_TOO_EARLY, i))
        elif tok in ARROWS and now:
            if any(tokens[j] in ARROWS and ARROWS.index(tokens[j]) < ARROWS.index(tok) for j in open_after):
                out.add((ARROW_TOO_EARLY, i))
    return out


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_token_order_matches_brute_force(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 8))
    tokens = data.draw(st.lists(st.sampled_from([*TOKENS, None, None]), min_size=n, max_size=n))
    # a mission holds each token at most once
    seen: set[str] = set()
    tokens = [tok if tok is None or tok not in seen and not seen.add(tok) else None for tok in tokens]
    tricks = data.draw(st.integers(1, 6))
    when = data.draw(st.lists(st.one_of(st.none(), st.integers(1, tricks)), min_size=n, max_size=n))
    kinds, ks = token_kinds(tokens)
    for t in range(1, tricks + 1):
        completed = sum(1 << i for i, w in enumerate(when) if w == t)
        pending = sum(1 << i for i, w in enumerate(when) if w is None or w >= t)
        done = sum(1 for w in when if w is not None and w < t)
        got = token_violation(kinds, ks, pending, completed, done) if completed else None
        want = brute_token_failures(tokens, when, t) if completed else set()
        if got is None:
            assert not want, (tokens, when, t)
        else:
            assert (got[0], got[1]) in want, (tokens, when, t, got)
            # the tasks completed in this trick are named before the open ones
            assert not any(when[i] == t for _, i in want) or when[got[1]] == t
            break
        if want:
            break


def test_token_violation_names_the_open_lower_arrow() -> None:
    kinds, ks = token_kinds([">>", None, ">"])
    assert token_violation(kinds, ks, 0b111, 0b001, 0) == (ARROW_TOO_EARLY, 0, 2)
    assert token_violation(kinds, ks, 0b111, 0b101, 0) is None
