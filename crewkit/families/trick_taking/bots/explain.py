"""A hint: what the expert bot would do for a seat, and why, in one line of words.

The bot sees the seat's observation only (as any bot). The reason is read from the position as the seat sees
it (the trick so far, the open tasks, the cards still unseen:
:mod:`crewkit.families.trick_taking.engine.tracking`) and from the share of the bot's imagined deals its
choice keeps winnable. Players are named "seat N" (a front end words them); cards by their names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crewkit.cards import Card
from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.tracking import card_tracker, winner_after

#: the bot a hint asks: the expert with the table's budget (it answers within half a second)
HINT_BOT = "expert-quick"


@dataclass(frozen=True)
class Hint:
    action: Action
    reason: str  # one line, players named "seat N"


def hint_for(obs: Observation, seed: str = "") -> Hint:
    """What the expert bot would do in ``obs`` (the seat's own observation), with its reason."""
    from crewkit.families.trick_taking.bots.registry import make_bot

    bot = make_bot(HINT_BOT, obs.seat, f"{seed}:hint")
    action = bot.act(obs)
    return Hint(action, explain(obs, action, getattr(bot, "last", None) or {}))


def explain(obs: Observation, action: Action, last: dict[str, Any] | None = None) -> str:
    """One line saying why ``action`` is a good move for ``obs.seat``."""
    if isinstance(action, TakeTask):
        return f"take the task {action.card}: it suits your hand best in the deals the bot imagined"
    if not isinstance(action, Play):
        return "the expert bot's choice here"
    required = [a for a in (obs.required or obs.legal) if isinstance(a, Play)]
    if len(required) == 1:
        return f"play {action.card}: it is the only card you may play"
    return f"play {action.card}: {_why_play(obs, action.card, [a.card for a in required])}{_share(action, last)}"


def _why_play(obs: Observation, card: Card, playable: list[Card]) -> str:
    me = obs.seat
    open_tasks = {t.card.id: t for t in obs.tasks if not t.done and t.owner is not None}
    winner = winner_after(obs, card)
    in_trick = [open_tasks[c.id] for _, c in obs.current_trick if c.id in open_tasks]
    own_task = open_tasks.get(card.id)
    if own_task is not None and winner == own_task.owner:
        who = "you" if winner == me else f"seat {winner}"
        return f"it is {'your' if winner == me else f'seat {winner}’s'} task card and {who} win{'' if winner == me else 's'} the trick with it"
    for task in in_trick:
        if winner == task.owner:
            if winner == me:
                return f"you take the trick and with it your task card {task.card}"
            return f"seat {winner} keeps the trick and its task card {task.card}"
    if own_task is not None:
        return f"it passes {card}, seat {own_task.owner}’s task card, where seat {own_task.owner} can take it"
    led = obs.current_trick[0][1].suit if obs.current_trick else None
    suit = card.suit
    tracker = card_tracker(obs)
    same = [c for c in playable if c.suit == suit]
    goal = _goal(obs)
    if led is None:  # leading
        if suit is not None and _boss(tracker, card):
            return f"no {suit.name} card above it is left in the other hands: it should win the trick"
        if same and card == min(same, key=lambda c: c.rank):
            return f"a low {suit.name if suit else 'card'} lead keeps your high cards for {goal or 'later tricks'}"
        what = suit.name if suit else "card"
        if goal == "the mission's conditions":
            return f"a {what} lead plays toward {goal}"
        return f"a {what} lead sets up {goal} still open" if goal else f"a {what} lead is the expert bot's choice here"
    if suit == led:
        if winner == me:
            return "it wins the trick"
        if same and card == min(same, key=lambda c: c.rank):
            return f"you follow {led.name} low and keep the higher cards"
        return f"you follow {led.name} without taking the trick"
    if suit is not None and suit.trump and winner == me:
        return f"you have no {led.name}: the trump takes the trick"
    if card.id in {t.card.id for t in obs.tasks if not t.done}:
        return f"you have no {led.name}: you discard it here"
    if any(not t.done for t in obs.tasks):
        return f"you have no {led.name}: you discard a card no task needs"
    return f"you have no {led.name}: you discard a card you can spare"


def _goal(obs: Observation) -> str:
    """What the crew still plays for, in words: ``the tasks`` (task cards of colour cards still open), ``the task
    cards`` (objectives, Mission Deep Sea), ``the mission's conditions``; ``""`` when nothing is open."""
    if any(not t.done for t in obs.tasks):
        return "the tasks"
    if any(not c.done for c in obs.task_cards):
        return "the task cards"
    return "the mission's conditions" if obs.conditions else ""


def _boss(tracker: Any, card: Card) -> bool:
    """Whether every card of ``card``'s suit above it has been played or is in the seat's own hand."""
    track = next((t for t in tracker.suits if t.suit == card.suit), None)
    if track is None:
        return False
    seen = {c.rank for c in track.played} | {c.rank for c in track.in_hand}
    return all(rank in seen for rank in track.suit.ranks if rank > card.rank)


def _share(action: Play, last: dict[str, Any] | None) -> str:
    """`` (it keeps 7 of 10 imagined deals winnable)`` from the bot's last decision, when it searched."""
    if not last or not last.get("worlds"):
        return ""
    score = (last.get("scores") or {}).get(action.card.id)
    if score is None:
        return ""
    worlds = int(last["worlds"])
    return f" (it keeps {round(score)} of {worlds} imagined deals winnable)"
