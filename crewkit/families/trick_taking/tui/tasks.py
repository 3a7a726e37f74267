"""The mission's tasks: card, token, owner, and a done mark; task cards with objectives in words; secret mission
cards; Hammer's round and chips."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.tui.mission_words import token_text
from crewkit.families.trick_taking.tui.words import card_text, chip_str, round_mission_lines
from crewkit.tui.text import seat_label


def tasks_text(tasks: Sequence[Any], kinds: Sequence[str], viewer: int | None, *,
               roles: Sequence[tuple[str, int]] = (), conditions: Sequence[Any] = (),
               all_roles: Sequence[str] = (), columns: int = 1, title: bool = True) -> Text:
    """The tasks; then the roles bound by the setup (``sick: Bot 2``) and the mission's conditions in words,
    naming the bound players. ``columns=2``: the compact form of a short panel (:func:`task_cells`);
    ``title=False``: without the title line (a short panel has :func:`tasks_title` on its border)."""
    out = Text()
    if title:
        out.append_text(tasks_title(tasks))
        out.append("\n")
    if columns == 1:
        for task in tasks:
            out.append_text(task_line(task, kinds, viewer))
            out.append("\n")
    else:
        out.append_text(in_columns(task_cells(tasks, kinds, viewer), columns))
    names = {role: seat_label(seat, kinds, viewer) for role, seat in roles}
    for role, seat in roles:
        out.append(f" {role.replace('_', ' ').capitalize()}: ", style="bold")
        out.append(f"{names[role]}\n", style="bold yellow" if seat == viewer else "")
    if conditions:
        from crewkit.dsl.words import with_roles
        from crewkit.families.trick_taking.tui.mission_words import condition_words

        words = with_roles(names, tuple(r for r in all_roles if r not in names))
        out.append("Conditions\n", style="bold")
        for cond in conditions:
            data = {"fail_if": cond.fail_text, "done_if": cond.done_text, "id": cond.id, "text": cond.text}
            for line in condition_words(data, words):
                out.append(f"  {line}\n")
    return out


def tasks_title(tasks: Sequence[Any]) -> Text:
    """``Tasks   2/6 done``; ``Tasks: none, conditions only`` for a mission without tasks."""
    if not tasks:
        return Text.assemble(("Tasks", "bold"), (": none, conditions only", "dim"))
    done = sum(1 for t in tasks if t.done)
    return Text.assemble(("Tasks", "bold"), (f"   {done}/{len(tasks)} done", "dim"))


def task_line(task: Any, kinds: Sequence[str], viewer: int | None) -> Text:
    """One task on a line of its own: done mark, card, token, owner, the trick that completed it."""
    out = Text()
    out.append(" ✓ " if task.done else " ○ ", style="bold green" if task.done else "dim")
    label = card_text(task.card)
    label.pad_right(9 - len(label.plain))
    out.append_text(label)
    tok = token_text(task.token)
    out.append(f"{('[' + tok + ']') if tok else '':<7}", style="bold cyan" if tok else "")
    out.append_text(owner_text(task.owner, kinds, viewer))
    if task.done:
        out.append(f"  (trick {task.trick})", style="dim")
    return out


def owner_text(owner: int | None, kinds: Sequence[str], viewer: int | None) -> Text:
    if owner is None:
        return Text("not taken", style="italic dim")
    return Text(seat_label(owner, kinds, viewer), style="bold" if owner == viewer else "")


def task_cells(tasks: Sequence[Any], kinds: Sequence[str], viewer: int | None) -> list[Text]:
    """Each task in a short cell (``✓ 9● [1] Bot 2``: done mark, card as rank and suit sign, token, owner),
    the parts aligned across the cells; the trick that completed a task is left to the log."""
    cards = [card_text(t.card, short=True) for t in tasks]
    tokens = [f"[{token_text(t.token)}]" if t.token is not None else "" for t in tasks]
    owners = [owner_text(t.owner, kinds, viewer) for t in tasks]
    card_width = max((c.cell_len for c in cards), default=0)
    token_width = max((len(t) for t in tokens), default=0)
    owner_width = max((o.cell_len for o in owners), default=0)
    cells = []
    for task, card, token, owner in zip(tasks, cards, tokens, owners, strict=True):
        cell = Text()
        cell.append("✓ " if task.done else "○ ", style="bold green" if task.done else "dim")
        card.pad_right(card_width - card.cell_len)
        cell.append_text(card)
        if token_width:
            cell.append(f" {token:<{token_width}}", style="bold cyan")
        cell.append(" ")
        owner.pad_right(owner_width - owner.cell_len)
        cell.append_text(owner)
        cells.append(cell)
    return cells


COLUMN_GAP = 2


def in_columns(cells: Sequence[Text], columns: int) -> Text:
    """``cells`` (of one width) in ``columns`` columns, top to bottom and then left to right."""
    out = Text()
    rows = -(-len(cells) // columns) if cells else 0
    for row in range(rows):
        line = [cells[i] for i in range(row, len(cells), rows)]
        for i, cell in enumerate(line):
            if i:
                out.append(" " * COLUMN_GAP)
            out.append_text(cell)
        out.append("\n")
    return out


def task_cards_text(cards: Sequence[Any], kinds: Sequence[str], viewer: int | None, *,
                    roles: Sequence[tuple[str, int]] = (), succeeded: bool = False) -> Text:
    """Task cards with objectives (Mission Deep Sea): each card in words, with its owner, the number its owner
    named (``secret`` when kept from the viewer) and a done mark; then the roles bound by the setup.
    ``succeeded``: the mission is won, so every objective is met (one such as "I win no 9" is met only when
    the last trick is over, never "for good" before)."""
    out = Text()
    out.append("Task cards", style="bold")
    done = len(cards) if succeeded else sum(1 for c in cards if c.done)
    out.append(f"   {done}/{len(cards)} fulfilled{'' if succeeded else ' for good'}\n", style="dim")
    for card in cards:
        met = card.done or succeeded
        out.append(" ✓ " if met else " ○ ", style="bold green" if met else "dim")
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
    """The tasks panel's text. When the tasks, one a line, do not fit the rows of the panel around it (a short
    terminal: 80x24 shows four), they go in two columns of short cells and the title moves to the panel's
    border; what still does not fit scrolls, and the panel says so on its border (the table's hint)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tasks: tuple[Sequence[Any], Callable[[int, bool], Text]] | None = None  # tasks, text(columns, title)
        self._cell_width = 0  # the width of a task's short cell (two columns need twice that and a gap)
        self.columns = 1

    def show(self, obs: Any, kinds: Sequence[str], viewer: int | None, rules: Any = None) -> None:
        if obs.task_cards and not obs.tasks:
            self.show_text(task_cards_text(obs.task_cards, kinds, viewer, roles=obs.roles,
                                           succeeded=obs.outcome == "success"))
            return
        conditions = tuple(rules.conditions) if rules is not None else ()
        all_roles = tuple(rules.roles) if rules is not None else ()

        def text(columns: int, title: bool) -> Text:
            return tasks_text(obs.tasks, kinds, viewer, roles=obs.roles, conditions=conditions,
                              all_roles=all_roles, columns=columns, title=title)

        self._tasks = (obs.tasks, text)
        self._cell_width = max((c.cell_len for c in task_cells(obs.tasks, kinds, viewer)), default=0)
        self.fit()
        self.call_after_refresh(self.fit)  # the panel's size once the screen is laid out (a resize)

    def show_text(self, text: Text) -> None:
        self._tasks = None
        self.columns = 1
        self._set_title(None)
        self._update(text)

    def fit(self) -> None:
        """The most readable form that fits the panel: one task a line under the title; the title on the
        border; two columns of short cells (when they fit its width). When none fits, the most compact one
        (the panel scrolls and says so)."""
        if self._tasks is None or not self.is_attached:
            return
        tasks, text = self._tasks
        forms = [(1, True)]
        room = self._room()
        if room is not None:
            width, rows = room
            forms.append((1, False))
            if len(tasks) > 1 and 2 * self._cell_width + COLUMN_GAP <= width:
                forms.append((2, False))
            chosen = next(((f, t) for f, t in ((f, text(*f)) for f in forms) if self._height(t, width) <= rows),
                          None)
        else:
            chosen = None
        (columns, titled), body = chosen if chosen is not None else (forms[-1], text(*forms[-1]))
        self.columns = columns
        self._set_title(None if titled else tasks_title(tasks))
        self._update(body)

    def _room(self) -> tuple[int, int] | None:
        """The panel's inner width (a column kept for its scrollbar) and rows; None before the layout."""
        box = self.parent
        if not isinstance(box, Widget):
            return None
        region = box.content_region
        if region.width <= 0 or region.height <= 0:
            return None
        return region.width - 1, region.height

    def _height(self, text: Text, width: int) -> int:
        copy = text.copy()
        copy.rstrip()
        return len(copy.wrap(self.app.console, width))

    def _set_title(self, title: Text | None) -> None:
        box = self.parent
        if isinstance(box, Widget) and box is not self.screen:
            box.border_title = title

    def _update(self, text: Text) -> None:
        text.rstrip()
        self.update(text)
