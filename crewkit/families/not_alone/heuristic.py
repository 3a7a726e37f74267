"""The heuristic bot of the board-of-places family (Not Alone): rules of thumb for either side, read from the
seat's observation and the public card data only.

Everything it knows of the game's cards it reads from their effects (the effect vocabulary's words), not
from card names: a place is worth what its power's words do (:meth:`HeuristicBoardBot.power_value`), a hunt
or survival card is played when its words help now (``_card_value``, ``_survival_value``).

*Creature.* It keeps, for each Hunted, the place cards they own (the starting five, then every card seen
in their discard pile, revealed, or taken from the reserve in the log) and so the cards that may be in their
hand: everything owned and not in the (public) discard pile. Each such card is a candidate for the Hunted's
face-down choice, weighted by how much its power is worth to that Hunted (``_predict``); a Hunted holding more
cards than it can name holds some taken from the reserve unseen. Then it thinks one step further
(``_predict_deeper``, ``depth=2``): each Hunted avoids where such a Creature would go, choosing as the Hunted
below do; the prediction is half the first thought, half the second. The Creature token goes where the
chance of catching someone is highest (a Hunted on their last will counts twice: the Assimilation counter
moves for the catch and again for the lost will); the Artemia and Target tokens go to the next best places,
or to the places whose powers they spoil most. It plays one hunt card a round, the one worth most now (the Rescue-stopping card is
kept for the end of the round unless another is worth more).

*Hunted.* Each scores its cards: what the power is worth, less the risk of being caught there (the chance
that a Creature reasoning as above picks that place, from every Hunted's possible cards, its own included),
less a share when other Hunted may take the same once-a-round power. It fears both of the Creature's
thoughts (half each). It then draws its card with seeded noise (Gumbel, temperature ``NOISE``: a softmax of
the scores), which keeps it unpredictable and spreads the Hunted out: a Hunted that always took its best
card was caught far more often (3 players, 40 games, a Creature assuming 0.45: it won 82% against Hunted
at temperature 0.3, 60% against 1.2). It gives up when will is low, its hand nearly empty and the Assimilation
counter far from its goal; resists when its hand is short and it can spare the will; plays survival cards
when their words help at that moment (dodge the Creature token it stands on, swap a caught card, move a
token off itself, cash in the marker).

Questions (:class:`~crewkit.engine.machine.Pick`) are answered by what they ask (``obs.question.why``); an
unknown question gets the first option.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from typing import Any

from crewkit.effects.cardsets import Card
from crewkit.effects.model import Effect
from crewkit.effects.ruleset import EffectRuleSet
from crewkit.engine.actions import Action
from crewkit.engine.machine import Pick
from crewkit.families.not_alone.blocks import GiveUp, Pass, PlaceToken, PlayCard, PlayPlaces, Resist
from crewkit.families.not_alone.board import load_board_ruleset
from crewkit.families.not_alone.observation import BoardObservation, SeatView
from crewkit.families.not_alone.state import LONE

_RESERVE_LINE = re.compile(r"^(?P<who>.+) takes the (?P<what>.+) from the reserve\.$")
NOISE = 1.2  # the Hunted's temperature when choosing a place card (Gumbel noise on the scores)
SHARPNESS = 3.0  # how sharply the Hunted expect the Creature to go for the most likely place


class HeuristicBoardBot:
    """Plays either side by rules of thumb (see the module docs); deterministic for a seed."""

    name = "heuristic"
    noise = NOISE

    def __init__(
        self, seat: int, seed: str = "", ruleset: EffectRuleSet | None = None, depth: int = 2
    ) -> None:
        if ruleset is None:  # no rule set given: the bundled game's cards
            ruleset = load_board_ruleset("not-alone")
        self.seat = seat
        self.depth = depth  # the Creature's reasoning: 1 predicts the Hunted's cards, 2 also their caution
        self.rng = random.Random(f"{seed}:{seat}")
        self.places: dict[int, Card] = {c.number: c for c in ruleset.cards["places"].cards if c.number}
        self.by_name = {c.name.lower(): n for n, c in self.places.items()}
        self.hunt = {c.id: c for c in ruleset.cards["hunt"].cards}
        self.hunt_set = ruleset.cards["hunt"]
        self.survival = {c.id: c for c in ruleset.cards["survival"].cards}
        data = ruleset.data
        self.cap = int(data["counter"]["start"])
        self.start = tuple(int(p) for p in data["setup"]["places_in_hand"])
        sides = data.get("board_sides", {})
        # the board side whose Artemia spaces come earliest (the third token sooner)
        self.side = max(sorted(sides), key=lambda s: sum(sides[s].get("token_spaces", [])), default="")
        rows = data["planet"]["rows"]
        self.adjacent: dict[int, set[int]] = {}
        for r, row in enumerate(rows):
            for c, p in enumerate(row):
                near = self.adjacent.setdefault(int(p), set())
                for rr, cc in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)):
                    if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr]):
                        near.add(int(rows[rr][cc]))
        # the will a place's own rule takes from a Hunted the Creature token catches there (the Lair's)
        self.extra_loss = {
            n: sum(int(x["amount"]) for x in c.passive if x.word == "extra_will_loss")
            for n, c in self.places.items()
        }
        self.owned: dict[int, set[int]] = {}
        self.known_discard: dict[int, tuple[int, ...]] = {}
        self.plan: dict[int, float] = {}  # the Creature's catch value per place this round
        self.last_card = ""
        self._values: dict[tuple[int, int], float] = {}  # memos of the observation being answered
        self._catch_memo: dict[int, tuple[dict[int, dict[int, float]], dict[int, float]]] = {}

    # ================================================================== entry
    def choose(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        self._values = {}  # power values of this observation
        self._catch_memo = {}
        if obs.question is not None:
            return self._answer(obs, [a for a in legal if isinstance(a, Pick)])
        if obs.role == "creature":
            self._remember(obs)
            return self._creature(obs, legal)
        return self._hunted(obs, legal)

    # ================================================================== place values
    def power_value(self, place: int, obs: BoardObservation, seat: int) -> float:
        """What the power of ``place`` is worth to ``seat`` now (read from its effect words)."""
        known = self._values.get((place, seat))
        if known is not None:
            return known
        card = self.places.get(place)
        view = obs.seats[seat]
        value = 0.0 if card is None else max(0.0, sum(self._effect_value(e, obs, view) for e in card.effects))
        self._values[(place, seat)] = value
        return value

    def _effect_value(self, e: Effect, obs: BoardObservation, view: SeatView) -> float:
        w = e.word
        discard = len(view.discard) if view.discard is not None else view.discard_size
        if w == "move_track":
            return 3.0 * int(e["by"]) if e["track"] == "rescue" else 0.0
        if w == "take_back_places":
            n = discard if e["count"] == "all" else min(int(e["count"]), discard)
            return 0.8 * n
        if w == "take_back_played":
            return 0.9
        if w == "take_from_reserve":
            mine = (
                set(obs.hand) | set(view.discard or ()) if view.seat == obs.seat else set(view.discard or ())
            )
            return 1.6 if any(p not in mine for p in obs.reserve) else 0.0
        if w == "draw_survival":
            return 1.1 if obs.draw_piles.get("survival") or obs.discards.get("survival") else 0.0
        if w == "gain_will":
            lowest = min((s.will for s in obs.seats if s.role == "hunted"), default=self.cap)
            who = view.will if e["who"] == "self" else lowest
            return 1.4 * max(0, self.cap - who)
        if w == "play_place_cards":
            return 1.0 if e["resolve"] == "one" else 1.6
        if w == "put_marker":
            return -9.0 if obs.marker_placed else 0.9
        if w == "remove_marker":
            return 0.0 if obs.marker_placed else -9.0
        if w == "copy_power":
            return 0.6
        if w == "one_of":
            return max(
                (sum(self._effect_value(s, obs, view) for s in opt) for opt in e["options"]), default=0.0
            )
        return 0.0

    def catch_cost(self, place: int, will: int) -> float:
        """What a Hunted with ``will`` loses when the Creature token catches them at ``place``."""
        lost = 1 + self._extra_loss(place)
        return 2.0 + 0.8 * lost + (2.5 if lost >= will else 0.0)

    # ================================================================== what the Hunted may hold
    def _remember(self, obs: BoardObservation) -> None:
        for s in obs.seats:
            if s.role != "hunted":
                continue
            owned = self.owned.setdefault(s.seat, set(self.start))
            if s.discard is not None:
                owned.update(s.discard)
                self.known_discard[s.seat] = s.discard
            owned.update(s.revealed)
        names = {s.name: s.seat for s in obs.seats}
        for (
            line
        ) in obs.log:  # the recent lines only; a card taken is owned for good, so reading twice is harmless
            m = _RESERVE_LINE.match(line)
            if m and m["who"] in names:
                for part in re.split(r", | and ", m["what"]):
                    p = self.by_name.get(part.strip().lower())
                    if p is not None:
                        self.owned.setdefault(names[m["who"]], set(self.start)).add(p)

    def _candidates(self, obs: BoardObservation, s: SeatView) -> list[int]:
        """The place cards ``s`` may be holding (or playing face down), as far as this seat can tell."""
        if s.seat == obs.seat:
            return sorted(set(obs.hand) | set(obs.played))
        owned = self.owned.get(s.seat, set(self.start)) | set(s.revealed)
        discard = s.discard if s.discard is not None else self.known_discard.get(s.seat, ())
        cand = sorted(owned - set(discard))
        return cand or sorted(owned)

    def _predict(self, obs: BoardObservation, skip: int | None = None) -> dict[int, dict[int, float]]:
        """For each Hunted (but ``skip``): the chance they stand on each place this round."""
        out: dict[int, dict[int, float]] = {}
        forbidden = (
            set(obs.tokens.get("target", ()))
            if any("may not be played" in r for r in obs.rules_in_force)
            else set()
        )
        for s in obs.seats:
            if s.role != "hunted" or s.seat == skip:
                continue
            if s.revealed:
                out[s.seat] = {p: 1.0 for p in s.revealed}
                continue
            cand = [p for p in self._candidates(obs, s) if p not in forbidden] or self._candidates(obs, s)
            weights = {p: 1.0 + 0.35 * self.power_value(p, obs, s.seat) for p in cand}
            # more cards in hand than this seat can name: some came from the reserve unseen; spread them
            unseen = s.hand_size + s.face_down - len(self._candidates(obs, s))
            others = [p for p in sorted(set(obs.reserve)) if p not in weights and p not in forbidden]
            if unseen > 0 and others and s.seat != obs.seat:
                for p in others:
                    weights[p] = unseen / len(others)
            total = sum(weights.values()) or 1.0
            cards = max(1, s.face_down)
            out[s.seat] = {p: min(1.0, cards * w / total) for p, w in weights.items()}
        return out

    def _catch_values(self, obs: BoardObservation, pred: dict[int, dict[int, float]]) -> dict[int, float]:
        """The Creature's gain per place: the chance to catch anyone, again for anyone on their last will,
        and a little for every will taken."""
        out: dict[int, float] = {}
        for p in self.places:
            miss, miss_last, count = 1.0, 1.0, 0.0
            for seat, dist in pred.items():
                q = dist.get(p, 0.0)
                miss *= 1 - q
                if obs.seats[seat].will <= 1 + self._extra_loss(p):
                    miss_last *= 1 - q
                count += q
            out[p] = (1 - miss) + (1 - miss_last) + 0.15 * count
        return out

    def _extra_loss(self, place: int) -> int:
        return self.extra_loss.get(place, 0)

    def _deny_values(self, obs: BoardObservation, pred: dict[int, dict[int, float]]) -> dict[int, float]:
        """Per place: the power the Hunted expected there would use (what a token there takes from them)."""
        return {
            p: sum(dist.get(p, 0.0) * self.power_value(p, obs, seat) for seat, dist in pred.items())
            for p in self.places
        }

    # ================================================================== the Creature
    def _creature(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        pred = self._predict_deeper(obs) if self.depth > 1 else self._predict(obs)
        catch = self._catch_values(obs, pred)
        deny = self._deny_values(obs, pred)
        self.plan = catch
        cards = [a for a in legal if isinstance(a, PlayCard)]
        tokens = [a for a in legal if isinstance(a, PlaceToken)]
        if cards:
            best = self._best_card(obs, cards, catch, deny)
            if best is not None:
                self.last_card = best.card
                return best
        if tokens:
            token = tokens[0].token
            taken = set(obs.tokens.get("creature", ()))
            if token == "creature":
                score = catch
            else:
                score = {
                    p: 0.6 * catch[p] + 0.25 * deny[p] - (5.0 if p in taken else 0.0) for p in self.places
                }
            return max(tokens, key=lambda a: (sum(score.get(p, 0.0) for p in a.places), -a.places[0]))
        passes = [a for a in legal if isinstance(a, Pass)]
        return passes[0] if passes else legal[0]

    def _best_card(
        self, obs: BoardObservation, cards: list[PlayCard], catch: dict[int, float], deny: dict[int, float]
    ) -> PlayCard | None:
        """The hunt card to play now, with its token's places, or None to keep them for later."""
        # each card as it would be played (a card that copies: the card it copies now, None: nothing yet)
        played = {c: self._as_played(c, obs) for c in obs.effect_cards if c in self.hunt}
        now = {a.card for a in cards}
        phase = min((card.phase or 0) for c in now if (card := played.get(c)))  # the phase playable now
        # the cards still playable this round (this phase or a later one), each worth what it would do
        hand_values = {
            c: self._card_value(card, obs, catch, deny)
            for c, card in played.items()
            if card is not None and (card.phase or 0) >= phase
        }
        if not hand_values:
            return None
        best_now = max(now, key=lambda c: (hand_values.get(c, 0.0), c))
        if (
            hand_values.get(best_now, 0.0) < max(hand_values.values())
            or hand_values.get(best_now, 0.0) <= 0.05
        ):
            return None  # a card of a later phase is worth more: keep the round's play for it
        options = [a for a in cards if a.card == best_now]
        card = played[best_now] or self.hunt[best_now]
        if not card.token or not options[0].places:
            return options[0]
        taken = set(obs.tokens.get("creature", ()))
        if card.token == "target" and any(e.word == "token_acts_as" for e in card.effects):
            score = {
                p: catch[p] - (5.0 if p in taken else 0.0) for p in self.places
            }  # a second Creature token
        elif any(e.word == "forbid_places" for e in card.effects):
            score = {p: deny[p] for p in self.places}
        elif any(e.word == "cancel_power" for e in card.effects):
            score = deny
        else:
            score = {p: 0.5 * catch[p] + 0.3 * deny[p] - (5.0 if p in taken else 0.0) for p in self.places}
        return max(options, key=lambda a: (sum(score.get(p, 0.0) for p in a.places), -a.places[0]))

    def _as_played(self, card_id: str, obs: BoardObservation) -> Card | None:
        if card_id in obs.copies:
            return self.hunt.get(obs.copies[card_id])
        return self.hunt_set.copied(self.hunt[card_id], obs.discards.get("hunt", ()))

    def _card_value(
        self, card: Card, obs: BoardObservation, catch: dict[int, float], deny: dict[int, float]
    ) -> float:
        """What playing the hunt card this round is worth to the Creature (0: not worth it)."""
        ranked = sorted(catch.values(), reverse=True) + [0.0, 0.0]
        rescue_left = obs.tracks["rescue"][1] - obs.tracks["rescue"][0]
        hunted = [s for s in obs.seats if s.role == "hunted"]
        positions = {p for s in hunted for p in s.revealed}
        value = 0.0
        for e in card.effects:
            w = e.word
            if w == "stop_track":
                value += 1.1 + (0.8 if rescue_left <= 3 else 0.0)
            elif w == "hunt_card_limit":
                value += 0.35
            elif w == "token_acts_as":
                value += 0.8 * ranked[1]
            elif w == "extra_will_loss":
                value += 0.4 * (ranked[0] if e["token"] == "creature" else ranked[1])
            elif w == "catch_moves_more":
                value += 0.7 * ranked[0]
            elif w == "cancel_power":
                if positions:  # after the reveal: the best power in use
                    value += 0.3 * max(
                        (
                            self.power_value(p, obs, s.seat)
                            for s in hunted
                            for p in s.revealed
                            if p not in obs.tokens.get("creature", ())
                        ),
                        default=0.0,
                    )
                else:
                    value += 0.25 * max(deny.values(), default=0.0)
            elif w in ("discard_places", "discard_places_down_to"):
                value += 0.12 * sum(max(0, s.hand_size - 2) for s in hunted)
            elif w == "discard_survival":
                value += 0.2
            elif w in ("take_back_limit", "show_places", "no_survival_cards"):
                value += 0.2
            elif w == "forbid_places":
                value += 0.4
            elif w == "move_hunted":
                value += self._detour_value(obs) if positions else 0.4
            elif w == "one_of":
                value += 0.5 * ranked[1]
        if card.token == "artemia" and "artemia" not in obs.tokens:
            value += 0.3 + 0.2 * ranked[1]
        return value

    def _detour_value(self, obs: BoardObservation) -> float:
        target = set(obs.tokens.get("creature", ()))
        for s in obs.seats:
            if (
                s.role == "hunted"
                and s.revealed
                and not set(s.revealed) & target
                and any(target & self.adjacent.get(p, set()) for p in s.revealed)
            ):
                return 1.5
        return 0.05

    # ================================================================== the Hunted
    def _risk(
        self, obs: BoardObservation, seat: int, pred: dict[int, dict[int, float]] | None = None
    ) -> tuple[dict[int, float], dict[int, float]]:
        """(the chance the Creature token lands on each place, how many Hunted other than ``seat`` may stand
        there), for a Creature that predicts the Hunted by their possible cards (:meth:`_predict`)."""
        pred = self._predict(obs) if pred is None else pred
        memo = self._catch_memo.get(id(pred))
        if memo is not None and memo[0] is pred:
            catch = memo[1]
        else:  # kept with its prediction, so a later dict at the same address is never mistaken for it
            catch = self._catch_values(obs, pred)
            self._catch_memo[id(pred)] = (pred, catch)
        top = max(catch.values(), default=0.0)
        weights = {p: math.exp(SHARPNESS * (v - top)) for p, v in catch.items()}
        total = sum(weights.values()) or 1.0
        crowd = {p: sum(d.get(p, 0.0) for s, d in pred.items() if s != seat) for p in self.places}
        return {p: w / total for p, w in weights.items()}, crowd

    def _place_score(
        self, p: int, obs: BoardObservation, seat: int, risk: dict[int, float], crowd: dict[int, float]
    ) -> float:
        """How good standing on ``p`` is for the Hunted ``seat``: the power (or a card back), less the risk."""
        me = obs.seats[seat]
        value = self.power_value(p, obs, seat)
        card = self.places.get(p)
        if card is not None and card.once_per_round:
            value /= 1.0 + crowd.get(p, 0.0)
        creature = risk.get(p, 0.0)
        if p in obs.tokens.get("creature", ()):
            creature = 1.0
        artemia = 1.0 if p in obs.tokens.get("artemia", ()) else 0.0
        # a place's power, else one card back (worth little), unless a token stops both
        base = max(value, 0.5 if me.discard_size else 0.0)
        return (
            base * (1 - creature) * (1 - 0.7 * artemia)
            - creature * self.catch_cost(p, me.will)
            - 0.8 * artemia
        )

    def _predict_deeper(self, obs: BoardObservation) -> dict[int, dict[int, float]]:
        """The Creature's second thought: each Hunted avoids where a Creature reasoning like :meth:`_predict`
        would go, choosing by :meth:`_place_score` with noise (a softmax of temperature NOISE); mixed half and
        half with the first thought, so a Hunted who does not reason so is still covered."""
        first = self._predict(obs)
        out: dict[int, dict[int, float]] = {}
        for seat, dist in first.items():
            s = obs.seats[seat]
            if s.revealed or len(dist) <= 1:
                out[seat] = dist
                continue
            risk, crowd = self._risk(obs, seat, first)
            scores = {p: self._place_score(p, obs, seat, risk, crowd) for p in dist}
            top = max(scores.values())
            weights = {p: math.exp((v - top) / NOISE) for p, v in scores.items()}
            total = sum(weights.values()) or 1.0
            cards = max(1, s.face_down)
            out[seat] = {p: 0.5 * dist[p] + 0.5 * min(1.0, cards * weights[p] / total) for p in dist}
        return out

    def _hunted(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        me = obs.seats[obs.seat]
        cards = [a for a in legal if isinstance(a, PlayCard)]
        if cards:
            card = self._survival_to_play(obs, cards)
            if card is not None:
                return card
        plays = [a for a in legal if isinstance(a, PlayPlaces)]
        if not plays:
            passes = [a for a in legal if isinstance(a, Pass)]
            return passes[0] if passes else legal[0]
        assim, goal = obs.tracks["assimilation"]
        far = goal - assim
        hand = len(obs.hand)
        give_up = next((a for a in legal if isinstance(a, GiveUp)), None)
        if (
            give_up is not None
            and me.discard_size >= 2
            and far >= 3
            and ((me.will <= 1 and hand <= 2) or (hand <= 1 and far >= 4))
        ):
            return give_up
        resists = sorted((a for a in legal if isinstance(a, Resist)), key=lambda a: a.will)
        if (
            resists
            and hand <= 2
            and me.discard_size >= 2
            and me.will - resists[0].will >= 1
            and (me.will >= 3 or hand <= 1)
        ):
            return resists[0]
        risk, crowd = self._risk(obs, obs.seat)
        if self.depth > 1:  # the Creature may also expect the Hunted's caution: fear both of its thoughts
            deeper, _ = self._risk(obs, obs.seat, self._predict_deeper(obs))
            risk = {p: 0.5 * (risk[p] + deeper[p]) for p in risk}
        score = {p: self._place_score(p, obs, obs.seat, risk, crowd) for p in set(obs.hand)}

        def noisy(p: int) -> float:
            u = max(1e-12, self.rng.random())
            return score[p] - self.noise * math.log(-math.log(u)) if u < 1 else score[p]

        draw = {p: noisy(p) for p in sorted(score)}
        return max(
            plays,
            key=lambda a: (
                sum(sorted((draw[p] for p in a.places), reverse=True)[:1])
                + 0.5 * sum(sorted((draw[p] for p in a.places), reverse=True)[1:]),
                a.places,
            ),
        )

    def _survival_to_play(self, obs: BoardObservation, cards: list[PlayCard]) -> PlayCard | None:
        best: tuple[float, str] = (0.0, "")
        for card_id in sorted({a.card for a in cards}):
            v = self._survival_value(self.survival.get(card_id), obs)
            if v > best[0]:
                best = (v, card_id)
        if not best[1]:
            return None
        return next(a for a in cards if a.card == best[1])

    def _survival_value(self, card: Card | None, obs: BoardObservation) -> float:
        if card is None:
            return 0.0
        me = obs.seats[obs.seat]
        here = set(me.revealed) or set(obs.played)
        hunt_cards = obs.seats[LONE].effect_cards
        value = 0.0
        for e in card.effects:
            w = e.word
            if w == "gain_will":
                value += 1.0 if me.will <= 1 else 0.0
            elif w == "take_back_places":
                value += 1.0 if len(obs.hand) <= 2 and me.discard_size >= 2 else 0.0
            elif w == "take_back_played":
                value += 0.8 if len(obs.hand) <= 2 else 0.0
            elif w == "put_marker":
                value += 0.6 if not obs.marker_placed else -5.0
            elif w == "remove_marker":
                value += 0.2 if obs.marker_placed else -5.0
            elif w == "move_track":
                value += 1.0
            elif w == "remove_hunt_cards":
                value += 0.7 if hunt_cards >= 2 else 0.0
            elif w == "no_hunt_cards":
                value += 0.6 if hunt_cards else 0.0
            elif w == "discard_places":
                value -= 0.0 if len(obs.hand) >= 4 else 5.0
            elif w == "hide_discards":
                value += 0.5
            elif w == "ignore_token":
                value += 2.0 if here & set(obs.tokens.get(e["token"], ())) else -5.0
            elif w == "move_token":
                value += 2.0 if here & set(obs.tokens.get(e["token"], ())) else -5.0
            elif w == "swap_played":
                caught = here & (set(obs.tokens.get("creature", ())) | set(obs.tokens.get("artemia", ())))
                value += 2.0 if caught and me.discard else -5.0
            elif w == "copy_power":
                value += self._copy_gain(e, obs, here)
        return value

    def _copy_gain(self, e: Effect, obs: BoardObservation, here: set[int]) -> float:
        if not here or here & (set(obs.tokens.get("creature", ())) | set(obs.tokens.get("artemia", ()))):
            return -5.0
        mine = max(self.power_value(p, obs, obs.seat) for p in here)
        ref = e["of"]
        if ref == "adjacent":
            others = [q for p in here for q in self.adjacent.get(p, set())]
        elif isinstance(ref, str) and ref in {c.id for c in self.places.values()}:
            others = [n for n, c in self.places.items() if c.id == ref]
        else:
            others = []
        gain = max(
            (self.power_value(q, obs, obs.seat) for q in others if self.places[q].copyable), default=0.0
        )
        return gain - mine - 0.5

    # ================================================================== questions
    def _answer(self, obs: BoardObservation, picks: list[Pick]) -> Action:
        q = obs.question
        assert q is not None
        why = q.why
        values = [a.value for a in picks]

        def read(value: Any) -> Any:  # options that are ids (a one-of option, power or take back): their words
            return q.label(value) if q.labels else value

        def best(key: Any) -> Action:
            return max(picks, key=lambda a: (key(read(a.value)), str(read(a.value))))

        def worst(key: Any) -> Action:
            return min(picks, key=lambda a: (key(read(a.value)), str(read(a.value))))

        def place_keep(p: Any) -> float:
            return self.power_value(int(p), obs, obs.seat) if isinstance(p, int) else 0.0

        if why.startswith("the board side"):
            return next((a for a in picks if a.value == self.side), picks[0])
        if why == "which option":
            return best(lambda v: self._option_value(str(v), obs))
        if why.startswith("use the power or take back"):

            def power_or_back(v: Any) -> float:
                text = str(v)
                if text.startswith("take back"):
                    return 0.8
                if text.startswith("use the power of the "):
                    p = self.by_name.get(text.removeprefix("use the power of the ").lower())
                    return self.power_value(p, obs, obs.seat) if p else 1.0
                return 1.0

            return best(power_or_back)
        if (
            "to take back" in why
            or "from the reserve" in why
            or why.startswith("the place card to keep")
            or why.startswith("the place card to play instead")
            or "whose power to copy" in why
        ):
            tokens = set(obs.tokens.get("creature", ())) | set(obs.tokens.get("artemia", ()))
            return best(
                lambda v: (
                    place_keep(v)
                    - (9.0 if v in tokens and "keep" in why else 0.0)
                    - (9.0 if v in tokens and "instead" in why else 0.0)
                )
            )
        if "place cards to keep" in why or "to keep hidden" in why:
            return best(place_keep)
        if "place card" in why and "discard" in why:
            return worst(place_keep)
        if why == "survival cards to keep":
            return best(lambda v: _survival_rank(self.survival.get(str(v))))
        if why == "survival cards to discard":
            return worst(lambda v: _survival_rank(self.survival.get(str(v))))
        if why.startswith("where the") and why.endswith("token goes"):
            # a Hunted moves a token away: where the fewest Hunted stand (none, ideally)
            stand = [p for s in obs.seats for p in s.revealed]
            return worst(lambda v: stand.count(v))
        if why == "where the Hunted goes":
            hot = (
                list(obs.tokens.get("creature", ()))
                + list(obs.tokens.get("artemia", ()))
                + list(obs.tokens.get("target", ()))
            )
            return best(lambda v: 3 - hot.index(v) if v in hot else self.plan.get(int(v), 0.0))
        if why == "which place":
            return best(lambda v: self._place_to_spoil(obs, int(v)) if isinstance(v, int) else 0.0)
        is_seat = why.startswith(("who ", "whose ", "which Hunted")) and all(
            isinstance(v, int) and 0 < v < len(obs.seats) for v in values
        )
        if is_seat and obs.role == "hunted":
            return worst(lambda v: (obs.seats[int(v)].will, v != obs.seat))  # who regains will: the lowest
        if is_seat:
            return best(lambda v: self._hunted_to_pick(obs, int(v), why))
        return picks[0]

    def _hunted_to_pick(self, obs: BoardObservation, seat: int, why: str) -> float:
        s = obs.seats[seat]
        target = set(obs.tokens.get("creature", ()))
        if why == "which Hunted to move":
            if (
                s.revealed
                and not set(s.revealed) & target
                and any(target & self.adjacent.get(p, set()) for p in s.revealed)
            ):
                return 10.0 + s.seat * 0.01
            return -s.hand_size
        if why == "which Hunted":  # named for a catch bonus: the one most likely at the planned place
            pred = self._predict(obs)
            spot = max(self.plan, key=lambda p: (self.plan[p], -p)) if self.plan else 0
            return pred.get(seat, {}).get(spot, 0.0) + 0.01 * (self.cap - s.will)
        return s.hand_size + 0.1 * s.effect_cards  # discards, a shown hand: the fullest hand

    def _place_to_spoil(self, obs: BoardObservation, place: int) -> float:
        tokens = set(obs.tokens.get("creature", ())) | set(obs.tokens.get("artemia", ()))
        if place in tokens:
            return -1.0
        return sum(self.power_value(place, obs, s.seat) for s in obs.seats if place in s.revealed)

    def _option_value(self, label: str, obs: BoardObservation) -> float:
        me = obs.seats[obs.seat]
        low = label.lower()
        if "rescue" in low:
            return 6.0
        if "regain" in low:
            lowest = min(s.will for s in obs.seats if s.role == "hunted")
            return 1.4 * (self.cap - lowest)
        if "creature token" in low and "power" in low:
            here = obs.tokens.get("creature", ())
            return max(
                (self.power_value(p, obs, obs.seat) for p in here if self.places[p].copyable), default=0.0
            )
        if re.search(r"\btakes? back all\b", low):
            return 0.8 * me.discard_size
        if "survival" in low:
            return 1.1
        if "marker" in low:
            return 0.9
        if re.search(r"\bloses? \d+ will\b", low):
            return -1.5 if me.will >= 2 else -6.0
        if re.search(r"\bdiscards? \d", low):
            return -0.5 if len(obs.hand) >= 4 else -2.5
        return 0.0


def _survival_rank(card: Card | None) -> float:
    """How much a Hunted likes to hold a survival card: those that save will or move the Rescue first."""
    if card is None:
        return 0.0
    order = {
        "ignore_token": 3.0,
        "move_token": 2.8,
        "swap_played": 2.6,
        "move_track": 2.5,
        "remove_hunt_cards": 2.0,
        "gain_will": 1.8,
        "take_back_places": 1.6,
        "copy_power": 1.4,
        "no_hunt_cards": 1.3,
        "hide_discards": 1.0,
        "put_marker": 0.9,
        "take_back_played": 0.8,
    }
    return max((order.get(e.word, 0.5) for e in card.effects), default=0.0)


__all__ = ["HeuristicBoardBot"]
