"""A seat of Not Alone at a hosted table (``crewkit join``), drawn by the same table screen as ``crewkit play``.

:class:`~crewkit.families.not_alone.tui.table.HuntTableScreen` reads a session: the local
:class:`~crewkit.families.not_alone.tui.session.HuntSession` holds the game; :class:`RemoteHuntSession` holds
only what the host sent this seat (its observation, its legal actions, who the table waits for) and sends every
choice to the host, which checks it with the engine. A secret choice (the Hunted's place cards, face down)
reaches nobody before every seat has chosen: the host's observations say so, this client never has more. The
printed cards and board come from the rule set the host names (public, as in ``crewkit play``).
"""

from __future__ import annotations

from typing import Any

from crewkit.engine.actions import Action, ActionFormatError, action_from_json
from crewkit.engine.errors import IllegalAction
from crewkit.families.not_alone.family import FAMILY
from crewkit.families.not_alone.observation import BoardObservation, board_observation_from_json
from crewkit.families.not_alone.tui.session import HuntFinished
from crewkit.families.not_alone.tui.text import Catalog
from crewkit.net.client import TableClient
from crewkit.tui.remote import HOST_DECIDES, HostSeat

__all__ = ["RemoteHuntSession", "hunt_setup"]


def hunt_setup(welcome: dict[str, Any]) -> tuple[tuple[str, int, dict[str, str]] | None, str]:
    """(rule set, players, readings) of a hosted Not Alone table from its welcome, or None and why not."""
    setup = welcome.get("setup")
    if not isinstance(setup, dict):
        return None, "the host does not say which rule set it plays (a host of an older crewkit)"
    ruleset, players = str(setup["ruleset"]), int(setup["players"])
    readings = {str(k): str(v) for k, v in (setup.get("readings") or {}).items()}
    try:
        FAMILY.ruleset(ruleset, readings)
    except Exception as exc:  # a rule set this crewkit does not have (a host's own file)
        return None, f"this crewkit cannot load the rule set {ruleset} ({exc})"
    return (ruleset, players, readings), ""


class RemoteHuntSession(HostSeat):
    """The Not Alone table's session for one seat of a hosted table (the interface of
    :class:`~crewkit.families.not_alone.tui.session.HuntSession` the table reads)."""

    hotseat = False
    game = None  # the game stays on the host: this client holds one seat's observation

    def __init__(self, client: TableClient, ruleset: str, players: int, readings: dict[str, str]) -> None:
        super().__init__(client)
        self.ruleset = ruleset
        self.players = players
        self.readings = dict(readings)
        self.catalog = Catalog.of_ruleset(FAMILY.ruleset(ruleset, readings))
        self.obs: BoardObservation | None = None
        self.legal: tuple[Action, ...] = ()
        self.unreadable: list[str] = []  # the host's actions this client cannot read (the table says so)
        self.finished: HuntFinished | None = None
        if client.state is not None:
            self._take(client.state)

    def _take(self, state: dict[str, Any]) -> None:
        self.state = state
        self.seat = int(state["seat"])
        self.obs = board_observation_from_json(state["observation"])
        legal = []
        self.unreadable = []
        for raw in state["legal"]:
            try:
                legal.append(action_from_json(raw, None))
            except ActionFormatError as exc:  # never silently fewer choices than the host offers
                self.unreadable.append(str(exc))
        self.legal = tuple(legal)

    # ------------------------------------------------------------------ what the table reads
    @property
    def humans(self) -> list[int]:
        """The seat decided at this keyboard: this client's own."""
        return [self.seat]

    def is_human(self, seat: int) -> bool:
        return seat == self.seat

    def observation(self, seat: int) -> BoardObservation:
        if seat != self.seat or self.obs is None:
            raise IllegalAction("not-your-seat", "a hosted table's client holds its own seat's view only")
        return self.obs

    def waiting(self) -> tuple[int, ...]:
        return self.obs.waiting if self.obs is not None else ()

    def is_over(self) -> bool:
        return bool((self.state or {}).get("over"))

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self.legal) if seat == self.seat else []

    def bot_seat(self) -> int | None:
        """The host plays the bots."""
        return None

    def human_seat(self) -> int | None:
        """This seat, when the host waits for its choice (and none of its choices is still on its way)."""
        state = self.state or {}
        if self.lost or self.reconnecting or self.sending or not state.get("turn") or self.is_over():
            return None
        obs = self.obs
        return self.seat if self.legal or (obs is not None and obs.question is not None) else None

    def apply(self, action: Action) -> None:
        """Send ``action`` to the host (its refusal comes back in the host's words, on the status line)."""
        self._submit(action)

    def bot_move(self, seat: int) -> Action:
        raise IllegalAction("not-your-seat", "the host plays the bots of a hosted table")

    def finish(self) -> HuntFinished:
        """The host wrote the game's record; this seat has the result in words."""
        if self.finished is None:
            outcome = (self.state or {}).get("outcome") or {}
            self.finished = HuntFinished(str(outcome.get("words") or ""), None, [])
        return self.finished

    def new_game(self, seed: str) -> None:
        raise IllegalAction("host-decides", HOST_DECIDES)

    def next_seed(self) -> str:
        return ""
