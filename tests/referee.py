"""An independent referee for finished Planet Nine games: the rules of RULES.md written again, plainly, in Python.

The engine judges a mission through its blocks (the objectives block, the kernel's token order, the mission's
conditions compiled from the condition language). This module judges the same game from what happened on the
table (the completed tricks, the trick in progress, the tasks with their owners and tokens, the roles) without
any of that code: no DSL, no kernel, no objectives block. Tests compare its verdict, success or failure and the
trick in which it came, with the engine's outcome; a rule implemented wrongly in either place shows as a
disagreement.

Readings are honoured where a mission's rule depends on one (16, 17, 46, 50): the option in effect is read from
the game's readings, else the mission file's `choice:` (the data says which option is the default; what each
option means is written here again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from crewkit.cards import Card
from crewkit.families.trick_taking.engine.game import Game
from crewkit.spec.loader import load_mission

SUCCESS, FAILURE = "success", "failure"
ARROWS = (">", ">>", ">>>", ">>>>")


@dataclass(frozen=True)
class Table:
    """What the referee reads of a game: the table as the players saw it, and the mission's roles."""

    n: int
    total: int  # tricks in a full game (the hands' size)
    tricks: tuple[tuple[tuple[tuple[int, Card], ...], int], ...]  # completed: (plays, winner)
    in_progress: tuple[tuple[int, Card], ...]  # cards of the unfinished trick
    tasks: tuple[tuple[Card, int | None, str | None], ...]  # (card, owner, token) as they ended up
    roles: dict[str, int]
    commander: int | None
    deck: tuple[Card, ...]
    readings: dict[str, str]


def mission_of(game: Game, mission: str | None) -> str:
    """The Planet Nine mission a game plays: given, or named by the game's spec (a game built from compiled
    rules alone does not know it, and judging it without its mission's rules would prove nothing)."""
    found = mission or (game.spec.mission if game.spec is not None else None)
    if not found or not found.startswith("planet-nine/"):
        raise ValueError(f"the referee judges Planet Nine missions; this game plays {found!r}")
    return found


def table_of(game: Game, mission: str) -> Table:
    tricks = tuple((tuple(t.plays), t.winner) for t in game.tricks)
    readings: dict[str, str] = {}
    for entry in load_mission(mission).data.get("readings") or []:
        readings[entry["id"]] = entry["choice"]
    readings.update(dict(game.spec.readings) if game.spec is not None else {})
    return Table(game.n, game.total_tricks, tricks, tuple(game.plays),
                 tuple((t.card, t.owner, t.token) for t in game.tasks), dict(game.roles), game.commander,
                 tuple(game.rules.deck.cards), readings)


def is_rocket(card: Card) -> bool:
    return card.suit is not None and card.suit.name == "rocket"


def is_colour(card: Card) -> bool:
    return card.suit is not None and not is_rocket(card)


def winning_card(plays: Sequence[tuple[int, Card]], winner: int) -> Card:
    return next(c for s, c in plays if s == winner)


# ------------------------------------------------------------------ the missions' own rules
# Each returns a failure (:func:`broken`: FAILURE and the mission file's ids of the conditions its rule says are
# broken), "done" or None (open) after trick k (1-based) of ``done`` completed tricks; ``last`` is whether k is
# the final trick (then a card not played is known to stay unplayed).
Rule = Callable[[Table, int, bool], str | None]


def broken(*ids: str) -> str:
    """A failure of the mission's rule: the ids of the conditions (as the mission file names them) it breaks."""
    return FAILURE + ":" + ",".join(ids)


def is_failure(verdict: str | None) -> bool:
    return verdict is not None and verdict.startswith(FAILURE)


def _end(last: bool) -> str | None:
    """A rule that only forbids: kept, it is fulfilled when the hands run out, not before."""
    return "done" if last else None


def _wins(t: Table, k: int) -> list[tuple[Card, int]]:
    return [(winning_card(plays, w), w) for plays, w in t.tricks[:k]]


def _played(t: Table, k: int) -> set[Card]:
    return {c for plays, _ in t.tricks[:k] for _, c in plays}


def _cards(t: Table, pred: Callable[[Card], bool]) -> list[Card]:
    return [c for c in t.deck if pred(c)]


def sick_bay(t: Table, k: int, last: bool) -> str | None:  # 05
    return broken("sick-wins-nothing") if any(w == t.roles["sick"] for _, w in _wins(t, k)) else _end(last)


def the_ones(t: Table, k: int, last: bool) -> str | None:  # 09
    if any(is_colour(c) and c.rank == 1 for c, _ in _wins(t, k)):
        return "done"
    ones = _cards(t, lambda c: is_colour(c) and c.rank == 1)
    return broken("a-one-wins") if last or all(c in _played(t, k) for c in ones) else None


def every_rocket_wins(t: Table, k: int, last: bool) -> str | None:  # 13 (two rockets in a trick: see PLAY_RULES)
    return "done" if all(c in _played(t, k) for c in _cards(t, is_rocket)) else None


