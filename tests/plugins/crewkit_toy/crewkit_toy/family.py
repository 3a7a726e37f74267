"""The toy family: everything crewkit needs of it, through :class:`crewkit.games.protocol.Family` only.

A game: each seat holds a hidden hand of numbered cards; from the round's leader each seat plays one card; the
highest card wins the round and its seat leads the next. When the hands are empty the seats with the most rounds
won win the game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction, SetupError
from crewkit.games.protocol import (
    RECORD_FORMAT,
    EngineGame,
    FamilyWords,
    GameInPlay,
    GameOutcome,
    GameSummary,
    Replayed,
    ReplayError,
    RulesetListing,
    SeatPlayer,
)
from crewkit.spec.errors import SpecError, SpecIssue
from crewkit.spec.loader import load_doc
from crewkit.spec.schema import validate_against

NAME = "toy"
HERE = Path(__file__).resolve().parent
RULESETS = HERE / "rulesets"
SCHEMA: dict[str, Any] = json.loads((HERE / "toy-ruleset.schema.json").read_text(encoding="utf-8"))
DEFAULTS: dict[str, Any] = {"players": [2, 3, 4], "cards": 24, "hand": 6}


@dataclass(frozen=True, slots=True)
class PlayNumber(Action):
    """A seat plays the numbered card ``card`` from its hand."""

    card: int = 0
    type = "play-number"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card}


# --- rule sets: found by name in this package, checked by this package's schema --------------------------

def ruleset_file(ref: str) -> Path:
    path = Path(ref).expanduser() if ref.endswith((".yaml", ".yml")) or "/" in ref else RULESETS / f"{ref}.yaml"
    if not path.is_file():
        known = ", ".join(p.stem for p in sorted(RULESETS.glob("*.yaml")))
        raise SpecError([SpecIssue(ref, 0, 0, (), f"unknown toy rule set {ref!r}; toy rule sets: {known}")])
    return path


def ruleset_issues(path: Path, seen: tuple[Path, ...] = ()) -> tuple[dict[str, Any], list[SpecIssue]]:
    """The rule set resolved (``extends:`` applied, defaults filled) and every issue, positioned."""
    try:
        doc = load_doc(path)
    except SpecError as exc:
        return {}, list(exc.issues)
    issues = validate_against(doc, SCHEMA)
    data: dict[str, Any] = dict(doc.data) if isinstance(doc.data, dict) else {}
    if issues:
        return data, issues
    base: dict[str, Any] = dict(DEFAULTS)
    if "extends" in data:
        parent = path.parent / f"{data['extends']}.yaml"
        if not parent.is_file() or parent.resolve() in seen:
            line, column = doc.position_of(("extends",))
            return data, [SpecIssue(str(path), line, column, ("extends",),
                                    f"extends {data['extends']!r}: no such toy rule set beside this file (or a loop)")]
        base, parent_issues = ruleset_issues(parent, (*seen, path.resolve()))
        if parent_issues:
            return data, parent_issues
    merged = {**base, **data}
    if merged["hand"] * max(merged["players"]) > merged["cards"]:
        line, column = doc.position_of(("hand",) if "hand" in data else ("cards",))
        issues.append(SpecIssue(str(path), line, column, ("hand",),
                                f"{merged['hand']} cards for each of {max(merged['players'])} players need more than "
                                f"the {merged['cards']} cards of the deck"))
    return merged, issues


def load_toy_ruleset(ref: str) -> dict[str, Any]:
    path = ruleset_file(ref)
    data, issues = ruleset_issues(path)
    if issues:
        raise SpecError(issues)
    return data


# --- the game ------------------------------------------------------------------------------------------

class ToyEngine:
    """The game's state: hands, the round's cards, rounds won; legal actions and apply."""

    def __init__(self, ruleset: Mapping[str, Any], players: int, seed: str, names: Sequence[str] | None = None):
        if players not in ruleset["players"]:
            raise SetupError(f"rule set {ruleset['name']} is for {', '.join(map(str, ruleset['players']))} players, "
                             f"not {players}")
        self.ruleset = dict(ruleset)
        self.n = players
        self.seed = seed
        self.names = list(names) if names else [f"Player {i + 1}" for i in range(players)]
        deck = list(range(1, int(ruleset["cards"]) + 1))
        random.Random(f"toy:{seed}").shuffle(deck)
        hand = int(ruleset["hand"])
        self.hands = [sorted(deck[i * hand:(i + 1) * hand]) for i in range(players)]
        self.fingerprint = ",".join(str(c) for h in self.hands for c in h)
        self.leader = 0
        self.trick: list[tuple[int, int]] = []
        self.won = [0] * players
        self.rounds = 0
        self.actions: list[Action] = []
        self.lines: list[str] = []

    @property
    def to_act(self) -> int | None:
        if self.is_over():
            return None
        return (self.leader + len(self.trick)) % self.n

    def is_over(self) -> bool:
        return not any(self.hands) and not self.trick

    def legal_actions(self, seat: int) -> list[Action]:
        return [PlayNumber(seat, c) for c in self.hands[seat]] if seat == self.to_act else []

    def apply(self, action: Action) -> None:
        if not isinstance(action, PlayNumber):
            raise IllegalAction("unknown-action", f"{action.type} is not an action of this game")
        if action.seat != self.to_act:
            raise IllegalAction("not-your-turn", f"it is not {self.names[action.seat]}'s turn")
        if action.card not in self.hands[action.seat]:
            raise IllegalAction("not-in-hand", f"{self.names[action.seat]} does not hold {action.card}")
        self.hands[action.seat].remove(action.card)
        self.trick.append((action.seat, action.card))
        self.actions.append(action)
        self.lines.append(f"{self.names[action.seat]} plays {action.card}.")
        if len(self.trick) == self.n:
            winner, card = max(self.trick, key=lambda t: t[1])
            self.won[winner] += 1
            self.rounds += 1
            self.lines.append(f"{self.names[winner]} wins round {self.rounds} with {card}.")
            self.leader, self.trick = winner, []

    def winners(self) -> tuple[int, ...]:
        best = max(self.won)
        return tuple(s for s in range(self.n) if self.won[s] == best)

    def clone(self) -> ToyEngine:
        other = ToyEngine.__new__(ToyEngine)
        other.__dict__.update({k: (v.copy() if isinstance(v, list) else v) for k, v in self.__dict__.items()})
        other.hands = [h.copy() for h in self.hands]
        return other


class ToyGame(EngineGame):
    __slots__ = ()
    engine: ToyEngine

    @property
    def family(self) -> Toy:
        return FAMILY

    def waiting(self) -> tuple[int, ...]:
        seat = self.engine.to_act
        return () if seat is None else (seat,)

    def window(self) -> tuple[int, ...]:
        return ()

    def may_act_out_of_turn(self, seat: int) -> bool:
        return False

    def observation(self, seat: int) -> dict[str, Any]:
        e = self.engine
        return {"seat": seat, "hand": list(e.hands[seat]), "trick": [list(t) for t in e.trick],
                "won": list(e.won), "hand_sizes": [len(h) for h in e.hands], "to_act": e.to_act}

    def public_log(self) -> list[str]:
        return list(self.engine.lines)

    def seat_log(self, seat: int) -> list[str]:
        return list(self.engine.lines)

    def outcome(self) -> GameOutcome:
        e = self.engine
        if not e.is_over():
            return GameOutcome("in-progress", f"round {e.rounds + 1} of {e.ruleset['hand']}")
        winners = e.winners()
        names = " and ".join(e.names[s] for s in winners)
        return GameOutcome("finished", f"{names} won {e.won[winners[0]]} of {e.rounds} rounds", winners, names)

    def clone(self) -> ToyGame:
        return ToyGame(self.engine.clone())

    def record(self) -> dict[str, Any]:
        e = self.engine
        o = self.outcome()
        return {"format": RECORD_FORMAT, "family": NAME, "ruleset": e.ruleset["name"], "mission": None,
                "players": e.n, "seed": e.seed, "actions": [a.to_json() for a in e.actions],
                "outcome": o.result, "reason": o.reason}


# --- bots ----------------------------------------------------------------------------------------------

class ToySeat:
    """``high``: plays its highest card; ``low``: its lowest; ``random``: any card (seeded)."""

    def __init__(self, seat: int, kind: str, seed: str) -> None:
        self.seat = seat
        self.kind = kind
        self.rng = random.Random(f"{seed}:{seat}")

    def act(self, game: GameInPlay) -> Action:
        hand = game.observation(self.seat)["hand"]  # its own seat's view only
        card = max(hand) if self.kind == "high" else min(hand) if self.kind == "low" else self.rng.choice(hand)
        return PlayNumber(self.seat, card)

    def offer(self, game: GameInPlay) -> Action | None:
        return None


BOTS = ("high", "low", "random")


# --- the family ----------------------------------------------------------------------------------------

class Toy:
    name = NAME
    title = "Toy"
    words = FamilyWords(length="rounds", score="rounds won by the winner")
    needs_mission = False
    default_bot = "high"
    solvable = False
    action_types = frozenset({PlayNumber.type})
    tui = "crewkit_toy.tui:TERMINAL"  # its table at crewkit's terminal (crewkit.tui.family.FamilyTUI)

    def rulesets(self) -> list[Path]:
        return sorted(RULESETS.glob("*.yaml"))

    def ruleset_data(self, ref: str, readings: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
        if readings:
            raise SetupError(f"toy rule sets have no readings (asked for {', '.join(readings)})")
        data = load_toy_ruleset(ref)
        return str(data["name"]), data

    def ruleset_issues(self, path: Path) -> list[SpecIssue]:
        return ruleset_issues(path)[1]

    def listing(self, path: Path) -> RulesetListing:
        data = load_toy_ruleset(str(path))
        return RulesetListing(tuple(data["players"]), f"its own game ({NAME} family): {data['hand']} rounds")

    def open(self, ruleset: str, mission: str | None, players: int, seed: str,
             readings: Mapping[str, str] | None = None, names: Sequence[str] | None = None) -> ToyGame:
        if mission:
            raise SetupError(f"rule set {ruleset} plays no mission (found {mission!r})")
        return ToyGame(ToyEngine(self.ruleset_data(ruleset, readings)[1], players, seed, names))

    def replay(self, record: Mapping[str, Any], names: Sequence[str] | None = None) -> Replayed:
        try:
            game = self.open(str(record["ruleset"]), None, int(record["players"]), str(record.get("seed", "")),
                             None, names)
        except (SetupError, SpecError) as exc:
            return Replayed(None, ReplayError(str(exc), code="setup"))
        for i, raw in enumerate(record.get("actions") or []):
            seat = raw.get("seat") if isinstance(raw, dict) else None
            try:
                if not isinstance(raw, dict) or raw.get("type") != PlayNumber.type or not isinstance(raw.get("card"), int):
                    raise IllegalAction("malformed", f"expected {{seat, type: {PlayNumber.type}, card: N}}, found {raw!r}")
                game.apply(PlayNumber(int(raw["seat"]), int(raw["card"])))
            except IllegalAction as exc:
                return Replayed(game, ReplayError(exc.message, i, seat, exc.code))
        return Replayed(game, None)

    def replay_text(self, replayed: Replayed) -> str:
        lines = [] if replayed.game is None else replayed.game.public_log() + [replayed.game.outcome().words()]
        if replayed.error is not None:
            lines.append(f"stopped: {replayed.error}")
        return "\n".join(lines)

    def replay_json(self, replayed: Replayed) -> dict[str, Any]:
        game = replayed.game
        return {"log": [] if game is None else game.public_log(),
                "outcome": None if game is None else game.outcome().result,
                "error": None if replayed.error is None else replayed.error.to_json()}

    def bot_names(self) -> list[str]:
        return list(BOTS)

    def bot_spec(self, spec: str | None, sides: Mapping[str, str | None] | None = None) -> str:
        from crewkit.errors import CrewkitError

        spec = spec or self.default_bot
        if spec not in BOTS:
            raise CrewkitError(f"there is no toy bot {spec!r}; bots: {', '.join(BOTS)}")
        return spec

    def bots_json(self, spec: str) -> dict[str, str] | None:
        return None

    def seat_players(self, game: GameInPlay, spec: str, seed: str) -> list[SeatPlayer]:
        return [ToySeat(seat, spec, seed) for seat in range(game.seats)]

    def solve(self, game: GameInPlay, timeout: float | None, max_nodes: int | None) -> tuple[str | None, int]:
        return None, 0

    def summary(self, game: GameInPlay) -> GameSummary:
        e = cast(ToyGame, game).engine
        winners = e.winners()
        return GameSummary(len(winners) == 1, e.rounds, game.outcome().reason, float(e.won[winners[0]]),
                           e.fingerprint)


FAMILY = Toy()
