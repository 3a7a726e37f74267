"""Cards a seat claims (issue 47, mission 46 at 3 players): a condition "every card of a set won by one seat" that
stays a DSL condition (a card of the set may be left unplayed in the hand with a card to spare) still fails the
trick that gives such a card to another seat, so the search cuts that trick as a task's
(``compiled.CompiledConditions.claims``, ``TrickSearch.claimed``), the low-card bound reads claimed cards, and the
history digest keeps the winners of the set's cards only (``native.winner_cards``). Verdicts: the Python search's,
the slow path's (every condition through the DSL, no claims) and the brute force's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import (
    WINNABLE,
    TrickSearch,
    brute_force,
    native,
    replays_to_success,
    solve,
)
from crewkit.families.trick_taking.solve.native import condition_program
from tests.solve.test_check_budget import check_deal
from tests.solve.test_native_conditions import c_and_python, in_tricks

C = native.load() is not None


def spare_deal(seed: int, cards: int = 4, pinks: int = 6) -> Game:
    """Mission 46 at 3 players, an explicit deal: seat 0 holds one card more than the tricks (it keeps one), pink 9,
    rocket 4 and ``pinks`` pinks in all dealt."""
    rules = compile_game("crew", "planet-nine/46", 3)
    rng = random.Random(f"claims:{seed}")
    deck = rules.deck
    others = [deck.card(f"pink {r}") for r in range(1, 9)]
    rng.shuffle(others)
    must = [deck.card("pink 9"), deck.card("rocket 4"), *others[:pinks - 1]]
    rest = [c for c in deck.cards if c not in must and c.suit is not None and c.suit.name != "pink"]
    rng.shuffle(rest)
    chosen = must + rest[:3 * cards + 1 - len(must)]
    rng.shuffle(chosen)
    hands = (tuple(chosen[:cards + 1]), tuple(chosen[cards + 1:2 * cards + 1]), tuple(chosen[2 * cards + 1:]))
    return Game.new(rules, seed=f"claims:{seed}", deal=Deal(hands, ()), partial=True)


@pytest.mark.skipif(not C, reason="the C search is not available")
def test_claims_keep_c_and_python_alike_and_agree_with_the_slow_path_and_brute_force() -> None:
    verdicts = set()
    for seed in range(8):
        game = in_tricks(spare_deal(seed))
        search = TrickSearch(game)
        assert search.claimed and not search.compiled_conditions  # old: no claims (a DSL condition only)
        won = c_and_python(game)  # C and Python: the same nodes and line (history summary), the same verdict
        assert brute_force(game)[0] == won
        assert (solve(game, compile_conditions=False).status == WINNABLE) == won
        verdicts.add(won)
    assert verdicts == {True, False}


def test_the_low_card_bound_reads_claimed_cards_soundly() -> None:
    proved = 0
    for seed in range(60):
        base = in_tricks(spare_deal(seed, cards=5))
        rng = random.Random(seed)
        for _ in range(30):
            game = base.clone()
            while len(game.tricks) < 2 and not game.is_over():
                game.apply(rng.choice([a for a in game.legal_actions(game.to_act) if isinstance(a, Play)]))
            if not game.is_over():
                break
        if game.is_over():
            continue
        search = TrickSearch(game, native=False)
        search._reset_position()
        for hand in search.hands:
            search.remaining |= hand
        if search._too_few_tricks():  # old: no bound without open tasks
            proved += 1
            assert not brute_force(game)[0], seed
    assert proved >= 5


def test_winner_cards_are_the_quantified_set(tmp_path: Path) -> None:
    from crewkit.families.trick_taking.solve.native import winner_cards

    game = in_tricks(spare_deal(0))
    program = condition_program(TrickSearch(game))
    assert program is not None
    pinks = sum(1 << c.id for c in game.rules.deck.cards if c.suit is not None and c.suit.name == "pink")
    assert winner_cards(program) == pinks  # old: every card's winner in the key
    # a card named outright: no set to read, every card's winner is kept
    path = tmp_path / "blue-three.yaml"
    path.write_text(
        "number: 90\ntitle: Blue three\nrulesets: [crew]\ntasks: {count: 0, tokens: []}\nsymbols: {}\n"
        "conditions:\n  - id: b3\n    fail_if: \"won_by(blue 3) != none and won_by(blue 3) != commander\"\n"
        "    done_if: \"won_by(blue 3) == commander\"\n")
    rules = compile_game("crew", str(path), 4)
    deck = rules.deck
    dealt = [deck.card("rocket 4"), deck.card("blue 3"), *[c for c in deck.cards if c.name not in ("rocket 4", "blue 3")]]
    other = Game.new(rules, seed="b3", deal=Deal(tuple(tuple(dealt[i::4][:3]) for i in range(4)), ()), partial=True)
    program = condition_program(TrickSearch(in_tricks(other)))
    assert program is not None and winner_cards(program) is None


@pytest.mark.skipif(not C, reason="the C search is not available")
@pytest.mark.parametrize("deal", [24, 47])
def test_the_checks_mission_46_deals_at_3_players_are_decided(deal: int) -> None:
    # old: undecided at the check's budget (a million C plays, the whole condition in the program)
    game = check_deal("planet-nine/46", 3, deal)
    result = solve(game, max_nodes=20_000, native_weight=50)
    assert result.status == WINNABLE
    assert replays_to_success(game, result.line)