def no_nine_wins(t: Table, k: int, last: bool) -> str | None:  # 16
    if any(c.rank == 9 for c, _ in _wins(t, k)):
        return broken("no-nine-wins")
    if t.readings.get("early-success") == "play-to-end":
        return _end(last)
    nines_out = last or all(c in _played(t, k) for c in _cards(t, lambda c: c.rank == 9))
    return "done" if nines_out else None


def no_nine_with_tasks(t: Table, k: int, last: bool) -> str | None:  # 17
    if any(c.rank == 9 for c, _ in _wins(t, k)):
        return broken("no-nine-wins")
    nines_out = last or all(c in _played(t, k) for c in _cards(t, lambda c: c.rank == 9))
    tasks_done = all(_task_trick(t, i, k) is not None for i in range(len(t.tasks)))
    if t.readings.get("nines-after-tasks") == "until-nines-out":
        return "done" if nines_out else None
    return "done" if nines_out or tasks_done else None


def two_ones_win(t: Table, k: int, last: bool) -> str | None:  # 26
    won = sum(1 for c, _ in _wins(t, k) if is_colour(c) and c.rank == 1)
    if won >= 2:
        return "done"
    still = 0 if last else sum(1 for c in _cards(t, lambda c: is_colour(c) and c.rank == 1)
                               if c not in _played(t, k))
    return broken("two-ones-win") if won + still < 2 else None


def balanced(t: Table, k: int) -> bool:
    counts = [0] * t.n
    for _, w in _wins(t, k):
        counts[w] += 1
    return max(counts) - min(counts) < 2


def even_keel(t: Table, k: int, last: bool) -> str | None:  # 29
    return _end(last) if balanced(t, k) else broken("balance")


def volunteer(t: Table, k: int, last: bool) -> str | None:  # 33
    v = t.roles["volunteer"]
    mine = [c for c, w in _wins(t, k) if w == v]
    ids = [cid for cid, bad in (("one-trick-only", len(mine) > 1), ("no-rocket", any(is_rocket(c) for c in mine)),
                                ("at-least-one", last and not mine)) if bad]
    return broken(*ids) if ids else _end(last)


def command_and_balance(t: Table, k: int, last: bool) -> str | None:  # 34
    winners = [w for _, w in _wins(t, k)]
    ids = [cid for cid, bad in (("balance", not balanced(t, k)), ("commander-first", winners[0] != t.commander),
                                ("commander-last", k == t.total and winners[-1] != t.commander)) if bad]
    return broken(*ids) if ids else _end(last)


def bookends(t: Table, k: int, last: bool) -> str | None:  # 41
    b = t.roles["bookend"]
    ids: list[str] = []
    for number, (card, w) in enumerate(_wins(t, k), 1):
        if number == 1 and w != b:
            ids.append("first-trick")
        if number == t.total and w != b:
            ids.append("last-trick")
        if w == b and number not in (1, t.total):
            ids.append("nothing-between")
        if w == b and is_rocket(card):
            ids.append("no-rocket")
    return broken(*ids) if ids else _end(last)


def rockets_in_order(t: Table, k: int, last: bool) -> str | None:  # 44 (two rockets in a trick: PLAY_RULES)
    rockets = _cards(t, is_rocket)
    for number, (card, _) in enumerate(_wins(t, k), 1):
        if is_rocket(card):
            before = _played(t, number - 1)
            if any(r.rank < card.rank and r not in before for r in rockets):
                return broken("rockets-in-order")
    return "done" if all(r in _played(t, k) for r in rockets) else None


def pink_collector(t: Table, k: int, last: bool) -> str | None:  # 46
    collector = t.roles["collector"]
    pinks = _cards(t, lambda c: c.suit is not None and c.suit.name == "pink")
    won_by = {c: w for plays, w in t.tricks[:k] for _, c in plays}
    if any(c in won_by and won_by[c] != collector for c in pinks):
        return broken("every-pink")
    unplayed_ok = t.readings.get("unplayed-card", "not-needed") == "not-needed" and last
    return "done" if all(won_by.get(c) == collector or (unplayed_ok and c not in won_by) for c in pinks) else None


def omega_finale(t: Table, k: int, last: bool) -> str | None:  # 48
    for i, (_, _, token) in enumerate(t.tasks):
        done = _task_trick(t, i, k)
        if token == "omega" and done is not None and done != t.total:
            return broken("omega-in-last-trick")
    return _end(last)


def grand_finale(t: Table, k: int, last: bool) -> str | None:  # 50
    opener, closer = t.roles["opener"], t.roles["closer"]
    winners = [w for _, w in _wins(t, k)]
    ids: list[str] = []
    for number, w in enumerate(winners, 1):
        if number <= 4 and w != opener:
            ids.append("opener-first-four")
        if number > 4 and w == opener:
            ids.append("opener-nothing-else")
        if w == closer and number != t.total:
            ids.append("closer-only-last")
        if number == t.total and w != closer:
            ids.append("closer-last")
    if t.readings.get("middle-tricks") == "each-at-least-one" and k == t.total:
        middle = set(winners[4:-1])
        if any(s not in middle for s in range(t.n) if s not in (opener, closer)):
            ids.append("others-each-win")
    return broken(*ids) if ids else _end(last)


