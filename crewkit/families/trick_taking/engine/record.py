"""Game records (``crewkit-record/1``): writing them and replaying them through the engine."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crewkit.atomic import write_json_atomic
from crewkit.cards import Card, CardError
from crewkit.engine.actions import ActionFormatError, action_from_json
from crewkit.engine.errors import DealerError, IllegalAction, SetupError
from crewkit.families.trick_taking.engine.blocks.rounds import match_of
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import MissionSource, compile_from_texts, compile_game
from crewkit.games.protocol import RECORD_FORMAT, ReplayError

FORMAT = RECORD_FORMAT


def game_to_record(game: Game) -> dict[str, Any]:
    spec = game.spec
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": spec.ruleset if spec else game.rules.ruleset_name,
        "mission": spec.mission if spec else (game.rules.mission_id or ""),
        "players": game.rules.players,
        "seed": game.seed,
    }
    if spec and spec.source is not None:  # a user's mission file travels with its record (replays anywhere)
        out["mission_source"] = {"sha256": spec.source.sha256, "text": spec.source.text}
    if spec and spec.ruleset_source is not None:  # so does a user's rule set file
        out["ruleset_source"] = {"sha256": spec.ruleset_source.sha256, "text": spec.ruleset_source.text}
    if spec and spec.readings:
        out["readings"] = dict(spec.readings)
    elif spec is None and game.rules.readings:
        out["readings"] = dict(game.rules.readings)  # every reading's choice, so a replay compiles the same rules
    hands = game.deal.hands
    deal: dict[str, Any] = {"tasks": [c.name for c in game.deal.tasks]}
    rules = game.rules
    if rules.dummy is not None:
        hands = hands[: rules.players]  # the dummy's cards are its columns
        down = rules.dummy.face_down
        deal["dummy"] = {
            "face_down": [[c.name for c in col[:down]] for col in game.deal.dummy_columns],
            "face_up": [[c.name for c in col[down:]] for col in game.deal.dummy_columns],
        }
    if game.deal.secret:
        deal["secret_tasks"] = [list(ids) for ids in game.deal.secret]
        deal.pop("tasks", None)
    if game.deal.set_aside:
        deal["set_aside"] = [c.name for c in game.deal.set_aside]
    if game.deal.task_cards:  # task cards with objectives (Mission Deep Sea), by id, in the order drawn
        deal["task_cards"] = list(game.deal.task_cards)
        deal.pop("tasks", None)
    if game.deal.mode_card is not None:
        deal["mode_card"] = game.deal.mode_card.name
    out["deal"] = {"hands": [[c.name for c in hand] for hand in hands], **deal}
    out["actions"] = [a.to_json() for a in game.actions]
    result: dict[str, Any] = {}
    match = match_of(game)
    if match is not None:
        from crewkit.families.trick_taking.engine.scoring import chip_json

        out["dealer"] = match.first_dealer
        result["chips"] = [chip_json(c) for c in match.chips]
        result["rounds"] = [r.to_json() for r in match.round_results]
    else:
        result["tricks_won"] = list(game.tricks_won)
        result["distress_used"] = game.distress_used()
    out["result"] = result
    outcome = game.outcome()
    out["outcome"] = outcome.result
    out["reason"] = outcome.reason
    return out  # keys in the schema's order do not matter to readers


def write_record(game: Game, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then rename."""
    write_json_atomic(path, game_to_record(game))


def carried_source(record: Mapping[str, Any], key: str = "mission_source") -> MissionSource | None:
    """The text of a file a record carries (``mission_source``, ``ruleset_source``), or None (a bundled one, an
    older record). The record's schema has checked its form and :mod:`crewkit.spec.recordfile` its hash."""
    raw = record.get(key)
    if not isinstance(raw, Mapping) or not isinstance(raw.get("text"), str):
        return None
    return MissionSource(str(raw["text"]), str(raw.get("sha256", "")))


def carried_texts(record: Mapping[str, Any]) -> tuple[dict[Path, str], str, str]:
    """The carried texts to read in place of files (none when each file on disk holds exactly its text), and the
    rule set and mission to load (where the texts stand). A carried rule set stands at its own place and beside
    the mission too, where the mission's ``rulesets:`` names it."""
    ruleset, mission = str(record["ruleset"]), str(record["mission"])
    texts: dict[Path, str] = {}
    source = carried_source(record)
    if source is not None and not _file_matches(mission, source):
        where = source_location(mission, source)
        texts[where] = source.text
        mission = str(where)
    rule_source = carried_source(record, "ruleset_source")
    if rule_source is not None and not _file_matches(ruleset, rule_source):
        where = source_location(ruleset, rule_source)
        texts[where] = rule_source.text
        texts.setdefault(Path(mission).parent / where.name, rule_source.text)
        ruleset = str(where)
    return texts, ruleset, mission


def _file_matches(mission: str, source: MissionSource) -> bool:
    """Whether the file the record names holds exactly the carried text: then it is read by its path as before
    (a campaign's own rule set beside it is found there, as when the game was played)."""
    import hashlib

    from crewkit.spec.yamlio import read_limited

    if "\x00" in mission:
        return False
    try:
        return hashlib.sha256(read_limited(Path(mission).expanduser())).hexdigest() == source.sha256
    except OSError:  # absent (the usual case elsewhere), or not a regular file
        return False


