"""What happened at the table, newest last: the engine's events in words, without revealing hidden cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from crewkit.families.trick_taking.tui.mission_words import token_text
from crewkit.families.trick_taking.tui.words import STATEMENT_WORDS, card_text
from crewkit.tui.text import name_seats, seat_label


def event_text(event: Any, kinds: Sequence[str], viewer: int | None,
               card_texts: Mapping[str, str] | None = None, commander: str = "commander") -> Text | None:
    """One event as a line; ``None`` for events not worth a line. Private cards stay private. ``card_texts``:
    the words of the task cards with objectives, by id (Mission Deep Sea); ``commander``: the rule set's word
    for the commander."""
    who = seat_label(event.seat, kinds, viewer) if event.seat is not None else ""
    card = card_text(event.card) if event.card is not None else Text("")
    kind = event.kind
    if kind == "deal":
        return Text(f"Cards dealt ({event.detail})", style="dim")
    if kind == "commander":
        be = f" are {commander}" if who.startswith("You") else f" is {commander}"
        if event.card is None:
            return Text.assemble((who, "bold yellow"), be)
        return Text.assemble((who, "bold yellow"), be, " (", card, ")")
    if kind == "task-revealed":
        tok = token_text(event.detail or None)
        return Text.assemble("Task revealed: ", card, f" [{tok}]" if tok else "")
    if kind == "task-taken":
        return Text.assemble((_v(who, "takes"), "bold"), " the task ", card)
    if kind.startswith("task-card") or kind in ("task-number", "task-pass"):
        return _task_card_event(event, who, card_texts or {})
    if kind == "communicate":
        said = "statement hidden" if event.detail in ("hidden", "") else STATEMENT_WORDS.get(event.detail, event.detail)
        return Text.assemble(("✉ ", "bold"), (_v(who, "communicates"), "bold"), " ", card, f" ({said})")
    if kind == "distress":
        return Text.assemble(("Distress signal", "bold red"), f" from {who}: cards go to the {event.detail}")
    if kind == "pass":
        target = _target(event.detail)
        to = f"to {seat_label(target, kinds, viewer).replace('You', 'you')}" if target is not None else event.detail
        if viewer is not None and viewer == target:  # the card you received, in bold
            return Text.assemble((_v(who, "passes"), "bold"), " ", card, (f" {to}", "bold"))
        if viewer is not None and viewer == event.seat:
            return Text.assemble(_v(who, "passes"), " ", card, f" {to}")
        return Text(f"{_v(who, 'passes')} a card {to}", style="dim")
    if kind == "play":
        return Text.assemble(f"{_v(who, 'plays')} ", card)
    if kind == "trick":
        return Text.assemble((f"{_v(who, 'wins')} {event.detail or 'the trick'}", "bold"), " with ", card)
    if kind == "task-done":
        return Text.assemble(("✓ ", "bold green"), f"{_v(who, 'completes')} the task ", card)
    if kind == "signal":
        return Text.assemble(("✉ ", "bold"), (_v(who, "signals"), "bold"), " ", card, f" ({event.detail})")
    if kind == "dummy-seat":  # by the players' names, in the order of play (no seat numbers)
        order = ", ".join(seat_label(s, kinds, viewer) for s in range(len(kinds)))
        return Text(f"JARVIS takes its seat; the order of play: {order}", style="bold")
    if kind == "dummy-reveal":
        return Text.assemble("JARVIS turns up ", card)
    if kind == "step-done":
        return None  # bookkeeping: the step's own event (seat, role, answer) has its line
    if kind == "role":
        role = (event.detail or "").replace("_", " ")
        line = Text.assemble((who, "bold"), f" {'are' if who.startswith('You') else 'is'} the {role}")
        if event.card is not None:
            line.append_text(Text.assemble(" (", card, ")"))
        return line
    if kind == "answer":
        return Text.assemble((_v(who, "answers"), "bold"), f" {event.detail}")
    if kind == "round":
        return Text(f"Round {event.detail.split(',')[0].removeprefix('round ')} — dealer: {who}", style="bold")
    if kind == "mission":
        return Text.assemble((_v(who, "chooses"), "bold"), f" {event.detail}")
    detail = name_seats(event.detail or "", kinds, viewer)  # the engine's reasons say "seat 2": the player's name
    if kind == "round-end":
        return Text(detail, style="bold cyan")
    if kind == "outcome":
        ok = event.detail.startswith("success") or " win" in event.detail
        return Text(detail, style="bold green" if ok else "bold red")
    parts = [p for p in (who, event.card.name if event.card is not None else "", detail) if p]
    return Text(f"{kind.replace('-', ' ')}: {' '.join(parts)}" if parts else kind.replace("-", " "))


def _task_card_event(event: Any, who: str, texts: Mapping[str, str]) -> Text:
    """The draft of task cards with objectives: drawn, taken, passed, numbers named, fulfilled."""
    kind = event.kind
    card_id, _, number = (event.detail or "").partition(" ")
    words = Text(f"\u201c{texts.get(card_id, card_id)}\u201d", style="italic")
    if kind == "task-card-revealed":
        return Text.assemble("Task card drawn: ", words)
    if kind == "task-card-taken":
        return Text.assemble((_v(who, "takes"), "bold"), " the task card ", words)
    if kind == "task-pass":
        return Text(f"{_v(who, 'passes')}: no task card this turn", style="dim")
    if kind == "task-number":
        named = "a secret number" if number == "secret" else number
        return Text.assemble((_v(who, "names"), "bold"), f" {named} for ", words)
    if kind == "task-card-done":
        return Text.assemble(("✓ ", "bold green"), f"{_v(who, 'fulfils')} the task card ", words)
    return Text(f"{kind.replace('-', ' ')}: {who} {event.detail}".strip())


def _v(who: str, verb: str) -> str:
    """``Bot 2 plays`` but ``You play``."""
    if not who.startswith("You"):
        return f"{who} {verb}"
    base = verb[:-2] if verb.endswith("sses") else verb[:-1] if verb.endswith("s") else verb
    return f"{who} {base}"


def _target(detail: str) -> int | None:
    tail = detail.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else None


class EventLog(Static):
    """The last events of the attempt: the newest lines that fit, drawn again when the panel changes size (a
    choice list opening or closing at 80x24), so the newest line is never the one cut off."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._lines: list[Text] = []

    def show(self, events: Sequence[Any], kinds: Sequence[str], viewer: int | None, limit: int = 40,
             card_texts: Mapping[str, str] | None = None, commander: str = "commander") -> None:
        self._lines = [t for t in (event_text(e, kinds, viewer, card_texts, commander) for e in events[-limit:])
                       if t is not None]
        self._fit()
        self.call_after_refresh(self._fit)  # again once the layout has settled (the trick panel may have grown)

    def on_resize(self) -> None:
        self._fit()
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        if not self.is_attached:
            return
        height = max(1, self.content_size.height or self.size.height or 12)
        width = max(8, self.content_size.width or 40)
        shown: list[Text] = []
        rows = 0
        for line in reversed(self._lines):  # the newest lines that fit, counting the rows a long line wraps into
            rows += len(line.wrap(self.app.console, width))
            if rows > height and shown:
                break
            shown.append(line)
        self.update(Text("\n").join(reversed(shown)))
