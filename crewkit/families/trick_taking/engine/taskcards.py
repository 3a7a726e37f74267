"""Task cards with objectives (Mission Deep Sea): the deck compiled for one table, the draw by difficulty, the
redeal rule, and binding a card to its owner.

A task card (:class:`crewkit.spec.taskcards.TaskCardSpec`) is an objective written in the condition language
over the name ``owner`` (and ``chosen``, the number a prediction card asks for). When a seat takes the card
(and names its number), :meth:`TaskCardDeck.bind` puts the seat and the number into the card's syntax trees
(:func:`crewkit.dsl.ast.bind_names`) and compiles them into a
:class:`~crewkit.families.trick_taking.engine.rules.Condition`, which the game adds to its conditions
(``Game.conditions``): from then on the card is judged like any mission condition, by the engine, by the bots'
play-outs (their C translation too) and by the solver.

The draw (:func:`draw_cards`): the deck is shuffled and read card by card; a card whose difficulty for the
table's seats fits in what is still missing of the mission's total is taken, one that would go past it is
skipped, until the total is reached exactly (the rule book; see ``missions/deep-sea/tasks.yaml`` for the
sources). If a pass ends short (every card left is too difficult), the deck is shuffled again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.engine.errors import SetupError
from crewkit.spec.taskcards import CHOSEN, OWNER, NumberAsk, TaskCardSpec, TaskDeck

if TYPE_CHECKING:
    from crewkit.cards import Card, Deck
    from crewkit.families.trick_taking.engine.condition import Condition
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.state import CardTask

MAX_DRAW_PASSES = 100  # reshuffles before a total is declared out of reach (it never happens with the 96 cards)


@dataclass(frozen=True, slots=True)
class TaskCard:
    """One task card at one table: its difficulty for the table's seats and its compiled checks."""

    id: str
    text: str
    note: str
    difficulty: int
    spec: TaskCardSpec
    may_take: Callable[..., Any] | None  # f(view, {"owner": seat}) -> bool
    redeal: Callable[..., Any] | None  # f(view) -> bool, on the dealt hands
    asks: NumberAsk | None


@dataclass(frozen=True)
class TaskCardDeck:
    """The task cards of a rule set's deck (``tasks.deck``) at one table, by id, with a cache of the
    conditions bound to an owner."""

    name: str
    title: str
    source: str  # the deck file, for messages
    cards: tuple[TaskCard, ...]
    seats: int
    _by_id: dict[str, TaskCard] = field(default_factory=dict, repr=False, compare=False)
    _bound: dict[tuple[str, int, int | None], Condition] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id.update((c.id, c) for c in self.cards)

    def card(self, card_id: str) -> TaskCard:
        try:
            return self._by_id[card_id]
        except KeyError:
            raise SetupError(f"there is no task card {card_id!r} in the deck {self.name!r}") from None

    def has(self, card_id: str) -> bool:
        return card_id in self._by_id

    def bind(self, card_id: str, owner: int, chosen: int | None = None) -> Condition:
        """The card's objective as a condition of seat ``owner`` (and the number it named), compiled once."""
        key = (card_id, owner, chosen)
        hit = self._bound.get(key)
        if hit is None:
            hit = self._bound[key] = _bind(self.card(card_id).spec, owner, chosen, self.source)
        return hit