def source_location(ref: str, source: MissionSource) -> Path:
    """Where the loader reads a carried text: the record's own path when it names a place in the working folder
    (the mission's rule set may be a file beside it there, as where it was played); else a folder that does not
    exist, so that a record from someone else cannot make crewkit read files beside a path it names
    (docs/trust.md)."""
    from crewkit.spec.yamlio import real_path_within

    path = Path(ref).expanduser()
    if "\x00" not in ref and real_path_within(path, [Path.cwd()]) is not None:
        return path
    return Path(os.sep, "crewkit-record", source.sha256[:16], path.name or "carried.yaml")


@dataclass
class Replay:
    game: Game | None
    error: ReplayError | None


def replay_record(record: Mapping[str, Any]) -> Replay:
    """Rebuild the game from the record's header and deal and apply its actions in order."""
    readings = record.get("readings") or {}
    source, ruleset_source = carried_source(record), carried_source(record, "ruleset_source")
    mission = str(record["mission"])
    try:
        texts, ruleset, mission = carried_texts(record)
        if texts:  # the files the game was played under, whatever is (or is not) on disk now
            rules = compile_from_texts(ruleset, mission, int(record["players"]), readings, texts)
        else:
            rules = compile_game(ruleset, mission, int(record["players"]), readings)
    except SetupError as exc:
        return Replay(None, ReplayError(str(exc), code="setup"))
    except Exception as exc:  # SpecError and friends: report, never a traceback
        from crewkit.spec.errors import SpecError

        if isinstance(exc, SpecError):
            first = exc.issues[0] if exc.issues else None
            where = f" ({first.file}:{first.line}:{first.column}: {first.message})" if first else ""
            # the mission's own file at fault: the record's "mission" is where to look, not its "ruleset"
            about = "spec-mission" if first is not None and first.file in (mission, str(record["mission"])) else "spec"
            return Replay(None, ReplayError(f"cannot load the game named by the record{where}", code=about))
        raise
    seed = str(record.get("seed", ""))
    deal = None
    raw = record.get("deal")
    if raw:
        try:
            card = rules.deck.card
            columns: tuple[tuple[Card, ...], ...] = ()
            dummy = raw.get("dummy")
            if dummy:
                ups = dummy.get("face_up", [])
                downs = dummy.get("face_down", [[] for _ in ups])
                spec = rules.dummy
                if spec is not None:  # each column: its face-down cards, then its face-up ones
                    if len(downs) != len(ups):
                        return Replay(None, ReplayError(f"deal: the dummy has {len(downs)} face-down and {len(ups)} "
                                                        "face-up columns; both lists need one entry per column",
                                                        code="deal"))
                    for i, (d, u) in enumerate(zip(downs, ups, strict=True)):
                        if (len(d), len(u)) != (spec.face_down, spec.face_up):
                            return Replay(None, ReplayError(
                                f"deal: dummy column {i} has {len(d)} face-down and {len(u)} face-up cards; rule set "
                                f"{rules.ruleset_name} gives each column {spec.face_down} face down and "
                                f"{spec.face_up} face up", code="deal"))
                columns = tuple(
                    tuple(card(c) for c in d) + tuple(card(c) for c in u) for d, u in zip(downs, ups, strict=False)
                )
            deal = Deal(
                tuple(tuple(card(c) for c in hand) for hand in raw.get("hands", [])),
                tuple(card(c) for c in raw.get("tasks", [])),
                tuple(card(c) for c in raw.get("set_aside", [])),
                dummy_columns=columns,
                secret=tuple(tuple(ids) for ids in raw.get("secret_tasks", [])),
                task_cards=tuple(str(c) for c in raw.get("task_cards", []) or []),
                mode_card=card(raw["mode_card"]) if raw.get("mode_card") else None,
            )
        except CardError as exc:
            return Replay(None, ReplayError(f"deal: {exc}", code="deal"))
    dealer = record.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)):
        return Replay(None, ReplayError(f"dealer: expected a seat number, found {dealer!r}", code="dealer"))
    try:
        game = Game.new(rules, seed=seed, deal=deal, dealer=dealer)
    except DealerError as exc:
        return Replay(None, ReplayError(f"dealer: {exc}", code="dealer"))
    except SetupError as exc:
        return Replay(None, ReplayError(f"deal: {exc}", code="deal"))
    from crewkit.families.trick_taking.engine.setup import GameSpec

    game.spec = GameSpec(str(record["ruleset"]), str(record["mission"]), int(record["players"]),
                         tuple(sorted(readings.items())), source, ruleset_source)
    for i, raw_action in enumerate(record.get("actions", []) or []):
        seat = raw_action.get("seat") if isinstance(raw_action, dict) else None
        try:
            action = action_from_json(raw_action, rules.deck)
            game.apply(action)
        except ActionFormatError as exc:
            return Replay(game, ReplayError(str(exc), i, seat, "malformed-action"))
        except IllegalAction as exc:
            return Replay(game, ReplayError(exc.message, i, seat, exc.code))
    return Replay(game, None)
