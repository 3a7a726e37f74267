"""Hammer's dealer: which mission card, in which mode, judged by play-outs of the round from the dealer's hand.

The dealer knows its own nine cards, that the special card is out of the deal, and the chips (public). For each
of ``worlds`` deals of the other cards to the other seats (sampled once, the same for every option) and each
mission card and mode the dealer may announce, the round is played out by the engine itself (its scoring is the
mission card's, as the rule set writes it) with the bots' own card play, and the chips it moves are read.
An option is worth, on average over the deals:

- in the match's last round, how often the dealer ends it with the most chips (a tie counts half), then as below;
- before that, the chips the dealer gains on the others: its own gain less the mean of theirs (the match is
  won by the most chips, and with bank payments everyone may gain at once).

The best option is announced; ties go to the rule set's order (penalty before challenge). Everything is
deterministic given the bot's seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from crewkit.cards import mask_ids

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.observation import Observation

DEALER_WORLDS = 8  # deals behind the dealer's choice (each option played out on every one)
_TEMPLATES: dict[int, tuple[Any, Game]] = {}


@dataclass(frozen=True)
class DealerValue:
    """What one option is worth to the dealer over the play-outs."""

    mission: str
    mode: str
    gain: float  # mean chips gained on the others (own gain less the mean of theirs)
    lead: float | None  # last round only: share of play-outs after which the dealer holds the most chips
    playouts: int

    def key(self) -> tuple[float, float]:
        return (self.lead if self.lead is not None else 0.0, self.gain)

    def words(self, title: str) -> str:
        lead = f"ends the match ahead in {100 * self.lead:.0f}% and " if self.lead is not None else ""
        return (f"{title} ({self.mode}): {lead}gains {self.gain:+.0f} chips on the others on average "
                f"over {self.playouts} play-outs of the round")


def _template(rules: Any) -> Game:
    from crewkit.families.trick_taking.engine.game import Game

    hit = _TEMPLATES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    game = Game.new(rules, "dealer-world")
    if len(_TEMPLATES) > 16:
        _TEMPLATES.clear()
    _TEMPLATES[id(rules)] = (rules, game)
    return game


def sample_hands(obs: Observation, rng: random.Random) -> list[int]:
    """The other seats' hands: the cards neither in the dealer's hand nor out of the deal, shuffled."""
    rules = obs.rules
    pool = mask_ids(((1 << len(rules.deck)) - 1) & ~obs.hand_mask & ~rules.undealt_mask)
    rng.shuffle(pool)
    hands = [0] * obs.players
    k = 0
    for s in range(obs.players):
        if s == obs.seat:
            hands[s] = obs.hand_mask
            continue
        for c in pool[k:k + obs.hand_sizes[s]]:
            hands[s] |= 1 << c
        k += obs.hand_sizes[s]
    return hands


def play_round(obs: Observation, hands: list[int], option: ChooseMission, players: Sequence[Any]) -> list[Fraction]:
    """The chips each seat gains in the round announced by ``option`` on these hands, played by ``players``."""
    from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
    from crewkit.families.trick_taking.engine.observation import observe

    match = obs.match
    assert match is not None
    g = _template(obs.rules).clone()
    dealer = obs.seat
    g.hands = list(hands)
    g.dealer = dealer
    g.leader = g.turn = dealer
    if g.rules.commander_is_dealer:
        g.commander = dealer
    g.set_state(MatchState(dealer, list(match.chips), match.round))
    g.apply(option)
    m = g.state(MatchState)
    while not m.round_results and not g.is_over():
        seat = g.to_act
        if seat is None:
            break
        g.apply(players[seat].act(observe(g, seat)))
    if not m.round_results:
        return [Fraction(0)] * g.n
    return list(m.round_results[-1].deltas)


def dealer_values(obs: Observation, req: Sequence[ChooseMission], rng: random.Random, worlds: int,
                  players: Sequence[Any]) -> list[DealerValue]:
    """Each option's worth to the dealer (see the module's text), on ``worlds`` sampled deals."""
    match = obs.match
    assert match is not None
    deals = [sample_hands(obs, rng) for _ in range(max(1, worlds))]
    last = match.round >= match.rounds
    me = obs.seat
    out = []
    for option in req:
        gain = 0.0
        lead = 0.0
        for hands in deals:
            deltas = play_round(obs, hands, option, players)
            others = [float(d) for s, d in enumerate(deltas) if s != me]
            gain += float(deltas[me]) - sum(others) / max(1, len(others))
            if last:
                final = [c + d for c, d in zip(match.chips, deltas, strict=True)]
                best = max(final)
                if final[me] == best:
                    lead += 1.0 / sum(1 for x in final if x == best)
        n = len(deals)
        out.append(DealerValue(option.mission, option.mode, gain / n, lead / n if last else None, n))
    return out


def choose_mission(obs: Observation, req: Sequence[ChooseMission], rng: random.Random, worlds: int,
                   players: Sequence[Any]) -> tuple[ChooseMission, list[DealerValue]]:
    """The option worth most to the dealer (ties: the first offered) and every option's worth."""
    values = dealer_values(obs, req, rng, worlds, players)
    best = max(range(len(req)), key=lambda i: (values[i].key(), -i))
    return req[best], values
