"""Mission conditions the fast search checks natively instead of evaluating the DSL at every play.

A condition is *compiled* when its parsed ``fail_if`` / ``done_if`` have a shape whose meaning the trick
search already models; the shapes are recognised on the syntax tree (:mod:`crewkit.dsl.ast`, positions
ignored), never on a mission's name, so any authored mission written the same way is compiled too. Everything
else stays a DSL condition evaluated through :class:`crewkit.families.trick_taking.solve.view.SearchView` (the
slower path), and :func:`crewkit.families.trick_taking.solve.solve` says which conditions took which path.

Shapes:

- **cards won by one seat** (mission 46's collector, "the commander must win every rocket"):
  ``fail_if: any(c in CARDS: won_by(c) != none and won_by(c) != WHO)`` with
  ``done_if: all(c in CARDS: won_by(c) == WHO)`` (optionally ``... or left_unplayed(c)``), where CARDS is a
  fixed card set (``cards_of(SUIT)``, ``cards_of_rank(N)``, a list of cards) and WHO a fixed seat (a role,
  ``commander``, ``dealer``, a seat number). Each card of CARDS becomes a search task owned by WHO: the
  search's task rules are exactly the condition's (the card fails the mission when another seat wins it;
  every card won by WHO completes it), and its bounds, table and the C search apply. Compiled only when
  every card of CARDS is still in a hand or already won (so ``left_unplayed`` can never hold), no task token
  is in play (the pseudo-tasks must not count in the token order), and no real task card of CARDS belongs
  to another seat or is undrafted.

Soundness does not rest on this file alone: every winning line is still replayed through the engine, which
evaluates the original conditions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crewkit.dsl import ast as A
from crewkit.families.trick_taking.condshapes import match_cards_won_by

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.rules import Condition

@dataclass
class CompiledConditions:
    """The result of :func:`compile_conditions`: card owners the search adds as tasks, what remains."""

    card_owner: dict[int, int] = field(default_factory=dict)  # card id -> the seat that must win it
    compiled: list[tuple[str, str]] = field(default_factory=list)  # (condition id, shape)
    remaining: list[int] = field(default_factory=list)  # indices of the conditions still evaluated as DSL
    # a card of a compiled set is never played (set aside) and may be left unplayed: the condition is done
    # only when the hands run out, so the mission cannot succeed before the last trick
    late: bool = False
    why: dict[int, str] = field(default_factory=dict)  # index of a condition not compiled -> why not
    # card id -> the seat that must win it if it is played, from a condition of the shape that stays a DSL
    # condition (a card that may stay unplayed, task tokens): its fail_if fails the trick that gives such a card
    # to another seat, so the search may cut that trick as it cuts a task's (the condition still decides success)
    claims: dict[int, int] = field(default_factory=dict)


def compile_conditions(conditions: Sequence[Condition], view: Any, roles: Sequence[str], *,
                       hands_mask: int, won: Sequence[int], task_owner: dict[int, int | None],
                       tokens: bool, played: int | None = None, spare: int = 0) -> CompiledConditions:
    """Recognise the conditions the search can check natively (see the module's docstring).

    ``view`` evaluates the fixed card sets and seats (a
    :class:`crewkit.families.trick_taking.solve.view.SearchView`); ``hands_mask``: the cards in hands (and on
    the table); ``played``: every card played so far (default: the won cards); ``spare``: the cards of hands
    holding more cards than their seat will still play (3 players: one card stays unplayed), any of which may
    be left unplayed; ``won``: the cards each seat has won; ``task_owner``: card id -> owner of each real open
    task card (None: undrafted); ``tokens``: task tokens are in play.
    """
    from crewkit.dsl.evaluator import evaluate

    out = CompiledConditions()
    claims: list[tuple[list[Any], int]] = []  # (cards, seat) of the shape's conditions left as DSL
    for i, c in enumerate(conditions):
        shape = match_cards_won_by(c.fail_expr, c.done_expr, roles)
        if shape is None:
            out.remaining.append(i)
            out.why[i] = ("it reads cards and is not a shape the search compiles "
                          "(\"every card of a set won by one seat\")")
            continue
        try:
            cards = evaluate(shape[0], view)
            who = evaluate(shape[1], view)
        except Exception:  # noqa: BLE001 - a set or seat that cannot be evaluated here stays a DSL condition
            out.remaining.append(i)
            out.why[i] = "its card set or seat cannot be evaluated before the tricks"
            continue
        ok = isinstance(who, int) and not isinstance(who, bool) and 0 <= who < view._s.n
        why = "" if ok else "its seat is not bound to a player"
        if ok and c.check != "after-play":
            claims.append((list(cards) if isinstance(cards, list | tuple) else [cards], who))
        if tokens:
            out.remaining.append(i)
            out.why[i] = "task tokens are in play (cards as extra tasks would change the token order)"
            continue
        ids = []
        names = {}
        unplayed = []  # cards of the set that will never be played (set aside, never dealt)
        gone = played if played is not None else 0
        if played is None:
            for w in won:
                gone |= w
        for card in cards if isinstance(cards, list | tuple) else [cards]:
            cid = getattr(card, "id", None)
            if cid is None:
                ok, why = False, "its card set is not a set of cards"
                break
            ids.append(cid)
            names[cid] = getattr(card, "name", str(card))
        for cid in ids if ok else ():
            bit = 1 << cid
            if shape[2] and spare & bit:
                # "won by WHO or left unplayed", and this card may stay in its hand: as a task it would have
                # to be won, which the condition does not ask
                ok, why = False, f"{names[cid]} may be left unplayed (its holder has more cards than tricks left)"
                break
            if shape[2] and not hands_mask & bit and not gone & bit:
                unplayed.append(cid)  # left unplayed when the hands run out: done then, never failed
                continue
            if not hands_mask & bit and not won[who] & bit:
                # won by another seat, set aside or never played: not a task the search can take
                ok, why = False, f"{names[cid]} is in no hand and not won by that seat (never played or lost)"
            elif cid in task_owner and task_owner[cid] != who:
                ok, why = False, f"{names[cid]} is also another seat's task (or undrafted)"
            elif out.card_owner.get(cid, who) != who:
                ok, why = False, f"another compiled condition gives {names[cid]} to another seat"
            if not ok:
                break
        if not ok:
            out.remaining.append(i)
            out.why[i] = why
            continue
        for cid in ids:
            if cid not in unplayed:
                out.card_owner[cid] = who
        if unplayed:
            out.late = True
        out.compiled.append((c.id, "cards won by one seat" + (
            f" ({', '.join(names[cid] for cid in unplayed)} never played: done when the hands run out)"
            if unplayed else "")))
    if out.remaining:
        for cards_list, who in claims:
            for card in cards_list:
                cid = getattr(card, "id", None)
                if cid is None or cid in out.card_owner or cid in task_owner:
                    continue  # a task already (compiled or real): its own rules cut the trick
                if out.claims.get(cid, who) != who:
                    out.claims[cid] = -1  # two seats claim it: no cut (the conditions decide)
                elif (hands_mask >> cid) & 1:
                    out.claims[cid] = who
        out.claims = {cid: o for cid, o in out.claims.items() if o >= 0}
    return out


# what a *card-blind* condition may read: trick winners and counts, seats and roles, never a card
_BLIND_NAMES = frozenset(
    "players tricks first_trick last_trick commander dealer tricks_left tricks_played total_tricks none "
    "true false".split()
)
_BLIND_CALLS = frozenset("tricks_won left_of right_of abs max min others longest_run".split())
# card-blind calls that read the order of the winners, not only their counts
_SEQUENCE_CALLS = frozenset(("longest_run",))
_BLIND_FIELDS = frozenset("winner number is_last is_first leader".split())


def card_blind(expr: A.Expr | None, roles: Sequence[str]) -> bool:
    """True when ``expr`` reads only who won which trick (counts, numbers, seats, roles), never a card.

    Such a condition cannot tell two positions apart whose hands differ only by renaming ranks within a
    suit, nor by which cards were won, so the search keys its table on relative ranks and each seat's
    number of tricks won (see ``TrickSearch._key``) and merges equivalent cards.
    """
    if expr is None:
        return True
    allowed = _BLIND_NAMES | set(roles)
    stack: list[tuple[A.Expr, frozenset[str]]] = [(expr, frozenset())]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, A.Quant):
            stack.append((node.source, bound))
            stack.append((node.body, bound | {node.var}))
            continue
        if isinstance(node, A.Name):
            if node.name not in allowed and node.name not in bound:
                return False
        elif isinstance(node, A.Call):
            if node.func not in _BLIND_CALLS:
                return False
        elif isinstance(node, A.Field):
            if node.name not in _BLIND_FIELDS:
                return False
        elif isinstance(node, A.CardLit | A.Str):
            return False
        stack.extend((c, bound) for c in A.children(node))
    return True


def counts_only(conditions: Sequence[Condition], roles: Sequence[str]) -> bool:
    """Card-blind conditions that read no trick at all (only ``tricks_won`` counts, seats, roles and trick
    numbers): their verdicts on the tricks to come depend on the past only through each seat's number of
    tricks won and which conditions are done, so the winner automaton may merge sequences by those."""
    for c in conditions:
        for expr in (c.fail_expr, c.done_expr):
            if expr is None:
                continue
            if not card_blind(expr, roles):
                return False
            stack: list[A.Expr] = [expr]
            while stack:
                node = stack.pop()
                if isinstance(node, A.Field) or (isinstance(node, A.Name) and node.name in _TRICK_NAMES):
                    return False
                if isinstance(node, A.Call) and node.func in _SEQUENCE_CALLS:
                    return False
                stack.extend(A.children(node))
    return True


_TRICK_NAMES = frozenset(("tricks", "first_trick", "last_trick"))


def conditions_card_blind(conditions: Sequence[Condition], roles: Sequence[str]) -> bool:
    """Every condition of ``conditions`` is :func:`card_blind` (its fail_if and done_if both)."""
    for c in conditions:
        for expr in (c.fail_expr, c.done_expr):
            if expr is not None and not card_blind(expr, roles):
                return False
    return True
