"""What the app shell asks of a family to play it at the terminal: its :class:`FamilyTUI`, named by the family's
:attr:`crewkit.games.protocol.Family.tui` (``module:attribute``; None: the family offers no table there).

The shell (chooser, campaigns, briefings, logbook, saves and resume, settings, help) imports no family: it asks
the family of a rule set for its sessions and its table screen here, so a family installed as a package (the
``crewkit.families`` entry points) plays in the shell with no edit of crewkit. No Textual here: a family's table
screen is a :class:`crewkit.tui.screens.game_table.GameTableScreen`, imported when the family's answer is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from crewkit.errors import CrewkitError, UsageError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from textual.screen import Screen

    from crewkit.games.protocol import GameInPlay
    from crewkit.net.client import TableClient
    from crewkit.tui.options import PlayOptions
    from crewkit.tui.remote import HostSeat
    from crewkit.tui.screens.game_table import GameTableScreen
    from crewkit.tui.services import Services

__all__ = ["FamilyTUI", "GameSession", "MissionStart", "family_briefing", "family_tui", "help_of", "plain_log_words", "review_screen",
           "terminal_of"]

#: the help of a family whose terminal face has none: the keys the shell gives every table
NO_HELP = """\
[b]Keys[/]
  ?  help      ctrl+p  the table's commands      q  quit (at a hosted table: leave; join again with your link)
  The table's own keys are in its footer.
"""


@dataclass
class MissionStart:
    """An attempt of a campaign's mission as the shell chose it (a family whose games name a mission)."""

    mission: str  # the logbook's key
    ruleset: str
    players: int
    kinds: list[str]  # per player: ``human`` or a bot's name
    campaign: str | None
    ref: str  # what the loader opens
    base_seed: str | None = None
    readings: dict[str, str] = field(default_factory=dict)
    version: str = ""
    title: str | None = None
    practice: bool = False
    hints: str = "allowed"


class GameSession(Protocol):
    """A table's game as the shell handles it: its rule set, the game in play, and the attempt saved."""

    ruleset: str

    @property
    def game(self) -> Any:
        """The game in play (None before it is dealt)."""
        ...

    def saved_record(self) -> dict[str, Any] | None:
        """The unfinished game saved at this table, offered to resume (None: nothing saved)."""
        ...

    def resume(self, record: dict[str, Any]) -> str | None:
        """Go on from a saved game; why it cannot (the table then starts a new game), else None."""
        ...

    def discard_saved(self) -> None:
        ...


class FamilyTUI(Protocol):
    """A family at the terminal: opens sessions and gives its table screen. Optional: ``log_words(welcome)``,
    how the plain client (``crewkit join --plain``) words the host's log lines of the game a welcome names
    (:func:`plain_log_words`); a family without it has its log lines shown as the host wrote them. Optional:
    ``review_screen(game)``, the screen of the review of a finished ``game`` (a
    :class:`crewkit.games.protocol.GameInPlay` of a family with a review, :meth:`Family.review`), as the
    logbook's attempts open it (:func:`review_screen`). Optional: ``help_text(remote)``, the table's keys and the
    game's rules in short (Rich markup; ``remote``: a seat's keys at a hosted table), which the shell's help and a
    joined seat's show (:func:`help_of`; a family without it gets words that say only the keys every table has).
    A family whose games name a mission may also answer ``briefing_lines(rs, spec, kinds, *, shown_id,
    mission_set, entry, fixed_readings)``, the mission's briefing in Rich markup (the briefing screen,
    :func:`family_briefing`; without it: the mission's title and description), ``mission_words(table)``, the same
    as plain lines for ``crewkit show mission --words`` (:func:`crewkit.tui.briefings.mission_words`), and any
    family ``docs_sections()``, its part of ``docs/missions.md`` as Markdown lines, and ``palette_entries(table)``,
    its table's commands in the shell's command palette as (title, what it does, the table's action: one of its
    ``PALETTE_ACTIONS``), for the table in play or None (the campaign's screens: they say they work at the table)."""

    def session(self, ruleset: str, options: PlayOptions, services: Services) -> GameSession:
        """A table of a game of its own (a family without missions) as ``crewkit play`` asked for it (raises
        UsageError or SetupError); a saved game there is offered by the shell first (``abandon(saved)``:
        counted as abandoned when the player declines it)."""
        ...

    def mission_session(self, start: MissionStart, services: Services) -> GameSession:
        """An attempt of a mission (a family whose games name one; others raise UsageError)."""
        ...

    def table(self, session: GameSession | HostSeat, delay: float) -> GameTableScreen:
        """The family's table screen for ``session`` (``delay``: seconds per bot move), a local game's or a seat's
        joined to a hosted table (:meth:`remote_session`)."""
        ...

    def remote_session(self, client: TableClient) -> tuple[Callable[[], HostSeat] | None, str]:
        """A seat joined to a hosted table of this family (``crewkit join``): how to open its session from the
        host's welcome (once the first ``state`` came), or None with why the plain client plays it. Its
        :meth:`table` draws that session too."""
        ...

    def make_bot(self, name: str, seat: int, seed: str) -> Any:
        """A mission family's bot for one seat of its table, by name (the shell's default
        ``Services.bot_factory``); others raise UsageError."""
        ...


