"""The typed spec model: resolved rule sets, missions and campaigns.

``data`` holds the resolved, schema-checked document (plain dicts and lists), for the faces that show it. A
mission's parts the engine reads are typed fields, built by the loader (:func:`crewkit.spec.loader.load_mission`):
its tasks, symbols, conditions and scoring, every DSL text already parsed and checked (:class:`Dsl`, from the
table of :mod:`crewkit.spec.dslsites`). The engine compiles these once into fast objects
(``crewkit.families.trick_taking.engine.rules``) and parses nothing itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.cards import Deck
from crewkit.spec.deck import DealError, DealPlan, deal_plan


@dataclass(frozen=True, slots=True)
class DummyRules:
    """A dummy seat played by the commander (JARVIS): ``columns`` stacks of face-down cards under face-up ones."""

    columns: int = 7
    face_down: int = 1
    face_up: int = 1
    seat_choice: str = "fixed"  # players | commander | fixed
    reveal: str = "after-trick"  # after-trick | immediately
    communicates: bool = False
    passes_in_distress: bool = False
    answers: str = "commander"  # commander (answers the commander's questions for the dummy) | not-asked
    choosable: bool = True  # may a choose step pick the dummy for a role (sick, volunteer, silenced, ...)
    draws: str = "face-up"  # draw_from_neighbour: face-up | any-card | skipped

    @property
    def cards(self) -> int:
        return self.columns * (self.face_down + self.face_up)


@dataclass(frozen=True, slots=True)
class FreeCardRule:
    """``play.free_cards[i]``: a card playable at any time, except in the listed tricks."""

    card: str
    not_in_tricks: tuple[str, ...] = ()  # first | last


@dataclass(frozen=True, slots=True)
class PlayRules:
    must_follow: bool = True
    free_cards: tuple[FreeCardRule, ...] = ()
    trick_winner: tuple[str, ...] = ("special", "trump", "led")
    special_lead: str = "next-card"


@dataclass(frozen=True, slots=True)
class SecretRules:
    """``tasks.secret``: secret mission cards dealt to the players (Persian reading)."""

    missions: str | None = None  # the folder of mission cards
    level: int = 1
    per_player: int = 1
    set_aside_needed: str = "play-on"  # play-on | fail-at-once | redeal
    reveal_when_done: bool = True


@dataclass(frozen=True, slots=True)
class TaskRules:
    suits: tuple[str, ...] = ()  # suits that have task cards
    include: tuple[str, ...] = ()  # further cards with a task card
    assignment: str = "draft"
    tokens: tuple[str, ...] = ()  # the task tokens the rule set has
    gold_frame_players: tuple[int, ...] = (5,)
    draft_start: str = "first-leader"
    order: str | None = None  # by-number: secret missions in number order
    secret: SecretRules | None = None  # only with ``assignment: secret-deal``
    deck: str | None = None  # a deck of task cards with objectives (Mission Deep Sea): a bundled name or a path
    passing: str = "never"  # never | fewer-tasks-than-players: a seat may pass in the draft
    # a player a drawn card bars (its may_take_if) who would have to take every card by volunteering:
    # passed-over (not asked) | mission-fails (asked; forced to say yes, the mission is lost before play)
    volunteer_barred: str = "passed-over"
    # hardest_first when the first chooser may take none of the most difficult cards:
    # redraw (at the deal, by a card of the same difficulty) | hardest-allowed (the most difficult it may take)
    hardest_barred: str = "redraw"


@dataclass(frozen=True, slots=True)
class CommanderRules:
    holder_of: str | None = None
    dealer: bool = False
    otherwise: str | None = None  # ``else``: lowest | highest
    lowest_secret_task: bool = False
    highest_secret_task: bool = False
    secret_task_number: int = 1


@dataclass(frozen=True, slots=True)
class CommunicationRules:
    enabled: bool = False
    per_player: int = 1
    window: str = "between-tricks"
    statements: tuple[str, ...] = ("top", "bottom", "only")
    excluded_suits: tuple[str, ...] = ()
    singleton: str = "only"
    per_trick: int | None = None
    who: str = "all"
    must_win_same_trick: bool = False
    modes: tuple[CommunicationMode, ...] = ()  # named sets of changes a mission picks (``mode``, ``drawn_mode``)


@dataclass(frozen=True, slots=True)
class CommunicationMode:
    """``communication.modes.NAME``: how a mission may change communication (Mission Deep Sea's currents,
    rapture of the deep, silence); None leaves the rule set's own value."""

    name: str
    enabled: bool | None = None
    dead_zone: bool | None = None
    shared_fewer_than_players: int | None = None  # the crew shares this many tokens fewer than it has seats


