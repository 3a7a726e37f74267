"""The table: your hand, the trick, the tasks, the crew and their communications; bots play in turn.

The screen holds a :class:`~crewkit.families.trick_taking.tui.session.Session` and re-renders from the engine's observation
after every action. Which actions exist is always the engine's answer (``legal_actions``); a refused
choice shows the engine's :class:`~crewkit.engine.errors.IllegalAction` message in the status line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.communication import Communicate, Signal
from crewkit.families.trick_taking.engine.blocks.distress import Distress, PassCard
from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, MatchState, match_of
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.observation import OPTIONAL_TYPES
from crewkit.families.trick_taking.engine.step_actions import ChoosePlayer
from crewkit.families.trick_taking.tui.communication import CrewView
from crewkit.families.trick_taking.tui.dialogs import (
    CommunicateScreen,
    DistressScreen,
    LastTrickScreen,
    RoundScreen,
)
from crewkit.families.trick_taking.tui.hand import HandView
from crewkit.families.trick_taking.tui.log import EventLog
from crewkit.families.trick_taking.tui.mission_words import commander_word
from crewkit.families.trick_taking.tui.remote import RemoteSession
from crewkit.families.trick_taking.tui.session import Finished, Session
from crewkit.families.trick_taking.tui.tasks import TasksView, round_text, secret_tasks_text
from crewkit.families.trick_taking.tui.trick import TrickView
from crewkit.families.trick_taking.tui.words import (
    TASK_CARD_TYPES,
    action_label,
    card_text,
    cards_line,
    chip_str,
    dummy_seat_label,
    public_action_label,
    task_card_action_label,
)
from crewkit.tui.catalog import in_mission_set
from crewkit.tui.footer import FitFooter
from crewkit.tui.remote import HOST_DECIDES, LEAVE_CHOICES, LEAVE_EXIT_NOTE, LEAVE_NOTE, LEAVE_TITLE
from crewkit.tui.safe import shown, shown_plain
from crewkit.tui.screens.dialogs import ChoiceScreen, HandoffScreen
from crewkit.tui.screens.game_table import GameTableScreen
from crewkit.tui.settings import SETTING_NAMES
from crewkit.tui.sizes import SHORT_ROWS, too_small_words
from crewkit.tui.text import name_seats, seat_label
from crewkit.tui.turn_bell import TurnBell

if TYPE_CHECKING:
    from crewkit.tui.app import CrewApp

SHORT = SHORT_ROWS  # rows: below this (80x24) the choice list loses its border and an empty trick panel gives way
CARD_ACTIONS = (Play, PassCard)
OPTIONAL_ACTIONS = (Communicate, Distress, Signal)


class TasksBox(VerticalScroll):
    """The tasks panel when it holds more than it shows (80x24): ↑ ↓ move three lines at once, Page keys a
    page, without the smooth-scroll animation that made one press move less than a line."""

    FOCUS_ON_CLICK = False  # Tab brings the keys here; a click (or the wheel) never takes them from a list
    BINDINGS = [
        Binding("down", "lines(3)", "Scroll down", show=False),
        Binding("up", "lines(-3)", "Scroll up", show=False),
        Binding("pagedown", "lines(0)", show=False),
        Binding("pageup", "lines(-1000)", show=False),
    ]

    def action_lines(self, step: int) -> None:
        if step == 0:
            step = max(1, self.scrollable_content_region.height - 1)
        elif step == -1000:
            step = -max(1, self.scrollable_content_region.height - 1)
        # at once: a deferred scroll (Textual's default, after the next refresh) reads the old position, so two
        # presses before a refresh moved it only once (a press lost on a loaded machine)
        self.scroll_relative(y=step, animate=False, immediate=True)


#: the smallest terminal the table is laid out for


class TableScreen(GameTableScreen):
    AUTO_FOCUS = "#hand"  # not the first focusable widget (the tasks panel)
    SETTINGS = SETTING_NAMES  # the settings this table follows (``o``): every one
    PALETTE_ACTIONS = frozenset({"play_selected", "communicate", "signal", "hint", "tracker", "take_back",
                                 "distress", "last_trick"})
    session: Session | RemoteSession
    BINDINGS = [
        Binding("c", "communicate", "Communicate"),
        Binding("s", "signal", "Signal"),
        Binding("d", "distress", "Distress"),
        Binding("t", "last_trick", "Last trick"),
        Binding("space", "continue", "Continue"),
        Binding("h", "hint", "Hint"),
        Binding("k", "tracker", "Cards"),
        Binding("u", "take_back", "Take back"),
        Binding("u", "no_take_back", show=False),  # says why there is no take-back here (not silently nothing)
        # once the mission is over (the end screen closed with Esc to look at the table)
        Binding("n", "next_mission", "Next mission"),
        Binding("r", "play_again", "Play again"),
        Binding("c", "campaign", "Campaign"),
        Binding("escape", "results", "Results"),
        Binding("o", "app.settings", "Settings", show=False),
        Binding("l", "app.logbook", "Logbook", show=False),  # in the help screen; the footer fits 80 columns
        Binding("v", "app.compare", "Compare", show=False),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
        Binding("q", "quit_table", "Quit"),
    ]
    #: the keys a seat joined to a hosted table has (crewkit.tui.seat.SeatApp): the table's, none of a local game's
    #: (no ``hint``: the expert bot reads the engine's view of a seat, which stays on the host: not offered)
    SEAT_ACTIONS = frozenset({"communicate", "signal", "distress", "last_trick", "continue", "tracker",
                              "no_take_back", "results", "quit_table"})
    #: the keys of a mission in play, and those of a finished one (the table looked at after the end screen)
    PLAYING_ONLY = {"communicate", "signal", "distress", "continue", "hint"}
    #: the keys the footer leaves out first when they do not all fit (crewkit.tui.footer; help lists them)
    FOOTER_SPARE = ("tracker", "last_trick", "take_back", "hint", "results")
    OVER_ONLY = {"next_mission", "play_again", "campaign", "results"}

    def __init__(self, session: Session | RemoteSession, delay: float = 0.8) -> None:
        """``session``: the local game (:class:`Session`), or a seat at a hosted table (:class:`RemoteSession`:
        the host runs the game and its bots; this screen draws what the host sent and sends the seat's actions)."""
        super().__init__(id="table")
        self.session = session
        self.remote = isinstance(session, RemoteSession)
        self.delay = delay
        self.viewer: int | None = session.humans[0] if session.humans else None
        self._timer: Timer | None = None
        self._scheduled = False
        self._engine_busy = False  # an engine worker is applying an action
        self._keys_shown: tuple[bool | None, ...] = ()  # check_action of each binding when the footer was drawn
        self._handoff_open = False
        self._ended = False
        self.status_text = ""
        self._other_actions: list[Action] = []
        self._rounds_shown = 0  # Hammer: the rounds whose chip table was shown
        self._preview: tuple[str, str] | None = None  # Hammer: the mission card and mode highlighted in the list
        self._waiting_lead = False  # stopped at a communication window until space (or a communication)
        self.speak_requested = False  # c pressed outside a window: stop at the next one for the player
        self._bell = TurnBell()  # rings once per (actions applied, seat)
        self._announced: set[int] = set()  # human seats told which card they received (distress signal)
        self._drawn_state: object = None  # a hosted table: the host's state last drawn
        self._drawn_note: str | None = None  # ... and its connection's note (reconnecting, lost)
        self._auto_passed: object = None  # the state (seq) whose window this seat passed by its setting

    @property
    def crew_app(self) -> CrewApp:
        return self.app  # type: ignore[return-value]

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="info")
        with Horizontal(id="table-top"):
            with Vertical(id="table-left"):
                yield CrewView(id="crew")
                with TasksBox(id="tasks-box"):  # scrolls when the tasks and conditions do not fit (80x24)
                    yield TasksView(id="tasks")
            with Vertical(id="table-right"):
                yield TrickView(id="trick")
                yield Static(id="actions-title", classes="panel-title")
                yield OptionList(id="actions")
                yield EventLog(id="log")
        yield HandView(id="hand")
        yield Static(id="own-hand")  # your own hand while you choose JARVIS's card
        yield Static(id="status")
        yield FitFooter(show_command_palette=False)  # ctrl+p still opens it; 80 columns for the keys

    def on_resize(self) -> None:
        self.set_class(self.app.size.height < SHORT, "short")  # 80x24: the choice list gives way to the log
        if self.session.game is not None:
            self.refresh_view()  # the info line and the crew panel are shorter at 80 columns
        self.say_if_too_small()

    def too_small(self) -> str:
        """Below 80x24 the panels overlap and the hand wraps: the sentence that says so, else ``""``."""
        return too_small_words(*self.app.size)

    def say_if_too_small(self) -> None:
        if self.too_small():
            self.set_status(self.status_text)

    def on_mount(self) -> None:
        self.set_class(self.app.size.height < SHORT, "short")
        self.sub_title = shown_plain(f"{self.session.mission} {self.session.title}")
        for warning in self.session.warnings:
            self.notify(shown(warning), title="Bots", severity="warning", timeout=6)
        if isinstance(self.session, RemoteSession):
            def changed() -> None:
                self.call_later(self.remote_changed)

            self.session.on_change = changed
            self.run_worker(self.session.pump(), group="remote", exit_on_error=False)
        self.refresh_view()
        self.say_if_too_small()
        self.advance()

    # ------------------------------------------------------------------ rendering
    @property
    def game(self) -> Any:
        return self.session.g

    def observer(self) -> int:
        return self.viewer if self.viewer is not None else 0

    def acting(self) -> int | None:
        """The seat the player at the keyboard decides for now: their own, or JARVIS's when it is its turn."""
        viewer = self.viewer
        if viewer is None or self.session.game is None:
            return None
        seat = self.game.to_act
        if seat is not None and seat != viewer and self.session.controller(seat) == viewer:
            return int(seat)
        return viewer

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys for what this rule set has: ``s`` with an in-trick signal; no ``c``/``d`` where there are none."""
        if self.session.game is None:
            return True
        over = self.game.is_over()
        if action in self.OVER_ONLY:
            if action == "next_mission":
                return over and (self.remote or self.crew_app.why_no_next(self.session.mission) is None)
            return over
        if over and action in self.PLAYING_ONLY:
            return False
        if action == "take_back":
            return self.session.practice
        if action == "no_take_back":
            return not self.session.practice
        if action == "continue":
            return self._waiting_lead
        rules = self.game.rules
        if action == "signal":
            return self.session.signal_rules
        if action == "communicate":
            return bool(getattr(rules, "comm_enabled", True)) and not self.session.signal_rules
        if action == "distress":  # the key leaves the footer once the signal is sent or trick 1 has begun
            return (bool(getattr(rules, "distress_enabled", True)) and not self.game.tricks and not self.game.plays
                    and self.game.distress_direction is None)
        return True

    def refresh_keys(self) -> None:
        """The footer's keys follow the game (d only before trick 1). The footer is rebuilt (its key widgets
        mounted again) whenever the bindings are refreshed, so only when one of this table's keys came or went,
        not after every card."""
        keys = tuple(self.check_action(b.action, ()) for b in self.BINDINGS)  # type: ignore[union-attr]
        if keys != self._keys_shown:
            self._keys_shown = keys
            self.refresh_bindings()

    def refresh_view(self) -> None:
        s = self.session
        game = s.g
        obs = game.observation(self.observer())
        kinds = s.kinds
        viewer = self.viewer
        outcome = game.outcome()
        hammer = s.variant == "hammer"
        match = match_of(game) if hammer else None  # type: ignore[arg-type]
        info = Text()
        narrow = self.app.size.width < 100  # 80 columns: the header names the mission; the panels the roles
        if match is not None:
            if not narrow:
                info.append(s.title + " · ", style="bold")
            info.append(f"round {match.round}/{game.scoring.rounds}")
        else:
            if not narrow:
                mission_set = in_mission_set(s.ruleset, s.mission)
                info.append(s.mission if mission_set else f"Mission {s.mission}", style="bold")
                if s.title:
                    info.append(f" · {s.title}")
                info.append(" · ")
            info.append("hosted table" if self.remote else f"attempt {s.attempt}", style="dim")
        if game.is_over():
            info.append(f" · {outcome.result.upper()}",
                        style="bold red" if outcome.result == "failure" else "bold green")
        elif hammer:
            if game.phase == "choose-mission":
                info.append(" · choosing the mission")
            else:
                info.append(f" · trick {obs.trick_number}/{obs.total_tricks}")
        else:
            info.append(f" · trick {obs.trick_number}/{obs.total_tricks}")
            if obs.phase != "tricks":
                info.append(f" · {obs.phase.replace('-', ' ')}")
        if narrow:
            pass  # the crew panel marks the dealer or commander with ★
        elif hammer:
            info.append(" · dealer: ")
            info.append(seat_label(game.dealer, kinds, viewer), style="bold yellow")
        else:
            info.append(f" · {commander_word(game.rules)}: ")
            info.append(seat_label(obs.commander, kinds, viewer), style="bold yellow")
        if obs.to_act is not None:
            info.append(" · to act: ")
            info.append(seat_label(obs.to_act, kinds, viewer), style="bold")
        self.query_one("#info", Static).update(info)
        # per JARVIS column: its face-up card, how many lie face down (not which): the seat's observation says
        dummy_columns = list(obs.dummy_columns) if obs.dummy_seat is not None else None
        chips = [chip_str(c) for c in match.chips] if match is not None else None
        self.query_one("#crew", CrewView).show(obs, kinds, viewer, dealer=game.dealer if hammer else None,
                                               dummy_columns=dummy_columns, chips=chips)
        tasks = self.query_one("#tasks", TasksView)
        if hammer:
            preview = self._preview if game.phase == "choose-mission" else None
            tasks.show_text(round_text(game, kinds, viewer, preview))
        elif s.variant == "secret":
            tasks.show_text(secret_tasks_text(obs, kinds, viewer, s.secret_numbers(self.observer())))
        else:
            tasks.show(obs, kinds, viewer, game.rules)
        self.query_one("#trick", TrickView).show(obs, kinds, viewer)
        deck = game.rules.task_deck
        texts = {c.id: c.text for c in deck.cards} if deck is not None else None
        self.query_one("#log", EventLog).show(s.display_events(), kinds, viewer, card_texts=texts,
                                              commander=commander_word(game.rules))

        acting = self.acting()
        act_obs = obs if acting is None or acting == viewer else game.observation(acting)
        hand = self.query_one("#hand", HandView)
        own = self.query_one("#own-hand", Static)
        own.display = False
        hand.closed = game.is_over()
        if viewer is None:
            hand.hide("No human seat: the bots are playing")
        elif game.is_over() and self.remote:
            hand.set_cards(obs.hand, (), (), title="The game is over — Esc results · q leaves the table")
        elif game.is_over():
            keys = "r play again · c campaign · Esc results"
            if self.crew_app.why_no_next(s.mission) is None:
                keys = "n next mission · " + keys
            if s.practice:
                keys = "u take back your last card · " + keys
            hand.set_cards(obs.hand, (), (), title=f"The mission is over — {keys}")
        elif acting != viewer and acting is not None:
            # JARVIS's turn and the player at the keyboard is the commander: JARVIS's face-up cards are the hand;
            # the player's own hand stays in sight on the line under it
            legal_cards = [a.card for a in act_obs.legal if isinstance(a, CARD_ACTIONS)]
            if legal_cards:
                title = "JARVIS plays: choose JARVIS's card — Enter plays it"
            else:
                title = "JARVIS's face-up cards (you decide for JARVIS)"
            hand.set_cards(act_obs.hand, legal_cards, (), title=title)
            own.update(Text.assemble(("Your own hand: ", "bold"), cards_line(obs.hand)))
            own.display = True
        else:
            legal_cards = [a.card for a in obs.legal if isinstance(a, CARD_ACTIONS)]
            comm_cards = [c.card for c in obs.communications if c.seat == viewer]
            passing = any(isinstance(a, PassCard) for a in obs.legal)
            name = seat_label(viewer, kinds, viewer)
            got = s.received_card(viewer)
            if passing:
                title = f"{name}: choose the card to pass ({obs.distress_direction}) — Enter"
            elif got is not None and not game.tricks and got in obs.hand:
                title = f"{name}: you received {got} (distress signal)" + (" — your turn" if legal_cards else "")
            elif legal_cards:
                title = f"{name}: your turn — Enter plays the selected card"
            else:
                title = f"{name}: your hand"
            hand.set_cards(obs.hand, legal_cards, comm_cards, title=title)

        # other choices of the acting seat (task draft, mission, JARVIS's seat, ...): offered generically
        legal_now = act_obs.legal if viewer is not None else ()
        others = [a for a in legal_now if not isinstance(a, CARD_ACTIONS + OPTIONAL_ACTIONS)]
        panel = self.query_one("#actions", OptionList)
        panel_title = self.query_one("#actions-title", Static)
        if others != self._other_actions:
            self._other_actions = others
            panel.clear_options()
            for i, action in enumerate(others):
                panel.add_option(Option(self._action_text(action), id=str(i)))
            if others:
                panel.highlighted = 0
        show = bool(others) and not game.is_over()
        panel.display = show
        panel_title.display = show
        # a short terminal with a list of choices open (the draft, a setup choice, JARVIS's seat, Hammer's
        # mission): the trick panel, with no card on the table, gives its rows to the log
        short = self.app.size.height < SHORT
        self.query_one("#trick", TrickView).display = not (show and short and not obs.current_trick)
        if show:
            kinds_of = {a.type for a in others}
            for_jarvis = " for JARVIS" if acting is not None and acting == game.dummy_seat else ""
            heading = {
                "take-task": f"Choose a task{for_jarvis} (↑ ↓ Enter)",
                "take-task-card": f"Choose a task card{for_jarvis} (↑ ↓ Enter)",
                "choose-number": "Name the number your task card asks for (↑ ↓ Enter)",
                "give-task-card": "The crew gives out the task cards: who takes this one? (↑ ↓ Enter)",
                "choose-mission": "You deal: choose the mission card and its mode (↑ ↓ Enter)",
                "choose-dummy-seat": "Where does JARVIS sit? (↑ ↓ Enter)",
            }.get(next(iter(kinds_of - {"pass-task"})) if len(kinds_of - {"pass-task"}) == 1 else "",
                  "Choose (↑ ↓ Enter)")
            if kinds_of == {"answer"} and game.questions:
                heading = (f"The {commander_word(game.rules)} asks you: \u201c{game.questions[-1][0]}\u201d "
                           "(↑ ↓ Enter)")
            panel_title.update(Text(heading, style="bold"))
        self.query_one("#status", Static).update(Text(self.status_text))
        self.refresh_keys()
        self.call_after_refresh(self.tasks_hint)

    def tasks_hint(self) -> None:
        """The tasks panel says, on its border, when it holds more than it shows and how to scroll it (Tab)."""
        if not self.is_attached:
            return
        box = self.query_one("#tasks-box", TasksBox)
        if box.max_scroll_y <= 0:
            hint = ""
        elif box.has_focus:
            hint = "↑ ↓ scroll · Tab: next panel"
        else:
            hint = f"more below: {self._tabs_to(box)}, then ↓"
        if box.border_subtitle != hint:
            box.border_subtitle = hint

    def _tabs_to(self, widget: Widget) -> str:
        """The Tab presses that move the focus from where it is to ``widget`` ("Tab", "Tab Tab")."""
        chain = self.focus_chain
        if widget not in chain:
            return "Tab"
        here = chain.index(self.focused) if self.focused in chain else -1
        presses = (chain.index(widget) - here) % len(chain) or len(chain)
        return " ".join(["Tab"] * presses)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.tasks_hint()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.call_after_refresh(self.tasks_hint)

    def _action_text(self, action: Action) -> Text:
        card = getattr(action, "card", None)
        if isinstance(action, ChooseMission):
            mission = self.game.scoring.mission(action.mission)
            title = mission.title if mission is not None else action.mission
            number = f"{mission.number}. " if mission is not None else ""
            return Text.assemble((f"{number}{title}", "bold"), " — ", (f"{action.mode} mode", "bold cyan"))
        if isinstance(action, ChooseDummySeat):
            return Text(dummy_seat_label(action, self.session.player_kinds, self.game.n))
        if isinstance(action, ChoosePlayer):
            who = seat_label(action.player, self.session.kinds, self.viewer)
            return Text(f"choose {who} as the {action.role.replace('_', ' ')}")
        if self.game.rules.task_deck is not None and action.type in TASK_CARD_TYPES:
            return Text(task_card_action_label(action, self.game.rules.task_deck, self.session.kinds, self.viewer))
        if action.type == "take-task" and card is not None:
            task = next((t for t in self.game.observation(action.seat).tasks if t.card == card), None)
            out = Text.assemble("take ", card_text(card))
            if task is not None and task.token:
                from crewkit.families.trick_taking.tui.mission_words import token_text, token_words

                out.append(f"   [{token_text(task.token)}] {token_words(task.token)}", style="cyan")
            return out
        return Text(action_label(action))

    def set_status(self, text: str, *, error: bool = False) -> None:
        self.status_text = text
        status = self.query_one("#status", Static)
        small = self.too_small()
        if small:  # said first, whatever else the status line says
            status.update(Text.assemble((small, "bold red"), " ", (text, "bold red" if error else "")))
            return
        status.update(Text(text, style="bold red" if error else ""))
        status.set_class(error, "error")

    # ------------------------------------------------------------------ the loop
    def schedule(self, fn: Callable[[], None], delay: float | None = None) -> None:
        wait = self.delay if delay is None else delay
        self._scheduled = True

        def run() -> None:
            self._scheduled = False
            self._timer = None
            if self.is_attached and self.session.game is not None:
                fn()

        if wait <= 0:
            self.call_later(run)
        else:
            self._timer = self.set_timer(wait, run)

    def advance(self) -> None:
        """Decide who acts next: a bot (after the delay), a human (prompt, hand-over), or nobody (the end)."""
        if self._scheduled or self._handoff_open:
            return
        if self._waiting_lead:
            self._waiting_lead = False
            self.refresh_keys()
        s = self.session
        if isinstance(s, RemoteSession):
            self.remote_advance(s)
            return
        game = s.g
        remap = s.take_reseat()
        if remap and self.viewer is not None:  # JARVIS took its seat: the players were renumbered
            self.viewer = remap.get(self.viewer, self.viewer)
        self.refresh_view()
        if game.is_over():
            self.finish()
            return
        if s.variant == "hammer" and len(game.state(MatchState).round_results) > self._rounds_shown:
            self.show_round()
            return
        asked = s.distress_pending()
        if asked is not None:
            self.ask_distress(asked)
            return
        self.announce_received()
        optional = s.bot_optional()
        if optional is not None:
            bot, action = optional
            self.schedule(lambda: self.bot_apply(bot, action))
            return
        seat = game.to_act
        if seat is None:
            return
        if not s.is_human(seat):
            if s.humans_may_speak() and (self.stop_every_trick or self.speak_requested):
                self._waiting_lead = True
                keys = []
                if any(s.communications(h) for h in s.humans):
                    keys.append("c communicate")
                if any(s.signals(h) for h in s.humans):
                    keys.append("s signal a card")
                if any(s.distress_actions(h) for h in s.humans):
                    keys.append("d distress signal")
                when = f"In trick {game.trick_number}" if game.plays else f"Before trick {game.trick_number}"
                verb = "plays" if game.plays else "leads"
                # short enough for one line at 80 columns
                may = f" you may: {' · '.join(keys)} ·" if keys else ":"
                self.set_status(f"{when}{may} space: {seat_label(seat, s.kinds, self.viewer)} {verb}")
                self.focus_for_human()
                self.refresh_keys()
                if self.speak_requested:  # asked for with c during the trick before: the dialog opens now
                    self.speak_requested = False
                    if any(s.communications(h) or s.signals(h) for h in s.humans):
                        self.call_later(self.action_communicate)  # the signal's dialog in the Persian reading
                return
            if s.humans_may_speak():
                # the game goes on; c (s: the signal) before the bot moves stops it (the window is open till then)
                key = "s signals" if s.signal_rules else "c communicates"
                verb = "plays" if game.plays else "leads"
                self.set_status(f"{'In' if game.plays else 'Before'} trick {game.trick_number}: {key} before "
                                f"{seat_label(seat, s.kinds, self.viewer)} {verb}")
            self.schedule(lambda: self.bot_turn(seat))
            return
        controller = s.controller(seat)  # JARVIS's choices are the commander's
        if s.hotseat and controller != self.viewer:
            self.handoff(controller)
            return
        self.viewer = controller
        self.prompt_human(seat)

    # ------------------------------------------------------------------ a seat at a hosted table
    def remote_advance(self, s: RemoteSession) -> None:
        """A hosted table: the host runs the game and its bots; this seat answers when the host waits for it (its
        turn, or a communication window every human answers), else the table says whom it waits for."""
        self._drawn_state = s.state
        remap = s.take_reseat()
        if remap and self.viewer is not None:  # JARVIS took its seat: the players were renumbered
            self.viewer = remap.get(self.viewer, self.viewer)
        self.refresh_view()
        game = s.g
        if game.is_over():
            self.set_status(s.status())
            self.finish()
            return
        note = s.connection_note
        self._drawn_note = note
        if note:
            self.set_status(note, error=True)
            return
        if s.variant == "hammer" and len(game.state(MatchState).round_results) > self._rounds_shown:
            self.show_round()  # the round's chips (the host deals the next round meanwhile)
            return
        if game.obs.unreadable:  # never silently fewer choices than the host offers
            self.set_status(f"This client cannot read an action the host offers ({game.obs.unreadable[0]}); "
                            "join with the same crewkit version as the host, or with --plain.", error=True)
            return
        state = s.state or {}
        seat = s.seat
        acting = self.acting()  # this seat, or JARVIS when the commander decides for it
        if acting is None:
            acting = seat
        # the host's words for this seat first: a prompt below says more, and no branch leaves an older line
        self.set_status(s.status())
        if state.get("window"):
            # every human answers the window: communicate (c), signal (s), call distress (d), or nothing (space)
            self._waiting_lead = True
            keys = []
            if s.communications(seat):
                keys.append("c communicate")
            if s.signals(seat):
                keys.append("s signal")
            if s.distress_actions(seat):
                keys.append("d distress")
            # to lead now (the window closes with the lead): only when the host offers the lead itself
            lead = [a for a in game.legal_actions(acting) if not isinstance(a, OPTIONAL_TYPES)]
            if state.get("turn") and lead and not self._lead_waits_for_others(s):
                self.prompt_human(acting)
                self._waiting_lead = True
                self.refresh_keys()
                return
            settings = getattr(self.app, "settings", None)
            if (getattr(settings, "pass_window", False) and not self.speak_requested
                    and self._auto_passed != state.get("seq")):
                # the person's setting: nothing to say unless they pressed c before the window opened
                self._auto_passed = state.get("seq")
                try:
                    s.pass_window()
                except IllegalAction as exc:
                    self.set_status(f"Not done: {exc.message}", error=True)
                    return
                self.set_status(f"Window passed by your setting (c before the next window to speak) · {s.status()}")
                return
            may = " · ".join(keys)
            self.set_status(f"Your answer: {may + ' · ' if may else ''}space: nothing to say ({s.status()})")
            self.focus_for_human()
            self.refresh_keys()
            if self.speak_requested:  # asked for with c during the trick before: the dialog opens now
                self.speak_requested = False
                if s.communications(seat) or s.signals(seat):
                    self.call_later(self.action_communicate)
            return
        if state.get("turn") and game.legal_actions(acting):
            self.prompt_human(acting)
            return
        self.set_status(s.status())

    @staticmethod
    def _lead_waits_for_others(s: RemoteSession) -> bool:
        """The window waits for other people too: this seat answers first (its lead would be refused)."""
        waiting = (s.state or {}).get("waiting") or []
        own = s.names[s.seat] if s.seat < len(s.names) else ""
        return any(name != own for name in waiting)

    def remote_changed(self) -> None:
        """The host sent something (a new state, a late refusal, the end of the connection)."""
        s = self.session
        if not isinstance(s, RemoteSession) or not self.is_attached or self._ended:
            return
        if self._engine_busy:  # this seat's own action is on its way: its answer draws the table
            return
        if s.state is not self._drawn_state or s.connection_note != self._drawn_note:  # a refusal alone changes
            # nothing: the status says it
            self._drawn_state = s.state
            self._scheduled = False
            self.advance()
        if s.notices:
            refused = s.notices[-1]
            s.notices.clear()
            self.set_status(f"Not done: {refused}", error=True)

    def action_no_take_back(self) -> None:
        seat = self.viewer
        why = self.session.why_no_take_back(seat) if seat is not None and self.session.game is not None else None
        self.set_status(f"No take-back: {why or 'nothing to take back'}.", error=True)

    def show_round(self) -> None:
        """Hammer: the chip table after a round; the next round starts when it is closed."""
        game = self.game
        self._rounds_shown = len(game.state(MatchState).round_results)
        self._handoff_open = True

        def done(_: None) -> None:
            self._handoff_open = False
            self.refresh_view()
            self.advance()

        self.app.push_screen(RoundScreen(game, self.session.kinds, self.viewer), done)

    def announce_received(self) -> None:
        """After the distress signal's passes: each human at the keyboard is told the card received."""
        viewer = self.viewer
        if viewer is None or viewer in self._announced or self.game.phase == "distress-pass":
            return
        card = self.session.received_card(viewer)
        if card is None:
            return
        self._announced.add(viewer)
        self.set_status(f"Distress signal: you received {card}.")

    def ring(self, seat: int) -> None:
        """Your turn while the terminal is not focused: the bell (a setting) and a notification, once per turn."""
        self._bell.ring(self, (len(self.game.actions), seat))

    def prompt_human(self, seat: int) -> None:
        game = self.game
        self.ring(seat)
        self.refresh_view()
        legal = game.legal_actions(seat)
        own = legal if self.viewer in (None, seat) else game.optional_actions(self.viewer)
        jarvis = seat == game.dummy_seat
        if any(isinstance(a, PassCard) for a in legal):
            self.set_status(f"Distress signal ({game.distress_direction}): choose a card to pass, then Enter.")
        elif any(isinstance(a, Play) for a in legal):
            extra = ""
            if game.in_communication_window() and any(isinstance(a, Communicate) for a in own):
                extra = " · c: communicate first"
            if any(isinstance(a, Signal) for a in own):
                extra += " · s: signal a card first"
            if any(isinstance(a, Distress) for a in own):
                extra += " · d: distress signal"
            lead = "lead" if not game.observation(seat).current_trick else "play"
            if jarvis:
                self.set_status(f"JARVIS's turn to {lead} (trick {game.trick_number}): you choose its card "
                                f"from its face-up cards, Enter plays{extra}.")
            else:
                self.set_status(f"Your turn to {lead} (trick {game.trick_number}): pick a card, Enter plays{extra}.")
        elif self._other_actions:
            who = " for JARVIS" if jarvis else ""
            self.set_status(f"Your choice{who}: ↑ ↓ and Enter in the list.")
        self.focus_for_human()

    def focus_for_human(self) -> None:
        hand = self.query_one("#hand", HandView)
        if self._other_actions and not hand.legal:
            self.query_one("#actions", OptionList).focus()
        else:
            hand.focus()

    def handoff(self, seat: int) -> None:
        self._handoff_open = True
        self.viewer = None
        self.refresh_view()  # nothing private stays on the table: hands and secret missions are hidden
        hand = self.query_one("#hand", HandView)
        name = seat_label(seat, self.session.kinds)
        hand.hide(f"Waiting for {name}")
        phase = self.game.phase
        why = {"draft": "It is their turn to choose a task.", "distress-pass": "They pass a card (distress signal).",
               "choose-mission": "They deal: they choose the round's mission card."}
        if self.game.to_act is not None and self.game.to_act == self.game.dummy_seat:
            why["tricks"] = "As commander they decide for JARVIS."

        def done(_: None) -> None:
            self._handoff_open = False
            self.viewer = seat
            self.refresh_view()
            self.advance()

        self.app.push_screen(HandoffScreen(seat, why.get(phase, "It is their turn."), name), done)

    # ------------------------------------------------------------------ the engine, off the UI thread
    def run_engine(self, work: Callable[[], Any], then: Callable[[Any], None], busy: str = "") -> None:
        """Run ``work`` (the engine applying an action, a bot deciding) in a thread worker, then ``then(result)``
        back on the UI thread. A mission's condition may be slow: the app keeps drawing and can always quit
        (quitting cancels the worker, and the cancel reaches the condition's evaluation)."""
        self._scheduled = True  # advance() waits, as for a bot's timer
        self._engine_busy = True

        def job() -> tuple[Callable[[Any], None], Any]:
            from crewkit.dsl import interruptible

            worker = get_current_worker()
            with interruptible(cancel=worker.cancelled_event):
                return then, work()

        self.run_worker(job, thread=True, group="engine", exit_on_error=False)
        self.set_timer(1.0, lambda: self._still_busy(busy))

    def _still_busy(self, busy: str) -> None:
        """After a second: say what the table waits for (a bot deciding, else the mission's conditions)."""
        if self._engine_busy and self.is_attached:
            what = busy or "Working: the mission's conditions take a while to evaluate"
            self.set_status(f"{what}… (q quits)")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "engine" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR,
                                                           WorkerState.CANCELLED):
            return
        event.stop()
        self._engine_busy = False
        self._scheduled = False
        if event.state == WorkerState.SUCCESS and self.is_attached and worker.result is not None:
            then, value = worker.result
            then(value)
        elif event.state == WorkerState.ERROR and worker.error is not None:
            self.engine_failed(worker.error)

    def engine_failed(self, error: BaseException) -> None:
        """The engine stopped on an error: a mission's condition that cannot be evaluated (a message naming
        the file and the condition, exit 1), or a bug (exit 3). Never a traceback on the table."""
        from crewkit.dsl import DslError, DslInterrupted

        if isinstance(error, DslInterrupted):  # the app is quitting
            return
        self._ended = True
        if isinstance(error, DslError):
            self.crew_app.fail(str(error), 1)
        else:
            self.crew_app.fail(f"internal error: {type(error).__name__}: {error}\n"
                               "This is a bug in crewkit; run again with CREWKIT_DEBUG=1 to see where it happened.", 3)

    def _apply_for_bot(self, seat: int, action: Action) -> str | None:
        """In the worker: apply a bot's action (its first legal one if refused); the refusal's message."""
        s = self.session
        assert isinstance(s, Session)  # a hosted table's bots play on the host
        try:
            s.apply(action)
        except IllegalAction as exc:
            fallback = s.fallback_action(seat) if s.g.to_act == seat else None
            if fallback is not None:
                s.apply(fallback)
            return exc.message
        return None

    def bot_turn(self, seat: int) -> None:
        s = self.session
        assert isinstance(s, Session)  # a hosted table's bots play on the host
        if s.g.is_over() or s.g.to_act != seat:
            self.advance()
            return

        def work() -> tuple[str | None, Action | None, str | None]:
            from crewkit.dsl import DslError

            failure = None
            try:
                action: Action | None = s.bot_action(seat)
            except DslError:  # the mission's condition, not the bot: stop the game with a message
                raise
            except Exception as exc:  # a broken bot must not stop the game
                failure = str(exc)
                action = s.fallback_action(seat)
            refused = self._apply_for_bot(seat, action) if action is not None else None
            return failure, action, refused

        def then(result: tuple[str | None, Action | None, str | None]) -> None:
            failure, action, refused = result
            if failure is not None:
                self.set_status(f"{seat_label(seat, s.kinds)} failed ({failure}); it plays its first legal action",
                                error=True)
            if action is None:
                self.advance()
            else:
                self._bot_applied(seat, action, refused)

        self.run_engine(work, then, busy=f"{seat_label(seat, s.kinds, self.viewer)} is thinking")

    def bot_apply(self, seat: int, action: Action) -> None:
        self.run_engine(lambda: self._apply_for_bot(seat, action),
                        lambda refused: self._bot_applied(seat, action, refused))

    def _bot_applied(self, seat: int, action: Action, refused: str | None) -> None:
        s = self.session
        # A refused bot move is not shown: it names a card of the bot's hand (the bot played its first
        # legal action instead, which the log shows as any other move).
        if refused is None:
            deck = self.game.rules.task_deck
            label = task_card_action_label(action, deck, s.kinds, self.viewer, public=True) \
                if deck is not None and action.type in TASK_CARD_TYPES else public_action_label(action)
            # a toast for a bot's distress signal; for a communication only when there is room: at 80x24 the
            # toasts would cover the crew panel and the log, which already show it
            if isinstance(action, Distress) or (isinstance(action, Communicate) and self.app.size.height >= SHORT):
                self.notify(shown(f"{seat_label(seat, s.kinds)}: {label}"), title="Crew")
            if not self.status_is_error():
                self.set_status(f"{seat_label(seat, s.kinds)}: {label}")
        self.advance()

    def status_is_error(self) -> bool:
        return self.query_one("#status", Static).has_class("error")

    # ------------------------------------------------------------------ human input
    def human_apply(self, action: Action) -> None:
        """Apply through the engine (in a worker); the engine's reason in the status line when refused."""
        if self._engine_busy:
            return  # the previous action is still being applied

        def work() -> str | None:
            try:
                self.session.apply(action)
            except IllegalAction as exc:
                return exc.message
            return None

        def then(refused: str | None) -> None:
            if refused is not None:
                refused = name_seats(refused, self.session.kinds, self.viewer)
                self.set_status(refused, error=True)
                if self.app.size.height >= SHORT:  # at 80x24 a toast would cover the trick; the status line says it
                    self.notify(shown(refused), title="Not allowed", severity="warning")
                return
            self.set_status(f"{seat_label(action.seat, self.session.kinds, self.viewer)}: {action_label(action)}")
            self.advance()

        self.run_engine(work, then)

    def on_hand_view_chosen(self, event: HandView.Chosen) -> None:
        event.stop()
        self.play_card(event.card)

    def play_card(self, card: Any) -> None:
        seat = self.acting()
        if seat is None or self._ended:
            return
        game = self.game
        legal = game.legal_actions(seat)
        match = next((a for a in legal if isinstance(a, CARD_ACTIONS) and a.card == card), None)
        if match is None:
            # not among the engine's legal actions: let the engine say why
            passing = game.phase == "distress-pass"
            match = PassCard(seat, card) if passing else Play(seat, card)
        self.human_apply(match)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Hammer: the highlighted mission card and mode is described in full next to the list."""
        if event.option_list.id != "actions":
            return
        index = int(event.option.id or 0)
        action = self._other_actions[index] if 0 <= index < len(self._other_actions) else None
        preview = (action.mission, action.mode) if isinstance(action, ChooseMission) else None
        if preview != self._preview:
            self._preview = preview
            if self.session.game is not None and self.session.variant == "hammer":
                self.query_one("#tasks", TasksView).show_text(
                    round_text(self.game, self.session.kinds, self.viewer, preview))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "actions":
            return
        event.stop()
        index = int(event.option.id or 0)
        if 0 <= index < len(self._other_actions):
            self.human_apply(self._other_actions[index])

    # ------------------------------------------------------------------ commands
    def action_play_selected(self) -> None:
        card = self.query_one("#hand", HandView).selected
        if card is None:
            self.set_status("No card selected.", error=True)
            return
        self.play_card(card)

    @property
    def stop_every_trick(self) -> bool:
        """The setting: stop before every trick a bot leads (off: the game goes on; c asks for a stop)."""
        settings = getattr(self.app, "settings", None)
        return bool(getattr(settings, "stop_every_trick", True))

    def hold_bots(self) -> bool:
        """Stop a bot's move that waits for its delay (the player speaks first); False when a bot is already
        deciding or its move being applied."""
        if self._engine_busy:
            return False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._scheduled = False
        return True

    def action_communicate(self) -> None:
        seat = self.viewer
        if seat is None or self._ended:
            return
        if self.session.signal_rules:
            self.action_signal()
            return
        game = self.game
        actions = self.session.communications(seat)
        if actions and game.in_communication_window() and not self.hold_bots():
            actions = []  # a bot is deciding its lead: the window closes with it
        if not actions and not game.is_over() and self._may_speak_later(seat):
            self.speak_requested = True
            self.set_status("You will communicate before the next lead: the table stops there for you.")
            return
        reason = "" if actions else self.session.why_no_communication(seat)
        if not actions:
            self.set_status(f"No communication possible: {reason}", error=True)

        def done(action: Communicate | None) -> None:
            if action is not None:
                self.human_apply(action)
            else:
                self.focus_for_human()
                self.advance()  # a bot's lead held for the dialog goes on

        self.app.push_screen(CommunicateScreen(actions, reason), done)

    def _may_speak_later(self, seat: int) -> bool:
        """Whether ``seat`` may still communicate in a later window: the rule set has communication, the seat
        has tokens left, and no window is open now (the engine says at the window which cards it may show)."""
        game = self.game
        rules = game.rules
        if not getattr(rules, "comm_enabled", False) or game.in_communication_window():
            return False
        used = game.observation(seat).comm_used
        return seat < len(used) and used[seat] < rules.comm_per_player and bool(game.hand(seat))

    # ------------------------------------------------------------------ help for good players
    def action_hint(self) -> None:
        """What the expert bot would play for the seat you decide for now, and why (the attempt is marked)."""
        seat = self.acting()
        s = self.session
        if seat is None or self._ended or s.game is None:
            return
        if s.g.to_act != seat or not [a for a in s.g.legal_actions(seat) if not isinstance(a, OPTIONAL_ACTIONS)]:
            self.set_status("A hint is for your own turn: wait until you play.", error=True)
            return
        why = s.hints_allowed
        if why is not None:
            self.set_status(f"No hint: {why}.", error=True)
            return
        if self._engine_busy:
            return

        def then(found: Any) -> None:
            label = action_label(found.action)
            reason = name_seats(found.reason, s.kinds, self.viewer)
            said = reason if reason.startswith(label) else f"{label}: {reason}"  # the reason may name it
            # in the status line (it wraps), not a toast: a toast would cover the trick panel
            self.set_status(f"Hint: {said}; the attempt is marked with hints")
            card = getattr(found.action, "card", None)
            hand = self.query_one("#hand", HandView)
            if card is not None and card in hand.cards:
                hand.select(card)

        self.run_engine(lambda: s.hint(seat), then, busy="The expert bot is looking for a hint")

    def action_tracker(self) -> None:
        """The cards played per suit, the trumps out and the voids shown, as the viewer has seen them."""
        from crewkit.families.trick_taking.engine.tracking import card_tracker
        from crewkit.families.trick_taking.tui.dialogs import TrackerScreen

        if self.session.game is None:
            return
        tracker = card_tracker(self.game.observation(self.observer()))
        self.app.push_screen(TrackerScreen(tracker, self.session.kinds, self.viewer))

    def action_take_back(self) -> None:
        """Practice: take back your last card (and everything played after it)."""
        s = self.session
        seat = self.viewer
        if seat is None or s.game is None:
            return
        why = s.why_no_take_back(seat)
        if why is not None:
            self.set_status(f"No take-back: {why}.", error=True)
            return
        if not self.hold_bots():
            self.set_status("A bot is playing: take back once it has.", error=True)
            return
        assert isinstance(s, Session)  # why_no_take_back refused it at a hosted table
        s.take_back(seat)
        self._ended = False
        self._other_actions = []
        self.refresh_view()
        self.advance()
        self.set_status("Taken back: your last card is in your hand again.")

    # ------------------------------------------------------------------ a finished mission
    def action_next_mission(self) -> None:
        if self.remote:
            self.set_status(HOST_DECIDES, error=True)
            return
        nxt = self.crew_app.next_mission(self.session.mission)
        why = self.crew_app.why_no_next(self.session.mission)
        if why is not None or nxt is None:
            self.set_status(why or "There is no next mission.", error=True)
            return
        self.crew_app.open_briefing(nxt)

    def action_play_again(self) -> None:
        if self.remote:
            self.set_status(HOST_DECIDES, error=True)
            return
        self.restart()

    def action_campaign(self) -> None:
        self.crew_app.show_campaign()

    def action_results(self) -> None:
        """The end screen again (after Esc closed it to look at the table)."""
        finished = self.session.finished
        if finished is not None:
            self._show_end(finished)

    def action_signal(self) -> None:
        """The in-trick signal (Persian reading): show one card of your hand; only the engine's legal ones."""
        seat = self.viewer
        if seat is None or self._ended:
            return
        actions = self.session.signals(seat)
        if actions and self.game.in_communication_window() and not self.hold_bots():
            actions = []  # a bot is deciding its card: the window closes with it
        if not actions and not self.game.is_over() and not self.game.in_communication_window() \
                and self.game.hand(seat):
            self.speak_requested = True
            self.set_status("You will signal at the next window: the table stops there for you.")
            return
        if not actions:
            self.set_status(f"No signal possible: {self.session.why_no_signal(seat)}", error=True)
            return
        options = [(Text.assemble("signal ", card_text(a.card)), a) for a in actions]

        def done(action: Signal | None) -> None:
            if action is not None:
                self.human_apply(action)
            else:
                self.focus_for_human()
                self.advance()  # a bot's card held for the dialog goes on

        note = "The card stays in your hand; everyone sees it. Enter signals the highlighted card, Esc goes back."
        self.app.push_screen(ChoiceScreen("Signal a card", options, note, id="signal", side=True), done)

    def action_distress(self) -> None:
        seat = self.viewer
        if seat is None or self._ended:
            return
        actions = self.session.distress_actions(seat)
        reason = "" if actions else self.session.why_no_distress(seat)
        if not actions:
            self.set_status(f"No distress signal possible: {reason}", error=True)

        def done(changed: bool | None) -> None:
            if changed and not self.remote:  # at a hosted table the host's next state tells
                self.session.distress_answered.add(seat)
                self.set_status(f"Distress signal: cards go to the {self.game.distress_direction}.")
            self.refresh_view()
            self.advance()

        self.app.push_screen(DistressScreen(self.session, seat, actions, reason), done)

    def action_quit_table(self) -> None:
        """``q`` in the middle of an attempt: say where it went (saved, resumed from the campaign), then quit."""
        s = self.session
        if s.game is None or s.g.is_over() or not s.humans:  # bots only: nothing of a player's to save or ask
            self.app.exit()
            return
        s.save()
        note = ("Your attempt is saved. Open this mission again, from the campaign or with the same crewkit play "
                "command, to resume it.")
        choices = [("Quit — the attempt is saved", True), ("Keep playing", False)]
        title = "Quit the mission?"
        leave_note = "crewkit: attempt saved; resume it from the campaign."
        if self.remote:
            title, note, choices, leave_note = LEAVE_TITLE, LEAVE_NOTE, LEAVE_CHOICES, LEAVE_EXIT_NOTE

        def done(quit_now: bool | None) -> None:
            if quit_now:
                self.crew_app.exit_note = leave_note
                self.app.exit()

        self.app.push_screen(ChoiceScreen(title, choices, note, id="quit"), done)

    def ask_distress(self, seat: int) -> None:
        """Before trick 1: the human seat calls the distress signal or passes; the table waits for the answer."""
        s = self.session
        if s.hotseat and seat != self.viewer:
            self.handoff(seat)
            return
        self.viewer = seat
        self._handoff_open = True
        self.set_status("Before trick 1: call the distress signal or pass (the others wait for you).")

        def done(changed: bool | None) -> None:
            self._handoff_open = False
            s.distress_answered.add(seat)
            if changed:
                self.set_status(f"Distress signal: cards go to the {self.game.distress_direction}.")
            else:
                self.set_status("No distress signal.")
            self.refresh_view()
            self.advance()

        self.app.push_screen(DistressScreen(s, seat, s.distress_actions(seat), ask=True), done)

    def action_last_trick(self) -> None:
        obs = self.game.observation(self.observer())
        self.app.push_screen(LastTrickScreen(obs, self.session.kinds, self.viewer))

    def action_continue(self) -> None:
        s = self.session
        if isinstance(s, RemoteSession):  # nothing to say in the window: the host hears it
            if self._engine_busy:
                return
            self._waiting_lead = False

            def passed() -> str | None:
                try:
                    s.pass_window()
                except IllegalAction as exc:
                    return exc.message
                return None

            def then(refused: str | None) -> None:
                self.advance()
                if refused is not None:
                    self.set_status(f"Not done: {refused}", error=True)

            self.run_engine(passed, then)
            return
        self._waiting_lead = False
        game = self.game
        if game.in_communication_window():
            self.session.continued.add(game.trick_number)
        self.set_status("")
        self.advance()

    # ------------------------------------------------------------------ the end
    def finish(self) -> None:
        if self._ended:
            return
        self._ended = True
        finished = self.session.finish()
        self._show_end(finished)

    def _show_end(self, finished: Finished) -> None:
        from crewkit.families.trick_taking.tui.end import show_end, show_seat_end

        if self.remote:  # a joined seat (crewkit.tui.seat.SeatApp): the host opens the next game
            show_seat_end(self.app, self, finished)
            return
        show_end(self.crew_app, self, finished)

    def restart(self, same_deal: bool = False) -> None:
        """A new attempt of the same mission (after a failure, or to play again); ``same_deal``: the deal just
        played again, as a practice game (an attempt that counts never knows its cards in advance)."""
        if self.remote:
            self.set_status(HOST_DECIDES, error=True)
            return
        if self._timer is not None:
            self._timer.stop()
        self._timer = None
        self._scheduled = False
        self._ended = False
        self._other_actions = []
        self._rounds_shown = 0
        self._announced = set()
        seed = self.session.g.seed if same_deal else None
        if same_deal:
            self.session.practice = True
        assert isinstance(self.session, Session)  # refused above at a hosted table
        self.session.new_attempt(seed)
        self.viewer = self.session.humans[0] if self.session.humans else None
        if same_deal:
            self.set_status("Practice: the same deal again (not counted in the logbook; u takes back a card).")
        else:
            self.set_status(f"Attempt {self.session.attempt}: new deal, new tasks.")
        self.refresh_view()
        self.advance()
