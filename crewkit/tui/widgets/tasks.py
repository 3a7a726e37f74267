"""The mission's tasks: card, token, owner, and a done mark; task cards with objectives in words; secret mission
cards; Hammer's round and chips."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from crewkit.engine.blocks.rounds import MatchState
from crewkit.tui.text import card_text, chip_str, round_mission_lines, seat_label, token_text


def tasks_text(tasks: Sequence[Any], kinds: Sequence[str], viewer: int | None, *,
               roles: Sequence[tuple[str, int]] = (), conditions: Sequence[Any] = (),
               all_roles: Sequence[str] = ()) -> Text:
    """The tasks; then the roles bound by the setup (``sick: Bot 2``) and the mission's conditions in words,
    naming the bound players."""
    out = Text()
    out.append("Tasks", style="bold")
    done = sum(1 for t in tasks if t.done)
    out.append(f"   {done}/{len(tasks)} done\n", style="dim")
    if not tasks:
        out.append("  none: this mission has conditions only\n", style="dim")
    for task in tasks:
        if task.done:
            out.append(" ✓ ", style="bold green")
        else:
            out.append(" ○ ", style="dim")
        label = card_text(task.card)
        label.pad_right(9 - len(label.plain))
        out.append_text(label)
        tok = token_text(task.token)
        out.append(f"{('[' + tok + ']') if tok else '':<7}", style="bold cyan" if tok else "")
        if task.owner is None:
            out.append("not taken", style="italic dim")
        else:
            out.append(seat_label(task.owner, kinds, viewer), style="bold" if task.owner == viewer else "")
        if task.done:
            out.append(f"  (trick {task.trick})", style="dim")
        out.append("\n")
    names = {role: seat_label(seat, kinds, viewer) for role, seat in roles}
    for role, seat in roles:
        out.append(f" {role.replace('_', ' ').capitalize()}: ", style="bold")
        out.append(f"{names[role]}\n", style="bold yellow" if seat == viewer else "")
    if conditions:
        from crewkit.dsl.words import with_roles
        from crewkit.tui.text import condition_words

        words = with_roles(names, tuple(r for r in all_roles if r not in names))
        out.append("Conditions\n", style="bold")
        for cond in conditions:
            data = {"fail_if": cond.fail_text, "done_if": cond.done_text, "id": cond.id, "text": cond.text}
            for line in condition_words(data, words):
                out.append(f"  {line}\n")
    return out


def task_cards_text(cards: Sequence[Any], kinds: Sequence[str], viewer: int | None, *,
                    roles: Sequence[tuple[str, int]] = ()) -> Text:
    """Task cards with objectives (Mission Deep Sea): each card in words, with its owner, the number its owner
    named (``secret`` when kept from the viewer) and a done mark; then the roles bound by the setup."""
    out = Text()
    out.append("Task cards", style="bold")
    done = sum(1 for c in cards if c.done)
    out.append(f"   {done}/{len(cards)} fulfilled for good\n", style="dim")
    for card in cards:
        out.append(" ✓ " if card.done else " ○ ", style="bold green" if card.done else "dim")
        out.append(card.text)
        if card.number is not None:
            out.append(f" (number: {card.number})", style="bold cyan")
        elif card.secret and card.owner is not None:
            out.append(" (number: secret)", style="dim")
        out.append("  ")
        if card.owner is None:
            out.append("not taken", style="italic dim")
        else:
            out.append(seat_label(card.owner, kinds, viewer), style="bold" if card.owner == viewer else "")
        out.append("\n")
    for role, seat in roles:
        out.append(f" {role.replace('_', ' ').capitalize()}: ", style="bold")
        out.append(f"{seat_label(seat, kinds, viewer)}\n", style="bold yellow" if seat == viewer else "")
    return out


def secret_tasks_text(obs: Any, kinds: Sequence[str], viewer: int | None, numbers: Mapping[int, int]) -> Text:
    """Persian secret mission cards: the viewer's own (face down for the others), the revealed ones, a count.

    ``obs`` is the viewer's observation (its ``tasks`` hold the own secret cards and the revealed ones);
    ``numbers`` maps task card ids to their mission card's number, for the own and the revealed cards only."""
    out = Text()
    out.append("Secret missions", style="bold")
    out.append("   complete them in number order\n", style="dim")
    own_open = [t for t in obs.tasks if not t.done and t.owner == obs.seat]
    if viewer is None or viewer != obs.seat:
        out.append("  (hidden until the next player is at the keyboard)\n", style="dim")
    else:
        groups: dict[int, list[Any]] = {}
        for t in own_open:
            groups.setdefault(numbers.get(t.card.id, 0), []).append(t)
        if not groups:
            out.append("  your secret missions are all done\n", style="green")
        for number in sorted(groups):
            out.append("  your secret mission: ", style="bold")
            out.append("win ")
            for i, t in enumerate(groups[number]):
                if i:
                    out.append(" and ")
                out.append_text(card_text(t.card))
            out.append(f" (#{number})\n" if number else "\n", style="bold cyan")
    for t in obs.tasks:
        if not t.done:
            continue
        out.append(" ✓ ", style="bold green")
        out.append_text(card_text(t.card))
        number = numbers.get(t.card.id, 0)
        out.append(f" (#{number})" if number else "", style="cyan")
        out.append(f"  {seat_label(t.owner, kinds, viewer)}  (trick {t.trick})\n", style="dim")
    others = int(obs.hidden_missions_of_others)
    word = "secret mission" if others == 1 else "secret missions"
    out.append(f"  {others} {word} of the others (face down)\n", style="dim")
    return out


