"""Shapes of mission conditions, recognised on the syntax tree (:mod:`crewkit.dsl.ast`, positions ignored).

One place for both readers: the solver compiles "every card of a set won by one seat" into search tasks
(:mod:`crewkit.families.trick_taking.solve.compiled`), and the bots' play-outs and the solver pursue "at least K
tricks won by a card of a set" and "the last trick won by a card of a set" as goals
(:mod:`crewkit.families.trick_taking.bots.conditions`, :mod:`crewkit.families.trick_taking.solve.core`); the bots'
play-outs also keep two limits read from a ``fail_if``: "a seat wins more than K tricks" and "more than K cards of a
set in one trick" (:func:`match_tricks_won_limit`, :func:`match_cards_per_trick_limit`). A shape is read from the
words an author writes, never from a mission's name, so a new mission written the same way is recognised too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import Field, fields
from typing import Any, cast

from crewkit.dsl import ast as A

# a fixed card set: the DSL calls whose result does not depend on the game state
_STATIC_SETS = ("cards_of", "cards_of_rank")
# names that stand for a seat fixed once the tricks begin
_SEAT_NAMES = ("commander", "dealer")


def _is_won_by(node: A.Expr, var: str) -> bool:
    return (isinstance(node, A.Call) and node.func == "won_by" and len(node.args) == 1
            and isinstance(node.args[0], A.Name) and node.args[0].name == var)


def _static(node: A.Expr, roles: Sequence[str]) -> bool:
    """Does ``node`` stand for a value fixed during the tricks (a card set or a seat)?"""
    if isinstance(node, A.Int | A.CardLit):
        return True
    if isinstance(node, A.Name):
        return node.name in _SEAT_NAMES or node.name in roles
    if isinstance(node, A.ListLit):
        return all(isinstance(x, A.CardLit) for x in node.items)
    if isinstance(node, A.Call) and node.func in _STATIC_SETS and len(node.args) == 1:
        arg = node.args[0]
        return isinstance(arg, A.Int) or (isinstance(arg, A.Name) and arg.name not in roles)
    return False


def match_cards_won_by(fail: A.Expr | None, done: A.Expr | None, roles: Sequence[str]
                       ) -> tuple[A.Expr, A.Expr, bool] | None:
    """(CARDS, WHO, UNPLAYED_OK) when the condition is "every card of CARDS is won by WHO" (UNPLAYED_OK: or
    left unplayed when the hands run out), else None."""
    if not (isinstance(fail, A.Quant) and fail.kind == "any" and isinstance(fail.body, A.Binary)
            and fail.body.op == "and"):
        return None
    var = fail.var
    parts = [fail.body.left, fail.body.right]
    who: A.Expr | None = None
    saw_none = False
    for p in parts:
        if not (isinstance(p, A.Compare) and p.op == "!="):
            return None
        a, b = (p.left, p.right) if _is_won_by(p.left, var) else (p.right, p.left)
        if not _is_won_by(a, var):
            return None
        if isinstance(b, A.NoneLit):
            saw_none = True
        else:
            who = b
    if not saw_none or who is None or not _static(who, roles) or not _static(fail.source, roles):
        return None
    if isinstance(who, A.CardLit | A.ListLit) or not isinstance(fail.source, A.ListLit | A.Call):
        return None
    # done_if: all(v in CARDS: won_by(v) == WHO [or left_unplayed(v)])
    if not (isinstance(done, A.Quant) and done.kind == "all" and done.source == fail.source):
        return None
    v2 = done.var
    body = done.body
    unplayed_ok = False
    if isinstance(body, A.Binary) and body.op == "or":
        unplayed_ok = True
        extra = body.right
        if not (isinstance(extra, A.Call) and extra.func == "left_unplayed" and len(extra.args) == 1
                and isinstance(extra.args[0], A.Name) and extra.args[0].name == v2):
            return None
        body = body.left
    if not (isinstance(body, A.Compare) and body.op == "=="):
        return None
    a, b = (body.left, body.right) if _is_won_by(body.left, v2) else (body.right, body.left)
    if not _is_won_by(a, v2) or b != who:
        return None
    return fail.source, who, unplayed_ok


# what a card predicate may read: the card's own facts and constants, nothing of the game's state
_CARD_CALLS = frozenset(("is_colour", "is_trump"))
_CARD_FIELDS = frozenset(("rank", "suit", "is_trump"))
_GOAL_VAR = "__goal_card"


def _card_predicate(body: A.Expr, var: str, field: str | None = "winning_card") -> A.Expr | None:
    """``body`` with ``var.winning_card`` (``field`` None: ``var`` itself, a card) replaced by one card
    variable, when it reads nothing else of the trick nor of the game (a predicate over that card alone); else
    None."""

    def sub(node: A.Expr) -> A.Expr | None:
        if field is not None and isinstance(node, A.Field) and isinstance(node.obj, A.Name) and node.obj.name == var:
            return A.Name(_GOAL_VAR) if node.name == field else None
        if isinstance(node, A.Name):
            if node.name == var:
                return A.Name(_GOAL_VAR) if field is None else None
            return node  # another name: a suit (checked when evaluated)
        if isinstance(node, A.Int | A.Bool | A.CardLit | A.Str | A.NoneLit):
            return node
        if isinstance(node, A.Field):
            obj = sub(node.obj)
            return None if obj is None or node.name not in _CARD_FIELDS else A.Field(obj, node.name)
        if isinstance(node, A.Call):
            if node.func not in _CARD_CALLS:
                return None
            args = [sub(a) for a in node.args]
            return None if any(a is None for a in args) else A.Call(node.func, tuple(args))  # type: ignore[arg-type]
        if isinstance(node, A.Unary):
            x = sub(node.operand)
            return None if x is None else A.Unary(node.op, x)
        if isinstance(node, A.Binary | A.Compare):
            left, right = sub(node.left), sub(node.right)
            if left is None or right is None:
                return None
            return type(node)(node.op, left, right)
        return None

    return sub(body)


def match_tricks_won_by_cards(done: A.Expr | None) -> tuple[A.Expr, int] | None:
    """(PRED, K) when ``done`` is "at least K tricks won by a card of a fixed set":
    ``count(t in tricks: PRED(t.winning_card)) >= K`` (or ``> K - 1``) or ``any(t in tricks: PRED(...))``
    (K = 1), PRED reading the winning card alone. PRED is returned over the card variable of
    :func:`goal_cards`."""
    if isinstance(done, A.Quant) and done.kind == "any":
        quant, k = done, 1
    elif (isinstance(done, A.Compare) and done.op in (">=", ">") and isinstance(done.left, A.Quant)
          and done.left.kind == "count" and isinstance(done.right, A.Int)):
        quant, k = done.left, done.right.value + (1 if done.op == ">" else 0)
    else:
        return None
    if not (isinstance(quant.source, A.Name) and quant.source.name == "tricks") or k <= 0:
        return None
    pred = _card_predicate(quant.body, quant.var)
    return None if pred is None else (pred, k)


def _last_trick_guard(node: A.Expr) -> bool:
    """``last_trick != none`` (either side) or ``last_trick.is_last``: the round's last trick has been played."""
    if isinstance(node, A.Field):
        return node.name == "is_last" and isinstance(node.obj, A.Name) and node.obj.name == "last_trick"
    if isinstance(node, A.Compare) and node.op == "!=":
        sides = (node.left, node.right)
        return any(isinstance(a, A.Name) and a.name == "last_trick" for a in sides) and any(
            isinstance(a, A.NoneLit) for a in sides)
    return False


