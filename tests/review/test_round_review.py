"""``crewkit review`` of a Hammer match: each round judged by the adversarial search. A failed challenge's turning
point is a play of the dealer's, with the position before it forceable and the one after not (checked by plain
minimax); a bet that succeeded names the others' play; a bet never forceable says so; a penalty round gives
each player's guarantee, what they got and the plays that lowered it; a tiny budget leaves positions undecided,
named, never guessed."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from crewkit import cli
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.round_review import rounds_of
from crewkit.families.trick_taking.solve.adversarial import RoundSearch
from tests.solve.hammer_positions import plain_minimax

NAMES = ["Ann", "Bob", "Cem", "Dee"]


def played_round(seed: str, mission: str, mode: str) -> Game:
    """One round played at random (seeded), avoiding plays that settle it early while others do not."""
    g = new_game("hammer", "hammer", 4, seed)
    g.apply(ChooseMission(g.dealer, mission, mode))  # type: ignore[arg-type]
    rng = random.Random(seed)
    m = match_of(g)
    assert m is not None
    while not m.round_results:
        actions = g.legal_actions(g.to_act)
        rng.shuffle(actions)
        for a in actions:
            h = g.clone()
            h.apply(a)
            if not match_of(h).round_results:  # type: ignore[union-attr]
                break
        g.apply(a)
    return g


def review(tmp_path: Path, g: Game, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(game_to_record(g)))
    capsys.readouterr()
    code = cli.main(["review", str(path), "--names", ",".join(NAMES), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def review_json(tmp_path: Path, g: Game, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = review(tmp_path, g, capsys, "--format", "json", *args)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def dealer_of(g: Game) -> int:
    """The first round's dealer (``g.dealer`` is the next round's once the round is settled)."""
    m = match_of(g)
    assert m is not None
    return m.round_results[0].dealer


def forced_by_minimax(g: Game) -> object:
    dealer = g.dealer
    assert dealer is not None
    return plain_minimax(RoundSearch(g), lambda t: t.verdict is not None and t.verdict[0] == "success", dealer)


def test_a_failed_challenge_names_the_dealers_play_that_lost_it(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    g = played_round("r3", "hammer/04", "challenge")
    data = review_json(tmp_path, g, capsys, "--nodes", "2000")
    assert data["status"] == "reviewed" and set(data) >= {"turning_point", "positions", "reason", "rounds"}
    (r,) = data["rounds"]
    assert (r["round"], r["mode"], r["mission"], r["result"], r["status"]) == (1, "challenge", "hammer/04",
                                                                              "failure", "lost")
    tp = r["turning_point"]
    i = tp["action_index"]
    assert tp["seat"] == dealer_of(g) == r["dealer"]  # only the dealer's own play can lose a forced bet
    games, _ = rounds_of(new_game("hammer", "hammer", 4, "r3"), g.actions)
    assert forced_by_minimax(games[i]) is True and forced_by_minimax(games[i + 1]) is False
    # the play offered instead keeps the bet forced
    assert tp["instead"] is not None and tp["instead"]["seat"] == dealer_of(g)
    s = RoundSearch(games[i])
    s.play(s.deck.card(tp["instead"]["card"]).id)
    assert s.verdict is not None and s.verdict[0] == "success" or plain_minimax(
        s, lambda t: t.verdict is not None and t.verdict[0] == "success", dealer_of(g)) is True
    code, text, _ = review(tmp_path, g, capsys, "--nodes", "2000")
    dealer = NAMES[dealer_of(g)]
    assert code == 0
    assert f"Round 1 ({dealer} dealt; First and last in challenge mode; the bet failed): Trick {tp['trick']}: " \
           f"{dealer} played the " in text
    assert f"Before it {dealer} could still force the bet's success, for example if {dealer} had played" in text
    assert "only a play of the dealer's can lose a forced bet" in text and "a line from the position before it" in text
    assert "seat" not in text.lower() and "{" not in text


def test_a_challenge_that_succeeded_names_the_others_play(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    g = played_round("r13", "hammer/04", "challenge")
    (r,) = review_json(tmp_path, g, capsys, "--nodes", "2000")["rounds"]
    assert (r["result"], r["status"]) == ("success", "won")
    tp = r["turning_point"]
    assert tp["seat"] != dealer_of(g) and tp["exact"]
    games, _ = rounds_of(new_game("hammer", "hammer", 4, "r13"), g.actions)
    i = tp["action_index"]
    assert RoundSearch(games[i]).forceable() is False and RoundSearch(games[i + 1]).forceable() is True
    assert f"{NAMES[tp['seat']]} played the " in r["words"] and "could force it" in r["words"]


def test_a_bet_never_forceable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = played_round("r0", "hammer/01", "challenge")
    (r,) = review_json(tmp_path, g, capsys, "--nodes", "2000")["rounds"]
    assert (r["result"], r["status"], r["turning_point"]) == ("failure", "never-winnable", None)
    assert r["positions"][0]["forceable"] is False
    assert "the bet could never be forced: from the first card the others could stop it" in r["words"]


def test_a_penalty_round_gives_each_players_guarantee(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = played_round("r3", "hammer/04", "penalty")
    data = review_json(tmp_path, g, capsys, "--nodes", "1000")
    (r,) = data["rounds"]
    assert r["mode"] == "penalty" and [p["name"] for p in r["players"]] == NAMES
    m = match_of(g)
    assert m is not None
    assert [p["got"] for p in r["players"]] == [int(d) for d in m.round_results[0].deltas]
    games, _ = rounds_of(new_game("hammer", "hammer", 4, "r3"), g.actions)
    lowered = [(p["seat"], x) for p in r["players"] for x in p["lowered"]]
    assert lowered
    for seat, x in lowered:
        i = x["action_index"]
        assert x["action"]["seat"] == seat and x["before"] > x["after"]
        if max(h.bit_count() for h in games[i].hands) <= 3:  # small enough for plain minimax
            assert plain_minimax(RoundSearch(games[i]), lambda t, p=seat: t.verdict[2][p], seat) == x["before"]
    for p in r["players"]:  # the costliest first
        costs = [x["before"] - x["after"] for x in p["lowered"]]
        assert costs == sorted(costs, reverse=True)
    text = r["words"]  # as the text output prints it
    assert "Round 1 (" in text and "First and last in penalty mode; scored):" in text
    seat, x = lowered[0]
    assert f"  {NAMES[seat]}" in text and "plays that lowered the guarantee, costliest first: " \
        f"trick {x['trick']}, the " in text


def test_a_tiny_budget_leaves_positions_undecided(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = played_round("r7", "hammer/03", "challenge")
    data = review_json(tmp_path, g, capsys, "--nodes", "1")
    (r,) = data["rounds"]
    assert data["status"] == "unknown" and r["status"] == "unknown" and r["undecided"]
    assert all(p["forceable"] is None for p in r["positions"] if p["action_index"] in r["undecided"])
    assert "undecided within the search's budget" in r["words"]
    # searching back from the end, two undecided answers in a row: the earlier positions are not searched
    assert r["skipped"] and set(r["skipped"]) < set(r["undecided"]) and max(r["skipped"]) < min(
        set(r["undecided"]) - set(r["skipped"]))
    assert "not searched (later positions already needed more than the budget)" in r["words"]


def test_round_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = played_round("r0", "hammer/01", "challenge")
    assert [r["round"] for r in review_json(tmp_path, g, capsys, "--nodes", "500", "--round", "1")["rounds"]] == [1]
    code, _, err = review(tmp_path, g, capsys, "--round", "2")
    assert code == 1 and "there is no round 2 in this record; its rounds: 1" in err and "Traceback" not in err


def test_round_option_on_one_attempt_of_a_mission(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent / "lost-planet-nine-10.json"
    capsys.readouterr()
    assert cli.main(["review", str(path), "--round", "1"]) == 1
    err = capsys.readouterr().err
    assert "--round picks a round of a match played in rounds (Hammer)" in err and "Traceback" not in err