@dataclass(frozen=True, slots=True)
class DistressRules:
    enabled: bool = False
    directions: tuple[str, ...] = ("left", "right")
    excluded_suits: tuple[str, ...] = ()
    extra_attempts: int = 1


@dataclass(frozen=True, slots=True)
class RoundsRules:
    """``rounds`` and ``scoring`` of a competitive rule set (Hammer)."""

    count: int = 1
    dealer_start: str = "random"
    dealer_rotation: str = "left"
    chips_start: int = 0
    modes: tuple[str, ...] = ("penalty",)
    challenge_adds: str | None = None
    settle_early: bool = True
    hidden_payment: str = "adds"
    others_score_in_challenge: bool = False
    base_paid_by: str = "bank"
    cannot_pay: str = "go-negative"
    missions: str | None = None  # the folder of mission cards the dealer chooses from


@dataclass(frozen=True)
class RuleSet:
    """A resolved rule set; the typed fields are what the engine reads (built by
    :func:`crewkit.spec.loader.ruleset_model`), ``data`` the document for the faces that show it."""

    name: str
    path: Path
    data: Mapping[str, Any]
    readings: Mapping[str, str] = field(default_factory=dict)  # selections applied on top of the file's choices
    deck: Deck | None = None
    player_counts: tuple[int, ...] = ()
    hold_out: str | None = None  # a card kept out of the dummy's, shuffled back before the players' deal
    undealt: tuple[str, ...] = ()  # cards never dealt
    commander: CommanderRules = CommanderRules()
    first_leader: str = "commander"  # commander | dealer | holder (of first_leader_card)
    first_leader_card: str | None = None
    play: PlayRules = PlayRules()
    tasks: TaskRules = TaskRules()
    communication: CommunicationRules = CommunicationRules()
    distress: DistressRules = DistressRules()
    dummy: DummyRules | None = None
    rounds: RoundsRules | None = None  # a competitive rule set (``rounds:`` or ``scoring:``)
    flow: tuple[str, ...] = ()  # ``flow:`` as written (empty: the default)
    blocks: tuple[str, ...] = ()
    in_force: tuple[tuple[str, str], ...] = ()  # its readings in force: (id, choice)

    @property
    def players(self) -> list[int]:
        return list(self.data.get("players", []))

    def deal_plan(self, players: int) -> DealPlan:
        """Where the cards go at ``players``; :class:`crewkit.spec.deck.DealError` when they cannot."""
        if self.deck is None:
            raise DealError("the rule set has no deck", ("deck",))
        return deal_plan(self.data, players, self.deck)


@dataclass(frozen=True, slots=True)
class Dsl:
    """One DSL text of a spec, parsed and checked by the spec layer (once): what the engine compiles."""

    text: str
    path: tuple[str | int, ...]  # where it stands in the file, e.g. ("conditions", 2, "fail_if")
    expr: Any  # a crewkit.dsl Expr; for a template (a condition's reason) the tuple of its parts


@dataclass(frozen=True, slots=True)
class ConditionSpec:
    """A mission condition (``conditions[i]``)."""

    id: str  # as written, or condition-N
    fail_if: Dsl | None
    done_if: Dsl | None
    reason: Dsl  # a template; when the file gives none, "condition ID broken"
    check: str  # after-trick | after-play
    text: str = ""  # the author's words for players (``text:``); empty: crewkit words the expressions


@dataclass(frozen=True, slots=True)
class CardRestriction:
    """A free card barred from some tricks (``scoring.challenge.free_card_restrictions[i]``)."""

    card: str
    not_in_tricks: tuple[str, ...]  # first | last


@dataclass(frozen=True, slots=True)
class MissionScoring:
    """A competitive mission card's ``scoring`` block (Hammer): formulas per mode and their payments."""

    penalty_score: Dsl | None = None
    penalty_settled: Dsl | None = None
    hidden_if: Dsl | None = None
    hidden_payment: int = 0
    challenge_success: Dsl | None = None
    challenge_fail: Dsl | None = None
    success_payment: int = 0
    failure_payment: int = 0
    free_card_restrictions: tuple[CardRestriction, ...] = ()


