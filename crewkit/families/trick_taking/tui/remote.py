"""A seat at a hosted trick-taking table, drawn by the same table screen as ``crewkit play`` (``crewkit join``).

The table screen (:class:`~crewkit.families.trick_taking.tui.table.TableScreen`) reads a session: the local
:class:`~crewkit.families.trick_taking.tui.session.Session` holds the engine's game; :class:`RemoteSession` holds
only what the host sent this seat (its ``state`` messages: its observation, its log, who the table waits for) and
sends every action to the host, which checks it with the engine. Nothing here is a game with other hands: the
:class:`RemoteGame` and :class:`RemoteObservation` are read-only views of one seat's observation, shaped like
the engine's objects where the table's widgets read them, and the rules are compiled from the rule set and
mission the host names (public knowledge, as in ``crewkit play``). The seat's connection is the shell's
:class:`crewkit.tui.remote.HostSeat`; the shell opens this session through
:meth:`~crewkit.families.trick_taking.tui.terminal.TrickTakingTUI.remote_session`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from crewkit.cards import Card, Suit
from crewkit.engine.actions import Action, ActionFormatError, action_from_json
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.communication import Communicate, Signal
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
from crewkit.families.trick_taking.engine.blocks.tricks import trick_led_suit
from crewkit.families.trick_taking.engine.observation import OPTIONAL_TYPES, CommunicationInfo, TaskInfo
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.scoring import RoundResult
from crewkit.families.trick_taking.engine.state import Event, Trick
from crewkit.families.trick_taking.engine.taskcards import TaskCardInfo
from crewkit.net.client import TableClient
from crewkit.tui.remote import HUMAN, JARVIS, HostSeat, SeatNames

__all__ = ["JoinSetup", "RemoteGame", "RemoteObservation", "RemoteSession", "compile_rules", "log_events",
           "plain_log_words", "remote_setup"]


@dataclass(frozen=True)
class JoinSetup:
    """What the host's welcome says of the game: enough to compile its public rules (never its seed)."""

    ruleset: str
    mission: str
    players: int
    readings: dict[str, str]


def remote_setup(welcome: dict[str, Any]) -> tuple[JoinSetup | None, str]:
    """The game the welcome names, compiled-ready, or None with why the Textual table cannot draw it (the plain
    client then plays the seat)."""
    setup = welcome.get("setup")
    if welcome.get("family") != "trick-taking":
        return None, f"the Textual table of a hosted {welcome.get('title') or 'game'} is not built yet"
    if not isinstance(setup, dict) or not setup.get("mission"):
        return None, "the host does not say which mission it plays (a host of an older crewkit)"
    join = JoinSetup(str(setup["ruleset"]), str(setup["mission"]), int(setup["players"]),
                     {str(k): str(v) for k, v in (setup.get("readings") or {}).items()})
    try:
        compile_rules(join)
    except Exception as exc:  # a mission this crewkit does not have (a host's own campaign folder)
        return None, f"this crewkit cannot load {join.mission} of {join.ruleset} ({exc})"
    return join, ""


def compile_rules(setup: JoinSetup) -> Rules:
    """The game's rules (public), with every block's actions registered: the client reads the host's actions in
    their record form (a game opened here would register them; this client opens none)."""
    from crewkit.engine.registry import TRICK_TAKING, load_entry_points, load_family_blocks
    from crewkit.families.trick_taking.engine.setup import compile_game

    load_family_blocks(TRICK_TAKING)
    load_entry_points()
    return compile_game(setup.ruleset, setup.mission, setup.players, setup.readings)