def round_text(game: Any, kinds: Sequence[str], viewer: int | None,
               preview: tuple[str, str] | None = None) -> Text:
    """Hammer: the round, the dealer, the chosen mission card and mode, the last round's chips.

    While the dealer chooses, ``preview`` (mission id, mode) is the highlighted choice, described in full."""
    out = Text()
    scoring = game.scoring
    match = game.state(MatchState)
    out.append(f"Round {match.round} of {scoring.rounds}", style="bold")
    out.append(f"   dealer: {seat_label(game.dealer, kinds, viewer)}\n", style="dim")
    mission = match.round_mission
    if mission is None:
        out.append("  The dealer chooses the mission card and its mode.\n", style="italic")
        out.append("  Cards: " + "   ".join(f"{m.number}. {m.title}" for m in scoring.missions) + "\n", style="dim")
        card = scoring.mission(preview[0]) if preview is not None else None
        if card is not None:
            words = round_mission_lines(card.id, card.title)
            out.append(f"\n  Mission {card.number}: {card.title}\n", style="bold")
            if words.get("description"):
                out.append(f"  {words['description']}\n")
            for mode in scoring.modes:
                if mode in words:
                    chosen = preview is not None and mode == preview[1]
                    out.append(f"  {'▶' if chosen else ' '} {mode}: ", style="bold cyan" if chosen else "bold")
                    out.append(f"{words[mode]}\n", style="" if chosen else "dim")
    else:
        words = round_mission_lines(mission.id, mission.title)
        out.append(f"  Mission {mission.number}: {mission.title}", style="bold")
        out.append(f" — {game.mode} mode\n", style="bold cyan")
        if words.get("description"):
            out.append(f"  {words['description']}\n")
        if game.mode in words:
            out.append(f"  {words[game.mode]}\n", style="dim")
    if match.round_results:
        out.append("\n")
        out.append_text(chips_text(game, kinds, viewer))
    return out


def chips_text(game: Any, kinds: Sequence[str], viewer: int | None) -> Text:
    out = Text()
    out.append("Chips\n", style="bold")
    match = game.state(MatchState)
    last = match.round_results[-1] if match.round_results else None
    for seat, chips in enumerate(match.chips):
        out.append(f"  {seat_label(seat, kinds, viewer):<16}", style="bold" if seat == viewer else "")
        out.append(f"{chip_str(chips):>7}")
        if last is not None:
            delta = last.deltas[seat]
            sign = "+" if delta >= 0 else ""
            out.append(f"   ({sign}{chip_str(delta)} in round {last.round})", style="dim")
        out.append("\n")
    return out


class TasksView(Static):
    def show(self, obs: Any, kinds: Sequence[str], viewer: int | None, rules: Any = None) -> None:
        if obs.task_cards and not obs.tasks:
            self.show_text(task_cards_text(obs.task_cards, kinds, viewer, roles=obs.roles))
            return
        conditions = tuple(rules.conditions) if rules is not None else ()
        all_roles = tuple(rules.roles) if rules is not None else ()
        text = tasks_text(obs.tasks, kinds, viewer, roles=obs.roles, conditions=conditions, all_roles=all_roles)
        self.show_text(text)

    def show_text(self, text: Text) -> None:
        text.rstrip()
        self.update(text)