@dataclass(frozen=True, slots=True)
class MissionTasks:
    """A mission's ``tasks`` block."""

    count: int = 0
    fixed: tuple[str, ...] = ()  # card names
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MissionSymbols:
    """A mission's ``symbols`` block."""

    dead_zone: bool = False
    disruption: int | None = None  # communication only from just before this trick
    gold_frame: bool = False
    commander_decision: bool = False  # every task to one player the commander chooses
    commander_distribution: bool = False  # the commander gives the tasks out one by one


@dataclass(frozen=True, slots=True)
class SetupStep:
    """One step of a mission's ``setup`` list, typed (``choose_roles`` gives one ``choose`` step per role).

    ``kind``: ``ask`` (question, answers, who, id), ``choose`` (role, by, exclude), ``holder-role`` (role,
    card, offset), ``swap-tokens`` / ``move-token`` (optional); the engine adds ``decision``, ``distribution``
    and ``dummy-seat`` steps from the symbols and the rule set
    (:mod:`crewkit.families.trick_taking.engine.steps`)."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Draw:
    """A ``draw_from_neighbour`` trigger: after trick ``after_trick`` each seat draws from its ``source``."""

    after_trick: int
    source: str  # left | right


@dataclass(frozen=True)
class Mission:
    id: str  # canonical: planet-nine/03, or the file path for user files
    number: int | None
    title: str
    path: Path
    data: Mapping[str, Any]
    readings: Mapping[str, str] = field(default_factory=dict)
    # the typed parts the engine reads (built by the loader from ``data``, readings applied)
    player_counts: tuple[int, ...] = ()  # the mission's own ``players``; empty: its rule set's
    tasks: MissionTasks = MissionTasks()
    symbols: MissionSymbols = MissionSymbols()
    conditions: tuple[ConditionSpec, ...] = ()
    scoring: MissionScoring | None = None
    roles: tuple[str, ...] = ()  # every role its setup steps bind (the names its conditions may use)
    barred_roles: tuple[str, ...] = ()  # communication.barred_roles: roles that may not communicate
    in_force: tuple[tuple[str, str], ...] = ()  # the mission's readings in force: (id, choice)
    level: int = 1  # a secret mission card's level (Persian reading)
    setup: tuple[SetupStep, ...] = ()  # its ``setup`` steps in order (``draw_from_neighbour`` is in ``draws``)
    draws: tuple[Draw, ...] = ()
    unsupported: Mapping[str, str] = field(default_factory=dict)  # rule set name -> why it cannot play this
    comm_mode: str | None = None  # communication.mode: one of the rule set's communication modes
    drawn_modes: tuple[tuple[str, tuple[int, ...]], ...] = ()  # communication.drawn_mode: (mode, card ranks)
    comm_closed_if: Dsl | None = None  # communication.closed_if: nobody communicates while it holds

    @property
    def rulesets(self) -> list[str]:
        return list(self.data.get("rulesets") or ["crew"])

    def players(self, ruleset: RuleSet) -> list[int]:
        return list(self.data.get("players") or ruleset.players)


@dataclass(frozen=True)
class CampaignMission:
    """One mission of a campaign, resolved (see ``crewkit.spec.campaigns``)."""

    key: str  # in the logbook: the bundled id, or the path relative to the campaign's folder
    ref: str  # what the loader opens: the bundled id, or the mission file's absolute path
    ruleset: str  # bundled name or absolute path
    players: tuple[int, ...]  # allowed counts; empty: whatever the mission and its rule set allow
    title: str
    chapter_title: str = ""
    chapter_text: str = ""  # shown before the mission
    version: str = ""  # fingerprint of the mission file (the logbook keeps attempts per version)
    path: Path | None = None


@dataclass(frozen=True)
class Campaign:
    name: str
    title: str
    ruleset: str
    missions: tuple[str, ...]  # the missions' logbook keys, in order (``entries`` has everything else)
    path: Path
    description: str = ""
    players: tuple[int, ...] = ()
    unlock: str = "free"  # in-order | free
    hints: str = "allowed"  # allowed | forbidden: the table's hint key in the campaign's attempts
    readings: Mapping[str, str] = field(default_factory=dict)  # fixed for every mission of the campaign
    entries: tuple[CampaignMission, ...] = ()
    identity: str = ""  # the logbook's campaign key: name (bundled), pack:NAME, or NAME@location
    source: str = "bundled"  # bundled | pack DIST VERSION | folder | zip

    def entry(self, key: str) -> CampaignMission | None:
        return next((e for e in self.entries if e.key == key or e.ref == key), None)