def family_tui(ruleset: str) -> FamilyTUI:
    """The terminal answer of the family of ``ruleset`` (its module imported now); a UsageError naming the family
    when it has none, a CrewkitError when it cannot be loaded."""
    from crewkit.games import family_for

    return terminal_of(family_for(ruleset), f"rule set {ruleset!r} is a game of the")


def terminal_of(family: Any, what: str = "") -> FamilyTUI:
    """The terminal answer of ``family`` (a :class:`crewkit.games.protocol.Family`)."""
    import importlib

    target = getattr(family, "tui", None)
    if not target:
        raise UsageError(f"{what or 'it is a game of the'} {family.name} family, which offers no table at the "
                         "terminal (crewkit simulate, compare and replay run it)")
    module, _, attribute = str(target).partition(":")
    try:
        found: FamilyTUI = getattr(importlib.import_module(module), attribute or "TERMINAL")
    except (ImportError, AttributeError) as exc:
        raise CrewkitError(f"the {family.name} family's table ({target}) cannot be loaded: {exc}") from None
    return found


def plain_log_words(welcome: dict[str, Any]) -> Callable[[list[str], list[str], int], list[str]] | None:
    """How the plain client words the host's log lines (``lines, names, seat``) of the game ``welcome`` names:
    its family's ``log_words``, or None (the lines as the host wrote them: a family without words of its own,
    with no table at the terminal, or not installed here)."""
    from crewkit.games import TRICK_TAKING, family_named

    try:
        face = terminal_of(family_named(str(welcome.get("family") or TRICK_TAKING)))
    except CrewkitError:
        return None
    log_words = getattr(face, "log_words", None)
    if log_words is None:
        return None
    words: Callable[[list[str], list[str], int], list[str]] | None = log_words(welcome)
    return words


def family_briefing(ruleset: str, rs: Any, spec: Any, kinds: Sequence[str], **where: Any) -> list[str]:
    """The briefing of a mission of ``ruleset`` (its loaded rule set ``rs`` and mission ``spec``) at a table of
    ``kinds``, in Rich markup: its family's ``briefing_lines``, else the mission's title and description."""
    from crewkit.tui.safe import shown

    words = getattr(family_tui(ruleset), "briefing_lines", None)
    if words is not None:
        found: list[str] = words(rs, spec, kinds, **where)
        return found
    data = spec.data
    return [f"[b]{shown(str(data.get('title') or where.get('shown_id') or ''))}[/]", "",
            shown(" ".join(str(data.get("description") or "").split()))]


def help_of(family: Any, remote: bool) -> str:
    """The help of ``family``'s table (a :class:`crewkit.games.protocol.Family`): its terminal face's
    ``help_text(remote)``, else :data:`NO_HELP`."""
    try:
        face = terminal_of(family)
    except CrewkitError:
        return NO_HELP
    answer = getattr(face, "help_text", None)
    return NO_HELP if answer is None else str(answer(remote))


def review_screen(game: GameInPlay) -> tuple[Screen[None] | None, str]:
    """(the review screen of the finished ``game``, "") from its family's terminal answer, or (None, why there
    is none) in words: a family without a review, without a table at the terminal, or whose table has no
    review screen (``crewkit review`` gives the review)."""
    from crewkit.games import review_of

    family = game.family
    if review_of(family) is None:
        return None, f"A game of {family.title} has no review (the review uses the trick-taking solver)."
    try:
        face = terminal_of(family)
    except CrewkitError as exc:
        return None, f"{exc}."
    opens = getattr(face, "review_screen", None)
    if opens is None:
        return None, f"A game of {family.title} has no review screen here: `crewkit review` gives its review."
    screen: Screen[None] = opens(game)
    return screen, ""