def _bind(spec: TaskCardSpec, owner: int, chosen: int | None, source: str) -> Condition:
    from crewkit import dsl
    from crewkit.dsl import ast as A
    from crewkit.families.trick_taking.engine.condition import Condition

    values: dict[str, A.Expr] = {OWNER: A.Int(owner)}
    if chosen is not None:
        values[CHOSEN] = A.Int(chosen)
    label = f"{spec.id} (seat {owner}" + (f", {chosen}" if chosen is not None else "") + ")"

    def tree(text: Any) -> tuple[Any, str] | None:
        if text is None:
            return None
        expr = A.bind_names(text.expr, values)
        return expr, dsl.to_text(expr)

    fail, done = tree(spec.fail_if), tree(spec.done_if)
    parts = tuple(p if isinstance(p, str) else A.bind_names(p, values) for p in spec.reason.expr)
    where = f"task card {spec.id!r}"
    return Condition(
        id=label,
        fail_if=None if fail is None else dsl.compile_located(fail[0], source, f"{where} (fail_if)", fail[1]),
        done_if=None if done is None else dsl.compile_located(done[0], source, f"{where} (done_if)", done[1]),
        reason=parts,
        check=spec.check,
        fail_text="" if fail is None else fail[1],
        done_text="" if done is None else done[1],
        render_reason=dsl.located(dsl.compile_template(parts), source, f"{where} (reason)", spec.reason.text),
        fail_expr=None if fail is None else fail[0],
        done_expr=None if done is None else done[0],
        card=spec.id,
        text=f"seat {owner}'s task card: " + " ".join(spec.text.split()).rstrip("."),  # the card's own words
    )


def compile_task_deck(deck: TaskDeck, seats: int) -> TaskCardDeck:
    """The deck at a table of ``seats`` seats (a dummy seat counts): every card must have a difficulty for it."""
    from crewkit import dsl

    source = str(deck.path)
    cards = []
    for spec in deck.cards:
        if seats not in spec.difficulty:
            raise SetupError(f"task card {spec.id!r} of {deck.name!r} has no difficulty for {seats} seats "
                             f"(it has {', '.join(map(str, sorted(spec.difficulty)))})")
        cards.append(TaskCard(
            id=spec.id,
            text=spec.text,
            note=spec.note,
            difficulty=spec.difficulty[seats],
            spec=spec,
            may_take=None if spec.may_take_if is None else dsl.compile_located(
                spec.may_take_if.expr, source, f"task card {spec.id!r} (may_take_if)", spec.may_take_if.text),
            redeal=None if spec.redeal_if is None else dsl.compile_located(
                spec.redeal_if.expr, source, f"task card {spec.id!r} (redeal_if)", spec.redeal_if.text),
            asks=spec.asks_number,
        ))
    return TaskCardDeck(deck.name, deck.title, source, tuple(cards), seats)


@dataclass(frozen=True, slots=True)
class TaskDraw:
    """A mission's ``draw_tasks`` step: reach ``difficulty`` by the draw, or take the ``fixed`` cards."""

    difficulty: int
    fixed: tuple[str, ...] = ()


def draw_cards(deck: TaskCardDeck, draw: TaskDraw, rng: random.Random) -> tuple[str, ...]:
    """The ids of the cards drawn for ``draw`` (see the module docstring)."""
    if draw.fixed:
        return tuple(deck.card(c).id for c in draw.fixed)
    order = list(deck.cards)
    for _ in range(MAX_DRAW_PASSES):
        rng.shuffle(order)
        missing = draw.difficulty
        taken: list[str] = []
        for card in order:
            if 0 < card.difficulty <= missing:
                taken.append(card.id)
                missing -= card.difficulty
                if missing == 0:
                    return tuple(taken)
    raise SetupError(f"no draw of the task deck {deck.name!r} reaches a difficulty of exactly {draw.difficulty} "
                     f"with {deck.seats} seats")


def check_drawn(deck: TaskCardDeck, draw: TaskDraw, ids: Sequence[str]) -> tuple[str, ...]:
    """An explicit draw (a record's deal) checked: known cards, none twice, the mission's total exactly."""
    cards = [deck.card(c) for c in ids]
    if len(set(ids)) != len(ids):
        raise SetupError("the deal draws the same task card twice")
    if draw.fixed:
        if sorted(ids) != sorted(draw.fixed):
            raise SetupError(f"the mission's task cards are {', '.join(draw.fixed)}; the deal has {', '.join(ids)}")
        return tuple(ids)
    total = sum(c.difficulty for c in cards)
    if total != draw.difficulty:
        raise SetupError(f"the task cards of the deal add up to a difficulty of {total} with {deck.seats} seats; "
                         f"the mission's total is {draw.difficulty}")
    return tuple(ids)


