"""Where JARVIS sits (the 2-player variant's dummy seat), judged by play-outs of both arrangements.

With two real players and JARVIS there are two tables: JARVIS right after the commander (who plays its cards)
or right before. Each choice of seat makes one of them. Both are played out on the same deals by the engine
itself, from the seat's choice to the end, with the bots' own policies at their smallest budgets: JARVIS's
face-down cards stay out of play until turned up, which the look-ahead's world model cannot express (so the
bots play a JARVIS game's cards by their simple rules, and so do these play-outs). The arrangement that
succeeds more often on the deals where only one of them succeeds, by a margin chance would give less than one time
in twenty (a two-sided sign test), is chosen; otherwise JARVIS sits right after the commander (so that the
commander plays two cards in a row of every trick it leads: a habit, kept where the play-outs tell the tables
no apart).

What the deals may use follows the rule set's reading of who decides: when the commander decides after seeing
its hand (``seat_choice: commander``), the other hand and JARVIS's face-down cards are sampled around what the
commander sees; when the players decide together before the deal (``players``), nothing about a hand is known,
so the deals are whole deals of the mission drawn from fixed seeds, the same in every game and for every bot (the
choice is the mission's, worked out once per rule set).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewkit.families.trick_taking.bots.base import Bot
    from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat
    from crewkit.families.trick_taking.engine.observation import Observation
    from crewkit.families.trick_taking.engine.state import Deal

AFTER, BEFORE = "right after the commander", "right before the commander"
AFTER_ONLY, BEFORE_ONLY = "won only right after", "won only right before"  # the deals only one table won
_BY_MISSION: dict[tuple[int, int], tuple[Any, dict[str, float]]] = {}  # (rules, deals): wins per arrangement
MARGIN = 0.05  # the sign test's p-value below which the play-outs tell the two tables apart
MISSION_DEALS = 24  # whole deals behind a choice made before the deal: the same for every bot (no hand known)


def arrangement(n: int, dummy: int, where: int, commander: int) -> tuple[str, list[int], int]:
    """The table JARVIS's seat ``where`` makes: which arrangement, ``order[new seat] = old seat``, the
    commander's new seat."""
    from crewkit.families.trick_taking.engine.blocks.dummy import dummy_moved

    order = dummy_moved(n, dummy, where)
    new_commander = order.index(commander)
    return (AFTER if where == (new_commander + 1) % n else BEFORE), order, new_commander


def play_arrangement(rules: Any, deal: Deal, kind: str, playout_bot: Callable[[int], Bot]) -> int:
    """1 if the game of ``deal`` with JARVIS seated as ``kind`` succeeds when ``playout_bot`` plays every seat
    (the bot asking hands it over: this module sits below the bot classes)."""
    from crewkit.dsl.errors import ConditionError
    from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.playing import play_game

    g = Game.new(rules, seed="jarvis-seat", deal=deal)
    d, c, seat = g.dummy_seat, g.commander, g.to_act
    if d is None or c is None or seat is None:
        return 0
    where = next(w for w in range(g.n) if arrangement(g.n, d, w, c)[0] == kind)
    g.apply(ChooseDummySeat(seat, where))
    try:
        play_game(g, [playout_bot(s) for s in range(g.n)])
    except ConditionError:  # a condition this deal cannot evaluate (the engine's, not the choice's): a loss
        return 0
    return int(g.outcome().result == "success")


def _mission_wins(rules: Any, deals: int, playout_bot: Callable[[int], Bot]) -> dict[str, float]:
    """Play-outs won per arrangement over ``deals`` whole deals of the mission (fixed seeds: no hand known)."""
    from crewkit.families.trick_taking.engine.deal import deal_from_seed

    hit = _BY_MISSION.get((id(rules), deals))
    if hit is not None and hit[0] is rules:
        return hit[1]
    wins = dict.fromkeys((AFTER, BEFORE, AFTER_ONLY, BEFORE_ONLY), 0.0)
    for k in range(deals):
        _add(wins, rules, deal_from_seed(rules, random.Random(f"jarvis-seat:{k}")), playout_bot)
    if len(_BY_MISSION) > 64:
        _BY_MISSION.clear()
    _BY_MISSION[(id(rules), deals)] = (rules, wins)
    return wins


