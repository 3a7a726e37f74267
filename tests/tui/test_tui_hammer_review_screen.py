"""Hammer's review on the review screen at 80x24: one round's tricks with ← →, every hand as it was, each position
marked with what the adversarial search decided (a challenge: whether the dealer could force the bet; penalty: the
guarantee of the player to lead) and each card played with what it did; a hosted seat gets the same screen from
the host's review. One round each (tests/review/test_round_review.py's rounds), small node budgets."""

from __future__ import annotations

from typing import Any

import pytest
from screen_text import screen_text
from test_tui_seat_review import until
from textual.app import App
from textual.widgets import Static

from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.engine.blocks.rounds import match_of
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.review import start_of
from crewkit.families.trick_taking.round_review import review_match
from crewkit.families.trick_taking.tui.review import MatchReviewScreen
from crewkit.families.trick_taking.tui.words import card_text
from tests.review.test_round_review import played_round

NAMES = ["Ann", "Bob", "Cem", "Dee"]


def small_budgets(monkeypatch: pytest.MonkeyPatch, nodes: int) -> None:
    monkeypatch.setattr(reviews, "QUICK_NODES", 50)
    monkeypatch.setattr(reviews, "MATCH_QUICK_TOTAL", 0.2)
    monkeypatch.setattr(reviews, "MATCH_NODES", nodes)
    monkeypatch.setattr(reviews, "MATCH_TOTAL", 600.0)  # a safety net: the node budget decides
    monkeypatch.setattr(reviews, "FINAL_WORLDS", 4)


def hand_row(game: Game, seat: int) -> str:
    return f"  {NAMES[seat]:<10} " + " ".join(card_text(c, short=True).plain for c in game.hand(seat))


def reviewed_round(monkeypatch: pytest.MonkeyPatch, seed: str, mode: str,
                   nodes: int) -> tuple[Game, MatchReviewScreen, App[None]]:
    """A round of First and last in ``mode`` played at random (``seed``), its review screen (the final answer
    searching ``nodes`` plays a position) and an app that opens it."""
    small_budgets(monkeypatch, nodes)
    g = played_round(seed, "hammer/04", mode)
    screen = MatchReviewScreen(g, NAMES)
    return g, screen, host_app(screen)


def host_app(screen: MatchReviewScreen) -> App[None]:
    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    return Host()


async def final_round(pilot: Any, screen: MatchReviewScreen) -> dict[str, Any]:
    """The round's review once the final answer is shown."""
    await until(pilot, lambda: screen.review is not None and not screen.provisional, "the final answer")
    (r,) = screen.review.rounds
    return r


async def step_to(pilot: Any, screen: MatchReviewScreen, action_index: int) -> None:
    """← → to the trick that holds the ``action_index``-th action."""
    target = max(k for k, s in enumerate(screen.starts) if s <= action_index)
    while screen.trick != target:
        await pilot.press("right" if screen.trick < target else "left")


