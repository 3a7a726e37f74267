"""The one interface every consumer plays a game through: a game in play (:class:`GameInPlay`) and the family
that opens, replays and summarises it (:class:`Family`).

A family is one kind of game the engines run (trick-taking: The Crew and its variants, Hammer; ``not-alone``:
a board of places, one seat against the others). What is particular to a family lives in its package under
:mod:`crewkit.families`; this module names only what every family answers, so ``crewkit simulate``,
``compare``, ``check``, ``replay``, the validation of records, the bots' driver and the terminal app speak to
any family the same way. :mod:`crewkit.games` opens games and finds families by name (the only code that
reads a rule set's ``family:``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from crewkit.engine.actions import Action
from crewkit.errors import CrewkitError

if TYPE_CHECKING:
    from crewkit.spec.errors import SpecIssue
    from crewkit.spec.model import Mission, RuleSet

RECORD_FORMAT = "crewkit-record/1"  # every family's records (schemas/record.schema.json)

__all__ = [
    "RECORD_FORMAT",
    "AttemptReview",
    "Family",
    "CheckedCount",
    "CheckedDeal",
    "FamilyAnswers",
    "FamilyCheck",
    "FamilyReview",
    "FamilyWinnability",
    "FamilyWords",
    "EngineGame",
    "GameInPlay",
    "GameOutcome",
    "GameSummary",
    "LoggedAttempt",
    "NoReview",
    "ReplayError",
    "Replayed",
    "RulesetListing",
    "SeatPlayer",
    "TooManyTasks",
    "WinnabilityError",
]


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """How a game ended (or stands), in the family's own words.

    ``result`` is the record's ``outcome`` (``success``, ``failure`` or ``in-progress``): for a co-operative
    game the crew's result, for a game of sides the family's ``success`` side winning (Not Alone: the Hunted).
    ``winners`` are the seats that won (every seat when a crew succeeds); ``side`` names the winning side as
    a player reads it (``the crew``, ``the Hunted``, ``the Creature``; empty while the game goes on)."""

    result: str
    reason: str
    winners: tuple[int, ...] = ()
    side: str = ""

    @property
    def over(self) -> bool:
        return self.result != "in-progress"

    def words(self) -> str:
        """One sentence: who won and why, or why the game stands where it is."""
        if not self.over:
            return f"In progress: {self.reason}"
        if self.side:
            return f"{self.side[0].upper()}{self.side[1:]} won: {self.reason}"
        return f"{self.result.capitalize()}: {self.reason}"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game as ``simulate`` and ``compare`` count it, in the family's measure.

    ``success``: the family's success (a crew's mission; the Hunted's win); ``length``: what the family counts a
    game in (tricks, rounds; :attr:`FamilyWords.length`); ``score``: the per-game number compared between
    variants; ``fingerprint``: the deal as text (equal: the same shuffle); the chips, first dealer and modes of a
    competitive game in rounds (Hammer), else None / empty."""

    success: bool
    length: int
    reason: str
    score: float
    fingerprint: str = ""
    chips: tuple[float, ...] | None = None
    first_dealer: int | None = None
    modes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FamilyWords:
    """How reports name a family's results.

    ``length``: what a game's length counts (``tricks``, ``rounds``). ``sides``: for a game of two sides, the
    side whose win counts as success and the other (``("Hunted", "Creature")``); None for a crew playing
    together. ``lone``: the side with one seat (its count in ``players`` is 1), when there is one. ``score``: what
    :attr:`GameSummary.score` counts, as ``compare`` says it. ``windows``: whether its games open communication
    windows (:meth:`GameInPlay.window`), which a person may pass (the plain client then offers ``p``)."""

    length: str = "tricks"
    sides: tuple[str, str] | None = None
    lone: str | None = None
    score: str = "tasks done per deal; tricks played where the mission has no tasks"  # what a game's score counts
    windows: bool = False

    def players(self, players: int) -> str:
        """``4 players`` or ``4 players (1 Creature, 3 Hunted)``."""
        if self.sides is None or self.lone is None:
            return f"{players} players"
        other = next(s for s in self.sides if s != self.lone)
        return f"{players} players (1 {self.lone}, {players - 1} {other})"


