"""Fair blame in Hammer's rounds: a failed challenge's turning point (the dealer's play) and a penalty round's
costliest play judged also with what the player could know: worlds consistent with the player's observation,
sampled as the Crew review samples them (``Knowledge``), each legal play judged by the adversarial search. Checked
against plain minimax through the engine where every world is the real deal, and in words and JSON."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from crewkit.families.trick_taking.bots.knowledge import Knowledge
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.round_review import challenge_blame, guarantee_blame, rounds_of
from tests.review.test_round_review import NAMES, dealer_of, played_round, review, review_json
from tests.solve.hammer_positions import engine_minimax


def real_deal_only(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    """Every world sampled is the real deal (the hands as they are): the shares are then 0 or 1, each play's
    answer with every hand known."""
    monkeypatch.setattr(Knowledge, "sample", lambda self, rng: list(game.hands))


def after(game: Game, play: Play) -> Game:
    h = game.clone()
    h.apply(play)
    return h


def by_engine(game: Game, play: Play, value: Any, maximiser: int) -> Any:
    """The value of ``play`` by plain minimax through the engine (the round's result as the engine settles it)."""
    m = match_of(game)
    assert m is not None
    k = len(m.round_results)
    h = after(game, play)
    hm = match_of(h)
    assert hm is not None
    return value(hm.round_results[k]) if len(hm.round_results) > k else engine_minimax(h, value, maximiser)


def test_a_failed_challenges_turning_point_with_what_the_dealer_could_know(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    g = played_round("r3", "hammer/04", "challenge")
    data = review_json(tmp_path, g, capsys, "--nodes", "300", "--worlds", "8")
    (r,) = data["rounds"]
    tp = r["turning_point"]
    known = tp["known"]
    dealer = dealer_of(g)
    assert known["worlds"] == 8 and 0 <= known["played"] <= known["best"] <= 1
    assert known["best_action"]["seat"] == dealer and known["best_action"]["type"] == "play"
    games, _ = rounds_of(new_game("hammer", "hammer", 4, "r3"), g.actions)
    before = games[tp["action_index"]]
    legal = {a.card.name for a in before.legal_actions(dealer) if isinstance(a, Play)}
    assert set(known["shares"]) == legal
    name = NAMES[dealer]
    assert known["words"].startswith(f"With what {name} could know, the ") or \
        known["words"].startswith(f"Nothing {name} could know of was safer")
    assert "kept the bet forceable in" in known["words"] and "%" in known["words"]
    code, text, _ = review(tmp_path, g, capsys, "--nodes", "300", "--worlds", "8")
    assert code == 0 and known["words"] in text  # in words, and the same figures: the same record, the same worlds
    assert "known" not in review_json(tmp_path, g, capsys, "--nodes", "300", "--no-blame")["rounds"][0][
        "turning_point"]
    # every world the real deal: each play's share is its answer by plain minimax through the engine
    real_deal_only(monkeypatch, before)
    played = g.actions[tp["action_index"]]
    assert isinstance(played, Play)
    real = challenge_blame(before, played, NAMES, worlds=2)
    assert real is not None and real["worlds"] == 2 and real["undecided"] == 0
    for a in before.legal_actions(dealer):
        assert isinstance(a, Play)
        forced = by_engine(before, a, lambda res: res.result == "success", dealer)
        assert real["shares"][a.card.name] == (1.0 if forced else 0.0)
    assert real["played"] == 0.0 and real["best"] == 1.0  # the play made lost the bet; another kept it


def test_a_penalty_rounds_costliest_play_with_what_its_player_could_know(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    g = played_round("r3", "hammer/04", "penalty")
    data = review_json(tmp_path, g, capsys, "--nodes", "300", "--worlds", "8")
    (r,) = data["rounds"]
    lowered = [(p, x) for p in r["players"] for x in p["lowered"]]
    judged = [(p, x) for p, x in lowered if "known" in x]
    assert len(judged) == 1  # the round's costliest play (the earliest of the costliest)
    p, x = judged[0]
    assert min((y["after"] - y["before"], y["action_index"]) for _, y in lowered) == (x["after"] - x["before"],
                                                                                       x["action_index"])
    known = x["known"]
    assert known["worlds"] == 8 and f"kept the most {p['name']} could guarantee in" in known["words"]
    assert known["words"] in r["words"]
    games, _ = rounds_of(new_game("hammer", "hammer", 4, "r3"), g.actions)
    before = games[x["action_index"]]
    seat = p["seat"]
    real_deal_only(monkeypatch, before)
    played = g.actions[x["action_index"]]
    assert isinstance(played, Play)
    real = guarantee_blame(before, played, NAMES, worlds=2)
    assert real is not None and real["undecided"] == 0
    values = {a.card.name: by_engine(before, a, lambda res: res.deltas[seat], seat)
              for a in before.legal_actions(seat) if isinstance(a, Play)}
    top = max(values.values())
    assert real["shares"] == {c: (1.0 if v == top else 0.0) for c, v in values.items()}
    assert real["played"] == 0.0  # it lowered the guarantee: another play kept more


def test_the_worlds_keep_what_everyone_knows_of_a_round() -> None:
    """Hammer's 10, never dealt outside a challenge, is in no hand of any world; a seat that played the 10 (a free
    card) while others followed shows no void; each world deals every seat its hand's size."""
    found = 0
    for k in range(40):
        g = new_game("hammer", "hammer", 4, f"w{k}")
        g.apply(ChooseMission(g.dealer, "hammer/04", "challenge"))  # type: ignore[arg-type]
        rng = random.Random(k)
        while not found and not match_of(g).round_results:  # type: ignore[union-attr]
            seat = g.to_act
            assert seat is not None
            actions = g.legal_actions(seat)
            ten = [a for a in actions if isinstance(a, Play) and a.card.suit is None]
            led = g.led_suit
            follows = 0 if led is None else g.hands[seat] & g.rules.suit_masks[led.index]
            if ten and follows:  # the 10 played though the seat could follow
                g.apply(ten[0])
                know = Knowledge(g.observation((seat + 1) % 4))
                assert not know.void[seat] & follows
                found += 1
            else:
                g.apply(rng.choice(actions))
        if found:
            break
    assert found
    g = played_round("r3", "hammer/04", "penalty")  # round 2 is dealt: the 10 out of the hands again
    games, _ = rounds_of(new_game("hammer", "hammer", 4, "r3"), g.actions)
    before = next(x for x in games if x.phase == "tricks" and x.tricks)
    seat = before.to_act
    assert seat is not None
    know = Knowledge(before.observation(seat))  # the 10 out of play: from the observation alone
    never_dealt = before.rules.undealt_mask
    rng = random.Random("worlds")
    for _ in range(50):
        hands = know.sample(rng)
        assert not any(h & never_dealt for h in hands)
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in before.hands]
        assert hands[seat] == before.hands[seat]
