"""The trick-taking table's dialogs: communication, the distress signal, the last trick, the card tracker,
and Hammer's round and chip table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from crewkit.cards import Card, sort_key
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress, PassCard, receiver
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.tui.trick import trick_text
from crewkit.families.trick_taking.tui.words import STATEMENT_WORDS, card_text, chip_str, statement_text
from crewkit.tui.footer import FitFooter
from crewkit.tui.screens.dialogs import QUIT_BINDING, SideDialog, fit_dialog_body, quit_from_dialog
from crewkit.tui.text import name_seats, plural, seat_label


class CommunicateScreen(SideDialog[Communicate | None]):
    """Choose a card, then highest / lowest / only: only the engine's legal Communicate actions are offered."""

    BINDINGS = [Binding("escape", "back", "Back")]

    def __init__(self, actions: Sequence[Communicate], reason: str = "") -> None:
        super().__init__(id="communicate")
        self.actions = list(actions)
        self.reason = reason
        self.card: Card | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text("Communicate a card", style="bold"), classes="dialog-title")
            yield Static(id="comm-note", classes="dialog-note")
            yield OptionList(id="comm-options")
        yield FitFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.show_cards()

    def cards(self) -> list[Card]:
        return sorted({a.card for a in self.actions}, key=sort_key)

    def show_cards(self) -> None:
        self.card = None
        note = self.query_one("#comm-note", Static)
        options = self.query_one("#comm-options", OptionList)
        options.clear_options()
        if not self.actions:
            note.update(Text.assemble(("No communication possible now: ", "bold red"), self.reason))
            options.display = False
            return
        note.update("Step 1 of 2: which card? It stays in your hand; everyone sees it.")
        options.display = True
        for card in self.cards():
            kinds = [a.position for a in self.actions if a.card == card]
            said = ", ".join(STATEMENT_WORDS.get(p, p) if p else "statement hidden" for p in kinds)
            label = Text.assemble(card_text(card), f"   ({said})")
            options.add_option(Option(label, id=f"card:{card.id}"))
        options.highlighted = 0
        options.focus()

    def show_positions(self, card: Card) -> None:
        self.card = card
        choices = [a for a in self.actions if a.card == card]
        if len(choices) == 1 and choices[0].position is None:
            self.dismiss(choices[0])  # dead zone: the statement stays hidden, nothing to choose
            return
        note = self.query_one("#comm-note", Static)
        note.update(Text.assemble("Step 2 of 2: what do you say about ", card_text(card), "?"))
        options = self.query_one("#comm-options", OptionList)
        options.clear_options()
        suit = card.suit.name if card.suit is not None else ""
        for i, action in enumerate(choices):
            key = {"top": "h", "bottom": "l", "only": "o"}.get(action.position or "", str(i + 1))
            word = STATEMENT_WORDS.get(action.position or "", "hidden")
            options.add_option(  # Text, not a str: "[h]" would be read as markup and vanish
                Option(Text(f"{word}: {card} is {statement_text(action.position, suit)}  [{key}]"), id=f"pos:{i}")
            )
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id or ""
        if oid.startswith("card:"):
            card_id = int(oid.split(":", 1)[1])
            card = next(c for c in self.cards() if c.id == card_id)
            self.show_positions(card)
        elif oid.startswith("pos:") and self.card is not None:
            choices = [a for a in self.actions if a.card == self.card]
            self.dismiss(choices[int(oid.split(":", 1)[1])])

    def on_key(self, event: Any) -> None:
        if self.card is None:
            return
        wanted = {"h": "top", "t": "top", "l": "bottom", "b": "bottom", "o": "only"}.get(getattr(event, "character", None) or "")
        if wanted is None:
            return
        for action in self.actions:
            if action.card == self.card and action.position == wanted:
                event.stop()
                self.dismiss(action)
                return

    def action_back(self) -> None:
        if self.card is not None:
            self.show_cards()
        else:
            self.dismiss(None)


