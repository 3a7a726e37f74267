"""The crewkit terminal app, one shell for every family: the chooser, campaign → briefing → table → end of
mission, the logbook, saved attempts and resume, help. A family adds its sessions and table screen, asked for
through its :class:`crewkit.tui.family.FamilyTUI`: the shell imports no family."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from crewkit.tui.catalog import (
    CampaignInfo,
    campaign_info,
    campaign_of,
    canonical_mission,
    in_mission_set,
    mission_set_of,
    mission_title_in,
    ruleset_data,
    ruleset_title,
)
from crewkit.tui.frame import FrameApp
from crewkit.tui.options import DEFAULT_CAMPAIGN, PlayOptions
from crewkit.tui.safe import shown, shown_plain
from crewkit.tui.screens.briefing import BriefingScreen
from crewkit.tui.screens.campaign import CampaignScreen
from crewkit.tui.services import Services, default_services
from crewkit.tui.text import plural

if TYPE_CHECKING:  # a family's table and engine are imported when its game starts: a faster first screen
    from crewkit.tui.family import GameSession, MissionStart
    from crewkit.tui.screens.game_table import GameTableScreen


class CrewApp(FrameApp):
    """The shell: every command of crewkit's own (a seat joined to a hosted table runs
    :class:`crewkit.tui.seat.SeatApp` instead, which has none of them)."""

    SUB_TITLE = "The Crew at the terminal"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
        Binding("v", "compare", "Compare"),
    ]

    def __init__(self, options: PlayOptions | None = None, services: Services | None = None) -> None:
        super().__init__()
        self.options = options or PlayOptions()
        self.services = services or default_services()
        camp = campaign_of(self.options.mission) if self.options.mission and not self.options.campaign else None
        if self.options.ruleset and self.options.mission and in_mission_set(self.options.ruleset, self.options.mission):
            camp = None  # Hammer's cards and the Persian secret cards are no campaign of their own
        self.campaign: CampaignInfo = campaign_info(camp or self.options.campaign or DEFAULT_CAMPAIGN)
        self.session: GameSession | None = None
        self.fatal_message: str | None = None  # why the app stopped (printed by ``crewkit play``)
        self.exit_note: str | None = None  # a word for the terminal once the app has closed (attempt saved)
        from crewkit.tui.settings import load_settings

        self.settings, self._settings_notes = load_settings(self.services.home())

    # ------------------------------------------------------------------ settings
    @property
    def bot_delay(self) -> float:
        """Seconds per bot move: ``--fast`` / ``--delay`` for this session, else the bot-speed setting."""
        return self.options.delay_or(self.settings.bot_delay)

    def change_settings(self, settings: Any) -> None:
        """Keep the player's new settings (saved at once) and apply them to the table in play."""
        from crewkit.tui.settings import save_settings

        self.settings = settings
        try:
            save_settings(self.services.home(), settings)
        except OSError as exc:
            self.notify(f"The settings apply to this session only: {exc}", title="Settings", severity="warning")
        table = self.table()
        if table is not None:
            table.delay = self.bot_delay

    def action_settings(self) -> None:
        from crewkit.tui.screens.dialogs import SettingsScreen

        def closed(_: None) -> None:
            table = self.table()
            if table is not None and self.screen is table and table.session.game is not None:
                table.advance()  # a stop the new settings no longer make goes on

        if not isinstance(self.screen, SettingsScreen):
            table = self.table()
            names = None if table is None else table.SETTINGS
            self.push_screen(SettingsScreen(self.settings, self.bot_delay_fixed(), names), closed)

    def bot_delay_fixed(self) -> str:
        """Why the bot-speed setting does not apply to this session (``--fast``, ``--delay``), else ``""``."""
        if self.options.fast:
            return "--fast"
        return f"--delay {self.options.delay:g}" if self.options.delay is not None else ""

    # ------------------------------------------------------------------ the campaign
    def choose_campaign(self, ref: str) -> None:
        """Open another campaign (from the chooser): its mission list replaces the current one."""
        from crewkit.tui.screens.campaign import CampaignScreen

        self.campaign = campaign_info(ref)
        if self.campaign.note:
            self.notify(shown(self.campaign.note), title="Campaign", severity="warning", timeout=8)
        while len(self.screen_stack) > 1:
            self.pop_screen()
        if isinstance(self.screen, CampaignScreen):
            self.screen.reload(titles=True)

    def action_campaigns(self) -> None:
        from crewkit.tui.screens.chooser import ChooserScreen

        if not isinstance(self.screen, ChooserScreen):
            self.push_screen(ChooserScreen())

    def entry(self, mission: str) -> Any:
        """The campaign's entry for ``mission`` (a ``CampaignMission``), or ``None`` outside the campaign."""
        return self.campaign.entries.get(mission)

    def ref_of(self, mission: str) -> str:
        """What the loader opens for ``mission``: a campaign file's absolute path, or the id itself."""
        entry = self.entry(mission)
        return str(entry.ref) if entry is not None else mission

    def title_of(self, mission: str) -> str:
        return mission_title_in(self.campaign, mission)

    def players_for(self, mission: str | None = None) -> int:
        """``--players``, else the campaign's (or this mission's) first allowed count, preferring 4."""
        if self.options.players:
            return self.options.players
        entry = self.entry(mission) if mission else None
        counts = list(getattr(entry, "players", ()) or self.campaign.players)
        ruleset = self.ruleset_for(mission) if mission else self.campaign.ruleset
        if not counts or self.options.ruleset:  # --ruleset crew-jarvis: the counts that rule set plays
            allowed = [int(p) for p in ruleset_data(ruleset).get("players") or []]
            counts = [c for c in counts if c in allowed] or allowed
        return 4 if 4 in counts or not counts else counts[0]

    def readings_for(self, mission: str) -> dict[str, str]:
        """``--reading`` choices, with the campaign's fixed readings for its own missions."""
        if self.entry(mission) is None:
            return dict(self.options.readings)
        return {**self.options.readings, **self.campaign.readings}

    def locked(self, mission: str) -> str | None:
        """Why ``mission`` cannot be opened yet (a campaign that unlocks in order), else ``None``."""
        info = self.campaign
        if info.unlock != "in-order" or mission not in info.missions:
            return None
        from crewkit.tui.services import campaign_progress

        rows, _ = campaign_progress(self.services.logbook, info)
        first_open = next((i for i, r in enumerate(rows) if not r.done), len(rows))
        index = info.missions.index(mission)
        if index <= first_open:
            return None
        blocker = info.missions[first_open]
        return f"{self.title_of(mission) or mission} opens once {self.title_of(blocker) or blocker} is done"

    # ------------------------------------------------------------------ seats and specs
    def kinds(self, mission: str | None = None) -> list[str]:
        from crewkit.tui.options import normalise_seats

        return normalise_seats(self.options.seats, self.players_for(mission), self.services.bot_factory is not None,
                               self.options.bot)

    def ruleset_for(self, mission: str) -> str:
        if self.options.ruleset:
            if mission_set_of(self.options.ruleset) is None or in_mission_set(self.options.ruleset, mission):
                return self.options.ruleset
            # a rule set that deals its own mission cards (Hammer, Persian) does not play campaign missions
        entry = self.entry(mission)
        if entry is not None:
            return str(entry.ruleset)
        if campaign_of(mission) == self.campaign.name:
            return self.campaign.ruleset
        from crewkit.spec.mission_rulesets import default_ruleset

        return default_ruleset(self.ref_of(mission))

    def campaign_for(self, mission: str) -> str | None:
        if in_mission_set(self.ruleset_for(mission), mission):
            return None
        if self.entry(mission) is not None:
            return self.campaign.key
        return campaign_of(mission)

    def next_mission(self, mission: str) -> str | None:
        if in_mission_set(self.ruleset_for(mission), mission):
            return None
        missions = list(self.campaign.missions)
        if mission in missions:
            index = missions.index(mission)
            if index + 1 < len(missions):
                return missions[index + 1]
        return None

    # ------------------------------------------------------------------ navigation
    def get_default_screen(self) -> Screen:
        return CampaignScreen()

    def on_mount(self) -> None:
        for warning in [*self.services.warnings, *self._settings_notes]:
            self.notify(shown(warning), title="crewkit", severity="warning", timeout=8)
        if self.options.ruleset and self.plays_alone(self.options.ruleset):
            self.start_game_of(self.options.ruleset)  # crewkit play --ruleset not-alone: a game of its own
            return
        if self.campaign.note and self.options.campaign:
            self.notify(shown(self.campaign.note), title="Campaign", severity="warning", timeout=8)
        if self.options.mission:
            mission = self.options.mission
            self.open_briefing(mission if mission in self.campaign.entries else canonical_mission(mission))
        elif self.options.ruleset and mission_set_of(self.options.ruleset):
            self.open_briefing(str(mission_set_of(self.options.ruleset)))  # e.g. all of Hammer's mission cards
        elif self.options.campaign is None:
            from crewkit.tui.catalog import known_campaigns

            if len(known_campaigns()) > 1:  # several campaigns: the player picks one first
                self.action_campaigns()

    def show_campaign(self) -> None:
        while len(self.screen_stack) > 1 and not isinstance(self.screen, CampaignScreen):
            self.pop_screen()

    def open_briefing(self, mission: str) -> None:
        from crewkit.tui.screens.game_table import GameTableScreen

        why = self.locked(mission)
        if why is not None:
            self.notify(shown(why), title="Locked", severity="warning")
            return

        if isinstance(self.screen, BriefingScreen | GameTableScreen):
            self.switch_screen(BriefingScreen(mission))
        else:
            self.push_screen(BriefingScreen(mission))

    def start_mission(self, mission: str, *, practice: bool = False, seed: str | None = None) -> None:
        """A new attempt of ``mission`` (or the saved one, if the player resumes it). ``practice``: a game that
        does not count (``seed``: its deal, e.g. the deal just played)."""
        from crewkit.tui.family import family_tui
        from crewkit.tui.screens.dialogs import ResumeScreen

        start = self.mission_start(mission, practice=practice)
        if seed is not None:
            start.base_seed = seed
        session: Any = family_tui(start.ruleset).mission_session(start, self.services)
        saved = session.saved_record()
        if saved is None:
            self._begin(session, None)
            return
        done = len(saved.get("actions") or [])
        summary = (f"Seed {shown_plain(saved.get('seed', '?'))}, {plural(done, 'action')} played so far.\n"
                   "A new attempt instead counts this one as abandoned in the logbook.")

        def answer(resume: bool | None) -> None:
            if not resume:
                session.abandon_saved(saved)
            self._begin(session, saved if resume else None)

        self.push_screen(ResumeScreen(mission, summary), answer)

    def mission_start(self, mission: str, *, practice: bool = False) -> MissionStart:
        """An attempt of ``mission`` as ``crewkit play``'s options and the campaign set it."""
        from crewkit.tui.family import MissionStart

        entry = self.entry(mission)
        return MissionStart(mission, self.ruleset_for(mission), self.players_for(mission), self.kinds(mission),
                            self.campaign_for(mission), self.ref_of(mission), self.options.seed,
                            self.readings_for(mission), str(getattr(entry, "version", "") or ""),
                            self.title_of(mission) if entry is not None else None, practice,
                            self.campaign.hints if entry is not None else "allowed")

    def _begin(self, session: Any, record: dict[str, object] | None) -> None:
        try:
            if record is not None:
                error = session.resume(dict(record))
                if error:
                    self.notify(f"Cannot resume: {shown(error)}. Starting a new attempt.", severity="warning")
                    session.discard_saved()
                    session.new_attempt()
            else:
                session.discard_saved()
                session.new_attempt()
        except Exception as exc:  # a mission the engine cannot set up
            self.notify(shown(exc), title="Cannot start the mission", severity="error", timeout=10)
            return
        from crewkit.tui.family import family_tui

        self.session = session
        table = family_tui(session.ruleset).table(session, self.bot_delay)
        if isinstance(self.screen, BriefingScreen):
            self.switch_screen(table)
        else:
            self.push_screen(table)

    # ------------------------------------------------------------------ games of their own (Not Alone, ...)
    @staticmethod
    def plays_alone(ruleset: str) -> bool:
        """Whether ``ruleset`` is a game of its own (its family has no missions: Not Alone)."""
        from crewkit.games import family_for

        return not family_for(ruleset).needs_mission

    def game_session(self, ruleset: str) -> GameSession:
        """A table of ``ruleset`` as ``crewkit play`` asked for it, from its family (raises UsageError or
        SetupError; a UsageError when the family offers no table at the terminal)."""
        from crewkit.tui.family import family_tui

        return family_tui(ruleset).session(ruleset, self.options, self.services)

    def game_progress(self, ruleset: str) -> str:
        """The chooser's line for a game of sides: each side's wins (all player counts)."""
        from crewkit.games import family_for
        from crewkit.tui.services import side_results

        family = family_for(ruleset)
        rows = side_results(self.services.logbook, family.name, ruleset)
        won, lost = sum(r.won for r in rows), sum(r.lost for r in rows)
        sides = family.words.sides or ("won", "lost")
        return f"{sides[0]} {won} · {sides[1]} {lost}"

    def start_game_of(self, ruleset: str) -> None:
        """Open the table of a game of its own; a saved unfinished game there is offered first."""
        from crewkit.tui.screens.dialogs import ResumeScreen

        try:
            session: Any = self.game_session(ruleset)
        except Exception as exc:  # a rule set or seats the family cannot set up: said, the app stays
            self.notify(shown(str(exc)), title="Cannot start the game", severity="error", timeout=10)
            return
        saved = session.saved_record()
        if saved is None:
            self._sit_at(session)
            return
        done = len(saved.get("actions") or [])
        summary = (f"Seed {saved.get('seed', '?')}, {plural(done, 'action')} played so far.\n"
                   "A new game instead counts this one as abandoned in the logbook.")

        def answer(resume: bool | None) -> None:
            if resume:
                error = session.resume(dict(saved))
                if error:
                    self.notify(f"Cannot resume: {shown(error)}. A new game instead.", severity="warning")
                    session.discard_saved()
            else:
                session.abandon(saved)
            self._sit_at(session)

        self.push_screen(ResumeScreen(str(ruleset_title(ruleset)), summary), answer)

    def _sit_at(self, session: GameSession) -> None:
        from crewkit.tui.family import family_tui

        self.session = session
        self.push_screen(family_tui(session.ruleset).table(session, self.bot_delay))

    def why_no_next(self, mission: str) -> str | None:
        """Why there is no next mission to open after ``mission`` (the last one; the next still locked, and by
        what), else ``None``."""
        nxt = self.next_mission(mission)
        if nxt is None:
            if in_mission_set(self.ruleset_for(mission), mission) or mission not in self.campaign.missions:
                return "This game is not part of a campaign's list of missions."
            return "This was the last mission of the campaign."
        return self.locked(nxt)

    def fail(self, message: str, code: int = 1) -> None:
        """Stop the app on an error it cannot play on (a mission's condition that fails to evaluate):
        ``crewkit play`` prints ``message`` and exits with ``code``."""
        self.fatal_message = message
        self.exit(code, return_code=code)

    # ------------------------------------------------------------------ app-wide actions
    def action_logbook(self) -> None:
        from crewkit.tui.screens.logbook import LogbookScreen

        if isinstance(self.screen, LogbookScreen):
            return
        table = self.table()
        self.push_screen(LogbookScreen(table.logbook_ruleset() if table is self.screen and table else None))

    def action_help(self) -> None:
        """The help of the game at the table (else of the campaign's rule set), then the shell's topics."""
        from crewkit.errors import CrewkitError
        from crewkit.games import family_for
        from crewkit.tui.family import help_of
        from crewkit.tui.screens.help import HelpScreen, shell_help

        if isinstance(self.screen, HelpScreen):
            return
        table = self.table()
        ruleset = getattr(getattr(table, "session", None), "ruleset", None) or self.campaign.ruleset
        try:
            family_text = help_of(family_for(ruleset), remote=False)
        except CrewkitError:  # a rule set that cannot be read: its error is said where it is played
            family_text = ""
        self.push_screen(HelpScreen(shell_help(family_text)))

    def table(self) -> GameTableScreen | None:
        """The table being played (any family's)."""
        from crewkit.tui.screens.game_table import GameTableScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameTableScreen):
                return screen
        return None

    def _on_table(self, what: str) -> None:
        table = self.table()
        if table is None or self.screen is not table or what not in table.PALETTE_ACTIONS:
            self.notify("Only at the table, during a mission.", severity="warning")
            return
        getattr(table, f"action_{what}")()

    def _table_commands(self) -> Iterable[SystemCommand]:
        """The table's commands of the game's family (its terminal face's optional ``palette_entries``): those
        of the table in play, else of the campaign's rule set (they say they work at the table only)."""
        from crewkit.errors import CrewkitError
        from crewkit.tui.family import family_tui

        table = self.table()
        ruleset = getattr(getattr(table, "session", None), "ruleset", None) or self.campaign.ruleset
        try:
            entries = getattr(family_tui(ruleset), "palette_entries", None)
        except CrewkitError:  # a rule set that cannot be read, or a family with no table here: no table commands
            return
        for title, help_text, action in ([] if entries is None else entries(table)):
            yield SystemCommand(title, help_text, lambda action=action: self._on_table(action))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from self._table_commands()
        yield SystemCommand("Settings", "Communication windows, bot speed, the your-turn bell", self.action_settings)
        yield SystemCommand("Logbook", "Attempts per mission of the campaign", self.action_logbook)
        yield SystemCommand("Help", "Rules summary and keys", self.action_help)
        yield SystemCommand("Campaign", "Back to the list of missions", self.show_campaign)
        yield SystemCommand("Campaigns", "Choose another campaign (progress per campaign)", self.action_campaigns)
        yield SystemCommand("Compare variants", "Bot success of variants on the same deals", self.action_compare)
        yield from super().get_system_commands(screen)

    def action_compare(self) -> None:
        from crewkit.tui.screens.compare import CompareScreen

        if not isinstance(self.screen, CompareScreen):
            self.push_screen(CompareScreen())