def needs_redeal(deck: TaskCardDeck, ids: Sequence[str], hands: Sequence[Sequence[Card]], playing: Deck,
                 commander: int | None) -> str | None:
    """The first drawn card whose ``redeal_if`` holds for these hands (the deal must be made again), or None."""
    from crewkit.dsl.view import SimpleView

    redeals = [deck.card(c) for c in ids if deck.card(c).redeal is not None]
    if not redeals:
        return None
    view = SimpleView(deck=playing, n_players=len(hands), commander_seat=commander,
                      hands={s: list(h) for s, h in enumerate(hands)}, total=min(len(h) for h in hands))
    for card in redeals:
        assert card.redeal is not None
        if card.redeal(view, {}):
            return card.id
    return None


def owner_may_take(card: TaskCard, view: Any, seat: int) -> bool:
    """Whether ``seat`` may take ``card`` (its ``may_take_if``, default yes)."""
    return card.may_take is None or bool(card.may_take(view, {OWNER: seat}))


def barred_cards(g: Game, seat: int) -> list[CardTask]:
    """The drawn cards without an owner that ``seat`` may not take (their ``may_take_if``)."""
    deck = g.rules.task_deck
    if deck is None or not any(deck.card(t.id).may_take is not None for t in g.task_cards if t.owner is None):
        return []
    view = g.view()
    return [t for t in g.task_cards if t.owner is None and not owner_may_take(deck.card(t.id), view, seat)]


def takes_every_card(g: Game, role: str) -> bool:
    """Whether a ``distribute_tasks`` step of the mission gives every drawn card to ``role`` alone."""
    return any(s.kind == "distribute-tasks" and list(s.params.get("to") or ()) == [role]
               for s in g.rules.setup_steps)


def seat_words(g: Game, seat: int) -> str:
    return f"seat {seat}" + (" (the commander)" if seat == g.commander else "")


def may_take_text(g: Game, task: CardTask) -> str:
    """The card in its own words, with its note (who may take it), for a message players read."""
    card = g.rules.task_deck.card(task.id)
    words = " ".join(card.text.split()).rstrip(".")
    note = " ".join(card.note.split()).rstrip(".")
    return f'the task card "{words}"' + (f" ({note[:1].lower()}{note[1:]})" if note else "")


def redraw_hardest(deck: TaskCardDeck, ids: Sequence[str], ties: str, may_take: Callable[[TaskCard], bool],
                   rng: random.Random) -> tuple[str, ...]:
    """``hardest_first`` with ``tasks.hardest_barred: redraw``: while the first to choose may take none of the
    cards it may choose first (the most difficult; ``ties: first-drawn``: the first drawn of them), the most
    recently drawn of those goes back and another card of the same difficulty is drawn in its place (the
    rulebook's repair of a draw that cannot be played, p. 14, as the sources of tasks.yaml read it). No
    randomness is used when nothing is redrawn."""
    out = list(ids)
    gone: set[str] = set()
    while out:
        top = max(deck.card(c).difficulty for c in out)
        hardest = [c for c in out if deck.card(c).difficulty == top]
        offered = hardest[:1] if ties == "first-drawn" else hardest
        if any(may_take(deck.card(c)) for c in offered):
            break
        victim = offered[-1]
        gone.add(victim)
        pool = [c.id for c in deck.cards if c.difficulty == top and c.id not in out and c.id not in gone]
        if not pool:
            raise SetupError(f"no task card of difficulty {top} is left to draw in place of {victim!r}, which the "
                             "first to choose may not take")
        out[out.index(victim)] = rng.choice(pool)
    return tuple(out)