class DistressScreen(SideDialog[bool]):
    """The distress signal: the direction, then the card to pass; applied through the session's engine."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, session: Any, seat: int, actions: Sequence[Distress], reason: str = "", *,
                 ask: bool = False) -> None:
        """``ask``: the table asks before trick 1 and waits; the first choice (and Esc) is to pass."""
        super().__init__(id="distress")
        self.ask = ask
        self.session = session
        self.seat = seat
        self.actions = list(actions)
        self.reason = reason
        self.signalled = False

    def compose(self) -> ComposeResult:
        title = "Distress signal: call it or pass" if self.ask else "Distress signal"
        with Vertical(classes="dialog", id="distress-dialog"):
            yield Static(Text(title, style="bold"), classes="dialog-title")
            yield Static(id="distress-note", classes="dialog-note")
            yield OptionList(id="distress-options")
        yield FitFooter()

    def on_mount(self) -> None:
        super().on_mount()
        note = self.query_one("#distress-note", Static)
        options = self.query_one("#distress-options", OptionList)
        if not self.actions:
            note.update(Text.assemble(("The distress signal is not possible now: ", "bold red"), self.reason))
            options.display = False
            return
        rule = ("Every player passes one colour card to the same neighbour. A success with the signal counts one "
                "extra attempt in the logbook.")
        if self.ask:
            note.update(f"Only before trick 1; the others wait for you. {rule}")
            options.add_option(Option("no distress signal: pass", id="no:"))
        else:
            note.update(f"Step 1 of 2: which way do the cards go? {rule}")
        for i, action in enumerate(self.actions):
            # one line in the side dialog at 80 columns: the direction and who receives this seat's card
            options.add_option(Option(f"signal {action.direction}: {self.to_whom(action.direction)}", id=f"dir:{i}"))
        options.highlighted = 0
        options.focus()

    def to_whom(self, direction: str) -> str:
        """``you pass to Bot 1`` — who receives this seat's card when cards go to ``direction``."""
        game = self.session.g
        return f"you pass to {seat_label(receiver(game, self.seat, direction), self.session.kinds, self.seat)}"

    def show_pass(self) -> None:
        game = self.session.g
        passes = [a for a in game.legal_actions(self.seat) if isinstance(a, PassCard)]
        note = self.query_one("#distress-note", Static)
        options = self.query_one("#distress-options", OptionList)
        options.clear_options()
        if not passes:
            self.dismiss(True)
            return
        note.update(f"Step 2 of 2: which card do you pass? The signal is sent: cards go to the "
                    f"{game.distress_direction}, {self.to_whom(str(game.distress_direction))}.")
        for action in sorted(passes, key=lambda a: sort_key(a.card)):
            options.add_option(Option(card_text(action.card), id=f"pass:{action.card.id}"))
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id or ""
        kind, _, value = oid.partition(":")
        if kind == "no":
            self.dismiss(False)
            return
        try:
            if kind == "dir":
                self.session.apply(self.actions[int(value)])
                self.signalled = True
                self.show_pass()
            elif kind == "pass":
                card = self.session.g.rules.deck.cards[int(value)]
                self.session.apply(PassCard(self.seat, card))
                self.dismiss(True)
        except IllegalAction as exc:  # said in the dialog itself, never in a notification over it
            self.query_one("#distress-note", Static).update(Text.assemble(("Not allowed: ", "bold red"), exc.message))

    def action_cancel(self) -> None:
        self.dismiss(self.signalled)


class LastTrickScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,t,enter", "close", "Close"), QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def __init__(self, obs: Any, kinds: Sequence[str], viewer: int | None) -> None:
        super().__init__(id="last-trick")
        self.obs = obs
        self.kinds = kinds
        self.viewer = viewer

    def compose(self) -> ComposeResult:
        obs = self.obs
        body = Text()
        last = obs.last_trick
        if last is None:
            body.append("No trick has been played yet.")
        else:
            body.append(f"Last trick: trick {last.number}", style="bold")
            body.append(" — won by ")
            body.append(seat_label(last.winner, self.kinds, self.viewer), style="bold")
            body.append(" with ")
            body.append_text(card_text(last.winning_card))
            body.append("\n\n")
            body.append_text(trick_text(last.plays, obs.players, last.leader, self.kinds, self.viewer))
        with Vertical(classes="dialog"):
            yield Static(body, id="last-trick-text")
        yield FitFooter()

    def action_close(self) -> None:
        self.dismiss(None)


def chip_table(game: Any, kinds: Sequence[str], viewer: int | None, *, compact: bool = False) -> Table:
    """Hammer: one row per round played (dealer, mission, mode, result), chips per seat after it.

    ``compact`` (80 columns): no dealer column, no per-round change next to the chips (the round's breakdown
    says it), the mission's title cut to fit: every row stays one line."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Round", justify="right")
    if not compact:
        table.add_column("Dealer")
    table.add_column("Mission", no_wrap=compact, overflow="ellipsis", max_width=22 if compact else None)
    table.add_column("Result", no_wrap=compact, overflow="ellipsis")
    for seat in range(game.n):
        table.add_column(seat_label(seat, kinds, viewer), justify="right", no_wrap=True)
    titles = {m.id: m.title for m in game.scoring.missions}
    start = [chip_str(game.scoring.chips_start) for _ in range(game.n)]
    table.add_row("start", *([""] * (2 if compact else 3)), *start, style="dim")
    for r in game.state(MatchState).round_results:
        cells = []
        for delta, chips in zip(r.deltas, r.chips, strict=True):
            sign = "+" if delta >= 0 else ""
            cells.append(chip_str(chips) if compact else f"{chip_str(chips)} ({sign}{chip_str(delta)})")
        mission = f"{titles.get(r.mission, r.mission)} ({r.mode})"
        dealer = [] if compact else [seat_label(r.dealer, kinds, viewer)]
        table.add_row(str(r.round), *dealer, mission, r.result, *cells)
    return table


def round_breakdown(game: Any, kinds: Sequence[str], viewer: int | None, *, rule: bool = True) -> Text:
    """Hammer, after a round: the scoring rule of the round in words (unless ``rule`` is false: a short
    terminal, where the tasks panel showed it during the round), then per seat its tricks and chips."""
    from crewkit.families.trick_taking.tui.words import round_mission_lines

    match = game.state(MatchState)
    last = match.round_results[-1]
    tricks = match.round_tricks[-1] if match.round_tricks else []
    out = Text()
    try:
        rule_words = round_mission_lines(last.mission, "").get(last.mode, "") if rule else ""
    except Exception:  # the mission file cannot be read again: the chips still tell the story
        rule_words = ""
    if rule_words:
        out.append(f"Scoring ({last.mode} mode): {rule_words}.\n", style="dim")
    for seat in range(game.n):
        won = [t for t in tricks if t.winner == seat]
        delta = last.deltas[seat]
        sign = "+" if delta >= 0 else "−"
        cards = ", ".join(str(t.winning_card) for t in won)
        out.append(f"  {seat_label(seat, kinds, viewer)}: ", style="bold")
        out.append(f"{plural(len(won), 'trick')}" + (f" (won with {cards})" if cards else ""))
        out.append(f", {sign}{chip_str(abs(delta))} chips\n")
    return out


class RoundScreen(ModalScreen[None]):
    """Hammer: the round's result and the chip table so far; Enter deals the next round."""

    BINDINGS = [Binding("enter,space,escape", "close", "Next round", key_display="⏎"), QUIT_BINDING]

    def action_quit_table(self) -> None:
        quit_from_dialog(self.app)

    def __init__(self, game: Any, kinds: Sequence[str], viewer: int | None) -> None:
        super().__init__(classes="round-end")  # no id: the last round's screen may still be leaving the DOM
        self.game = game
        self.kinds = kinds
        self.viewer = viewer

    def compose(self) -> ComposeResult:
        game = self.game
        last = game.state(MatchState).round_results[-1]
        titles = {m.id: m.title for m in game.scoring.missions}
        head = Text()
        head.append(f"Round {last.round} of {game.scoring.rounds} is over", style="bold")
        head.append(f" — {titles.get(last.mission, last.mission)} ({last.mode}), "
                    f"dealer {seat_label(last.dealer, self.kinds, self.viewer)}\n")
        head.append(f"{name_seats(last.reason, self.kinds, self.viewer)}\n")
        short = self.app.size.height < 30  # 80x24: the chips of this round stay in sight
        head.append_text(round_breakdown(game, self.kinds, self.viewer, rule=not short))
        head.append(f"\nChips after round {last.round}", style="bold")
        compact = self.app.size.width < 100
        with Vertical(classes="dialog", id="round-dialog"):
            with VerticalScroll(classes="dialog-body"):  # scrolls when it does not fit (80x24, late rounds)
                yield Static(head, id="round-head")
                yield Static(chip_table(game, self.kinds, self.viewer, compact=compact), id="chip-table")
            yield Static(Text(f"Enter: deal round {last.round + 1}", style="bold"), id="round-keys")
        yield FitFooter()

    def on_mount(self) -> None:
        fit_dialog_body(self, reserved=5)

    def on_resize(self) -> None:
        fit_dialog_body(self, reserved=5)

    def action_close(self) -> None:
        self.dismiss(None)


