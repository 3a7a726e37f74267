"""Blocks ``choose-mission`` (phase) and ``chip-scoring`` (cross-cutting): Hammer's competitive rounds.

A match is ``rounds.count`` rounds. Each round the dealer chooses one of the round mission cards and a mode
(penalty: applies to everyone; challenge: the dealer's bet, with the special card added to the dealer's hand);
the tricks follow; after each trick the round is settled as soon as its score is fixed (or when the hands run
out), chips move, and the next round is dealt by the next dealer, or the match ends with the most chips.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from crewkit.cards import Deck
from crewkit.engine.actions import Action, ActionFormatError, register_action
from crewkit.engine.errors import IllegalAction
from crewkit.engine.outcome import FINISHED, Outcome
from crewkit.engine.phase import CHOOSE_MISSION, Block, BlockState, Handler, Phase, TrickHook, register
from crewkit.families.trick_taking.engine.blocks.tricks import fast_tables
from crewkit.families.trick_taking.engine.deal import deal_from_seed, first_dealer
from crewkit.families.trick_taking.engine.scoring import (
    RoundMission,
    RoundResult,
    ScoringRules,
    apply_deltas,
    challenge_deltas,
    chip_text,
    penalty_deltas,
)
from crewkit.families.trick_taking.engine.state import Event, Trick

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@dataclass(frozen=True, slots=True)
class ChooseMission(Action):
    """The dealer announces the round's mission card and mode (Hammer: penalty or challenge)."""

    mission: str
    mode: str
    type = "choose-mission"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "mission": self.mission, "mode": self.mode}


def _read_choose_mission(obj: dict[str, Any], seat: int, deck: Deck) -> ChooseMission:
    mission, mode = obj.get("mission"), obj.get("mode")
    if not isinstance(mission, str) or mode not in ("penalty", "challenge"):
        raise ActionFormatError(
            f"a choose-mission action needs 'mission' and 'mode' (penalty or challenge), found {mission!r}, {mode!r}"
        )
    return ChooseMission(seat, mission, mode)


register_action(ChooseMission, _read_choose_mission)


@dataclass(slots=True)
class MatchState(BlockState):
    """A match played in rounds (block ``chip-scoring``): kept on the game, read through :func:`match_of`.

    The dealer and the round's mode are the game's own ``dealer`` and ``mode``."""

    first_dealer: int  # the first round's dealer
    chips: list[Fraction]  # by seat, after the rounds so far
    round: int = 1  # the round under way (the last one once the match is over)
    round_mission: RoundMission | None = None  # the round's mission card, once the dealer chose it
    round_results: list[RoundResult] = field(default_factory=list)  # the settled rounds
    round_tricks: list[list[Trick]] = field(default_factory=list)  # the tricks of each settled round

    def copy(self) -> MatchState:
        return MatchState(self.first_dealer, list(self.chips), self.round, self.round_mission,
                          list(self.round_results), [list(ts) for ts in self.round_tricks])


def match_of(g: Game) -> MatchState | None:
    """The match state of a game played in rounds (None for a game without chip scoring)."""
    return g.state_or_none(MatchState)


@register
class ChooseMissionPhase(Block):
    name = "choose-mission"
    phase = Phase.CHOOSE_MISSION

    def actions(self) -> dict[type, Handler]:
        return {ChooseMission: choose_mission}  # type: ignore[dict-item]

    def enter(self, g: Game) -> bool:
        """A round begins: the dealer leads (and commands, if the rule set says so) and chooses."""
        g.leader = g.turn = g.dealer  # type: ignore[assignment]
        if g.rules.commander_is_dealer:
            g.commander = g.dealer
        g.mode = None
        m = g.state(MatchState)
        m.round_mission = None
        g.events.append(Event("round", g.dealer, None, f"round {m.round}, dealer seat {g.dealer}"))
        return True

    def to_act(self, g: Game) -> int | None:
        return g.dealer

    def legal(self, g: Game, seat: int) -> list[Action]:
        if seat != g.dealer:
            return []
        out: list[Action] = []
        for m in g.scoring.missions:
            for mode in g.scoring.modes:
                if mode == "challenge" and not m.has_challenge:
                    continue
                out.append(ChooseMission(seat, m.id, mode))
        return out

    def describe(self, g: Game) -> str:
        return f"round {g.state(MatchState).round}: the dealer (seat {g.dealer}) chooses a mission card"

    def not_playing(self, g: Game) -> str:
        return f"round {g.state(MatchState).round} has not started: the dealer (seat {g.dealer}) chooses its mission card first"


@register
class ChipScoring(Block):
    name = "chip-scoring"
    order = 5
    takes_dealer = True
    replaces = ("objectives", "draws")  # a round is settled in chips, not won or lost as a mission

    def start(self, g: Game) -> None:
        dealer = first_dealer(g.rules, g.seed, g.dealer_asked)
        g.set_state(MatchState(dealer, [Fraction(g.scoring.chips_start)] * g.n))
        g.mode = None
        g.dealer = dealer

    def trick_end(self) -> TrickHook | None:
        return settle_round_if_decided