def match_last_trick_won_by_cards(fail: A.Expr | None) -> A.Expr | None:
    """PRED when ``fail`` is "the last trick is not won by a card of a fixed set":
    ``last_trick != none and not PRED(last_trick.winning_card)`` (either order; ``last_trick.is_last`` as the
    guard), PRED reading the winning card alone: a goal of one trick, the round's last (the solver's goal
    order and bound, as for :func:`match_tricks_won_by_cards`). PRED is over the card variable of
    :func:`goal_cards`."""
    if not (isinstance(fail, A.Binary) and fail.op == "and"):
        return None
    for guard, rest in ((fail.left, fail.right), (fail.right, fail.left)):
        if _last_trick_guard(guard) and isinstance(rest, A.Unary) and rest.op == "not":
            return _card_predicate(rest.operand, "last_trick")
    return None


# what a seat expression may read: names of seats fixed once the tricks begin, numbers, neighbours
_SEAT_CALLS = frozenset(("left_of", "right_of"))


def _seat_expr(node: A.Expr) -> bool:
    if isinstance(node, A.Int):
        return True
    if isinstance(node, A.Name):
        return node.name not in ("last_trick", "trick", "first_trick", "tricks", "tasks", "players")
    if isinstance(node, A.Call):
        return node.func in _SEAT_CALLS and len(node.args) == 1 and _seat_expr(node.args[0])
    return False