def tracker_text(tracker: Any, kinds: Sequence[str], viewer: int | None) -> Text:
    """The card tracker in words: per suit the cards played, your own, how many are still unseen; the trumps
    out; the voids each player showed. Only what the seat has seen
    (crewkit.families.trick_taking.engine.tracking)."""
    from crewkit.families.trick_taking.tui.words import cards_line

    out = Text()
    width = max((len(t.suit.name) for t in tracker.suits), default=6)
    for track in tracker.suits:
        out.append(f"{track.suit.name.capitalize():<{width}} ", style="bold")
        if track.played:
            out.append("played ")
            out.append_text(cards_line(track.played))
        else:
            out.append("none played", style="dim")
        out.append(f" · {track.unseen} unseen", style="dim" if track.unseen else "bold green")
        if track.in_hand:
            out.append(" · yours ")
            out.append_text(cards_line(track.in_hand))
        out.append("\n")
    trumps = tracker.trumps
    if trumps:
        out_count = sum(len(t.played) for t in trumps)
        left = sum(t.unseen for t in trumps)
        out.append(f"\nTrumps out: {out_count}", style="bold")
        out.append(f" · in other hands (or set aside): {left}\n")
    out.append("\nVoids shown", style="bold")
    out.append(" (did not follow the suit led)\n", style="dim")
    if not tracker.voids:
        out.append("  none yet\n", style="dim")
    for seat, suits in tracker.voids.items():
        out.append(f"  {seat_label(seat, kinds, viewer)}: ", style="bold")
        out.append(", ".join(f"no {s.name}" for s in suits) + "\n")
    return out


class TrackerScreen(SideDialog[None]):
    """The card tracker (``k``): cards played per suit, trumps out, voids shown: the viewer's own observation."""

    BINDINGS = [Binding("escape,k,enter", "close", "Close")]

    def __init__(self, tracker: Any, kinds: Sequence[str], viewer: int | None) -> None:
        super().__init__(id="tracker")
        self.tracker = tracker
        self.kinds = kinds
        self.viewer = viewer

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text("Card tracker", style="bold"), classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(tracker_text(self.tracker, self.kinds, self.viewer), id="tracker-text")
        yield FitFooter()

    def on_mount(self) -> None:
        super().on_mount()
        fit_dialog_body(self, reserved=5)

    def action_close(self) -> None:
        self.dismiss(None)