def sample_deal(obs: Observation, rng: random.Random) -> Deal:
    """A deal around what the deciding real player sees (its hand, JARVIS's face-up cards, the tasks): the
    other real hand and JARVIS's face-down cards drawn from the rest."""
    from crewkit.families.trick_taking.engine.state import Deal

    rules = obs.rules
    deck = rules.deck
    d = obs.dummy_seat
    assert d is not None
    up = [c for c in obs.dummy_up]
    seen = obs.hand_mask | deck.mask(up)
    pool = [c for c in deck.cards if not seen & c.bit]
    rng.shuffle(pool)
    hands: list[tuple[Any, ...]] = []
    k = 0
    for s in range(obs.players):
        if s == obs.seat:
            hands.append(tuple(obs.hand))
        elif s == d:
            hands.append(())
        else:
            size = obs.hand_sizes[s]
            hands.append(tuple(pool[k:k + size]))
            k += size
    columns = []
    for top, down in obs.dummy_columns:
        col = [*pool[k:k + down], *([top] if top is not None else [])]
        k += down
        columns.append(tuple(col))
    hands[d] = tuple(c for col in columns for c in col)
    return Deal(tuple(hands), tuple(t.card for t in obs.tasks), dummy_columns=tuple(columns))


def seat_wins(obs: Observation, rng: random.Random, worlds: int, playout_bot: Callable[[int], Bot]
              ) -> dict[str, float]:
    """Play-outs won per arrangement, on deals the reading of who decides allows (see the module's text):
    ``worlds`` deals around the commander's hand, or the mission's :data:`MISSION_DEALS` whole deals."""
    dummy = obs.rules.dummy
    if dummy is None or dummy.seat_choice != "commander":
        return _mission_wins(obs.rules, MISSION_DEALS, playout_bot)
    wins = dict.fromkeys((AFTER, BEFORE, AFTER_ONLY, BEFORE_ONLY), 0.0)
    for _ in range(max(1, worlds)):
        _add(wins, obs.rules, sample_deal(obs, rng), playout_bot)
    return wins


def _add(wins: dict[str, float], rules: Any, deal: Deal, playout_bot: Callable[[int], Bot]) -> None:
    """Both tables played out on ``deal``: the wins of each and of each alone."""
    after = play_arrangement(rules, deal, AFTER, playout_bot)
    before = play_arrangement(rules, deal, BEFORE, playout_bot)
    wins[AFTER] += after
    wins[BEFORE] += before
    wins[AFTER_ONLY] += after and not before
    wins[BEFORE_ONLY] += before and not after


def sign_test(a_only: int, b_only: int) -> float:
    """Two-sided exact sign test p-value for the deals only one table won."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def choose_seat(obs: Observation, req: Sequence[ChooseDummySeat], rng: random.Random, worlds: int,
                playout_bot: Callable[[int], Bot]) -> tuple[ChooseDummySeat, dict[str, float]]:
    """The seat of the arrangement that wins more play-outs by a margin (see the module's text; otherwise right
    after the commander); of its seats, the one JARVIS holds now (nobody renumbered) if it is one."""
    d, c = obs.dummy_seat, obs.commander
    if d is None or c is None:
        return req[0], {}
    wins = seat_wins(obs, rng, worlds, playout_bot)
    a_only, b_only = int(wins[AFTER_ONLY]), int(wins[BEFORE_ONLY])
    kind = BEFORE if b_only > a_only and sign_test(a_only, b_only) < MARGIN else AFTER
    fitting = [a for a in req if arrangement(obs.players, d, a.dummy_seat, c)[0] == kind] or list(req)
    return next((a for a in fitting if a.dummy_seat == d), fitting[0]), wins
