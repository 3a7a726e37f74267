"""What one seat of a board-of-places game may know (:class:`BoardObservation`), built by :func:`observe_board`.

Public to all: the tracks, the tokens, the marker, the discard piles (unless a rule hides them from the lone
seat), the cards played this round, every seat's counter and the sizes of hidden piles, the places revealed.
Only to its owner: a seat's hand of place cards, its face-down played cards until the reveal, its effect
cards (the lone seat's hunt cards, another seat's survival cards), cards shown to it, its pending question.
The order in which seats made a secret choice is never shown: only who has chosen so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewkit.effects.words import describe
from crewkit.engine.boardstate import LONE, BoardState, CardsState, PilesState, TracksState
from crewkit.engine.machine import LogLine

if TYPE_CHECKING:
    from crewkit.engine.board import BoardGame


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as every player sees it."""

    seat: int
    name: str
    role: str  # creature | hunted
    will: int
    hand_size: int
    discard: tuple[int, ...] | None  # None: hidden from the viewer this round (its size is discard_size)
    discard_size: int
    face_down: int  # place cards played face down and not yet revealed
    revealed: tuple[int, ...]  # the places it stands on this round, once revealed
    effect_cards: int  # how many survival (or hunt) cards it holds


@dataclass(frozen=True, slots=True)
class QuestionView:
    why: str
    options: tuple[int | str, ...]
    count: int
    picked: tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class BoardObservation:
    seat: int
    role: str
    round: int
    phase: str
    over: bool
    winners: tuple[int, ...]
    waiting: tuple[int, ...]  # the seats the game waits for (several during a secret choice)
    tracks: dict[str, tuple[int, int]]  # track -> (position, goal)
    board_side: str
    marker_on_beach: bool
    tokens: dict[str, tuple[int, ...]]
    seats: tuple[SeatView, ...]
    hand: tuple[int, ...]  # own place cards
    played: tuple[int, ...]  # own face-down place cards
    effect_cards: tuple[str, ...]  # own hunt cards (lone seat) or survival cards
    hunt_deck: int
    hunt_discard: tuple[str, ...]
    survival_deck: int
    survival_discard: tuple[str, ...]
    reserve: tuple[int, ...]
    cards_played: tuple[tuple[str, str, int], ...]  # (hunt|survival, card id, seat) this round, in order
    rules_in_force: tuple[str, ...]  # player text of the rules in force this round
    shown_to_me: tuple[tuple[int, tuple[int, ...]], ...]  # (owner, place cards) shown to this seat
    question: QuestionView | None  # the pick this seat must make now
    log: tuple[
        str, ...
    ]  # the lines this seat may read, of this round and the one before (BoardGame.lines: all)


def observe_board(g: BoardGame, seat: int) -> BoardObservation:
    piles, cards, board, tracks = (
        g.state(PilesState),
        g.state(CardsState),
        g.state(BoardState),
        g.state(TracksState),
    )
    hidden_discards = seat == LONE and bool(g.rules("hide_discards"))
    seats = []
    for s in range(g.n):
        revealed = tuple(board.positions.get(s, ()))
        seats.append(
            SeatView(
                s,
                g.seat_name(s),
                "creature" if s == LONE else "hunted",
                g.will(s),
                len(piles.hand[s]),
                None if hidden_discards else tuple(piles.discard[s]),
                len(piles.discard[s]),
                0 if revealed else len(piles.played[s]),
                revealed,
                len(cards.hunt_hand) if s == LONE else len(cards.survival[s]),
            )
        )
    q = g.question
    question = (
        QuestionView(q.why.removeprefix("public: "), q.options, q.count, q.partial)
        if q is not None and q.seat == seat
        else None
    )
    return BoardObservation(
        seat=seat,
        role="creature" if seat == LONE else "hunted",
        round=g.round,
        phase=g.phase,
        over=g.is_over(),
        winners=g.winners,
        waiting=g.waiting(),
        tracks={t: (tracks.position[t], tracks.goal[t]) for t in tracks.position},
        board_side=g.choice("board_side"),
        marker_on_beach=board.marker,
        tokens={t: tuple(p) for t, p in board.tokens.items() if p},
        seats=tuple(seats),
        hand=tuple(sorted(piles.hand[seat])),
        played=tuple(piles.played[seat]),
        effect_cards=tuple(cards.hunt_hand if seat == LONE else cards.survival[seat]),
        hunt_deck=len(cards.hunt_deck),
        hunt_discard=tuple(cards.hunt_discard),
        survival_deck=len(cards.survival_deck),
        survival_discard=tuple(cards.survival_discard),
        reserve=tuple(sorted(piles.reserve)),
        cards_played=tuple(cards.played),
        rules_in_force=tuple(describe(r.effect) for r in g.rules()),
        shown_to_me=tuple((owner, shown) for owner, viewer, shown in cards.shown if viewer == seat),
        question=question,
        log=tuple(line.text for line in _recent(g) if line.visible_to(seat)),
    )


def _recent(g: BoardGame) -> list[LogLine]:
    """The log lines of this round and the one before (read backwards: the log only grows)."""
    out: list[LogLine] = []
    for line in reversed(g.lines):
        if line.round < g.round - 1:
            break
        out.append(line)
    out.reverse()
    return out