@dataclass(frozen=True, slots=True)
class RulesetListing:
    """A rule set as ``crewkit list rulesets`` shows it: its player counts, what it plays (``campaign
    missions``, ``its own game (toy family)``) and the mission set it names (a folder of missions), if any."""

    players: tuple[int, ...]
    plays: str
    mission_set: str | None = None


@dataclass
class ReplayError:
    """Why a record could not be replayed to its end (``index``: the offending action, ``code``: the rule)."""

    message: str
    index: int | None = None
    seat: int | None = None
    code: str = "malformed"

    def __str__(self) -> str:
        if self.index is None:
            return self.message
        return f"action {self.index} (seat {self.seat}): {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "index": self.index, "seat": self.seat, "code": self.code}


def dummy_moved(n: int, old: int, where: int) -> list[int]:
    """The seats of ``n`` after a game's dummy seat (:attr:`GameInPlay.dummy_seat`) moved from ``old`` to
    ``where``: ``order[new seat] = old seat`` (the real players keep their clockwise order). The one renumbering
    rule: the trick-taking engine, the terminal table and the hosted table follow it."""
    order = [s for s in range(n) if s != old]
    order.insert(where, old)
    return order


@runtime_checkable
class GameInPlay(Protocol):
    """One game of any family, driven by actions.

    Seats are numbered from 0. An action is refused with :class:`~crewkit.engine.errors.IllegalAction` (its
    ``code`` names the rule) and a refused action leaves the game as it was."""

    @property
    def family(self) -> Family:
        """The family this game belongs to."""
        ...

    @property
    def seats(self) -> int:
        """How many seats act (a dummy seat of The Crew included: a bot plays it)."""
        ...

    @property
    def seed(self) -> str:
        ...

    @property
    def engine(self) -> Any:
        """The family's engine object (the family's own bots and table screens read it; consumers do not)."""
        ...

    @property
    def actions(self) -> Sequence[Action]:
        """The actions applied so far, in the record's order (secret choices once revealed)."""
        ...

    def waiting(self) -> tuple[int, ...]:
        """The seats whose action the game waits for (several during a simultaneous secret choice)."""
        ...

    @property
    def to_act(self) -> int | None:
        """The first seat of :meth:`waiting`; None when the game is over."""
        ...

    def window(self) -> tuple[int, ...]:
        """While seats may act out of turn (a communication window): every seat in the order they are offered
        the chance; () otherwise."""
        ...

    def may_act_out_of_turn(self, seat: int) -> bool:
        """Whether ``seat`` has an action it may take now although the game does not wait for it."""
        ...

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (required and optional)."""
        ...

    @property
    def dummy_seat(self) -> int | None:
        """A seat no player takes (The Crew's JARVIS), decided for by its :meth:`controller`; None in a game
        without one. It may move while the game is set up (the other seats keep their clockwise order:
        :func:`crewkit.families.trick_taking.engine.blocks.dummy.dummy_moved`)."""
        ...

    def controller(self, seat: int) -> int:
        """The seat whose player decides for ``seat`` (the commander for JARVIS); ``seat`` itself otherwise."""
        ...

    def apply(self, action: Action) -> None:
        """Carry out ``action`` or raise IllegalAction naming the rule it breaks (the game unchanged)."""
        ...

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now, as JSON-able data: never another seat's hidden cards."""
        ...

    def public_log(self) -> list[str]:
        """What happened, as every seat and a spectator may read it."""
        ...

    def seat_log(self, seat: int) -> list[str]:
        """What happened, as ``seat`` may read it (its own secrets included)."""
        ...

    def is_over(self) -> bool:
        ...

    def outcome(self) -> GameOutcome:
        ...

    def clone(self) -> GameInPlay:
        """An independent copy: actions applied to one do not change the other."""
        ...

    def record(self) -> dict[str, Any]:
        """The game's record (``crewkit-record/1``, schemas/record.schema.json): replaying it rebuilds the game."""
        ...


class EngineGame:
    """What a family's adapter of its engine game shares: the engine's seats, seed, record of actions, who it
    waits for, legal actions, apply and the end (a family adds its observation, log, outcome, clone, record)."""

    __slots__ = ("engine",)

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    @property
    def seats(self) -> int:
        seats: int = self.engine.n
        return seats

    @property
    def seed(self) -> str:
        return str(self.engine.seed)

    @property
    def actions(self) -> Sequence[Action]:
        actions: Sequence[Action] = self.engine.actions
        return actions

    @property
    def to_act(self) -> int | None:
        seat: int | None = self.engine.to_act
        return seat

    def legal_actions(self, seat: int) -> list[Action]:
        legal: list[Action] = self.engine.legal_actions(seat)
        return legal

    @property
    def dummy_seat(self) -> int | None:
        seat: int | None = getattr(self.engine, "dummy_seat", None)
        return seat

    def controller(self, seat: int) -> int:
        decide = getattr(self.engine, "controller", None)
        return seat if decide is None else int(decide(seat))

    def apply(self, action: Action) -> None:
        self.engine.apply(action)

    def is_over(self) -> bool:
        return bool(self.engine.is_over())


class SeatPlayer(Protocol):
    """A bot playing one seat, as the driver (:func:`crewkit.games.driver.play_out`) asks it; each family
    wraps its own bots in one (they decide from the seat's observation only)."""

    seat: int

    def act(self, game: GameInPlay) -> Action:
        """The seat's action when the game waits for it."""
        ...

    def offer(self, game: GameInPlay) -> Action | None:
        """An action out of turn while a window is open (a communication), or None to pass."""
        ...


@dataclass
class Replayed:
    """A record replayed: the game as far as it went (None when it could not even be set up) and why it
    stopped early (None: every action was legal)."""

    game: GameInPlay | None
    error: ReplayError | None


class NoReview(CrewkitError):
    """A game its family's review cannot judge (a Hammer match's rounds, scored in chips; a record whose start
    does not replay): the message says why (``crewkit review`` exits 1 with it)."""


class AttemptReview(Protocol):
    """A finished attempt's review (where it went wrong), as :class:`FamilyReview` gives it."""

    def to_json(self) -> dict[str, Any]:
        """As ``crewkit review --format json`` prints it (issue 44's contract: ``status``, ``turning_point``,
        ``positions``, ``reason``); a hosted table sends it to every seat."""
        ...

    def text(self) -> str:
        """As ``crewkit review`` prints it for people: the outcome, the turning point and a winning line."""
        ...


class FamilyReview(Protocol):
    """A family's review of a finished attempt (:meth:`Family.review`): the first action after which the game
    could no longer be won, and what would have won. Each entry raises :class:`NoReview` for a game it cannot
    judge; its screen at the terminal is the family's (``FamilyTUI.review_screen``,
    :func:`crewkit.tui.family.review_screen`)."""

    def of_record(self, record: Mapping[str, Any], final: GameInPlay, *, names: Sequence[str] | None,
                  timeout: float | None, max_nodes: int | None, total: float | None, blame: bool,
                  blame_worlds: int, only_round: int | None = None) -> AttemptReview:
        """``crewkit review``: the attempt of ``record``, replayed to ``final``, reviewed with the players'
        ``names``; ``timeout`` (seconds) and ``max_nodes`` bound the search per position, ``total`` the whole
        review; ``blame``: judge the turning point with its player's knowledge too, over ``blame_worlds``
        sampled worlds (seeded from the record: the same record gives the same figures); ``only_round``: of a
        match played in rounds, that round alone."""
        ...

    def of_game(self, game: GameInPlay, names: Sequence[str], first: AttemptReview | None = None) -> AttemptReview:
        """A game played to its end, reviewed with the players' ``names`` (a hosted table's, computed once by
        the host for every seat; it runs the search: call it in a thread). ``first``: the first answer
        :meth:`first_of_game` gave for this game, whose decided positions need not be searched again."""
        ...

    def first_of_game(self, game: GameInPlay, names: Sequence[str]) -> AttemptReview:
        """A first answer on the finished ``game`` on a small budget (about a second), provisional: a hosted
        table's host sends it to the seats before :meth:`of_game`'s final one, as the local screen shows its own
        first answer (it runs the search: call it in a thread)."""
        ...

    def text_of(self, record: Mapping[str, Any], names: Sequence[str], data: Mapping[str, Any]) -> str:
        """The review a hosted table's host sent (``data``: :meth:`AttemptReview.to_json`, with the game's
        ``record`` and the players' ``names``) in words, as ``crewkit review`` prints it (the plain client's)."""
        ...


class WinnabilityError(ValueError):
    """A mission shape :class:`FamilyWinnability` cannot deal as asked (its tasks not drafted, setup steps
    before the draft): the message says why (``crewkit winnability`` exits 2 with it)."""


class TooManyTasks(WinnabilityError):
    """More tasks (or a higher difficulty total) than the rule set's task cards hold."""


class FamilyWinnability(Protocol):
    """A family's winnable share of random deals (:meth:`Family.winnability`, ``crewkit winnability``): deal
    ``i`` of a mission's rules reshaped to ``k`` tasks (or a difficulty total ``k``), decided by its solver. The
    runner (:func:`crewkit.analysis.winnability.winnability`) hands :attr:`job` to its worker processes after
    :attr:`init`; both are plain functions of a module (a worker process imports them by name)."""

    def default_mission(self, ruleset: str) -> str:
        """The mission whose rules shape the deals of ``ruleset`` when none is named."""
        ...

    def shape(self, ruleset: str, mission: str, players: int, tasks: int,
              readings: Mapping[str, str] | None = None) -> str:
        """What ``tasks`` counts for this mission (``tasks``, or ``difficulty`` for task cards drawn by a
        difficulty total), checked: raises :class:`WinnabilityError` (:class:`TooManyTasks`) for a shape it
        cannot deal, and what compiling the rules raises (SpecError, SetupError)."""
        ...

    @property
    def init(self) -> Callable[[str, str, int, dict[str, str] | None, str, float], None]:
        """A worker's set-up: ``init(ruleset, mission, players, readings, seed, timeout)``."""
        ...

    @property
    def job(self) -> Callable[[tuple[int, int, str]], tuple[str, float]]:
        """One deal ``(tasks, i, draft)`` (``free`` or ``fixed`` owners) solved: the solver's status
        (``winnable``, ``unwinnable``, ``unknown``) and its seconds."""
        ...


@dataclass(frozen=True, slots=True)
class CheckedCount:
    """One player count of a mission as ``crewkit check`` sees it before a deal (:meth:`FamilyCheck.count`)."""

    roles: tuple[str, ...]  # the roles the mission binds (a role never bound is warned of)
    conditions: tuple[tuple[str, str, str], ...]  # (id, fail_if as written, done_if as written)
    impossible: str  # why no deal can be won, decided from the rules alone; "" if not decided


@dataclass(frozen=True, slots=True)
class CheckedDeal:
    """What one deal played by the bots did, for ``crewkit check`` (:meth:`FamilyCheck.played`)."""

    roles: tuple[str, ...]  # the roles bound
    #: per condition of :attr:`CheckedCount.conditions`, when traced: (checks, fail_if true, done_if true,
    #: the first evaluation errors)
    conditions: tuple[tuple[int, int, int, tuple[str, ...]], ...]
    choices: tuple[tuple[str, str], ...]  # the setup's decisions labelled (decision, what was chosen)


class FamilyCheck(Protocol):
    """A family's answers to ``crewkit check MISSION`` (:meth:`FamilyAnswers.check`): the sampling, the
    estimate and the report are :mod:`crewkit.analysis.check`'s; a worker process calls :meth:`played` and
    :meth:`solve_deal` on each deal it opens through :meth:`Family.open`."""

    @property
    def quiet_choices(self) -> frozenset[tuple[str, str]]:
        """Choice labels reported only where some deal chose otherwise."""
        ...

    def static_warnings(self, mission: Mapping[str, Any]) -> list[str]:
        """What the mission's data alone shows cannot all be met (the Crew's task tokens)."""
        ...

    def count(self, ruleset: str, mission: str, players: int) -> CheckedCount:
        """The mission at one player count (raises SetupError when it cannot be set up so)."""
        ...

    def played(self, game: GameInPlay, traced: bool) -> CheckedDeal:
        """A deal played to its end by the bots (``traced``: its conditions evaluated along it)."""
        ...

    def solve_deal(self, game: GameInPlay, max_nodes: int | None) -> tuple[str, str]:
        """The deal solved with every hand known within ``max_nodes``: (``winnable``, ``unwinnable`` or
        ``unknown``; for a deal lost before the first card, why in words)."""
        ...


@dataclass(frozen=True, slots=True)
class LoggedAttempt:
    """A finished attempt as a campaign's logbook counts it (:meth:`FamilyAnswers.logbook_attempt`)."""

    result: str  # success | failure
    reason: str
    distress_used: bool  # whether the crew used the distress signal (a won mission then counts one more try)


class Family(Protocol):
    """One family of games: opens them, replays their records, names their bots, summarises them."""

    name: str  # the rule sets' ``family:`` value
    title: str  # how reports name the family (``Not Alone``)
    words: FamilyWords
    needs_mission: bool  # whether a game names a mission (trick-taking) or is its rule set alone
    default_bot: str  # the bot ``simulate`` and ``compare`` use when none is named
    solvable: bool  # whether crewkit's solver decides its deals (compare's "winnable")
    action_types: frozenset[str]  # its records' action types beyond crewkit's own (the record schema's)
    #: ``module:attribute`` of its :class:`crewkit.tui.family.FamilyTUI` (its sessions and table screen at the
    #: terminal), imported by the app shell when a game of it is played; None: it offers no table there
    tui: str | None

    def rulesets(self) -> list[Path]:
        """The rule set files its own package ships, found by name as crewkit's are (``--ruleset toy``);
        crewkit's own families keep theirs in crewkit's ``rulesets/`` folder and return none here."""
        ...

    def ruleset_data(self, ref: str, readings: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
        """(name, resolved data) of one of its rule sets by name or path: ``extends:`` applied, the selected
        readings' options merged in, checked (a SpecError with positions, or a SetupError naming an unknown
        reading). ``crewkit diff``, ``crewkit list`` and docs/variants.md read rule sets through this."""
        ...

    def ruleset_issues(self, path: Path) -> list[SpecIssue]:
        """Every issue of one of its rule set files, positioned (``crewkit validate``; checked against the
        family's own schema)."""
        ...

    def listing(self, path: Path) -> RulesetListing:
        """One of its rule set files as ``crewkit list rulesets`` shows it (raises what reading it raises)."""
        ...

    def open(self, ruleset: str, mission: str | None, players: int, seed: str,
             readings: Mapping[str, str] | None = None, names: Sequence[str] | None = None) -> GameInPlay:
        """A new game (raises SetupError or SpecError, with positions, for what cannot be set up)."""
        ...

    def replay(self, record: Mapping[str, Any], names: Sequence[str] | None = None) -> Replayed:
        """Rebuild a game from its record, applying its actions in order; the first refused one stops it.
        ``names``: the players' names, for a family whose log names them (a record keeps none)."""
        ...

    def replay_text(self, replayed: Replayed) -> str:
        """A replayed game for people (``crewkit replay``)."""
        ...

    def replay_json(self, replayed: Replayed) -> dict[str, Any]:
        """A replayed game as data (``crewkit replay --format json``)."""
        ...

    def bot_names(self) -> list[str]:
        ...

    def bot_spec(self, spec: str | None, sides: Mapping[str, str | None] | None = None) -> str:
        """The bot spec a run uses (the default when None; ``sides`` overrides a side's bot, by side name in
        lower case), checked: an unknown bot raises a CrewkitError listing the names."""
        ...

    def seat_players(self, game: GameInPlay, spec: str, seed: str) -> list[SeatPlayer]:
        """One bot per seat from a bot spec, seeded by ``seed`` (each bot adds its seat)."""
        ...

    def summary(self, game: GameInPlay) -> GameSummary:
        """A finished game counted for ``simulate`` and ``compare``."""
        ...

    def solve(self, game: GameInPlay, timeout: float | None, max_nodes: int | None) -> tuple[str | None, int]:
        """Whether the deal can be won with every hand known (the solver's status and the nodes it searched);
        (None, 0) for a family without a solver (:attr:`solvable` False). A solvable family may also answer
        ``solve_report(game, *, timeout, max_nodes, names, as_json) -> str``, what ``crewkit solve`` prints of a
        position (:func:`crewkit.games.solve_report_of`; not declared here, so a family without a solver need
        not write it)."""
        ...

    def bots_json(self, spec: str) -> dict[str, str] | None:
        """The bot of each side of a bot spec, for reports (None for a crew)."""
        ...

    def mission_specs(self, ruleset: str, mission: str, players: int,
                      readings: Mapping[str, str] | None = None) -> tuple[RuleSet, Mission]:
        """A family whose games name a mission (:attr:`needs_mission`): the rule set and the mission as a game
        of ``players`` would be set up with them, checked (SpecError, SetupError), for a briefing; others raise
        SetupError."""
        ...


class FamilyAnswers(Family, Protocol):
    """The optional answers of a family, beside :class:`Family`'s required ones. A family writes those it has
    (crewkit's own write them all); the faces ask through :mod:`crewkit.games` (``review_of``, ``check_of``,
    ...), which treat one that is missing as "none", so a family package without them still answers
    :class:`Family` for a type checker. A solvable family may also answer ``solve_report``
    (:meth:`Family.solve`)."""

    def logbook_extra_attempts(self, ruleset: str) -> int:
        """What a campaign's logbook adds to a mission won under ``ruleset`` with the distress signal used (its
        rule set's ``distress.extra_attempts``). Optional: a family without it adds none
        (:func:`crewkit.games.logbook_extra_attempts`)."""
        ...

    def logbook_attempt(self, game: GameInPlay) -> LoggedAttempt | None:
        """A finished attempt of ``game`` as the host's logbook counts it at a campaign's hosted table, or None:
        it does not count (a Hammer match). Optional: a family without it counts none
        (:func:`crewkit.games.logbook_attempt`)."""
        ...

    def review(self) -> FamilyReview | None:
        """Its review of a finished attempt (``crewkit review``, the logbook's attempts, a hosted table's seats
        after the end), or None: its games have none (Not Alone: no solver searches them). Optional: a family
        without it has none (:func:`crewkit.games.review_of`)."""
        ...

    def winnability(self) -> FamilyWinnability | None:
        """Its winnable share of random deals (``crewkit winnability``), or None: no solver decides its deals
        (Not Alone). Optional: a family without it has none (:func:`crewkit.games.winnability_of`)."""
        ...

    def check(self) -> FamilyCheck | None:
        """Its answers to ``crewkit check MISSION``, or None: its games have no missions to check. Optional: a
        family without it has none (:func:`crewkit.games.check_of`)."""
        ...