def plain_log_words(welcome: dict[str, Any]) -> Callable[[list[str], list[str], int], list[str]] | None:
    """The plain client's words for the host's log lines (``Task revealed: pink 1``), as the table's log panel
    words them, with the players' names (``lines, names, seat``); None when this crewkit cannot compile the game
    the welcome names (the lines are then shown as the host wrote them)."""
    setup, _ = remote_setup(welcome)
    if setup is None:
        return None
    rules = compile_rules(setup)

    def words(lines: list[str], names: list[str], seat: int) -> list[str]:
        from crewkit.families.trick_taking.tui.log import event_text

        kinds = SeatNames(["remote"] * len(names), names)
        out = []
        for event in log_events(lines, rules):
            text = event_text(event, kinds, seat)  # None: not a line of the table's log either
            if text is not None:
                out.append(text.plain)
        return out

    return words

# ---------------------------------------------------------------------------- one seat's view
class RemoteObservation:
    """One seat's observation as the host sent it, with the attributes of the engine's
    :class:`~crewkit.families.trick_taking.engine.observation.Observation` the table reads. Only this seat's hand is known."""

    def __init__(self, data: dict[str, Any], rules: Rules, offered: list[dict[str, Any]] | None = None) -> None:
        """``data``: the observation; ``offered``: the state's ``legal`` (this seat's actions and JARVIS's for the
        commander), else the observation's own."""
        deck = rules.deck
        card = deck.card
        self.rules = rules
        self.deck = deck
        self.seat: int = int(data["seat"])
        self.phase: str = str(data["phase"])
        self.hand: tuple[Card, ...] = tuple(card(c) for c in data["hand"])
        self.hand_sizes: tuple[int, ...] = tuple(int(n) for n in data["hand_sizes"])
        self.players = len(self.hand_sizes)
        self.commander: int | None = data.get("commander")
        self.to_act: int | None = data.get("to_act")
        self.trick_number: int = int(data["trick_number"])
        self.total_tricks: int = int(data.get("total_tricks") or 0)
        self.current_trick: tuple[tuple[int, Card], ...] = tuple(
            (int(p["seat"]), card(p["card"])) for p in data["current_trick"])
        self.led_suit: Suit | None = trick_led_suit(self.current_trick, rules.special_lead)
        self.tricks: tuple[Trick, ...] = _tricks(data["tricks"], rules)
        self.tasks: tuple[TaskInfo, ...] = tuple(
            TaskInfo(card(t["card"]), t.get("token"), t.get("owner"), t.get("trick")) for t in data["tasks"])
        # the secret missions' card numbers (the Persian reading), for the ones this seat sees
        self.numbers: dict[int, int] = {card(t["card"]).id: int(t["number"]) for t in data["tasks"] if "number" in t}
        self.hidden_tasks: int = int(data.get("hidden_tasks") or 0)
        dummy = data.get("dummy")
        self.dummy_seat: int | None = None if dummy is None else int(dummy["seat"])
        self.dummy_up: tuple[Card, ...] = () if dummy is None else tuple(card(c) for c in dummy["face_up"])
        self.dummy_columns: tuple[tuple[Card | None, int], ...] = () if dummy is None else tuple(
            (None if col.get("up") is None else card(col["up"]), int(col["down"])) for col in dummy.get("columns", []))
        self.communications: tuple[CommunicationInfo, ...] = tuple(
            CommunicationInfo(int(c["seat"]), card(c["card"]), c.get("statement"), bool(c.get("played")))
            for c in data["communications"])
        self.distress_direction: str | None = data.get("distress")
        self.comm_used: tuple[int, ...] = tuple(int(n) for n in data.get("comm_used") or [0] * self.players)
        self.dead_zone = bool(data.get("dead_zone"))
        self.roles: tuple[tuple[str, int], ...] = tuple((str(r), int(s)) for r, s in data.get("roles") or [])
        self.hidden_missions_of_others = int(data.get("hidden_missions_of_others") or 0)
        self.outcome: str = str(data["outcome"])
        self.reason: str = str(data["reason"])
        self.task_cards: tuple[TaskCardInfo, ...] = task_cards_from_json(data.get("task_cards") or [], rules)
        match = data.get("match")
        self.match: MatchState | None = None if match is None else match_from_json(match, rules)
        self.dealer: int | None = None if match is None else match.get("dealer")
        self.match_mode: str | None = None if match is None else match.get("mode")
        self.conditions = tuple(rules.conditions)
        self.leader = self.current_trick[0][0] if self.current_trick else (self.to_act or 0)
        self.unreadable: list[str] = []  # the host's actions this client cannot read (the table says so)
        # every action the host offers this client, per seat it is for: its own, and JARVIS's for the commander
        self.offered: dict[int, tuple[Action, ...]] = {}
        for action in _actions(data["legal"] if offered is None else offered, rules, self.unreadable):
            self.offered[action.seat] = (*self.offered.get(action.seat, ()), action)
        self.legal: tuple[Action, ...] = self.offered.get(self.seat, ())

    def for_dummy(self) -> RemoteObservation:
        """JARVIS's view for its controller: its face-up cards as the hand, the actions offered for it."""
        view = copy.copy(self)
        assert self.dummy_seat is not None
        view.seat = self.dummy_seat
        view.hand = self.dummy_up
        view.legal = self.offered.get(self.dummy_seat, ())
        return view

    @property
    def required(self) -> tuple[Action, ...]:
        return tuple(a for a in self.legal if not isinstance(a, OPTIONAL_TYPES))

    @property
    def optional(self) -> tuple[Action, ...]:
        return tuple(a for a in self.legal if isinstance(a, OPTIONAL_TYPES))

    @property
    def last_trick(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None


def task_cards_from_json(raw: list[dict[str, Any]], rules: Rules) -> tuple[TaskCardInfo, ...]:
    """Mission Deep Sea's drawn task cards as this seat sees them (another seat's secret number is null): the
    text and whether its number is kept secret are printed on the card (the rule set's task deck)."""
    deck = rules.task_deck
    if deck is None:
        return ()
    out = []
    for item in raw:
        card = deck.card(str(item["id"]))
        secret = card.asks is not None and not card.asks.shown
        number = item.get("number")
        out.append(TaskCardInfo(card.id, card.text, item.get("owner"), None if number is None else int(number),
                                secret, bool(item.get("done"))))
    return tuple(out)


def _chips(values: list[Any]) -> list[Fraction]:
    return [Fraction(v).limit_denominator(1000) for v in values]


def _tricks(raw: list[dict[str, Any]], rules: Rules) -> tuple[Trick, ...]:
    card = rules.deck.card
    tricks = []
    for t in raw:
        plays = tuple((int(p["seat"]), card(p["card"])) for p in t["cards"])
        winning = next((c for s, c in plays if s == t["winner"]), plays[0][1])
        tricks.append(Trick(int(t["number"]), int(t["leader"]), plays, int(t["winner"]), winning,
                            trick_led_suit(plays, rules.special_lead)))
    return tuple(tricks)


def match_from_json(data: dict[str, Any], rules: Rules) -> MatchState:
    """Hammer's match (public: the observation's ``match``) as the engine's :class:`MatchState`, which the
    table's round panel, chip table and standings read."""
    scoring = rules.scoring
    mission = None if data.get("mission") is None or scoring is None else scoring.mission(str(data["mission"]))
    results = [RoundResult(int(r["round"]), int(r["dealer"]), str(r["mission"]), str(r["mode"]), str(r["result"]),
                           str(r["reason"]), tuple(_chips(r["deltas"])), tuple(_chips(r["chips"])), int(r["tricks"]))
               for r in data.get("results", [])]
    return MatchState(int(data["first_dealer"]), _chips(data["chips"]), int(data["round"]), mission, results,
                      [list(_tricks(ts, rules)) for ts in data.get("round_tricks", [])])


def _actions(raw: list[dict[str, Any]], rules: Rules, unreadable: list[str]) -> list[Action]:
    out = []
    for item in raw:
        try:
            out.append(action_from_json(item, rules.deck))
        except ActionFormatError as exc:  # not offered here, and said (a client older than its host)
            unreadable.append(str(exc))
    return out


@dataclass(frozen=True)
class RemoteOutcome:
    result: str
    reason: str


_LOG_SEAT = re.compile(r"^seat (\d+)\b ?")


def log_events(lines: list[str], rules: Rules) -> list[Event]:
    """The host's log lines (``kind [seat N] [card] [detail]``, the trick-taking family's words) as the events
    the table's log draws, so a remote table words its log as the local one does."""
    names = sorted({c.name for c in rules.deck.cards}, key=len, reverse=True)
    events = []
    for line in lines:
        kind, _, rest = line.partition(" ")
        seat = None
        found = _LOG_SEAT.match(rest)
        if found is not None:
            seat = int(found.group(1))
            rest = rest[found.end():]
        card = None
        for name in names:
            if rest == name or rest.startswith(name + " "):
                card = rules.deck.card(name)
                rest = rest[len(name):].lstrip()
                break
        events.append(Event(kind, seat, card, rest))
    return events


class RemoteGame:
    """The part of the engine's game the table reads, from one ``state`` message: this seat's observation and
    the table's public facts. Other seats' hands are not here (their sizes are)."""

    def __init__(self, state: dict[str, Any], rules: Rules) -> None:
        self.message = state  # the host's latest ``state`` message to this seat
        self.rules = rules
        self.seat: int = int(state["seat"])
        self.obs = RemoteObservation(state["observation"], rules, state.get("legal"))
        self.n = self.obs.players
        self.seed = ""  # the deal's seed stays on the host: it would tell every hand
        self.scoring = rules.scoring  # Hammer's mission cards and chip rules (public); None for other games
        self.mode: str | None = self.obs.match_mode  # Hammer: the mode the dealer chose this round
        self.questions: list[Any] = []
        self.events = log_events(state["log"], rules)
        self.actions = range(int(state["seq"]))  # how many actions the table applied (the bell's key)

    def is_over(self) -> bool:
        return bool(self.message["over"])

    def outcome(self) -> RemoteOutcome:
        out = self.message["outcome"]
        return RemoteOutcome(out["result"], self.obs.reason if self.message["over"] else out["words"])

    def observation(self, seat: int) -> RemoteObservation:
        """This seat's observation (the only one this client holds), or JARVIS's for the commander (its
        face-up cards and the actions offered for it: nothing more than this seat was sent)."""
        if seat == self.seat:
            return self.obs
        if seat == self.obs.dummy_seat and self.obs.commander == self.seat:
            return self.obs.for_dummy()
        raise IllegalAction("not-your-seat", "a hosted table's client holds its own seat's view only")

    @property
    def to_act(self) -> int | None:
        return self.obs.to_act

    @property
    def phase(self) -> str:
        return self.obs.phase

    @property
    def trick_number(self) -> int:
        return self.obs.trick_number

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return self.obs.tricks

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        return self.obs.current_trick

    @property
    def distress_direction(self) -> str | None:
        return self.obs.distress_direction

    @property
    def dummy_seat(self) -> int | None:
        return self.obs.dummy_seat

    @property
    def commander(self) -> int | None:
        return self.obs.commander

    @property
    def dealer(self) -> int | None:
        return self.obs.dealer

    def state_or_none(self, kind: type[Any]) -> Any:
        """Hammer's :class:`MatchState` from this seat's observation (the one block state a table reads)."""
        return self.obs.match if kind is MatchState else None

    def state(self, kind: type[Any]) -> Any:
        found = self.state_or_none(kind)
        if found is None:
            raise KeyError(f"no {kind.__name__} at this table")
        return found

    def hand(self, seat: int) -> list[Card]:
        return list(self.obs.hand) if seat == self.seat else []

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions offered for ``seat`` (this seat's own, or JARVIS's for the commander); all with None."""
        if seat is None:
            return [a for actions in self.obs.offered.values() for a in actions]
        return list(self.obs.offered.get(seat, ()))

    def optional_actions(self, seat: int) -> list[Action]:
        return [a for a in self.obs.offered.get(seat, ()) if isinstance(a, OPTIONAL_TYPES)]

    def in_communication_window(self) -> bool:
        """A communication window is open for this seat (the host says so: it waits for its answer), or it may
        still speak before its own lead."""
        return bool(self.message["window"]) or (bool(self.message["turn"]) and bool(self.obs.optional))


# ---------------------------------------------------------------------------- the session
class RemoteSession(HostSeat):
    """The table screen's session for one seat of a hosted table: fed by the host's messages, every action
    sent to the host (its refusal raised as :class:`IllegalAction` with the host's words)."""

    practice = False
    attempt = 1
    campaign = None
    base_seed = None
    hints = "allowed"
    hints_used = False

    def __init__(self, client: TableClient, setup: JoinSetup) -> None:
        super().__init__(client)
        self.setup = setup
        self.rules = compile_rules(setup)
        self.mission = setup.mission
        self.ruleset = setup.ruleset
        self.players = setup.players
        self.readings = dict(setup.readings)
        from crewkit.families.trick_taking.tui.session import game_title

        self.title = game_title(setup.ruleset, setup.mission) or str(client.welcome.get("title") or "")
        self.game: RemoteGame | None = None
        self.finished: Any = None
        self.warnings: list[str] = []
        self.continued: set[int] = set()
        self.distress_answered: set[int] = set()
        self._reseat: dict[int, int] | None = None
        if client.state is not None:
            self._take(client.state)

    # ------------------------------------------------------------------ the host's messages
    def _take(self, state: dict[str, Any]) -> None:
        before = self.game.dummy_seat if self.game is not None else None
        self.state = state
        self.game = RemoteGame(state, self.rules)
        self.seat = self.game.seat  # its number now (JARVIS seated elsewhere renumbers the seats)
        after = self.game.dummy_seat
        if before is not None and after is not None and after != before:
            from crewkit.families.trick_taking.engine.blocks.dummy import dummy_moved

            order = dummy_moved(self.game.n, before, after)
            self._reseat = {old: new for new, old in enumerate(order)}

    def apply(self, action: Action) -> None:
        """Send ``action`` to the host; raises IllegalAction with the host's words when it refuses."""
        self._submit(action)

    def pass_window(self) -> None:
        """Nothing to say in the open communication window (the host waits for every human's answer)."""
        self._submit(None)

    # ------------------------------------------------------------------ what the table reads
    @property
    def g(self) -> RemoteGame:
        assert self.game is not None
        return self.game

    @property
    def kinds(self) -> SeatNames:
        players = (self.state or {}).get("players", [])
        kinds = [HUMAN if i == self.seat else ("bot" if p.get("bot") or p["kind"] == "bot" else "remote")
                 for i, p in enumerate(players)]
        names = self.names
        dummy = self.game.dummy_seat if self.game is not None else None
        if dummy is not None and dummy < len(kinds):
            kinds[dummy] = JARVIS
        return SeatNames(kinds, names)

    @property
    def player_kinds(self) -> list[str]:
        return [k for k in self.kinds if k != JARVIS]

    @property
    def humans(self) -> list[int]:
        """The seats decided at this keyboard: this client's own."""
        return [self.seat]

    @property
    def hotseat(self) -> bool:
        return False

    def controller(self, seat: int) -> int:
        game = self.game
        if game is not None and seat == game.dummy_seat and game.commander is not None:
            return int(game.commander)
        return seat

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and self.controller(seat) == self.seat

    @property
    def dummy_seat(self) -> int | None:
        return self.game.dummy_seat if self.game is not None else None

    @property
    def variant(self) -> str:
        """``hammer`` (rounds and chips), ``secret`` (the Persian reading's secret missions) or ``crew``."""
        if self.rules.scoring is not None:
            return "hammer"
        return "secret" if self.rules.secret is not None else "crew"

    @property
    def signal_rules(self) -> bool:
        return getattr(self.rules, "comm_window", "") == "after-first-card"

    @property
    def uses_logbook(self) -> bool:
        return False

    @property
    def hints_allowed(self) -> str | None:
        """Why the hint key is refused: the expert bot would need the engine's view of this seat."""
        return HINT_REFUSED

    def display_events(self) -> list[Event]:
        return list(self.g.events)

    def take_reseat(self) -> dict[int, int] | None:
        """Once: how the seats were renumbered since the table last asked (JARVIS seated elsewhere at setup),
        else ``None`` (the one renumbering rule: :func:`~crewkit.families.trick_taking.engine.blocks.dummy.dummy_moved`)."""
        out, self._reseat = self._reseat, None
        return out

    def secret_numbers(self, seat: int) -> dict[int, int]:
        """Card id -> mission card number of the secret missions this seat sees (its own, the revealed ones)."""
        return dict(self.g.obs.numbers)

    def communications(self, seat: int) -> list[Communicate]:
        return [a for a in self.g.optional_actions(seat) if isinstance(a, Communicate)]

    def signals(self, seat: int) -> list[Signal]:
        return [a for a in self.g.optional_actions(seat) if isinstance(a, Signal)]

    def distress_actions(self, seat: int) -> list[Distress]:
        return [a for a in self.g.optional_actions(seat) if isinstance(a, Distress)]

    def received_card(self, seat: int) -> Card | None:
        for event in self.g.events:
            if event.kind == "pass" and event.card is not None and event.detail == f"to seat {seat}":
                return event.card
        return None

    def _why_not_now(self, seat: int, what: str) -> str:
        """Why ``seat`` has no such action now, from what this seat knows (the host's engine decides)."""
        obs = self.g.obs
        if self.g.is_over():
            return "the game is over"
        if not obs.hand:
            return "your hand is empty"
        if what == "communicate" and seat < len(obs.comm_used) and obs.comm_used[seat] >= self.rules.comm_per_player:
            return "you have used your communication"
        if not self.g.in_communication_window():
            return f"{what} only while the table waits for the crew's communications (before a trick's lead)"
        return f"none of your cards can be used to {what} now"

    def why_no_communication(self, seat: int) -> str:
        return self._why_not_now(seat, "communicate")

    def why_no_signal(self, seat: int) -> str:
        return self._why_not_now(seat, "signal")

    def why_no_distress(self, seat: int) -> str:
        if self.g.tricks or self.g.plays:
            return "the distress signal is called before trick 1 only"
        if self.g.distress_direction is not None:
            return "the distress signal has been sent"
        return self._why_not_now(seat, "call the distress signal")

    def why_no_take_back(self, seat: int) -> str | None:
        return ("the host keeps this table's game: every card played is final (a take-back is for a practice game "
                "played alone)")

    def hint(self, seat: int) -> Any:
        raise IllegalAction("no-hint", HINT_REFUSED)

    def finish(self) -> Any:
        from crewkit.families.trick_taking.tui.session import Finished
        from crewkit.tui.text import name_seats

        if self.finished is None:
            outcome = self.g.outcome()
            self.finished = Finished(outcome.result, name_seats(outcome.reason, self.kinds, self.seat), None, None,
                                     self.g.distress_direction is not None, logbook=False, logbook_note=HOSTED_LOGBOOK)
        return self.finished



HOSTED_LOGBOOK = ("The host keeps this game's record, and at a campaign's table counts it in the host's logbook; "
                  "this window keeps neither.")
HINT_REFUSED = ("no hint at a hosted table: the expert bot's hint reads the engine's view of your seat, and the "
                "engine runs on the host (this client holds your observation only)")
