"""Records of both families and of plug-in actions (issue 26): ``validate`` reads a record as ``replay`` does.

One reader (:func:`crewkit.engine.record_file.read_record`): a Not Alone record holding a trick-taking action
(``play``, ``swap-tokens``, any action naming a playing card, a plug-in's card action) is refused by both,
with a message at the action; never an ``AttributeError``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewkit.engine import actions as actions_module
from crewkit.engine.actions import CardAction
from crewkit.engine.record_file import read_record
from tests.untrusted.harness import ROOT, assert_refused, run_bounded

GOLDEN = sorted((ROOT / "tests" / "engine" / "board" / "golden").glob("*.json"))
WORKED = ROOT / "tests" / "records" / "worked-example.json"

#: every action type that names a playing card, as a record would hold it
CARD_ACTIONS = {
    "play": {"card": "1Y"}, "take-task": {"card": "1Y"}, "pass-card": {"card": "1Y"}, "signal": {"card": "1Y"},
    "give-task": {"card": "1Y", "to": 0}, "hand-task": {"card": "1Y", "to": 0},
    "communicate": {"card": "1Y", "position": "top"}, "swap-tokens": {"cards": ["1Y", "2Y"]},
    "move-token": {"card": "1Y", "token": "1"},
}


def _not_alone_record(tmp_path: Path, action: dict[str, object], at: int = 0) -> Path:
    record = json.loads(GOLDEN[0].read_text(encoding="utf-8"))
    record["actions"] = [*record["actions"][:at], action]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(CARD_ACTIONS))
def test_a_trick_taking_action_in_a_not_alone_record(tmp_path: Path, kind: str) -> None:
    path = _not_alone_record(tmp_path, {"seat": 1, "type": kind, **CARD_ACTIONS[kind]}, at=3)
    for command in ("validate", "replay"):
        run = run_bounded(command, str(path), timeout=30)
        assert_refused(run, f"a {kind} action is not an action of this game", max_seconds=15)
        assert "r.json:" in run.output and "at actions.3" in run.output


@pytest.mark.parametrize("kind", ["play-places", "pick", "resist", "give-up", "play-card", "place-token", "pass"])
def test_a_not_alone_action_in_a_trick_taking_record(tmp_path: Path, kind: str) -> None:
    fields = {"play-places": {"places": [1]}, "pick": {"value": 1}, "resist": {"will": 1}, "play-card": {"card": "x"},
              "place-token": {"board_token": "creature", "places": [1]}}.get(kind, {})
    record = json.loads(WORKED.read_text(encoding="utf-8"))
    record["actions"] = [{"seat": 0, "type": kind, **fields}]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    for command in ("validate", "replay"):
        run = run_bounded(command, str(path), timeout=30)
        assert_refused(run, f"this rule set has no {kind!r} action", max_seconds=15)


def test_a_plug_in_card_action_in_a_not_alone_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package's block registers a card action (``{seat, type, card}``): a Not Alone game does not take it."""

    class Peek(CardAction):
        type = "peek"

    monkeypatch.setitem(actions_module.ACTION_TYPES, "peek", Peek)
    monkeypatch.setitem(actions_module._READERS, "peek",
                        lambda obj, seat, deck: Peek(seat, actions_module.card_field(obj, "peek", deck)))
    path = _not_alone_record(tmp_path, {"seat": 1, "type": "peek", "card": "1Y"}, at=2)
    read = read_record(path, {"peek"})
    assert [(i.path, i.message) for i in read.issues] == [
        (("actions", 2), "action 2 (seat 1): a peek action is not an action of this game; its actions: give-up, "
                         "pass, pick, place-token, play-card, play-places, resist")]
    assert read.issues[0].line > 1  # positioned at the action in the file
    # the card reader itself refuses a game without playing cards (a reader called with no deck)
    with pytest.raises(actions_module.ActionFormatError, match="this game has no deck of them"):
        actions_module.action_from_json({"seat": 1, "type": "peek", "card": "1Y"}, None)


def _mutations(record: dict[str, object]) -> list[dict[str, object]]:
    actions = list(record["actions"])  # type: ignore[arg-type]
    out = []
    for i in (0, len(actions) // 2, len(actions) - 1):  # the first, a middle and the last action
        for change in ({"seat": 5}, {"seat": -1}, {"type": "resist", "will": 99}, {"places": [99]},
                       {"value": "nowhere"}, {"type": "pass"}):
            changed = [dict(a) for a in actions]
            changed[i] = {**changed[i], **change}
            out.append({**record, "actions": changed})
    out.append({**record, "actions": actions[:-5] + actions[-4:]})  # one action missing
    out.append({**record, "players": 7})
    out.append({**record, "readings": {"no-such-reading": "x"}})
    return out


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda p: p.stem)
def test_validate_and_replay_agree_on_every_changed_record(tmp_path: Path, golden: Path) -> None:
    """The one reader: whatever a record holds, validate refuses exactly what replay refuses, at the same
    place (in process: a few dozen records per golden game)."""
    record = json.loads(golden.read_text(encoding="utf-8"))
    from crewkit.cli import main

    for n, changed in enumerate(_mutations(record)):
        path = tmp_path / f"m{n}.json"
        path.write_text(json.dumps(changed, indent=1), encoding="utf-8")
        read = read_record(path)
        assert main(["validate", str(path)]) == main(["replay", str(path)]) == (1 if read.issues else 0)
        for issue in read.issues:
            assert issue.file.endswith(f"m{n}.json") and issue.line >= 1, issue


def _trick_taking_mutations(record: dict[str, object]) -> list[dict[str, object]]:
    actions = list(record["actions"])  # type: ignore[arg-type]
    out = []
    for i in (0, 3, len(actions) // 2, len(actions) - 1):
        for change in ({"seat": (int(actions[i].get("seat", 0)) + 1) % 4}, {"card": "9Z"}, {"type": "pass-card"},
                       {"seat": 9}):
            changed = [dict(a) for a in actions]
            changed[i] = {**changed[i], **change}
            out.append({**record, "actions": changed})
    out.append({**record, "actions": actions[:3] + actions[4:]})  # one action missing
    out.append({**record, "seed": "another"})  # a deal the actions do not fit
    return out


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_validate_and_replay_agree_on_a_trick_taking_record_whatever_its_name(tmp_path: Path, suffix: str) -> None:
    """A record saved as ``.yaml`` (its ``format: crewkit-record/1`` says what it is) was checked by validate
    for its schema only: a play out of turn was "ok" for validate and refused by replay."""
    from crewkit.cli import main

    record = json.loads(WORKED.read_text(encoding="utf-8"))
    refused = 0
    for n, changed in enumerate([record, *_trick_taking_mutations(record)]):
        path = tmp_path / f"m{n}{suffix}"
        path.write_text(json.dumps(changed, indent=1), encoding="utf-8")
        validated, replayed = main(["validate", str(path)]), main(["replay", str(path)])
        assert validated == replayed, (n, changed)
        assert n > 0 or validated == 0  # the worked example itself is fine
        refused += validated == 1
    assert refused >= 15  # the mutations are refused, the worked example itself is not