def choose_mission(g: Game, a: ChooseMission) -> None:
    if g.phase != CHOOSE_MISSION:
        raise IllegalAction("not-choosing", "the mission is chosen only at the start of a round")
    if a.seat != g.dealer:
        raise IllegalAction("not-dealer", f"seat {a.seat} cannot choose the mission: the dealer is seat {g.dealer}")
    # the exact id, as legal() lists it (a record or a client naming "1" for "hammer/01" is refused, so the
    # record keeps the one spelling)
    mission = next((m for m in g.scoring.missions if m.id == a.mission), None)
    if mission is None:
        known = ", ".join(m.id for m in g.scoring.missions)
        raise IllegalAction("no-such-mission", f"there is no mission {a.mission!r}; missions: {known}")
    if a.mode not in g.scoring.modes or (a.mode == "challenge" and not mission.has_challenge):
        raise IllegalAction("bad-mode", f"{mission.title} cannot be played in {a.mode} mode")
    g.mode = a.mode
    g.state(MatchState).round_mission = mission
    fast = fast_tables(g.rules)
    g._free_mask, g._free_not_first, g._free_not_last = fast.free_masks
    if a.mode == "challenge":
        if g.scoring.challenge_adds is not None:
            g.hands[g.dealer] |= g.scoring.challenge_adds.bit
        g._free_not_first |= mission.challenge_not_first
        g._free_not_last |= mission.challenge_not_last
    sizes = [h.bit_count() for h in g.hands]
    g.total_tricks = min(sizes)
    g.leader = g.turn = g.first_leader()
    g.advance()
    g.events.append(Event("mission", a.seat, None, f"{mission.title} ({a.mode})"))


def settle_round_if_decided(g: Game, trick: Trick, mask: int) -> bool:
    m = g.state(MatchState)
    mission = m.round_mission
    assert mission is not None  # chosen before the first trick
    verdict = round_verdict(g.scoring, mission, g.mode, g.view(), trick.number, g.total_tricks, g.n,
                            g.dealer)  # type: ignore[arg-type]
    if verdict is not None:
        end_round(g, m, mission, *verdict, trick.number)
    return True


def round_verdict(sc: ScoringRules, mission: RoundMission, mode: str | None, view: Any, number: int, total: int,
                  n: int, dealer: int) -> tuple[str, str, list[Fraction]] | None:
    """The round's settlement after trick ``number`` of ``total`` (``view``: the game then), or None while it
    goes on: the result (success | failure | scored), its reason and the chip changes by seat. The engine
    settles with it; the adversarial search (``solve/adversarial.py``) judges its leaves with it."""
    last = number >= total
    result = None
    if mode == "challenge":
        assert mission.challenge_success is not None  # the challenge mode is offered only with one
        if mission.challenge_fail is not None and mission.challenge_fail(view, {}):
            result, reason = "failure", f"the dealer's challenge failed in trick {number}"
        elif mission.challenge_success(view, {}) and (sc.settle_early or last):
            result, reason = "success", f"the dealer's challenge succeeded by trick {number}"
        elif last:
            result, reason = "failure", "the dealer's challenge was not met when the hands ran out"
        if result is None:
            return None
        if not sc.settle_early and not last:
            return None
        deltas = challenge_deltas(mission, result == "success", n, dealer)
        if sc.others_score_in_challenge:
            others = [p for p in range(n) if p != dealer]
            extra = penalty_deltas(sc, mission, view, n, dealer, only=others)
            deltas = [a + b for a, b in zip(deltas, extra, strict=True)]
        return result, reason, deltas
    # seed 001: when the score is fixed before the hands run out, scoring happens at once
    settled = (not last and sc.settle_early and mission.penalty_settled is not None
               and mission.penalty_settled(view, {}))
    if not last and not settled:
        return None
    reason = f"penalty mode scored after trick {number}"
    if settled:
        reason += " (no later trick can change the score)"
    return "scored", reason, penalty_deltas(sc, mission, view, n, dealer)


def end_round(g: Game, m: MatchState, mission: RoundMission, result: str, reason: str, deltas: Sequence[Any],
              tricks: int) -> None:
    sc = g.scoring
    m.chips = chips = apply_deltas(sc, m.chips, deltas)
    res = RoundResult(m.round, g.dealer, mission.id, g.mode, result, reason,  # type: ignore[arg-type]
                      tuple(deltas), tuple(chips), tricks)
    m.round_results.append(res)
    m.round_tricks.append(list(g.tricks))
    g.events.append(Event("round-end", g.dealer, None,
                          f"round {m.round}: {reason}; chips " + ", ".join(chip_text(c) for c in chips)))
    broke = sc.cannot_pay == "game-ends" and any(c < 0 for c in chips)
    if m.round >= sc.rounds or broke:
        best = max(chips)
        winners = [s for s, c in enumerate(chips) if c == best]
        who = " and ".join(f"seat {s}" for s in winners)
        why = "" if not broke else " (a player could not pay)"
        verb = "wins" if len(winners) == 1 else "share the win"
        standing = f"{who} {verb} with {chip_text(best)} chips after round {m.round}{why}"
        g.finish(Outcome(FINISHED, standing, tricks), standing)
        return
    m.round += 1
    g.dealer = (g.dealer + sc.rotation) % g.n
    rng = random.Random(f"crewkit:{g.seed}:round{m.round}")
    deal = deal_from_seed(g.rules, rng)
    deck = g.rules.deck
    g.hands = [deck.mask(h) for h in deal.hands]
    g.won = [0] * g.n
    g.tricks_won = [0] * g.n
    g.tricks = []
    g.card_trick = {}
    g.plays = []
    g.led_suit = None
    g.restart_flow()


class MatchInfo(NamedTuple):
    """A match played in rounds (Hammer), as every seat sees it: the chips by seat, the round under way of
    ``rounds``, its dealer, and the round's mission card and mode once the dealer chose them."""

    chips: tuple[Fraction, ...]
    round: int
    rounds: int
    dealer: int | None
    mission: str | None
    mode: str | None


def match_info(game: Game) -> MatchInfo | None:
    """The match as every seat sees it (the observation's ``match``), None outside a match."""
    m = match_of(game)
    if m is None:
        return None
    mission = m.round_mission.id if m.round_mission is not None else None
    return MatchInfo(tuple(m.chips), m.round, game.scoring.rounds, game.dealer, mission, game.mode)