MISSION_RULES: dict[int, Rule] = {5: sick_bay, 9: the_ones, 13: every_rocket_wins, 16: no_nine_wins,
                                  17: no_nine_with_tasks, 26: two_ones_win, 29: even_keel, 33: volunteer,
                                  34: command_and_balance, 41: bookends, 44: rockets_in_order,
                                  46: pink_collector, 48: omega_finale, 50: grand_finale}
# missions that fail the moment a second rocket falls into one trick (a rocket that does not win is lost), and
# the condition of the mission file that says so
TWO_ROCKET_CONDITION = {13: "every-rocket-wins", 44: "rockets-in-order"}


# ------------------------------------------------------------------ tasks and tokens
def _task_trick(t: Table, i: int, k: int) -> int | None:
    """The trick (1..k) in which task i's card fell to its owner; None if not (yet)."""
    card, owner, _ = t.tasks[i]
    for number, (plays, w) in enumerate(t.tricks[:k], 1):
        if any(c == card for _, c in plays):
            return number if w == owner else None
    return None


def tasks_broken(t: Table, k: int) -> bool:
    """A task card of trick k went to someone else, or trick k broke the order its tokens set."""
    plays, w = t.tricks[k - 1]
    for card, owner, _ in t.tasks:
        if any(c == card for _, c in plays) and w != owner:
            return True
    done = [_task_trick(t, i, k) for i in range(len(t.tasks))]
    before = sum(1 for d in done if d is not None and d < k)
    after = sum(1 for d in done if d is not None)
    for i, (_, _, token) in enumerate(t.tasks):
        if token is None:
            continue
        if token.isdigit():
            slot = int(token)
            if done[i] == k and not before < slot <= after:
                return True  # completed out of its turn
            if done[i] is None and after >= slot:
                return True  # its turn went to another task
        elif token == "omega":
            if done[i] == k and after < len(t.tasks):
                return True  # the last task done while others are open
        elif token in ARROWS and done[i] == k:
            rank = ARROWS.index(token)
            for j, (_, _, other) in enumerate(t.tasks):
                if other in ARROWS and ARROWS.index(other) < rank and done[j] is None:
                    return True  # a later arrow before an earlier one
    return False


# ------------------------------------------------------------------ the verdict
def judge(game: Game, mission: str | None = None) -> tuple[str, int]:
    """(success or failure, the trick of the verdict) of a finished Planet Nine game under its rule set."""
    result, trick, _ = explain(game, mission)
    return result, trick


def explain(game: Game, mission: str | None = None) -> tuple[str, int, str]:
    """:func:`judge` with what decided it: ``"task CARD"`` (a task card won by another player), ``"order"``
    (a task done out of the order its tokens set), ``"conditions ID,ID"`` (the mission's rule broken: the ids
    of the mission file's conditions it breaks), ``"tasks undone"`` or ``"unfulfilled"`` (the hands ran out
    with tasks open, or with the tasks done and the mission's rule still open), ``"done"`` for a success."""
    name = mission_of(game, mission)
    t = table_of(game, name)
    number = int(name.rsplit("/", 1)[-1])
    rule = MISSION_RULES.get(number)
    latched = False
    two_rockets = TWO_ROCKET_CONDITION.get(number)
    for k in range(1, len(t.tricks) + 1):
        plays, winner = t.tricks[k - 1]
        if two_rockets is not None and sum(1 for _, c in plays if is_rocket(c)) >= 2:
            return FAILURE, k, f"conditions {two_rockets}"
        stolen = next((c for c, owner, _ in t.tasks if any(p == c for _, p in plays) and winner != owner), None)
        if stolen is not None:
            return FAILURE, k, f"task {stolen}"
        if tasks_broken(t, k):
            return FAILURE, k, "order"
        last = k == t.total
        if rule is not None and not latched:
            verdict = rule(t, k, last)
            if is_failure(verdict):
                return FAILURE, k, "conditions " + str(verdict).partition(":")[2]
            latched = verdict == "done"
        tasks_done = all(_task_trick(t, i, k) is not None for i in range(len(t.tasks)))
        rule_done = rule is None or latched
        if tasks_done and rule_done and (t.tasks or rule is not None or last):
            return SUCCESS, k, "done"
        if last:
            return FAILURE, k, "unfulfilled" if tasks_done else "tasks undone"
    if two_rockets is not None and sum(1 for _, c in t.in_progress if is_rocket(c)) >= 2:
        return FAILURE, len(t.tricks) + 1, f"conditions {two_rockets}"
    raise AssertionError(f"the game ended after {len(t.tricks)} of {t.total} tricks with no verdict of the rules")


def assert_engine_agrees(game: Game, mission: str | None = None) -> None:
    """The engine's outcome of a finished game is the referee's: the same result in the same trick."""
    assert game.is_over()
    outcome = game.outcome()
    verdict = judge(game, mission)
    assert (outcome.result, outcome.trick) == verdict, (
        f"{game.spec}: engine says {outcome.result} in trick {outcome.trick} ({outcome.reason}); "
        f"the referee says {verdict[0]} in trick {verdict[1]}")
