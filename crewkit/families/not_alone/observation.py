"""What one seat of a board-of-places game may know (:class:`BoardObservation`), built by :func:`observe_board`.

Public to all: the tracks, the tokens (and those a card made available, still to be placed), the marker, the
discard piles (unless a rule hides them from the lone seat), the cards played this round (and what a copy was
played as), every seat's counter and the sizes of hidden piles, the places revealed.
Only to its owner: a seat's hand of place cards, its face-down played cards until the reveal, its effect
cards (the decks its role holds), cards shown to it, its pending question.
The order in which seats made a secret choice is never shown: only who has chosen so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crewkit.effects.words import describe
from crewkit.engine.machine import LogLine
from crewkit.families.not_alone.blocks.cards import chosen_options
from crewkit.families.not_alone.state import LONE, BoardState, CardsState, PilesState, TracksState

if TYPE_CHECKING:
    from crewkit.families.not_alone.board import BoardGame


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as every player sees it."""

    seat: int
    name: str
    role: str  # the rule set's role name (the lone role or the other)
    will: int
    hand_size: int
    discard: tuple[int, ...] | None  # None: hidden from the viewer this round (its size is discard_size)
    discard_size: int
    face_down: int  # place cards played face down and not yet revealed
    revealed: tuple[int, ...]  # the places it stands on this round, once revealed
    effect_cards: int  # how many effect cards it holds (every deck its role holds)


@dataclass(frozen=True, slots=True)
class QuestionView:
    why: str
    options: tuple[int | str, ...]
    count: int
    picked: tuple[int | str, ...]
    labels: tuple[str, ...] = ()  # how a player reads each option, when the options are ids (else ())

    def label(self, value: int | str) -> str:
        return self.labels[self.options.index(value)] if self.labels and value in self.options else str(value)


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
    options: dict[str, str]  # the one-off options chosen so far (option-choice: the board's side)
    marker_placed: bool  # the marker counter on its place
    tokens: dict[str, tuple[int, ...]]
    tokens_to_place: tuple[str, ...]  # tokens a card played made available, placed later this round
    seats: tuple[SeatView, ...]
    hand: tuple[int, ...]  # own place cards
    played: tuple[int, ...]  # own face-down place cards
    effect_cards: tuple[str, ...]  # own effect cards (every deck the seat's role holds)
    draw_piles: dict[str, int]  # deck -> cards left to draw
    discards: dict[str, tuple[str, ...]]  # deck -> its discarded cards, oldest first
    reserve: tuple[int, ...]
    cards_played: tuple[tuple[str, str, int], ...]  # (deck, card id, seat) this round, in order
    copies: dict[str, str]  # a card played this round that copies -> the card it was played as
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
                g.role_of(s),
                g.will(s),
                len(piles.hand[s]),
                None if hidden_discards else tuple(piles.discard[s]),
                len(piles.discard[s]),
                0 if revealed else len(piles.played[s]),
                revealed,
                sum(len(cards.hands[d][s]) for d in g.decks_of(s)),
            )
        )
    q = g.question
    question = (
        QuestionView(q.why.removeprefix("public: "), q.options, q.count, q.partial, q.labels)
        if q is not None and q.seat == seat
        else None
    )
    return BoardObservation(
        seat=seat,
        role=g.role_of(seat),
        round=g.round,
        phase=g.phase,
        over=g.is_over(),
        winners=g.winners,
        waiting=g.waiting(),
        tracks={t: (tracks.position[t], tracks.goal[t]) for t in tracks.position},
        options=chosen_options(g),
        marker_placed=board.marker,
        tokens={t: tuple(p) for t, p in board.tokens.items() if p},
        tokens_to_place=tuple(t for t in board.to_place if not board.tokens.get(t)),
        seats=tuple(seats),
        hand=tuple(sorted(piles.hand[seat])),
        played=tuple(piles.played[seat]),
        effect_cards=tuple(c for d in g.decks_of(seat) for c in cards.hands[d][seat]),
        draw_piles={d: len(p) for d, p in cards.draw.items()},
        discards={d: tuple(p) for d, p in cards.discard.items()},
        reserve=tuple(sorted(piles.reserve)),
        cards_played=tuple(cards.played),
        copies=dict(cards.copies),
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


def board_observation_from_json(data: dict[str, Any]) -> BoardObservation:
    """A seat's observation from its JSON form (a hosted table's ``state``: ``dataclasses.asdict`` of a
    :class:`BoardObservation`, as :meth:`NotAloneGame.observation` sends it): the same object back."""
    q = data.get("question")
    return BoardObservation(
        seat=int(data["seat"]),
        role=str(data["role"]),
        round=int(data["round"]),
        phase=str(data["phase"]),
        over=bool(data["over"]),
        winners=tuple(int(s) for s in data["winners"]),
        waiting=tuple(int(s) for s in data["waiting"]),
        tracks={str(t): (int(p), int(g)) for t, (p, g) in data["tracks"].items()},
        options={str(k): str(v) for k, v in data["options"].items()},
        marker_placed=bool(data["marker_placed"]),
        tokens={str(t): tuple(int(p) for p in places) for t, places in data["tokens"].items()},
        tokens_to_place=tuple(str(t) for t in data["tokens_to_place"]),
        seats=tuple(
            SeatView(int(v["seat"]), str(v["name"]), str(v["role"]), int(v["will"]), int(v["hand_size"]),
                     None if v["discard"] is None else tuple(int(p) for p in v["discard"]), int(v["discard_size"]),
                     int(v["face_down"]), tuple(int(p) for p in v["revealed"]), int(v["effect_cards"]))
            for v in data["seats"]
        ),
        hand=tuple(int(p) for p in data["hand"]),
        played=tuple(int(p) for p in data["played"]),
        effect_cards=tuple(str(c) for c in data["effect_cards"]),
        draw_piles={str(d): int(n) for d, n in data["draw_piles"].items()},
        discards={str(d): tuple(str(c) for c in cards) for d, cards in data["discards"].items()},
        reserve=tuple(int(p) for p in data["reserve"]),
        cards_played=tuple((str(d), str(c), int(s)) for d, c, s in data["cards_played"]),
        copies={str(k): str(v) for k, v in data["copies"].items()},
        rules_in_force=tuple(str(r) for r in data["rules_in_force"]),
        shown_to_me=tuple((int(owner), tuple(int(p) for p in shown)) for owner, shown in data["shown_to_me"]),
        question=None if q is None else QuestionView(
            str(q["why"]), tuple(q["options"]), int(q["count"]), tuple(q["picked"]), tuple(str(x) for x in q["labels"])),
        log=tuple(str(line) for line in data["log"]),
    )