def match_last_trick_won_by_seat(fail: A.Expr | None) -> A.Expr | None:
    """WHO when ``fail`` is "the last trick is not won by one seat": ``last_trick != none and
    last_trick.winner != WHO`` (either order; ``not (... == WHO)``; ``last_trick.is_last`` as the guard), WHO a
    seat fixed once the tricks begin (a number, the commander, a role, their neighbours: :func:`goal_seat`)."""
    if not (isinstance(fail, A.Binary) and fail.op == "and"):
        return None
    for guard, rest in ((fail.left, fail.right), (fail.right, fail.left)):
        if not _last_trick_guard(guard):
            continue
        op = "!="
        if isinstance(rest, A.Unary) and rest.op == "not":
            rest, op = rest.operand, "=="
        if not (isinstance(rest, A.Compare) and rest.op == op):
            continue
        for a, b in ((rest.left, rest.right), (rest.right, rest.left)):
            if (isinstance(a, A.Field) and a.name == "winner" and isinstance(a.obj, A.Name)
                    and a.obj.name == "last_trick" and _seat_expr(b)):
                return b
    return None


def _disjuncts(e: A.Expr) -> list[A.Expr]:
    """The parts of ``a or b or ...``: each is a failure of its own, so each limit it states must hold."""
    if isinstance(e, A.Binary) and e.op == "or":
        return [*_disjuncts(e.left), *_disjuncts(e.right)]
    return [e]


def _above(node: A.Expr) -> tuple[A.Expr, int] | None:
    """(X, K) when ``node`` is "X exceeds K": ``X > K``, ``X >= K + 1``, ``K < X``, ``K + 1 <= X`` (K >= 0)."""
    if not isinstance(node, A.Compare):
        return None
    flip = {"<": ">", "<=": ">="}
    if node.op in (">", ">=") and isinstance(node.right, A.Int):
        x, op, k = node.left, node.op, node.right.value
    elif node.op in flip and isinstance(node.left, A.Int):
        x, op, k = node.right, flip[node.op], node.left.value
    else:
        return None
    k -= 1 if op == ">=" else 0
    return (x, k) if k >= 0 else None


def match_tricks_won_limit(fail: A.Expr | None) -> tuple[A.Expr, int] | None:
    """(WHO, K) when ``fail`` (or one part of an ``or``) is "WHO won more than K tricks":
    ``tricks_won(WHO) > K`` (``>= K + 1``, either side), WHO a seat fixed once the tricks begin (a number, the
    commander, a role, their neighbours: :func:`goal_seat`)."""
    if fail is None:
        return None
    for part in _disjuncts(fail):
        above = _above(part)
        if above is None:
            continue
        x, k = above
        if isinstance(x, A.Call) and x.func == "tricks_won" and len(x.args) == 1 and _seat_expr(x.args[0]):
            who = x.args[0]
            # "exactly K" (Deep Sea's cards) also fails on too few tricks: ducking to keep the allowance would
            # work against winning them, so only a pure upper limit is read
            if any(_lower_bound_on(other, who) for other in _disjuncts(fail) if other is not part):
                return None
            return who, k
    return None


def _lower_bound_on(part: A.Expr, who: A.Expr) -> bool:
    """Whether ``part`` fails on too few tricks of ``who``: ``tricks_won(WHO) ... < ...`` (or ``... > ...`` with
    it on the right)."""
    if not isinstance(part, A.Compare):
        return False
    side = part.left if part.op in ("<", "<=") else part.right if part.op in (">", ">=") else None
    return side is not None and any(isinstance(n, A.Call) and n.func == "tricks_won" and len(n.args) == 1
                                    and _same_expr(n.args[0], who) for n in _walk(side))