async def test_a_failed_challenge_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    g, screen, app = reviewed_round(monkeypatch, "r4", "challenge", 300)
    async with app.run_test(size=(80, 24)) as pilot:
        r = await final_round(pilot, screen)
        tp = r["turning_point"]
        i = tp["action_index"]
        dealer = NAMES[r["dealer"]]
        assert r["status"] == "lost" and tp["seat"] == r["dealer"]
        text = screen_text(app)  # what the terminal shows: the heading, the first trick, every hand, the keys
        start = screen.positions[screen.starts[0]]
        assert f"Round 1 of 1: {dealer} dealt; First and last in challenge mode; the bet failed" in text
        assert "Trick 1 of 9" in text and all(hand_row(start, s) in text for s in range(4))
        assert "← → trick   ↑ ↓ round" in text
        await step_to(pilot, screen, i)
        text = screen_text(app)
        before = screen.positions[screen.starts[screen.trick]]
        assert all(hand_row(before, s) in text for s in range(4))  # the hands as they were before this trick
        card = card_text(g.actions[i].card, short=True).plain
        assert f"    {dealer:<10} {card} (lost the bet)" in text
        forced = {p["action_index"]: p["forceable"] for p in r["positions"]}
        mark = {True: f"{dealer} could force the bet", False: "the others could stop the bet",
                None: "undecided"}[forced[screen.starts[screen.trick]]]
        assert f"before it: {mark}" in text
        # every card the dealer played while the bet was forceable, and kept it so, is marked kept; the others'
        # that let it be forced, so
        kept = [k for k, a in enumerate(g.actions) if a.seat == r["dealer"] and forced.get(k) and forced.get(k + 1)]
        let = [k for k, a in enumerate(g.actions) if a.seat != r["dealer"] and forced.get(k) is False
               and forced.get(k + 1)]
        assert kept and let  # this round has both (the bet given to the dealer, kept, then lost)
        for k, words in [(k, "✓ kept the bet forceable") for k in kept] + [(k, "(let the bet be forced)") for k in let]:
            await step_to(pilot, screen, k)
            a = g.actions[k]
            card = card_text(a.card, short=True).plain  # type: ignore[attr-defined]
            assert f"    {NAMES[a.seat]:<10} {card} {words}" in screen_text(app)
        assert "seat" not in screen_text(app).lower()
        # below the keys, the round in words with the fair blame: what the dealer could know (the final answer's)
        words = str(screen.query_one("#review-text", Static).render())
        assert tp["known"]["words"] in words and "kept the bet forceable in" in words
        await pilot.press("escape")
        assert not isinstance(app.screen, MatchReviewScreen)


async def test_a_penalty_round_marks_the_guarantees(monkeypatch: pytest.MonkeyPatch) -> None:
    g, screen, app = reviewed_round(monkeypatch, "r3", "penalty", 300)
    async with app.run_test(size=(80, 24)) as pilot:
        r = await final_round(pilot, screen)
        lowered = [(p["seat"], x) for p in r["players"] for x in p["lowered"]]
        assert lowered
        for seat, x in lowered:
            await step_to(pilot, screen, x["action_index"])
            text = screen_text(app)
            card = card_text(g.actions[x["action_index"]].card, short=True).plain
            before, after = (f"+{v}" if v > 0 else str(v) for v in (x["before"], x["after"]))
            assert f"    {NAMES[seat]:<10} {card} (lowered {before} to {after})" in text
        # a trick's start: the guarantee of the player to lead, as the review decided it
        leads = [(k, s) for k, s in enumerate(screen.starts)
                 if r["positions"] and any(p["action_index"] == s and p["guarantee"].get(
                     NAMES[screen.positions[s].turn]) is not None for p in r["positions"])]
        assert leads
        k, s = leads[-1]
        await step_to(pilot, screen, s)
        leader = NAMES[screen.positions[s].turn]
        v = next(p["guarantee"][leader] for p in r["positions"] if p["action_index"] == s)
        assert f"before it: {leader} could guarantee {f'+{v}' if v > 0 else v}" in screen_text(app)
        assert "✓ kept " in screen_text(app) or "(lowered " in screen_text(app)


class FakeHost:
    """A hosted table's seat (``RemoteSession``'s part the screen uses): the host's review, as it sends it."""

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message

    async def request_review(self, first: Any) -> dict[str, Any]:
        return self.message

    def named(self, words: str) -> str:
        return words


async def test_a_hosted_seat_gets_the_same_screen() -> None:
    g = played_round("r3", "hammer/04", "challenge")
    m = match_of(g)
    assert m is not None
    start, _ = start_of(g)
    rv = review_match(start, list(g.actions), names=NAMES, max_nodes=300)
    message = {"type": "review", "record": game_to_record(g), "names": NAMES, "review": rv.to_json(),
               "error": None, "final": True}
    screen = MatchReviewScreen(None, NAMES, host=FakeHost(message))
    app = host_app(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: screen.review is not None, "the host's review")
        tp = rv.rounds[0]["turning_point"]
        await step_to(pilot, screen, tp["action_index"])
        text = screen_text(app)
        card = card_text(g.actions[tp["action_index"]].card, short=True).plain
        assert f"    {NAMES[tp['seat']]:<10} {card} (lost the bet)" in text
        before = screen.positions[screen.starts[screen.trick]]
        assert all(hand_row(before, s) in text for s in range(4))
