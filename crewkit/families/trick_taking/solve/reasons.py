"""Why a position is lost before a card is tried, in words (``crewkit check`` and ``crewkit solve`` say it):
the bounds of :class:`crewkit.families.trick_taking.solve.core.TrickSearch` at a trick start, each turned into
a sentence that names the seat, its cards and the mission's conditions in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from crewkit.cards import mask_ids
from crewkit.families.trick_taking.solve.automaton import NO_LIMIT

if TYPE_CHECKING:
    from crewkit.families.trick_taking.solve.core import TrickSearch


def root_loss(s: TrickSearch) -> str:
    """Why the position is lost before a card is tried, in words, when a bound proves it (else "").

    The bounds of a trick start: the guard's conditions (no order of trick winners satisfies them, or a
    seat surely wins more tricks than they allow it), too few tricks for the tasks, self-won tasks in an
    impossible order, a free draft's leader sweeping every trick."""
    s._reset_position()
    late = token_out_of_reach(s)
    if late:
        return f"the task {late} must be done as task {late.split()[-1][:-1]}, but there are {s.ntasks} tasks"
    if s.plays:
        return ""
    for h in s.hands:
        s.remaining |= h
    g = s.guard
    gs = s._guard_state() if g is not None else None
    if g is not None and gs is not None and gs < 0:
        which = guard_culprits(s, lambda a: a.root < 0)
        return f"no order of trick winners satisfies {which}"
    too_few = s._too_few_tricks()
    if s.check_sure and gs is not None:
        most = g.most[gs]  # type: ignore[union-attr]
        for seat in range(s.n):
            sure, need = s.sure_wins(seat), s._need.get(seat, 0)
            at_least = max(sure, need)
            if most[seat] >= NO_LIMIT or at_least <= most[seat]:
                continue
            # the old reading (cards no other hand beats) when it alone gives ``sure``, else the matching's words
            kept = max(0, s.hands[seat].bit_count() - (s.total - s.ntricks))
            # both before the culprits: building their automata resets the position
            cards = sure_cards(s, seat) if sure == len(unbeaten(s, seat)) - kept else ""
            beaten = cards_beaten(s, seat)
            which = guard_culprits(s, lambda a, seat=seat, k=at_least: a.root < 0 or a.most[a.root][seat] < k)
            who = seat_words(s, seat)
            short = who.split(" (seat")[0]
            many = "s" if at_least != 1 else ""
            let = "lets" if " together with " not in which and ";" not in which else "let"
            if sure >= need and cards:
                them = "them" if " and " in cards else "it"
                why = (f"{who} holds {cards}, which no card in another hand beats, and must play {them}, "
                       f"so {short} wins at least {sure} trick{many}")
            elif sure >= need:
                why = f"{who} {beaten}, so {short} wins at least {sure} trick{many}"
            else:
                tasks = [t.card.name for t in s.task_objs if t.owner == seat and not t.done]
                why = f"{who} must win at least {need} trick{many} for the tasks {', '.join(tasks)}"
            return f"{why}; but {which} {let} {short} win at most {most[seat]}"
    low = getattr(s, "low_card_why", None) if too_few else None
    if low is not None:
        seat, cid, most, outside = low
        card = s.cards[cid]
        suit = card.suit.name if card.suit is not None else card.name
        who = seat_words(s, seat)
        short = who.split(" (seat")[0]
        many = "s" if most != 1 else ""
        return (f"{who} must win {card.name} with that card itself, so until then a hand with no lower {suit} card "
                f"holds {most} {suit} card{many} {short} must win that can reach {short} only on tricks of other "
                f"suits, won with cards of other suits, and {short} holds {outside or 'no'} "
                f"card{'s' if outside != 1 else ''} of other suits")
    if too_few:
        return "too few tricks are left for the tasks: each trick completes the tasks of one player at most"
    if s.check_order and s._doomed():
        return ("tasks their owners hold must each win their own trick, in an order that contradicts "
                "itself")
    if s.undrafted and s.check_order and s._sweeps():
        return "the leader wins every trick whatever it leads, yet another player must still take a task"
    return ""


def token_out_of_reach(s: TrickSearch) -> str:
    """An open task whose numbered token asks for a place past the number of tasks: its name, else ""."""
    for i, k in s.numbered:
        t = s.task_objs[i]
        if k > s.ntasks and not t.done:
            return f"{t.card.name} (token {k})"
    return ""


def seat_words(s: TrickSearch, seat: int) -> str:
    """A seat as a reason names it: by its role (``the commander``, ``the sick player``) and number."""
    roles = [r for r, s in sorted(s.roles.items()) if s == seat]
    if seat == s.commander:
        roles.insert(0, "commander")
    return f"the {' and '.join(r.replace('_', ' ') for r in roles)} (seat {seat})" if roles else f"seat {seat}"


def _listed(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def unbeaten(s: TrickSearch, seat: int) -> list[str]:
    """The seat's cards strong in every led suit that no card in another hand beats."""
    hand = s.hands[seat]
    others = s.remaining & ~hand
    return [s.cards[c].name for c in mask_ids(hand & s.trumplike) if not s.beats_any[c] & others]


def sure_cards(s: TrickSearch, seat: int) -> str:
    return _listed(unbeaten(s, seat))


def cards_beaten(s: TrickSearch, seat: int) -> str:
    """The sure-win bound by matching (TrickSearch.sure_wins), in words: the seat's strong cards and the few
    cards of the other hands that beat them (each falls in one trick, so beats one of them at most)."""
    hand = s.hands[seat]
    others = s.remaining & ~hand
    mine = list(mask_ids(hand & s.trumplike))
    beaters = 0
    for c in mine:
        beaters |= s.beats_any[c] & others
    them = _listed([s.cards[c].name for c in mask_ids(beaters)])
    return (f"holds {_listed([s.cards[c].name for c in mine])} and must play them; only {them} in the other "
            f"hands beat{'s' if ' and ' not in them else ''} them, each in one trick")


def guard_culprits(s: TrickSearch, fails: Any) -> str:
    """The fewest of the guard's conditions that ``fails(automaton)`` on their own: one, else two, else all,
    in words (``the conditions "..."``)."""
    from itertools import combinations

    from crewkit.dsl.words import words

    roles = list(s.game.rules.roles) + list(s.roles)
    blind = [i for i, c in enumerate(s.conditions) if cond_blind(c, roles)]
    names = {r: f"seat {s}" for r, s in s.roles.items()}

    def say(i: int) -> str:
        c = s.conditions[i]
        parts = []
        if c.fail_expr is not None:
            parts.append(f"the mission fails if {words(c.fail_expr, names)}")
        if c.done_expr is not None:
            parts.append(f"it must come true that {words(c.done_expr, names)}")
        return f"\u201c{'; '.join(parts)}\u201d ({c.id})"

    for k in (1, 2):
        for subset in combinations(blind, k):
            a = s.winner_automaton(which=subset)
            if a is not None and fails(a):
                return " and ".join(say(i) for i in subset) if k == 1 else (
                    f"{say(subset[0])} together with {say(subset[1])}")
    return "; ".join(say(i) for i in blind)


def cond_blind(c: Any, roles: Sequence[str]) -> bool:
    from crewkit.families.trick_taking.solve.compiled import card_blind

    return card_blind(c.fail_expr, roles) and card_blind(c.done_expr, roles)