def _node_fields(e: A.Expr) -> tuple[Field[Any], ...]:
    """A syntax node's fields (every concrete node is a dataclass; the base class is not)."""
    return fields(cast(Any, e))


def _walk(e: A.Expr) -> Iterator[A.Expr]:
    yield e
    for f in _node_fields(e):
        v = getattr(e, f.name)
        for x in v if isinstance(v, tuple) else (v,):
            if isinstance(x, A.Expr):
                yield from _walk(x)


def _same_expr(a: A.Expr, b: A.Expr) -> bool:
    """Equal syntax trees, wherever they are written."""
    if type(a) is not type(b):
        return False
    for f in _node_fields(a):
        if f.name == "pos" or f.name.endswith("_pos"):
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        xs, ys = (x, y) if isinstance(x, tuple) and isinstance(y, tuple) else ((x,), (y,))
        if len(xs) != len(ys):
            return False
        for u, v in zip(xs, ys, strict=True):
            if isinstance(u, A.Expr) and isinstance(v, A.Expr):
                if not _same_expr(u, v):
                    return False
            elif u != v:
                return False
    return True


def match_cards_per_trick_limit(fail: A.Expr | None) -> list[tuple[A.Expr, int, bool]]:
    """(PRED, K, ON_TABLE) for each part of ``fail`` (an ``or``) that is "more than K cards of a fixed set in
    one trick": ``count(c in current_cards: PRED(c)) > K`` (ON_TABLE: the cards on the table, so a
    trick's last card, judged once the trick is over, is not counted) or ``any(t in tricks: count(c in t.cards:
    PRED(c)) > K)`` (``>= K + 1``, either side), PRED reading the card alone, over the card variable of
    :func:`goal_cards`."""
    out: list[tuple[A.Expr, int, bool]] = []
    if fail is None:
        return out
    for part in _disjuncts(fail):
        trick_var = None
        if isinstance(part, A.Quant) and part.kind == "any" and isinstance(part.source, A.Name) \
                and part.source.name == "tricks":
            trick_var, part = part.var, part.body
        above = _above(part)
        if above is None:
            continue
        x, k = above
        if not (isinstance(x, A.Quant) and x.kind == "count"):
            continue
        src = x.source
        if trick_var is None:
            if not (isinstance(src, A.Name) and src.name == "current_cards"):
                continue
        elif not (isinstance(src, A.Field) and src.name == "cards" and isinstance(src.obj, A.Name)
                  and src.obj.name == trick_var):
            continue
        pred = _card_predicate(x.body, x.var, None)
        if pred is not None:
            out.append((pred, k, trick_var is None))
    return out


def goal_seat(who: A.Expr, deck: Any, players: int, commander: int | None,
              roles: dict[str, int | None]) -> int | None:
    """The seat ``who`` (from :func:`match_last_trick_won_by_seat`) names at this table; None when unbound."""
    from crewkit.dsl.evaluator import evaluate
    from crewkit.dsl.view import SimpleView

    view = SimpleView(deck=deck, n_players=players, commander_seat=commander, role_seats=dict(roles))
    try:
        seat = evaluate(who, view)
    except Exception:  # noqa: BLE001 - a name this table cannot answer: no goal
        return None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players else None


def goal_cards(pred: A.Expr, deck: Any) -> int | None:
    """The mask of the deck's cards for which ``pred`` (from :func:`match_tricks_won_by_cards`) holds; None
    when it cannot be evaluated on a card alone."""
    from crewkit.dsl.evaluator import evaluate
    from crewkit.dsl.view import SimpleView

    suits = {x.name for x in deck.suits}
    stack = [pred]
    while stack:  # a name other than the card and a suit would read the game's state (a seat, a role)
        node = stack.pop()
        if isinstance(node, A.Name) and node.name != _GOAL_VAR and node.name not in suits:
            return None
        stack.extend(A.children(node))
    view = SimpleView(deck=deck)
    mask = 0
    try:
        for card in deck.cards:
            if evaluate(pred, view, {_GOAL_VAR: card}) is True:
                mask |= card.bit
    except Exception:  # noqa: BLE001 - a predicate the card alone cannot answer: no goal
        return None
    return mask
