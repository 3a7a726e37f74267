"""The rules kernel: pure functions over card ids and bitmasks, one copy for the engine, the bots and the solver.

Nothing here knows a ``Game``: the callers hold their state (hands as bitmasks, plays as ``(seat, card id)``
pairs, tasks as parallel lists) and ask the kernel three questions that every trick-taking rule set shares:

* which play wins a trick (:func:`strength_table` once per rule set, :func:`trick_winner` per trick),
* which cards a seat may play (:func:`follow_mask`),
* whether the tasks completed in a trick break the task-token order (:func:`token_kinds`,
  :func:`token_violation`).

Card ids are the deck's; a *strength* is an ``int`` where a greater value wins and 0 means the card cannot win
the trick. ``tests/engine/test_kernel.py`` checks every function against a brute-force reading of the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from crewkit.cards import LED, SPECIAL, TRUMP, Deck

# token kinds (see ``tasks.tokens`` in docs/spec.md): none, numbered (1..5), last (Ω), arrow (> .. >>>>)
NONE, NUMBER, LAST, ARROW = 0, 1, 2, 3

# token-order verdicts of :func:`token_violation`
NUMBER_OUT_OF_TURN = 1  # a numbered task completed, but it was not its number's turn
NUMBER_TOO_LATE = 2  # a numbered task still open although that many tasks are done
LAST_TOO_EARLY = 3  # the Ω task completed while other tasks are open
ARROW_TOO_EARLY = 4  # an arrow task completed while a lower arrow is open

_RANK_SPAN = 1 << 16  # ranks are small non-negative numbers; one category's strengths fit in this span
ARROWS = (">", ">>", ">>>", ">>>>")
NUMBERED = ("1", "2", "3", "4", "5")
OMEGA = "omega"


def strength_table(suits: Sequence[int], ranks: Sequence[int], trumps: Sequence[bool], n_suits: int,
                   precedence: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """``table[led + 1][card]``: the strength of each card in a trick whose led suit is ``led`` (-1: none).

    ``suits[card]`` is the suit index (-1 for a special card), ``trumps[card]`` whether that suit is trump,
    ``precedence`` the rule set's ``play.trick_winner`` (categories ``special``, ``trump``, ``led``, strongest
    first). Inside a category the higher rank wins. A category the list leaves out still takes part, below
    every listed one (the engine's reading since the first release); a card of a plain suit that was not led
    never wins (strength 0)."""
    level = {cat: len(precedence) - i + 1 for i, cat in enumerate(precedence)}  # listed: >= 2; left out: 1
    special, trump, led_level = level.get(SPECIAL, 1), level.get(TRUMP, 1), level.get(LED, 1)
    rows = []
    for led in range(-1, n_suits):
        row = []
        for suit, rank, is_trump in zip(suits, ranks, trumps, strict=True):
            if suit < 0:
                cat = special
            elif is_trump:
                cat = trump
            elif suit == led:
                cat = led_level
            else:
                row.append(0)
                continue
            row.append(cat * _RANK_SPAN + rank)
        rows.append(tuple(row))
    return tuple(rows)


def trick_winner(cards: Sequence[int], strengths: Sequence[int]) -> int:
    """The index in ``cards`` (the card ids of a trick in playing order) of the winning card.

    ``strengths`` is the row of :func:`strength_table` for the trick's led suit. The strongest card wins; the
    earlier card wins a tie (it cannot happen with distinct cards of one deck) and the leader wins a trick in
    which no card can win (only possible with an empty precedence list). A caller that follows a trick card
    by card keeps the same rule incrementally: a card takes the lead when its strength is greater."""
    best = 0
    best_key = strengths[cards[0]]
    for i in range(1, len(cards)):
        k = strengths[cards[i]]
        if k > best_key:
            best, best_key = i, k
    return best


def deck_strength_table(deck: Deck, precedence: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """:func:`strength_table` for a deck."""
    cards = deck.cards
    return strength_table(
        [c.suit.index if c.suit is not None else -1 for c in cards],
        [c.rank for c in cards],
        [c.suit is not None and c.suit.trump for c in cards],
        len(deck.suits),
        precedence,
    )


def follow_mask(hand: int, led_mask: int, free: int = 0) -> int:
    """The cards of ``hand`` a seat may play: those of the led suit (``led_mask``: its cards, 0 when no suit is
    led or following is not required) if it holds any, plus its ``free`` cards (playable at any time); else the
    whole hand."""
    follow = hand & led_mask
    if follow:
        return follow | (hand & free)
    return hand


def token_kind(token: str | None) -> tuple[int, int]:
    """``(kind, k)`` of a task token: numbered ``k``, arrow rank ``k`` (0 for ``>``), Ω, or none."""
    if token is None:
        return NONE, 0
    if token in NUMBERED:
        return NUMBER, int(token)
    if token == OMEGA:
        return LAST, 0
    if token in ARROWS:
        return ARROW, ARROWS.index(token)
    return NONE, 0


def token_kinds(tokens: Sequence[str | None]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kinds and numbers of a list of task tokens, as two parallel tuples."""
    pairs = [token_kind(t) for t in tokens]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def token_violation(kinds: Sequence[int], ks: Sequence[int], pending: int, completed: int,
                    done: int) -> tuple[int, int, int] | None:
    """Does completing the tasks ``completed`` in one trick break the token order?

    Tasks are indexes into ``kinds``/``ks``; ``pending`` is the bitmask of tasks open before the trick
    (``completed`` is a subset of it), ``done`` how many tasks were done before it. Tasks completed in one
    trick count as simultaneous. ``None`` when the order holds, else ``(verdict, task, other)``: the first
    broken rule, judging the tasks completed in this trick first (in index order), then the open ones;
    ``other`` is the open lower arrow for :data:`ARROW_TOO_EARLY` (else -1)."""
    after = done + completed.bit_count()
    rest = pending & ~completed
    q = completed
    while q:
        low = q & -q
        i = low.bit_length() - 1
        q ^= low
        kind = kinds[i]
        if kind == NUMBER:
            if not done < ks[i] <= after:
                return NUMBER_OUT_OF_TURN, i, -1
        elif kind == LAST:
            if rest:
                return LAST_TOO_EARLY, i, -1
        elif kind == ARROW:
            r = rest
            while r:
                lo = r & -r
                j = lo.bit_length() - 1
                r ^= lo
                if kinds[j] == ARROW and ks[j] < ks[i]:
                    return ARROW_TOO_EARLY, i, j
    q = rest
    while q:
        low = q & -q
        i = low.bit_length() - 1
        q ^= low
        if kinds[i] == NUMBER and ks[i] <= after:
            return NUMBER_TOO_LATE, i, -1
    return None