def number_range(card: TaskCard, total_tricks: int) -> range:
    """The numbers the owner of a prediction card may name."""
    ask = card.asks
    assert ask is not None
    high = total_tricks if ask.high is None else min(ask.high, total_tricks)
    return range(ask.low, high + 1)


def bound_names(owner: int, chosen: int | None) -> Mapping[str, int]:
    return {OWNER: owner} if chosen is None else {OWNER: owner, CHOSEN: chosen}


# ---------------------------------------------------------------------------- a game's task cards
def find(g: Game, card_id: str) -> CardTask | None:
    """The drawn task card with this id (None if it was not drawn)."""
    return next((t for t in g.task_cards if t.id == card_id), None)


def assign(g: Game, task: CardTask, seat: int) -> None:
    """``seat`` takes the task card; its objective binds now, or once its owner names the number it asks."""
    from crewkit.families.trick_taking.engine.state import Event

    task.owner = seat
    g.events.append(Event("task-card-taken", seat, None, task.id))
    if g.rules.task_deck.card(task.id).asks is None:
        bind(g, task)


def name_number(g: Game, task: CardTask, number: int) -> None:
    """The owner of a prediction card names its number (shown to the others or not, as the card says)."""
    from crewkit.families.trick_taking.engine.state import Event

    task.number = number
    ask = g.rules.task_deck.card(task.id).asks
    shown = ask is not None and ask.shown
    g.events.append(Event("task-number", task.owner, None, f"{task.id} {number if shown else 'secret'}"))
    bind(g, task)


def bind(g: Game, task: CardTask) -> None:
    """The card's objective becomes one of the game's conditions, bound to its owner (and number)."""
    assert task.owner is not None
    cond = g.rules.task_deck.bind(task.id, task.owner, task.number)
    task.cond = len(g.conditions)
    g.conditions = (*g.conditions, cond)
    g.cond_done.append(False)


def card_done(g: Game, task: CardTask) -> bool:
    """Whether the card's objective is fulfilled (for good, or at a successful end of the hands)."""
    if task.cond is None:
        return False
    if g.cond_done[task.cond]:
        return True
    outcome = g.outcome()
    return g.is_over() and outcome.result == "success"


# ---------------------------------------------------------------------------- what the seats see
@dataclass(frozen=True, slots=True)
class TaskCardInfo:
    """A drawn task card as one seat sees it (``Observation.task_cards``): its owner, the number its owner
    named (None while not named, or kept secret from this seat), and whether its objective is met for good."""

    id: str
    text: str
    owner: int | None
    number: int | None
    secret: bool  # the card's number is kept from the other seats
    done: bool

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "number": self.number, "done": self.done}


def table_cards(g: Game) -> tuple[dict[int, int], tuple[TaskCardInfo, ...]]:
    """For the observations: the conditions only one seat may know (index -> seat: a secret number), and the
    drawn cards with every number (:func:`seen_cards` hides the secret ones per seat)."""
    secret: dict[int, int] = {}
    infos = []
    for task in g.task_cards:
        card = g.rules.task_deck.card(task.id)
        hidden = card.asks is not None and not card.asks.shown
        if hidden and task.cond is not None and task.owner is not None:
            secret[task.cond] = task.owner
        done = task.cond is not None and g.cond_done[task.cond]
        infos.append(TaskCardInfo(task.id, card.text, task.owner, task.number, hidden, done))
    return secret, tuple(infos)


def seen_cards(infos: tuple[TaskCardInfo, ...], seat: int) -> tuple[TaskCardInfo, ...]:
    """The cards as ``seat`` sees them: another seat's secret number is None."""
    if not any(i.secret and i.number is not None and i.owner != seat for i in infos):
        return infos
    return tuple(TaskCardInfo(i.id, i.text, i.owner, None, True, i.done) if i.secret and i.owner != seat else i
                 for i in infos)
