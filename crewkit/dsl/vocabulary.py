"""The single table of every word of the condition language.

Names, functions and fields, each with its signature, return type, a docstring and an example expression.
The checker reads the types from here, the evaluator the implementations, ``docs.py`` the rest. A test
evaluates every example, so examples stay real.

Implementations work on a :class:`~crewkit.dsl.view.View`: a name is ``impl(view)``, a function
``impl(view, *args)``, a field ``impl(obj, view)``. Fields are looked up in a fixed table per type;
nothing is ever fetched by a user-supplied attribute name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from crewkit.cards import Card, Suit

from .types import ANY, BOOL, CARD, INT, LIST, PLAYER, STR, SUIT, TASK, TRICK, Type, maybe
from .view import TaskView, TrickView, View


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: Type

    def describe(self) -> str:
        return self.type.describe()


@dataclass(frozen=True, slots=True)
class Word:
    """One name, function or field."""

    name: str
    kind: str  # "name", "function" or "field"
    returns: Type
    doc: str
    example: str
    impl: Callable[..., Any]
    params: tuple[Param, ...] = ()
    owner: Type | None = None  # for fields: the type they belong to
    phrase: str = ""  # the word in English: ``{0}``, ``{1}`` stand for the arguments (a field's object)

    @property
    def signature(self) -> str:
        if self.kind == "function":
            args = ", ".join(f"{p.name}: {p.type}" for p in self.params)
            return f"{self.name}({args}) -> {self.returns}"
        if self.kind == "field":
            assert self.owner is not None
            return f"{self.owner.kind}.{self.name} -> {self.returns}"
        return f"{self.name} -> {self.returns}"

    def arity_text(self) -> str:
        """``1 argument (a player)``."""
        n = len(self.params)
        what = ", ".join(p.describe() for p in self.params)
        plural = "argument" if n == 1 else "arguments"
        return f"{n} {plural}" + (f" ({what})" if what else "")


# ------------------------------------------------------------------------------------- implementations


def _last(view: View) -> TrickView | None:
    ts = view.tricks()
    return ts[-1] if ts else None


def _first(view: View) -> TrickView | None:
    ts = view.tricks()
    return ts[0] if ts else None


def _last_trick(view: View) -> TrickView | None:
    ts = view.tricks()
    if ts and ts[-1].number == view.total_tricks():
        return ts[-1]
    return None


def _won_by(view: View, card: Card) -> int | None:
    t = view.trick_of(card)
    return None if t is None else t.winner


def _played(view: View, card: Card) -> bool:
    if view.trick_of(card) is not None:
        return True
    return any(c == card for _, c in view.current_plays())


def _left_unplayed(view: View, card: Card) -> bool:
    # Once the hands have run out nothing more is played: a card not played by then never will be.
    return len(view.tricks()) >= view.total_tricks() and not _played(view, card)


def _trick_at(view: View, n: int) -> TrickView | None:
    ts = view.tricks()
    if 1 <= n <= len(ts):
        return ts[n - 1]
    return None


def _cards_of(view: View, suit: Suit) -> tuple[Card, ...]:
    return view.deck.cards_of_suit(suit)


def _cards_of_rank(view: View, n: int) -> tuple[Card, ...]:
    return view.deck.cards_of_rank(n)


def _task_of(view: View, card: Card) -> TaskView | None:
    for t in view.tasks():
        if t.card == card:
            return t
    return None


def _is_colour(card: Card) -> bool:
    return card.suit is not None and not card.suit.trump


def _lost_for(view: View, card: Card, seat: int) -> bool:
    # A card is out of a player's reach once another player won it, or once it stayed unplayed.
    t = view.trick_of(card)
    if t is not None:
        return t.winner != seat
    return _left_unplayed(view, card)


def _seat(view: View, seat: int) -> int:
    if not 0 <= seat < len(view.seats()):
        raise IndexError(seat)  # the evaluator turns it into "there is no seat N at this table"
    return seat


def _longest_run(view: View, seat: int) -> int:
    _seat(view, seat)
    best = run = 0
    for t in view.tricks():
        run = run + 1 if t.winner == seat else 0
        best = max(best, run)
    return best


def _others(view: View, seat: int) -> list[int]:
    _seat(view, seat)
    return [s for s in view.seats() if s != seat]


def _trick_cards(t: TrickView) -> list[Card]:
    return [c for _, c in t.plays]


def _count(_view: View, xs: Sequence[Any]) -> int:
    return len(xs)


# -------------------------------------------------------------------------------------------- tables


def _name(name: str, returns: Type, doc: str, example: str, impl: Callable[[View], Any]) -> Word:
    return Word(name, "name", returns, doc, example, impl)


def _fn(
    name: str,
    params: Sequence[tuple[str, Type]],
    returns: Type,
    doc: str,
    example: str,
    impl: Callable[..., Any],
) -> Word:
    return Word(name, "function", returns, doc, example, impl, tuple(Param(n, t) for n, t in params))


def _field(
    owner: Type, name: str, returns: Type, doc: str, example: str, impl: Callable[[Any, View], Any]
) -> Word:
    return Word(name, "field", returns, doc, example, impl, owner=owner)


_NAME_LIST = [
    _name(
        "players", LIST(PLAYER), "Every seat, in clockwise order.", "count(players) >= 3", lambda v: v.seats()
    ),
    _name(
        "commander",
        PLAYER,
        "The commander's seat (none if the game has no commander).",
        "tricks_won(commander) >= 0",
        lambda v: v.commander(),
    ),
    _name(
        "dealer",
        maybe(PLAYER),
        "The dealer's seat (Hammer; none in The Crew).",
        "dealer == none or dealer in players",
        lambda v: v.dealer(),
    ),
    _name(
        "tricks",
        LIST(TRICK),
        "The completed tricks of this round, in order.",
        "all(t in tricks: t.winner in players)",
        lambda v: v.tricks(),
    ),
    _name(
        "trick",
        maybe(TRICK),
        "The most recently completed trick (none before the first one ends).",
        "trick.number == tricks_played",
        _last,
    ),
    _name(
        "first_trick",
        maybe(TRICK),
        "The first trick, once it is complete.",
        "first_trick.winner == commander",
        _first,
    ),
    _name(
        "last_trick",
        maybe(TRICK),
        "The last trick of the round, once it is complete (else none).",
        "last_trick == none or last_trick.is_last",
        _last_trick,
    ),
    _name(
        "total_tricks",
        INT,
        "How many tricks this round has in all.",
        "total_tricks == 10",
        lambda v: v.total_tricks(),
    ),
    _name(
        "tricks_played",
        INT,
        "How many tricks are complete.",
        "tricks_played + tricks_left == total_tricks",
        lambda v: len(v.tricks()),
    ),
    _name(
        "tricks_left",
        INT,
        "How many tricks are still to be completed (the one in progress included).",
        "tricks_left == 0",
        lambda v: v.total_tricks() - len(v.tricks()),
    ),
    _name(
        "tasks",
        LIST(TASK),
        "Every task of the mission.",
        "all(t in tasks: t.done or t.trick == none)",
        lambda v: v.tasks(),
    ),
    _name(
        "deck",
        LIST(CARD),
        "Every card of the deck, suits in order then specials.",
        "count(deck) == 40",
        lambda v: v.deck.cards,
    ),
    _name("suits", LIST(SUIT), "Every suit of the deck.", "rocket in suits", lambda v: v.deck.suits),
    _name(
        "mode",
        maybe(STR),
        'The round\'s mode (Hammer: "penalty" or "challenge"; none in The Crew).',
        'mode != "challenge"',
        lambda v: v.mode(),
    ),
    _name(
        "current_cards",
        LIST(CARD),
        "The cards of the trick in progress, in playing order.",
        "count(current_cards) < count(players)",
        lambda v: [c for _, c in v.current_plays()],
    ),
]

_FUNCTION_LIST = [
    _fn(
        "tricks_won",
        [("p", PLAYER)],
        INT,
        "How many tricks the player has won this round.",
        "tricks_won(commander) > 0",
        lambda v, p: v.tricks_won(p),
    ),
    _fn(
        "cards_won",
        [("p", PLAYER)],
        LIST(CARD),
        "Every card in the tricks the player has won.",
        "count(c in cards_won(commander): c.suit == pink) >= 1",
        lambda v, p: v.won_cards(p),
    ),
    _fn(
        "hand",
        [("p", PLAYER)],
        LIST(CARD),
        "The cards still in the player's hand.",
        "pink 9 in hand(1)",
        lambda v, p: v.hand(p),
    ),
    _fn(
        "won_by",
        [("c", CARD)],
        maybe(PLAYER),
        "Who won the trick containing the card (none if not yet won).",
        "won_by(pink 1) == commander",
        _won_by,
    ),
    _fn(
        "played",
        [("c", CARD)],
        BOOL,
        "Has the card been played (in a completed trick or the current one)?",
        "played(rocket 4)",
        _played,
    ),
    _fn(
        "left_unplayed",
        [("c", CARD)],
        BOOL,
        "Did the card stay unplayed when the hands ran out? False while tricks are left to play. With 3 "
        "players, JARVIS or the 3-player challenge one card is never played; cards set aside are never played "
        "either. Lets a condition treat such a card as settled: `played(c) or left_unplayed(c)`.",
        "not left_unplayed(rocket 4) or tricks_left == 0",
        _left_unplayed,
    ),
    _fn(
        "lost_for",
        [("c", CARD), ("p", PLAYER)],
        BOOL,
        "Can the player no longer win the card? True once another player won the trick holding it, or once it "
        "stayed unplayed when the hands ran out; false while it is in a hand or on the table. A task to win a "
        "card fails exactly when it is lost for its owner: `lost_for(pink 3, owner)`.",
        "not lost_for(pink 1, commander) or played(pink 1)",
        _lost_for,
    ),
    _fn(
        "longest_run",
        [("p", PLAYER)],
        INT,
        "The most tricks in a row the player has won so far (0 before they win one): consecutive tricks, "
        "counted over the completed tricks.",
        "longest_run(commander) <= tricks_won(commander)",
        _longest_run,
    ),
    _fn(
        "others",
        [("p", PLAYER)],
        LIST(PLAYER),
        "Every seat but the player's, in clockwise order from seat 0.",
        "count(others(commander)) == count(players) - 1",
        _others,
    ),
    _fn(
        "trick_of",
        [("c", CARD)],
        maybe(TRICK),
        "The completed trick containing the card (else none).",
        "trick_of(pink 1).number == 1",
        lambda v, c: v.trick_of(c),
    ),
    _fn(
        "trick_at",
        [("n", INT)],
        maybe(TRICK),
        "The n-th trick (1-based), none if not yet complete.",
        "trick_at(2).leader == trick_at(1).winner",
        _trick_at,
    ),
    _fn(
        "left_of",
        [("p", PLAYER)],
        PLAYER,
        "The player on the left (next clockwise).",
        "left_of(commander) == 1",
        lambda v, p: v.left_of(p),
    ),
    _fn(
        "right_of",
        [("p", PLAYER)],
        PLAYER,
        "The player on the right (previous clockwise).",
        "right_of(left_of(commander)) == commander",
        lambda v, p: v.right_of(p),
    ),
    _fn(
        "cards_of",
        [("s", SUIT)],
        LIST(CARD),
        "Every card of the suit in the deck, ranks ascending.",
        "count(cards_of(rocket)) == 4",
        _cards_of,
    ),
    _fn(
        "cards_of_rank",
        [("n", INT)],
        LIST(CARD),
        "Every suited card of that rank in the deck.",
        "count(cards_of_rank(9)) == 4",
        _cards_of_rank,
    ),
    _fn(
        "is_trump",
        [("c", CARD)],
        BOOL,
        "Is the card of a trump suit (a rocket)?",
        "is_trump(rocket 1)",
        lambda v, c: c.is_trump,
    ),
    _fn(
        "is_colour",
        [("c", CARD)],
        BOOL,
        "Is the card of a non-trump suit (not a rocket, not a special)?",
        "is_colour(pink 1) and not is_colour(rocket 1)",
        lambda v, c: _is_colour(c),
    ),
    _fn(
        "count",
        [("xs", LIST(ANY))],
        INT,
        "The number of items of a list.",
        "count(tricks) == tricks_played",
        _count,
    ),
    _fn("abs", [("x", INT)], INT, "The absolute value.", "abs(1 - 3) == 2", lambda v, x: abs(x)),
    _fn(
        "max",
        [("a", INT), ("b", INT)],
        INT,
        "The larger of two numbers (see also the quantifier).",
        "max(3, 5) == 5",
        lambda v, a, b: max(a, b),
    ),
    _fn(
        "min",
        [("a", INT), ("b", INT)],
        INT,
        "The smaller of two numbers (see also the quantifier).",
        "min(3, 5) == 3",
        lambda v, a, b: min(a, b),
    ),
    _fn(
        "task_of",
        [("c", CARD)],
        maybe(TASK),
        "The task on the card (none if the card has no task).",
        "task_of(pink 1).owner == commander",
        _task_of,
    ),
    _fn(
        "done",
        [("t", TASK)],
        BOOL,
        "Is the task done?",
        "all(t in tasks: not done(t) or t.trick != none)",
        lambda v, t: t.done,
    ),
    _fn(
        "tasks_of",
        [("p", PLAYER)],
        LIST(TASK),
        "The tasks the player owns.",
        "count(tasks_of(commander)) >= 1",
        lambda v, p: [t for t in v.tasks() if t.owner == p],
    ),
]

_FIELD_LIST = [
    _field(
        CARD,
        "suit",
        maybe(SUIT),
        "The card's suit (none for a lone special card).",
        "pink 9.suit == pink",
        lambda c, v: c.suit,
    ),
    _field(
        CARD,
        "rank",
        INT,
        "The card's number (0 for a special card without one).",
        "pink 9.rank == 9",
        lambda c, v: c.rank,
    ),
    _field(CARD, "is_trump", BOOL, "Is it a trump (rocket)?", "rocket 2.is_trump", lambda c, v: c.is_trump),
    _field(
        CARD,
        "is_special",
        BOOL,
        "Is it a lone special card (Hammer's 10)?",
        "not pink 9.is_special",
        lambda c, v: c.is_special,
    ),
    _field(
        CARD, "name", STR, 'The card\'s name, e.g. "pink 9".', 'pink 9.name == "pink 9"', lambda c, v: c.name
    ),
    _field(
        TRICK,
        "number",
        INT,
        "1 for the first trick of the round.",
        "first_trick.number == 1",
        lambda t, v: t.number,
    ),
    _field(
        TRICK,
        "leader",
        PLAYER,
        "Who led the trick.",
        "first_trick.leader == commander",
        lambda t, v: t.leader,
    ),
    _field(TRICK, "winner", PLAYER, "Who won the trick.", "trick.winner in players", lambda t, v: t.winner),
    _field(
        TRICK,
        "winning_card",
        CARD,
        "The card that won the trick.",
        "first_trick.winning_card in first_trick.cards",
        lambda t, v: t.winning_card,
    ),
    _field(
        TRICK,
        "cards",
        LIST(CARD),
        "The cards of the trick in playing order.",
        "count(first_trick.cards) == count(players)",
        lambda t, v: _trick_cards(t),
    ),
    _field(
        TRICK,
        "last_card",
        CARD,
        "The card played last in the trick (by the player on the leader's right).",
        "first_trick.last_card in first_trick.cards",
        lambda t, v: t.plays[-1][1],
    ),
    _field(
        TRICK,
        "led_suit",
        maybe(SUIT),
        "The suit of the first card (none if a special card led).",
        "first_trick.led_suit == pink",
        lambda t, v: t.led_suit,
    ),
    _field(
        TRICK,
        "is_first",
        BOOL,
        "Is it the first trick of the round?",
        "first_trick.is_first",
        lambda t, v: t.number == 1,
    ),
    _field(
        TRICK,
        "is_last",
        BOOL,
        "Is it the last trick of the round (number == total_tricks)?",
        "not first_trick.is_last",
        lambda t, v: t.number == v.total_tricks(),
    ),
    _field(
        TASK,
        "card",
        CARD,
        "The card the task names.",
        "any(t in tasks: t.card == pink 1)",
        lambda t, v: t.card,
    ),
    _field(
        TASK,
        "owner",
        maybe(PLAYER),
        "Who must win the card (none while not yet taken).",
        "all(t in tasks: t.owner in players)",
        lambda t, v: t.owner,
    ),
    _field(
        TASK,
        "token",
        maybe(STR),
        'The task\'s token: "1".."5", "omega", ">"..">>>>", or none.',
        'any(t in tasks: t.token == "omega")',
        lambda t, v: t.token,
    ),
    _field(TASK, "done", BOOL, "Is the task done?", "any(t in tasks: t.done)", lambda t, v: t.done),
    _field(
        TASK,
        "trick",
        maybe(INT),
        "The number of the trick that completed the task (none while open).",
        "all(t in tasks: not t.done or t.trick <= tricks_played)",
        lambda t, v: t.trick,
    ),
    _field(SUIT, "name", STR, "The suit's name.", 'pink.name == "pink"', lambda s, v: s.name),
    _field(
        SUIT,
        "is_trump",
        BOOL,
        "Does the suit beat every other suit?",
        "rocket.is_trump and not pink.is_trump",
        lambda s, v: s.trump,
    ),
]

# Every word in English, for :mod:`crewkit.dsl.words` (a test keeps one phrase per word).
_PHRASES: dict[tuple[str, str], str] = {
    ("name", "players"): "the players",
    ("name", "commander"): "the commander",
    ("name", "dealer"): "the dealer",
    ("name", "tricks"): "the completed tricks",
    ("name", "trick"): "the latest trick",
    ("name", "first_trick"): "the first trick",
    ("name", "last_trick"): "the last trick",
    ("name", "total_tricks"): "the number of tricks in the round",
    ("name", "tricks_played"): "the number of tricks played",
    ("name", "tricks_left"): "the number of tricks left",
    ("name", "tasks"): "the tasks",
    ("name", "deck"): "the cards of the deck",
    ("name", "suits"): "the suits",
    ("name", "mode"): "the round's mode",
    ("name", "current_cards"): "the cards of the trick in progress",
    ("function", "tricks_won"): "the number of tricks won by {0}",
    ("function", "cards_won"): "the cards won by {0}",
    ("function", "hand"): "the cards in the hand of {0}",
    ("function", "won_by"): "the player who won {0}",
    ("function", "played"): "{0} has been played",
    ("function", "left_unplayed"): "{0} stayed unplayed when the hands ran out",
    ("function", "lost_for"): "{0} can no longer be won by {1}",
    ("function", "longest_run"): "the most tricks in a row won by {0}",
    ("function", "others"): "the players other than {0}",
    ("function", "trick_of"): "the trick containing {0}",
    ("function", "trick_at"): "trick number {0}",
    ("function", "left_of"): "the player to the left of {0}",
    ("function", "right_of"): "the player to the right of {0}",
    ("function", "cards_of"): "the {0} cards",
    ("function", "cards_of_rank"): "the cards of rank {0}",
    ("function", "is_trump"): "{0} is a trump",
    ("function", "is_colour"): "{0} is a colour card",
    ("function", "count"): "the number of {0}",
    ("function", "abs"): "the absolute value of {0}",
    ("function", "max"): "the larger of {0} and {1}",
    ("function", "min"): "the smaller of {0} and {1}",
    ("function", "task_of"): "the task on {0}",
    ("function", "done"): "{0} is done",
    ("function", "tasks_of"): "the tasks of {0}",
    ("card", "suit"): "the suit of {0}",
    ("card", "rank"): "the rank of {0}",
    ("card", "is_trump"): "{0} is a trump",
    ("card", "is_special"): "{0} is a special card",
    ("card", "name"): "the name of {0}",
    ("trick", "number"): "the number of {0}",
    ("trick", "leader"): "the leader of {0}",
    ("trick", "winner"): "the winner of {0}",
    ("trick", "winning_card"): "the card that won {0}",
    ("trick", "cards"): "the cards of {0}",
    ("trick", "last_card"): "the card played last in {0}",
    ("trick", "led_suit"): "the suit led in {0}",
    ("trick", "is_first"): "{0} is the first trick",
    ("trick", "is_last"): "{0} is the last trick",
    ("task", "card"): "the card of {0}",
    ("task", "owner"): "the owner of {0}",
    ("task", "token"): "the token of {0}",
    ("task", "done"): "{0} is done",
    ("task", "trick"): "the number of the trick that completed {0}",
    ("suit", "name"): "the name of {0}",
    ("suit", "is_trump"): "{0} is a trump suit",
}


def _with_phrase(w: Word) -> Word:
    key = (w.owner.kind if w.owner is not None else w.kind, w.name)
    return replace(w, phrase=_PHRASES[key])


_NAME_LIST = [_with_phrase(w) for w in _NAME_LIST]
_FUNCTION_LIST = [_with_phrase(w) for w in _FUNCTION_LIST]
_FIELD_LIST = [_with_phrase(w) for w in _FIELD_LIST]

NAMES: dict[str, Word] = {w.name: w for w in _NAME_LIST}
FUNCTIONS: dict[str, Word] = {w.name: w for w in _FUNCTION_LIST}
FIELDS: dict[str, dict[str, Word]] = {}
for _w in _FIELD_LIST:
    assert _w.owner is not None
    FIELDS.setdefault(_w.owner.kind, {})[_w.name] = _w
del _w

# Runtime dispatch of a field name by the object's class, for names shared by several types.
# Only the concrete classes Card and Suit may share field names (tricks and tasks are engine objects).
FIELD_CLASSES: dict[str, type] = {"card": Card, "suit": Suit}


@dataclass(frozen=True, slots=True)
class Construct:
    """A piece of syntax (literal, operator or quantifier) for the documentation."""

    name: str
    signature: str
    doc: str
    example: str


LITERALS: tuple[Construct, ...] = (
    Construct("numbers", "0, 1, 42", "Whole numbers (write `-1` for negatives).", "1 + 2 == 3"),
    Construct("booleans", "true, false", "Truth values.", "true and not false"),
    Construct(
        "none", "none", "No value: a trick not played yet, a card not won yet.", "won_by(pink 1) != none"
    ),
    Construct(
        "strings",
        '"challenge"',
        'Text in double or single quotes, `\\"` inside.',
        'mode == none or mode == "penalty" or mode == "challenge"',
    ),
    Construct(
        "cards",
        "pink 9, rocket 4, ten",
        "A suit name followed by a rank, or a special card's name; checked against the deck.",
        "pink 9.rank == 9",
    ),
    Construct("suits", "pink, rocket", "A suit of the deck by its name.", "pink 9.suit == pink"),
    Construct(
        "roles",
        "sick",
        "A player chosen during setup (`choose_player`), by its role name.",
        "tricks_won(sick) == 0",
    ),
    Construct("lists", "[a, b]", "A list of values of one type.", "commander in [0, 1]"),
)

OPERATORS: tuple[Construct, ...] = (
    Construct(
        "conditional",
        "a if cond else b",
        "`a` when `cond` holds, else `b` (lowest precedence).",
        "(180 if won_by(pink 1) == commander else 0) >= 0",
    ),
    Construct("or", "a or b", "Either holds (evaluated left to right, stops early).", "true or false"),
    Construct("and", "a and b", "Both hold (evaluated left to right, stops early).", "true and true"),
    Construct("not", "not a", "Negation.", "not false"),
    Construct(
        "comparison",
        "== != < <= > >=",
        "Compare numbers; `==` and `!=` compare any two values of one "
        "type (or with none). Comparisons do not chain.",
        "tricks_won(commander) <= total_tricks",
    ),
    Construct(
        "membership",
        "x in list, x not in list",
        "Is the value in the list?",
        "pink 1 in deck and [1, 2] not in [[3]]",
    ),
    Construct(
        "arithmetic",
        "+ - * // %",
        "Whole-number arithmetic; `//` and `%` round down like Python; `+` also joins two lists.",
        "7 // 2 * 2 + 7 % 2 == 7",
    ),
    Construct("negative", "-x", "Minus.", "-3 + 3 == 0"),
    Construct(
        "field",
        "x.name",
        "A field of a card, trick, task or suit (see Fields). A field of none is none.",
        "first_trick.winner == commander",
    ),
    Construct("call", "f(x, y)", "A function (see Functions).", "tricks_won(commander) >= 0"),
    Construct("parentheses", "(a)", "Grouping.", "(1 + 2) * 3 == 9"),
)

QUANTIFIERS: tuple[Construct, ...] = (
    Construct(
        "all",
        "all(x in LIST: condition) -> bool",
        "Does the condition hold for every item? (true for an empty list)",
        "all(p in players: tricks_won(p) <= tricks_played)",
    ),
    Construct(
        "any",
        "any(x in LIST: condition) -> bool",
        "Does the condition hold for some item?",
        "any(t in tricks: t.winner == commander)",
    ),
    Construct(
        "count",
        "count(x in LIST: condition) -> int",
        "How many items satisfy the condition.",
        "count(c in cards_won(commander): c.suit == pink) >= 0",
    ),
    Construct(
        "sum",
        "sum(x in LIST: number) -> int",
        "The total over the items.",
        "sum(p in players: tricks_won(p)) == tricks_played",
    ),
    Construct(
        "max",
        "max(x in LIST: number) -> int",
        "The largest value over the items (error on an empty list).",
        "max(p in players: tricks_won(p)) >= 1",
    ),
    Construct(
        "min",
        "min(x in LIST: number) -> int",
        "The smallest value over the items (error on an empty list).",
        "max(p in players: tricks_won(p)) - min(p in players: tricks_won(p)) < 2",
    ),
)


def all_examples() -> list[tuple[str, str]]:
    """``(word, example)`` for every documented word and construct."""
    out = [(w.name, w.example) for w in _NAME_LIST + _FUNCTION_LIST + _FIELD_LIST]
    out += [(c.name, c.example) for c in LITERALS + OPERATORS + QUANTIFIERS]
    return out
