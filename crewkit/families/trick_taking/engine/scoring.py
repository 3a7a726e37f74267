"""Rounds and chip scoring for competitive rule sets (Hammer's mission game).

Building blocks read from the rule set's ``rounds`` and ``scoring`` blocks and from each mission card's
``scoring`` block (``penalty.score`` + ``settled_if``, ``hidden.achieved_if`` + ``payment``, ``challenge.success_if`` /
``fail_if`` + payments + ``free_card_restrictions``). All formulas are DSL expressions; ``p`` names the player
being scored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from crewkit.cards import Card, Deck
from crewkit.spec.model import Dsl, Mission, MissionScoring, RoundsRules

Formula = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class RoundMission:
    id: str  # hammer/01
    number: int
    title: str
    penalty_score: Formula | None
    penalty_settled: Formula | None  # true once no further play can change the penalty scores
    hidden_if: Formula | None
    hidden_payment: int
    challenge_success: Formula | None
    challenge_fail: Formula | None
    success_payment: int
    failure_payment: int
    challenge_not_first: int  # masks of free cards barred from the first / last trick in challenge mode
    challenge_not_last: int
    texts: tuple[str, ...] = ()  # the formulas' texts (a search reads which cards they can tell apart)
    # the formulas' syntax trees (penalty score, settled_if, hidden achieved_if, challenge success_if, fail_if;
    # None where absent): the adversarial search's C twin translates them (solve/adversarial_native.py)
    trees: tuple[Any, ...] = ()

    @property
    def has_challenge(self) -> bool:
        return self.challenge_success is not None


@dataclass(frozen=True)
class ScoringRules:
    rounds: int
    dealer_start: str  # random | chosen
    rotation: int  # +1 left, -1 right
    chips_start: int
    modes: tuple[str, ...]
    challenge_adds: Card | None
    settle_early: bool
    hidden_payment: str  # adds | replaces
    others_score_in_challenge: bool
    base_paid_by: str  # bank | other-players
    cannot_pay: str  # go-negative | pay-what-they-have | game-ends
    missions: tuple[RoundMission, ...] = field(default_factory=tuple)

    def mission(self, mission_id: str) -> RoundMission | None:
        for m in self.missions:
            if m.id == mission_id or m.id.endswith(f"/{mission_id}") or str(m.number) == mission_id:
                return m
        return None


def compile_scoring(rounds: RoundsRules, missions: Sequence[Mission], deck: Deck) -> ScoringRules:
    """The chip scoring of a rule set's ``rounds``/``scoring`` with its mission cards (typed by the spec layer,
    their formulas parsed and checked there)."""
    from crewkit import (
        dsl,  # local, as in crewkit.families.trick_taking.engine.rules: plain games load no DSL
    )

    compiled = []
    for m in missions:
        sc = m.scoring or MissionScoring()

        def formula(text: Dsl | None, *path: str, m: Mission = m) -> Formula | None:
            return None if text is None else dsl.compile_located(text.expr, m.id, "scoring." + ".".join(path), text.text)

        not_first = not_last = 0
        for r in sc.free_card_restrictions:
            card = deck.card(r.card)
            if "first" in r.not_in_tricks:
                not_first |= card.bit
            if "last" in r.not_in_tricks:
                not_last |= card.bit
        compiled.append(RoundMission(
            id=m.id,
            number=int(m.number or 0),
            title=m.title,
            penalty_score=formula(sc.penalty_score, "penalty", "score"),
            penalty_settled=formula(sc.penalty_settled, "penalty", "settled_if"),
            hidden_if=formula(sc.hidden_if, "hidden", "achieved_if"),
            hidden_payment=sc.hidden_payment,
            challenge_success=formula(sc.challenge_success, "challenge", "success_if"),
            challenge_fail=formula(sc.challenge_fail, "challenge", "fail_if"),
            success_payment=sc.success_payment,
            failure_payment=sc.failure_payment,
            challenge_not_first=not_first,
            challenge_not_last=not_last,
            texts=tuple(d.text for d in (sc.penalty_score, sc.penalty_settled, sc.hidden_if, sc.challenge_success,
                                         sc.challenge_fail) if d is not None),
            trees=tuple(None if d is None else d.expr for d in (sc.penalty_score, sc.penalty_settled, sc.hidden_if,
                                                                sc.challenge_success, sc.challenge_fail)),
        ))
    return ScoringRules(
        rounds=rounds.count,
        dealer_start=rounds.dealer_start,
        rotation=1 if rounds.dealer_rotation == "left" else -1,
        chips_start=rounds.chips_start,
        modes=rounds.modes,
        challenge_adds=deck.card(rounds.challenge_adds) if rounds.challenge_adds else None,
        settle_early=rounds.settle_early,
        hidden_payment=rounds.hidden_payment,
        others_score_in_challenge=rounds.others_score_in_challenge,
        base_paid_by=rounds.base_paid_by,
        cannot_pay=rounds.cannot_pay,
        missions=tuple(sorted(compiled, key=lambda m: m.number)),
    )


@dataclass(frozen=True)
class RoundResult:
    round: int
    dealer: int
    mission: str
    mode: str
    result: str  # penalty: "scored"; challenge: success | failure
    reason: str
    deltas: tuple[Fraction, ...]
    chips: tuple[Fraction, ...]  # after this round
    tricks: int  # tricks played before the round was settled

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "dealer": self.dealer, "mission": self.mission, "mode": self.mode,
            "result": self.result, "reason": self.reason, "tricks": self.tricks,
            "deltas": [chip_json(d) for d in self.deltas], "chips": [chip_json(c) for c in self.chips],
        }


def chip_json(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def chip_text(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}"


def penalty_deltas(rules: ScoringRules, mission: RoundMission, view: Any, n: int, dealer: int,
                   only: Sequence[int] | None = None) -> list[Fraction]:
    """Each player's penalty-mode score (and the hidden mission's payment) as chip changes."""
    deltas = [Fraction(0)] * n
    scorers = range(n) if only is None else only
    scores = {p: Fraction(int(mission.penalty_score(view, {"p": p}))) if mission.penalty_score else Fraction(0)
              for p in scorers}
    if mission.hidden_if is not None:
        for p in scorers:
            if p != dealer and mission.hidden_if(view, {"p": p}):
                if rules.hidden_payment == "replaces":
                    scores[p] = Fraction(0)
                for q in range(n):
                    if q != p:
                        deltas[q] -= mission.hidden_payment
                        deltas[p] += mission.hidden_payment
    for p, s in scores.items():
        deltas[p] += s
        if rules.base_paid_by == "other-players":
            for q in range(n):
                if q != p:
                    deltas[q] -= s / (n - 1)
    return deltas


def challenge_deltas(mission: RoundMission, success: bool, n: int, dealer: int) -> list[Fraction]:
    deltas = [Fraction(0)] * n
    amount = mission.success_payment if success else -mission.failure_payment
    for q in range(n):
        if q != dealer:
            deltas[q] -= amount
            deltas[dealer] += amount
    return deltas


def apply_deltas(rules: ScoringRules, chips: list[Fraction], deltas: Sequence[Fraction]) -> list[Fraction]:
    """New chip counts; with ``pay-what-they-have`` nobody goes below zero (the rest is lost)."""
    out = [c + d for c, d in zip(chips, deltas, strict=True)]
    if rules.cannot_pay == "pay-what-they-have":
        out = [max(Fraction(0), c) for c in out]
    return out
