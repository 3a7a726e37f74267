"""Dealing: a seeded deal, the first dealer, and explicit deals checked against the rule set."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from crewkit.cards import Card
from crewkit.engine.errors import DealerError, SetupError
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Deal


def deal_from_seed(rules: Rules, rng: random.Random) -> Deal:
    mode_card = draw_mode_card(rules, rng)
    hands, aside, columns = _deal_hands(rules, rng)
    if rules.secret is not None:
        return _secret_deal(rules, rng, hands, aside, columns)
    tasks = rules.fixed_tasks or tuple(rng.sample(rules.task_pool, rules.task_count))
    task_cards: tuple[str, ...] = ()
    if rules.task_draw is not None:
        from crewkit.families.trick_taking.engine.taskcards import draw_cards

        task_cards = draw_cards(rules.task_deck, rules.task_draw, rng)
        for _ in range(1000):  # a deal the drawn cards cannot be played with is made again (not an attempt)
            task_cards = _redraw_hardest(rules, task_cards, hands, columns, rng)
            if _redeal_reason(rules, task_cards, hands, columns) is None:
                break
            hands, aside, columns = _deal_hands(rules, rng)
    if rules.dummy is not None:
        hands.append([c for col in columns for c in col])
    return Deal(tuple(tuple(h) for h in hands), tuple(tasks), tuple(aside), tuple(columns),
                task_cards=task_cards, mode_card=mode_card)


def draw_mode_card(rules: Rules, rng: random.Random) -> Card | None:
    """The colour card drawn (and put back) to pick the attempt's communication mode, when the mission draws
    one (``communication.drawn_mode``); None otherwise (and no randomness used)."""
    if not rules.drawn_modes:
        return None
    return rng.choice([c for c in rules.deck.cards if c.suit is not None and not c.is_trump])


def _every_hand(rules: Rules, hands: Sequence[Sequence[Card]],
                columns: Sequence[Sequence[Card]]) -> tuple[list[list[Card]], int | None]:
    """Every seat's cards (the dummy's columns last) and the commander among them (None if none is known)."""
    every = [list(h) for h in hands]
    if columns:
        every.append([c for col in columns for c in col])
    commander = None
    if rules.commander_card is not None:
        commander = next((s for s, h in enumerate(every) if rules.commander_card in h), None)
    return every, commander


def _redeal_reason(rules: Rules, task_cards: Sequence[str], hands: Sequence[Sequence[Card]],
                   columns: Sequence[Sequence[Card]]) -> str | None:
    """The drawn task card that cannot be played with these hands (its ``redeal_if``), or None."""
    from crewkit.families.trick_taking.engine.taskcards import needs_redeal

    every, commander = _every_hand(rules, hands, columns)
    return needs_redeal(rules.task_deck, task_cards, every, rules.deck, commander)


def _hardest_chooser(rules: Rules, hands: Sequence[Sequence[Card]],
                     columns: Sequence[Sequence[Card]]) -> tuple[str, Callable[[Any], bool]] | None:
    """For a ``hardest_first`` mission under ``tasks.hardest_barred: redraw``: its ``ties`` and whether the
    first to choose (the commander, who starts the draft) may take a card; None when nothing is to be checked."""
    from crewkit.dsl.view import SimpleView
    from crewkit.families.trick_taking.engine.taskcards import owner_may_take

    step = next((s for s in rules.setup_steps if s.kind == "hardest-first"), None)
    first_is_commander = rules.draft_start == "commander" or (
        rules.draft_start == "first-leader" and rules.first_leader == "commander")
    if step is None or rules.hardest_barred != "redraw" or not first_is_commander:
        return None
    every, commander = _every_hand(rules, hands, columns)
    if commander is None:
        return None
    view = SimpleView(deck=rules.deck, n_players=len(every), commander_seat=commander,
                      hands={s: list(h) for s, h in enumerate(every)}, total=min(len(h) for h in every))
    return str(step.params.get("ties") or "choose"), lambda card: owner_may_take(card, view, commander)


def _redraw_hardest(rules: Rules, task_cards: tuple[str, ...], hands: Sequence[Sequence[Card]],
                    columns: Sequence[Sequence[Card]], rng: random.Random) -> tuple[str, ...]:
    """The drawn cards, with the most difficult one redrawn while the commander, who chooses first in a
    ``hardest_first`` mission, may take none of the cards of its first choice (``tasks.hardest_barred``)."""
    from crewkit.families.trick_taking.engine.taskcards import redraw_hardest

    chooser = _hardest_chooser(rules, hands, columns)
    if chooser is None or rules.task_draw is None or rules.task_draw.fixed:
        return task_cards
    ties, may_take = chooser
    return redraw_hardest(rules.task_deck, task_cards, ties, may_take, rng)


def _deal_hands(rules: Rules, rng: random.Random) -> tuple[list[list[Card]], list[Card], list[tuple[Card, ...]]]:
    """The players' hands, the cards set aside and the dummy's columns, from a shuffled deck."""
    cards = [c for c in rules.deck.cards if not c.bit & rules.undealt_mask]
    columns: list[tuple[Card, ...]] = []
    if rules.hold_out is not None:
        cards.remove(rules.hold_out)
    rng.shuffle(cards)
    if rules.dummy is not None:
        d = rules.dummy
        height = d.face_down + d.face_up
        take, cards = cards[: d.cards], cards[d.cards :]
        columns = [tuple(take[i * height:(i + 1) * height]) for i in range(d.columns)]
    if rules.hold_out is not None:  # shuffled back into what is left before the players' deal
        cards.append(rules.hold_out)
        rng.shuffle(cards)
    aside = cards[: rules.set_aside]
    rest = cards[rules.set_aside :]
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    seat = 0
    for card in rest:
        # one card at a time clockwise from seat 0, skipping full hands (3 players: 14/13/13)
        tries = 0
        while len(hands[seat]) >= rules.hand_sizes[seat] and tries < rules.players:
            seat = (seat + 1) % rules.players
            tries += 1
        if tries >= rules.players:
            aside.append(card)
            continue
        hands[seat].append(card)
        seat = (seat + 1) % rules.players
    return hands, aside, columns


def _secret_deal(rules: Rules, rng: random.Random, hands: list[list[Card]], aside: list[Card],
                 columns: list[tuple[Card, ...]]) -> Deal:
    """Deal the secret mission cards; with the ``redeal`` reading, redeal until every needed card is in a hand."""
    spec = rules.secret
    assert spec is not None
    need = spec.per_player * rules.players
    if need > len(spec.cards):
        raise SetupError(f"{need} secret mission cards are needed but only {len(spec.cards)} exist")
    for _ in range(1000):
        chosen = rng.sample(spec.cards, need)
        held = {c.id for h in hands for c in h}
        if spec.set_aside_needed != "redeal" or all(c.id in held for s in chosen for c in s.cards):
            break
        cards = [c for h in hands for c in h] + aside
        rng.shuffle(cards)
        aside = cards[: rules.set_aside]
        rest = cards[rules.set_aside:]
        hands = [rest[i::rules.players][: rules.hand_sizes[i]] for i in range(rules.players)]
    per_seat = tuple(tuple(s.id for s in chosen[i * spec.per_player:(i + 1) * spec.per_player])
                     for i in range(rules.players))
    tasks = tuple(c for s in chosen for c in s.cards)
    return Deal(tuple(tuple(h) for h in hands), tasks, tuple(aside), tuple(columns), per_seat)


def first_dealer(rules: Rules, seed: str, named: int | None = None) -> int:
    """The first round's dealer: drawn from the seed (``dealer_start: random``), seat 0 (``seat-0``) or chosen by
    the players (``chosen``: the named seat, seat 0 unless named).

    A named dealer the rule set does not allow raises :class:`SetupError` saying why."""
    n = rules.seats
    if named is not None and not 0 <= named < n:
        raise DealerError(f"the first dealer is seat {named}, but a {n}-player game has seats 0 to {n - 1}")
    start = rules.scoring.dealer_start
    if start == "seat-0" and named not in (None, 0):
        raise DealerError(f"the first dealer is seat {named}, but under dealer_start: seat-0 seat 0 deals first")
    if start != "random":
        return named or 0
    drawn = random.Random(f"crewkit:{seed}:dealer").randrange(n)
    if named is not None and named != drawn:
        # name the reading that lets the players choose, if the rule set has one
        choose = next((f"{r.get('id')}={name}" for r in rules.raw_ruleset.get("readings") or []
                       for name, opt in (r.get("options") or {}).items()
                       if ((opt or {}).get("overrides") or {}).get("rounds", {}).get("dealer_start") == "chosen"), None)
        current = next((f"{rid}={opt}" for rid, opt in rules.readings.items()
                        if choose and rid == choose.split("=")[0]), "dealer_start: random")
        raise DealerError(f"the first dealer is seat {named}, but under {current} the first dealer is drawn from the "
                         f"seed ({seed!r} draws seat {drawn})"
                         + (f"; the reading {choose} lets the players choose" if choose else ""))
    return drawn


def set_aside_count(rules: Rules) -> int:
    """Cards a full deal sets aside: the rule set's ``set_aside`` plus what the hands and the dummy leave over
    (``deal_from_seed`` sets those aside too). The sizes come from the compiled rules (one arithmetic)."""
    dealt = len(rules.deck) - rules.undealt_mask.bit_count()
    return dealt - sum(rules.hand_sizes) - (rules.dummy.cards if rules.dummy is not None else 0)


def check_deal(rules: Rules, deal: Deal, partial: bool = False) -> Deal:
    """Refuse an explicit deal that this rule set cannot deal; return it with the dummy's hand filled in.

    Checked: the number of hands, each seat's hand size, the cards set aside, the dummy's columns (count, height,
    the held-out card), cards the rule set never deals, and every card in one place only. ``partial``: a hand-made
    position with smaller hands (solver tests, puzzles); everything but the sizes is still checked."""
    name = rules.ruleset_name
    players = rules.players
    if rules.dummy is not None:
        d = rules.dummy
        if len(deal.dummy_columns) != d.columns:
            raise SetupError(f"the deal gives the dummy {len(deal.dummy_columns)} columns; rule set {name} "
                             f"gives it {d.columns}")
        height = d.face_down + d.face_up
        for i, col in enumerate(deal.dummy_columns):
            if len(col) != height and not partial:
                raise SetupError(f"dummy column {i} has {len(col)} cards; rule set {name} gives each column "
                                 f"{d.face_down} face down and {d.face_up} face up")
            if rules.hold_out is not None and rules.hold_out in col:
                raise SetupError(f"{rules.hold_out} is in dummy column {i}, but rule set {name} holds it out of "
                                 "the dummy's cards")
        columns = tuple(c for col in deal.dummy_columns for c in col)
        if len(deal.hands) == rules.seats and set(deal.hands[-1]) != set(columns):
            raise SetupError("the dummy's hand (the last one) is not the cards of its columns")
        if len(deal.hands) == players:
            deal = Deal((*deal.hands, columns), deal.tasks, deal.set_aside, deal.dummy_columns, deal.secret,
                        deal.task_cards, deal.mode_card)
    elif deal.dummy_columns:
        raise SetupError(f"the deal has dummy columns but rule set {name} has no dummy seat")
    if len(deal.hands) != rules.seats:
        raise SetupError(f"the deal has {len(deal.hands)} hands for {players} players")
    where: dict[int, str] = {}

    def place(card: Card, here: str) -> None:
        if card.id in where:
            twice = f"{here} twice" if where[card.id] == here else f"{where[card.id]} and {here}"
            raise SetupError(f"{card} is in the deal twice: {twice}")
        if card.bit & rules.undealt_mask:
            raise SetupError(f"{card} is {here}, but rule set {name} never deals it")
        where[card.id] = here

    for seat in range(players):
        hand = deal.hands[seat]
        for card in hand:
            place(card, f"dealt to seat {seat}")
        want = rules.hand_sizes[seat]
        if len(hand) != want and not (partial and len(hand) < want):
            raise SetupError(f"seat {seat} is dealt {len(hand)} cards; rule set {name} deals {want} to seat "
                             f"{seat} with {players} players")
    for i, col in enumerate(deal.dummy_columns):
        for card in col:
            place(card, f"in dummy column {i}")
    for card in deal.set_aside:
        place(card, "set aside")
    aside = set_aside_count(rules)
    if len(deal.set_aside) != aside and not (partial and len(deal.set_aside) < aside):
        raise SetupError(f"the deal sets {len(deal.set_aside)} cards aside; rule set {name} sets {aside} aside "
                         f"with {players} players")
    if not any(deal.hands):
        raise SetupError("the deal gives no cards")
    return deal


def complete_deal(rules: Rules, deal: Deal, rng: random.Random, partial: bool = False) -> Deal:
    """Check an explicit deal (:func:`check_deal`) and fill in what it leaves open (tasks) from the seeded RNG."""
    deal = check_deal(rules, deal, partial)
    if rules.secret is not None:
        by_id = {c.id: c for c in rules.secret.cards}
        if len(deal.secret) != rules.players or any(len(ids) != rules.secret.per_player for ids in deal.secret):
            raise SetupError(f"the deal must give each of the {rules.players} players "
                             f"{rules.secret.per_player} secret mission card(s)")
        unknown = [i for ids in deal.secret for i in ids if i not in by_id]
        if unknown:
            raise SetupError(f"unknown secret mission card {unknown[0]!r}")
        tasks = tuple(c for ids in deal.secret for i in ids for c in by_id[i].cards)
        return Deal(deal.hands, tasks, deal.set_aside, deal.dummy_columns, deal.secret)
    tasks = deal.tasks
    mode_card = deal.mode_card
    if rules.drawn_modes and mode_card is None:
        mode_card = draw_mode_card(rules, rng)
    elif mode_card is not None and not rules.drawn_modes:
        if rules.drawn_ranks is None:
            raise SetupError(f"the deal draws {mode_card} for the communication mode, but the mission draws none")
        if mode_card.rank not in rules.drawn_ranks:  # the rules of one drawn mode (game.rules of a played deal)
            raise SetupError(f"the deal draws {mode_card} for the communication mode, but these rules are those "
                             f"drawn with {', '.join(map(str, rules.drawn_ranks)) or 'no rank'}")
    if mode_card is not None and (mode_card.suit is None or mode_card.is_trump):
        raise SetupError(f"the card drawn for the communication mode must be a colour card, not {mode_card}")
    task_cards = deal.task_cards
    if rules.task_draw is not None:
        from crewkit.families.trick_taking.engine.taskcards import check_drawn, draw_cards

        if task_cards:
            task_cards = check_drawn(rules.task_deck, rules.task_draw, task_cards)
            chooser = None if partial else _hardest_chooser(rules, deal.hands[: rules.players], deal.dummy_columns)
            if chooser is not None and not rules.task_draw.fixed:
                ties, may_take = chooser
                from crewkit.families.trick_taking.engine.taskcards import redraw_hardest

                if redraw_hardest(rules.task_deck, task_cards, ties, may_take, random.Random(0)) != task_cards:
                    raise SetupError("the captain, who takes one of the most difficult task cards first, may take "
                                     "none of those drawn: under tasks.hardest_barred: redraw the rules draw such a "
                                     "card again")
        else:
            task_cards = draw_cards(rules.task_deck, rules.task_draw, rng)
            task_cards = _redraw_hardest(rules, task_cards, deal.hands[: rules.players], deal.dummy_columns, rng)
        if not partial:
            card = _redeal_reason(rules, task_cards, deal.hands[: rules.players], deal.dummy_columns)
            if card is not None:
                raise SetupError(f"task card {card!r} cannot be played with this deal: the rules deal again")
    elif task_cards:
        raise SetupError("the deal draws task cards, but the mission draws none (no draw_tasks step)")
    if not tasks and rules.task_count:
        tasks = rules.fixed_tasks or tuple(rng.sample(rules.task_pool, rules.task_count))
    if len(tasks) != rules.task_count:
        raise SetupError(f"the deal reveals {len(tasks)} tasks; the mission has {rules.task_count}")
    pool = {c.id for c in rules.task_pool}
    for t in tasks:
        if t.id not in pool:
            raise SetupError(f"{t} has no task card in this rule set")
    if len({t.id for t in tasks}) != len(tasks):
        raise SetupError("the deal reveals the same task twice")
    return Deal(deal.hands, tuple(tasks), deal.set_aside, deal.dummy_columns, deal.secret, tuple(task_cards),
                mode_card)


def deal_from_strings(rules: Rules, hands: Sequence[Sequence[str]], tasks: Sequence[str] = (),
                      set_aside: Sequence[str] = ()) -> Deal:
    """A deal from card names, checked against the rule set (:func:`check_deal`; raises :class:`SetupError`)."""
    deck = rules.deck
    deal = Deal(tuple(tuple(deck.card(c) for c in h) for h in hands), tuple(deck.card(t) for t in tasks),
                tuple(deck.card(c) for c in set_aside))
    check_deal(rules, deal)
    return deal
