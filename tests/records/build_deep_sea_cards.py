"""Builds the scripted deals of Mission Deep Sea's task cards (run by hand:
``python tests/records/build_deep_sea_cards.py``), written to ``tests/records/deep-sea/cards.json``.

For each of the 96 task cards (missions/deep-sea/tasks.yaml), at 4 players, two games of one drawn card:

- ``fulfilled``: a deal the perfect-information solver (crewkit.families.trick_taking.solve) wins with the card, played along its
  winning line (the solver also decides who takes the card, the seats before passing, and the number a
  prediction card asks for);
- ``fails``: a deal played with random legal cards until the card fails; the card goes to the captain (the
  holder of submarine 4), or, for a card the captain may not take, to the next seat (the captain passes), and
  a card that asks a number is given ``NUMBER``. Each game is stored compactly (hands
and plays as card codes such as ``P9``) with the outcome and reason the engine gave; the test
(tests/engine/test_deep_sea_cards.py) replays every game through the engine and checks both, and checks the
card's verdict once more with the C translation of its condition (crewkit/families/trick_taking/bots/condcode.py).
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from pathlib import Path
from typing import Any

from crewkit.families.trick_taking.engine.blocks.draft import ChooseNumber, PassTask, TakeTaskCard
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.engine.taskcards import TaskDraw

OUT = Path(__file__).parent / "deep-sea" / "cards.json"
PLAYERS = 4
NUMBER = 2  # the number named for a prediction card
RULES = compile_game("crew-deep-sea", "deep-sea/01", PLAYERS)


def card_rules(card_id: str) -> Any:
    """deep-sea/01's rules with this one card drawn (a fixed draw instead of a difficulty total)."""
    return dataclasses.replace(RULES, task_draw=TaskDraw(0, (card_id,)))


def code(card: Any) -> str:
    return f"{card.suit.code}{card.rank}"


def draft(game: Game, card_id: str) -> int:
    """The card to the captain, or to the next seat that may take it; its number named. Returns the owner."""
    while game.phase == "draft" and not game.is_over():
        seat = game.to_act
        legal = game.legal_actions(seat)
        take = next((a for a in legal if isinstance(a, TakeTaskCard)), None)
        number = next((a for a in legal if isinstance(a, ChooseNumber) and a.number == NUMBER), None)
        if number is not None:
            game.apply(number)
        elif take is not None:
            game.apply(take)
        else:
            game.apply(next(a for a in legal if isinstance(a, PassTask)))
    owner = game.task_cards[0].owner
    assert owner is not None
    return owner


def entry(game: Game, owner: int, start_hands: list[int]) -> dict[str, Any]:
    deck = game.rules.deck
    plays = [a for a in game.actions if isinstance(a, Play)]
    outcome = game.outcome()
    return {
        "hands": [" ".join(code(c) for c in deck.from_mask(h)) for h in start_hands],
        "owner": owner,
        "number": game.task_cards[0].number,
        "plays": " ".join(code(a.card) for a in plays),
        "outcome": outcome.result,
        "reason": outcome.reason,
    }


def fulfilled(card_id: str) -> dict[str, Any] | None:
    from crewkit.families.trick_taking.solve import WINNABLE, solve

    rules = card_rules(card_id)
    for i in range(200):
        game = Game.new(rules, seed=f"golden:{card_id}:{i}")
        hands = list(game.hands)
        result = solve(game.clone(), timeout=3)
        if result.status != WINNABLE:
            continue
        for action in result.line:
            game.apply(action)
        assert game.outcome().result == "success", (card_id, game.outcome())
        owner = game.task_cards[0].owner
        assert owner is not None
        return entry(game, owner, hands)
    return None


def fails(card_id: str) -> dict[str, Any] | None:
    rules = card_rules(card_id)
    for i in range(400):
        game = Game.new(rules, seed=f"golden-fail:{card_id}:{i}")
        hands = list(game.hands)
        owner = draft(game, card_id)
        rng = random.Random(i)
        while not game.is_over():
            game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]))
        if game.outcome().result == "failure":
            return entry(game, owner, hands)
    return None


def main() -> int:
    only = set(sys.argv[1:])
    out: dict[str, Any] = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    redo = "--missing" in only
    only.discard("--missing")
    for card in RULES.task_deck.cards:
        if only and card.id not in only:
            continue
        if redo and len(out.get(card.id, {})) == 2:
            continue
        games = {"fulfilled": fulfilled(card.id), "fails": fails(card.id)}
        missing = [k for k, v in games.items() if v is None]
        print(card.id, "missing: " + ", ".join(missing) if missing else "ok", flush=True)
        out[card.id] = {k: v for k, v in games.items() if v is not None}
        OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    order = [c.id for c in RULES.task_deck.cards]
    out = {k: out[k] for k in order if k in out}
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
