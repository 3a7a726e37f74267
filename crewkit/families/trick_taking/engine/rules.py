"""Compile a resolved rule set and mission into plain Python objects, once per (rule set, mission, players).

The hot path of the engine reads only these objects: bitmasks, tuples and compiled DSL closures. Nothing
here re-reads YAML dictionaries during play, and nothing here parses DSL: the mission arrives as the spec
layer's typed model (:class:`crewkit.spec.model.Mission`), its DSL already parsed and checked there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from crewkit.cards import Card, Deck
from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.engine.condition import Condition
from crewkit.families.trick_taking.engine.kernel import ARROWS, NUMBERED, OMEGA
from crewkit.spec.deck import DealError, build_deck, hand_sizes_for, per_count
from crewkit.spec.dslsites import mission_roles
from crewkit.spec.model import ConditionSpec, Dsl, DummyRules, Mission, MissionSymbols, RuleSet

# re-exported: the deal arithmetic lives in crewkit.spec.deck, the mission roles in crewkit.spec.dslsites
# ARROWS, NUMBERED, OMEGA: the token names, defined in crewkit.families.trick_taking.engine.kernel
__all__ = ["ARROWS", "NUMBERED", "OMEGA", "build_deck", "hand_sizes_for", "mission_roles", "per_count"]



@dataclass(frozen=True, slots=True)
class FreeCard:
    """A card playable at any time, even when its holder could follow, except in the listed tricks."""

    card: Card
    not_first: bool
    not_last: bool


DummySpec = DummyRules  # the dummy seat's rules, as the spec layer types them


@dataclass(frozen=True, slots=True)
class SecretCard:
    """A secret mission card (Persian reading): its number and the card its owner must win."""

    id: str
    number: int
    cards: tuple[Card, ...]  # every card its owner must win (higher levels name more than one)


@dataclass(frozen=True, slots=True)
class SecretSpec:
    cards: tuple[SecretCard, ...]
    per_player: int
    set_aside_needed: str  # play-on | fail-at-once | redeal
    reveal_when_done: bool
    commander: str  # one-else-highest | one-else-lowest | lowest | highest
    commander_number: int = 1  # "one-else-...": the holder of this mission number commands


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to run one rule set + mission at one player count."""

    ruleset_name: str
    mission_id: str | None
    players: int
    deck: Deck
    hand_sizes: tuple[int, ...]
    set_aside: int
    commander_card: Card | None
    first_leader: str  # commander | dealer | holder (of first_leader_card)
    must_follow: bool
    free_cards: tuple[FreeCard, ...]
    precedence: tuple[str, ...]  # e.g. (special, trump, led)
    task_pool: tuple[Card, ...]  # cards that have a task card
    task_count: int
    fixed_tasks: tuple[Card, ...]
    tokens: tuple[str, ...]
    assignment: str
    comm_enabled: bool
    comm_per_player: int
    comm_window: str
    comm_statements: tuple[str, ...]
    comm_excluded_mask: int
    comm_singleton_only: bool
    dead_zone: bool
    disruption: int | None  # communication allowed only from just before this trick
    distress_enabled: bool
    distress_directions: tuple[str, ...]
    distress_excluded_mask: int
    conditions: tuple[Condition, ...]
    readings: Mapping[str, str]
    suit_masks: tuple[int, ...]  # per suit index
    trump_mask: int
    special_mask: int
    setup_steps: tuple[Any, ...] = ()  # crewkit.families.trick_taking.engine.steps.StepSpec, in order
    draws: tuple[tuple[int, str], ...] = ()  # draw_from_neighbour triggers: (after trick, from)
    roles: tuple[str, ...] = ()  # every role the mission binds
    comm_barred_roles: tuple[str, ...] = ()  # roles that may not communicate (mission 11)
    gold_frame: bool = False  # one task may be handed on before trick 1 (5 players, missions from 25 on)
    dummy: DummySpec | None = None
    hold_out: Card | None = None  # kept out of the dummy's cards, shuffled back before the players' deal
    secret: SecretSpec | None = None
    order_by_number: bool = False  # secret missions must be completed in number order
    comm_per_trick: int | None = None
    comm_who: str = "all"  # all | commander
    comm_must_win_same_trick: bool = False
    special_lead: str = "next-card"  # when a lone special card leads: next-card sets the suit, or no-suit
    undealt_mask: int = 0  # cards never dealt (Hammer's 10, unless a challenge adds it)
    scoring: Any = None  # crewkit.families.trick_taking.engine.scoring.ScoringRules for competitive games
    first_leader_card: Card | None = None  # first_leader: {holder_of: CARD}
    commander_is_dealer: bool = False  # commander: {dealer: true}: each round's dealer commands
    draft_start: str = "first-leader"  # who takes the first task in a draft: commander | dealer | first-leader
    raw_ruleset: Mapping[str, Any] = field(repr=False, default_factory=dict)
    flow: tuple[str, ...] = ("setup", "draft", "tricks")  # the phases, by block name (``flow:``)
    blocks: tuple[str, ...] = ()  # cross-cutting blocks named by the rule set (``blocks:``), beyond the implied
    # task cards with objectives (``tasks.deck``) and the mission's ``draw_tasks`` step: the TaskCardDeck and
    # TaskDraw of crewkit.families.trick_taking.engine.taskcards
    task_deck: Any = None
    task_draw: Any = None
    draft_passing: bool = False  # a seat may pass in the draft when fewer tasks than seats were drawn
    volunteer_barred: str = "passed-over"  # tasks.volunteer_barred: passed-over | mission-fails
    hardest_barred: str = "redraw"  # tasks.hardest_barred: redraw | hardest-allowed
    comm_pool: int | None = None  # the crew shares this many tokens (rapture of the deep); None: per_player each
    comm_closed_if: Callable[..., Any] | None = None  # nobody communicates while it holds (mission DSL)
    comm_mode: str = ""  # the name of the communication mode in force ("" for the rule set's own)
    # communication modes drawn per attempt (unfamiliar terrain): (card ranks, the rules with that mode)
    drawn_modes: tuple[tuple[tuple[int, ...], Rules], ...] = ()
    # the rules of one drawn mode (an entry of drawn_modes): the card ranks that draw them, so an explicit deal
    # that names its drawn card (a replay of game.rules and game.deal) is checked against these rules too
    drawn_ranks: tuple[int, ...] | None = None

    @property
    def seats(self) -> int:
        """Seats at the table: the players plus a dummy seat."""
        return self.players + (1 if self.dummy is not None else 0)


def compile_rules(
    ruleset: RuleSet,
    mission: Mission | None,
    players: int,
    *,
    mission_id: str | None = None,
    round_missions: Sequence[Mission] = (),
    secret_cards: Sequence[Mission] = (),
    task_deck: Any = None,
) -> Rules:
    """Compile the spec layer's typed rule set and mission (readings already applied) for one player count.

    They come from its loader (:func:`crewkit.spec.loader.load_ruleset`, :func:`~crewkit.spec.loader.load_mission`,
    or :func:`~crewkit.spec.loader.ruleset_model` and :func:`~crewkit.spec.loader.mission_model` for a
    document in hand), as do the mission cards of a competitive or secret-deal game."""
    allowed = (mission.player_counts if mission else ()) or ruleset.player_counts
    if players not in allowed:
        raise SetupError(
            f"{players} players is not allowed here; allowed: {', '.join(str(p) for p in allowed)}"
        )
    deck = ruleset.deck
    if deck is None:
        raise SetupError(f"rule set {ruleset.name} has no deck")
    dummy = ruleset.dummy
    hold_out = deck.card(ruleset.hold_out) if ruleset.hold_out else None
    undealt_mask = deck.mask(deck.card(c) for c in ruleset.undealt)
    try:
        plan = ruleset.deal_plan(players)
    except DealError as exc:
        raise SetupError(exc.message) from None
    sizes = plan.hand_sizes
    set_aside = plan.set_aside

    commander = ruleset.commander
    commander_card = deck.card(commander.holder_of) if commander.holder_of is not None else None
    first_leader_card = deck.card(ruleset.first_leader_card) if ruleset.first_leader_card is not None else None

    play = ruleset.play
    free = tuple(FreeCard(deck.card(fc.card), "first" in fc.not_in_tricks, "last" in fc.not_in_tricks)
                 for fc in play.free_cards)

    tasks = ruleset.tasks
    included = {deck.card(c) for c in tasks.include}
    pool = tuple(c for c in deck.cards if (c.suit is not None and c.suit.name in tasks.suits) or c in included)
    task_count = mission.tasks.count if mission else 0
    fixed = tuple(deck.card(t) for t in mission.tasks.fixed) if mission else ()
    tokens = mission.tasks.tokens if mission else ()
    if task_count > len(pool):
        raise SetupError(f"the mission needs {task_count} tasks but only {len(pool)} task cards exist")
    if len(tokens) > task_count:
        raise SetupError(f"{len(tokens)} tokens for only {task_count} tasks")
    unknown = [t for t in tokens if t not in tasks.tokens]
    if unknown:
        raise SetupError(f"task token {unknown[0]!r} is not among the rule set's tokens "
                         f"({', '.join(tasks.tokens) or 'none'})")

    symbols = mission.symbols if mission else MissionSymbols()
    comm = ruleset.communication
    distress = ruleset.distress
    # every reading in force, the rule set's and the mission's (a record stores them so a replay compiles the same)
    readings = dict(ruleset.in_force)
    readings.update(mission.in_force if mission else ())
    readings.update(task_deck.in_force if task_deck is not None else ())

    def suit_names_mask(names: Sequence[str]) -> int:
        return deck.mask(c for c in deck.cards if c.suit is not None and c.suit.name in names)

    suit_masks = tuple(deck.suit_mask(s) for s in deck.suits)
    trump_mask = deck.mask(c for c in deck.cards if c.is_trump)
    special_mask = deck.mask(c for c in deck.cards if c.is_special)

    conditions = (compile_conditions(mission.conditions, source=mission_id or "the mission")
                  if mission and mission.conditions else ())
    from crewkit.families.trick_taking.engine.steps import compile_draws, compile_steps

    steps, assignment = compile_steps(mission, tasks.assignment)
    if dummy is not None and dummy.seat_choice in ("players", "commander"):
        from crewkit.families.trick_taking.engine.steps import StepSpec

        steps = (StepSpec("dummy-seat", {"by": dummy.seat_choice}), *steps)

    scoring = _scoring(ruleset, round_missions, deck)
    seats = players + (1 if dummy is not None else 0)
    draw = _task_draw(steps)
    if draw is not None and task_deck is None:
        raise SetupError(f"the mission draws task cards (draw_tasks), but rule set {ruleset.name} has no task deck "
                         "(tasks.deck)")
    compiled_deck = None
    if task_deck is not None:
        from crewkit.families.trick_taking.engine.taskcards import compile_task_deck

        compiled_deck = compile_task_deck(task_deck, seats)
        for card_id in draw.fixed if draw is not None else ():
            compiled_deck.card(card_id)  # a fixed card the deck lacks: SetupError naming it
    modes = {m.name: m for m in comm.modes}
    for name in [mission.comm_mode] if mission is not None and mission.comm_mode else []:
        if name not in modes:
            raise SetupError(f"communication mode {name!r} is not among rule set {ruleset.name}'s "
                             f"({', '.join(modes) or 'none'})")
    closed_if = compile_dsl(mission.comm_closed_if, mission_id or "the mission", "communication.closed_if") \
        if mission is not None else None
    base = Rules(
        ruleset_name=ruleset.name,
        mission_id=mission_id,
        players=players,
        deck=deck,
        hand_sizes=sizes,
        set_aside=set_aside,
        commander_card=commander_card,
        first_leader=ruleset.first_leader,
        first_leader_card=first_leader_card,
        commander_is_dealer=commander.dealer,
        draft_start=tasks.draft_start,
        must_follow=play.must_follow,
        free_cards=free,
        precedence=play.trick_winner,
        task_pool=pool,
        task_count=task_count,
        fixed_tasks=fixed,
        tokens=tokens,
        assignment=assignment,
        comm_enabled=comm.enabled,
        comm_per_player=comm.per_player,
        comm_window=comm.window,
        comm_statements=comm.statements,
        comm_excluded_mask=suit_names_mask(comm.excluded_suits) | special_mask,
        comm_singleton_only=comm.singleton == "only",
        dead_zone=symbols.dead_zone,
        disruption=symbols.disruption,
        distress_enabled=distress.enabled,
        distress_directions=distress.directions,
        distress_excluded_mask=suit_names_mask(distress.excluded_suits) | special_mask,
        conditions=conditions,
        readings=readings,
        suit_masks=suit_masks,
        trump_mask=trump_mask,
        special_mask=special_mask,
        setup_steps=steps,
        draws=compile_draws(mission),
        roles=mission.roles if mission else (),
        comm_barred_roles=mission.barred_roles if mission else (),
        gold_frame=symbols.gold_frame and players in tasks.gold_frame_players and task_count > 0,
        dummy=dummy,
        hold_out=hold_out,
        undealt_mask=undealt_mask,
        special_lead=play.special_lead,
        secret=_secret(ruleset, secret_cards, deck),
        order_by_number=tasks.order == "by-number",
        comm_per_trick=comm.per_trick,
        comm_who=comm.who,
        comm_must_win_same_trick=comm.must_win_same_trick,
        scoring=scoring,
        raw_ruleset=ruleset.data,
        flow=ruleset.flow or default_flow(scoring is not None),
        blocks=ruleset.blocks,
        task_deck=compiled_deck,
        task_draw=draw,
        draft_passing=tasks.passing == "fewer-tasks-than-players",
        volunteer_barred=tasks.volunteer_barred,
        hardest_barred=tasks.hardest_barred,
        comm_closed_if=closed_if,
    )
    if mission is not None and mission.comm_mode:
        base = with_mode(base, modes[mission.comm_mode], seats)
    if mission is not None and mission.drawn_modes:
        drawn = []
        left = sorted({c.rank for c in base.deck.cards if c.suit is not None and not c.is_trump})
        for name, ranks in mission.drawn_modes:
            if name not in modes:
                raise SetupError(f"communication mode {name!r} (drawn_mode) is not among rule set {ruleset.name}'s "
                                 f"({', '.join(modes) or 'none'})")
            mine = tuple(r for r in left if r in ranks)  # mode_for_card takes the first entry listing a rank
            left = [r for r in left if r not in ranks]
            drawn.append((tuple(ranks), replace(with_mode(base, modes[name], seats), drawn_ranks=mine)))
        drawn.append(((), replace(base, drawn_ranks=tuple(left))))  # a rank listed nowhere: the rules as they are
        base = replace(base, drawn_modes=tuple(drawn))
    return base


def with_mode(rules: Rules, mode: Any, seats: int) -> Rules:
    """``rules`` with a communication mode in force (:class:`crewkit.spec.model.CommunicationMode`)."""
    changes: dict[str, Any] = {"comm_mode": mode.name}
    if mode.enabled is not None:
        changes["comm_enabled"] = mode.enabled
    if mode.dead_zone is not None:
        changes["dead_zone"] = mode.dead_zone
    if mode.shared_fewer_than_players is not None:
        changes["comm_pool"] = max(0, seats - mode.shared_fewer_than_players)
    return replace(rules, **changes)


def mode_for_card(rules: Rules, card: Card | None) -> Rules:
    """The rules in force once the card drawn for the communication mode is known (``drawn_modes``; a rank
    listed nowhere keeps the rules as they are)."""
    if card is None or not rules.drawn_modes:
        return rules
    for ranks, variant in rules.drawn_modes:
        if card.rank in ranks or not ranks:
            return variant
    raise AssertionError("drawn_modes ends with the rules for every other rank")  # pragma: no cover


def _task_draw(steps: Sequence[Any]) -> Any:
    from crewkit.families.trick_taking.engine.taskcards import TaskDraw

    for step in steps:
        if step.kind == "draw-tasks":
            return TaskDraw(int(step.params["difficulty"]), tuple(step.params["fixed"]))
    return None


def default_flow(rounds: bool) -> tuple[str, ...]:
    """The flow of a rule set that states none: a co-operative mission, or rounds of a competitive game."""
    return ("choose-mission", "tricks") if rounds else ("setup", "draft", "tricks")


def distress_extra_attempts(ruleset: RuleSet) -> int:
    """Attempts the logbook adds to a mission won with the distress signal used (``distress.extra_attempts``,
    1 in the rule book)."""
    return ruleset.distress.extra_attempts


def compile_conditions(conditions: Sequence[ConditionSpec], *, source: str = "the mission") -> tuple[Condition, ...]:
    """Compile a mission's conditions (parsed and checked by the spec layer); an error while evaluating one
    names ``source`` (the mission's file or id), the condition and the expression
    (:class:`crewkit.dsl.ConditionError`)."""
    from crewkit import dsl  # local: the engine works without conditions for plain missions

    out = []
    for cond in conditions:
        cid = cond.id
        out.append(
            Condition(
                id=cid,
                fail_if=compile_dsl(cond.fail_if, source, f"condition `{cid}` (fail_if)"),
                done_if=compile_dsl(cond.done_if, source, f"condition `{cid}` (done_if)"),
                reason=tuple(cond.reason.expr),
                check=cond.check,
                fail_text=cond.fail_if.text if cond.fail_if else "",
                done_text=cond.done_if.text if cond.done_if else "",
                render_reason=dsl.located(dsl.compile_template(cond.reason.expr), source,
                                          f"condition `{cid}` (reason)", cond.reason.text),
                fail_expr=cond.fail_if.expr if cond.fail_if else None,
                done_expr=cond.done_if.expr if cond.done_if else None,
                text=cond.text,
            )
        )
    return tuple(out)


def compile_dsl(text: Dsl | None, source: str, where: str) -> Callable[..., Any] | None:
    """The closure the engine runs for a checked DSL text (None for none); its errors while evaluating are
    :class:`crewkit.dsl.ConditionError` naming ``source`` (the file or mission id) and ``where``."""
    from crewkit import dsl

    return None if text is None else dsl.compile_located(text.expr, source, where, text.text)


def _scoring(ruleset: RuleSet, missions: Sequence[Mission], deck: Deck) -> Any:
    if ruleset.rounds is None:
        return None
    from crewkit.families.trick_taking.engine.scoring import compile_scoring

    return compile_scoring(ruleset.rounds, missions, deck)


def _secret(ruleset: RuleSet, cards: Sequence[Mission], deck: Deck) -> SecretSpec | None:
    secret, commander = ruleset.tasks.secret, ruleset.commander
    if ruleset.tasks.assignment != "secret-deal" or secret is None:
        return None
    pool = []
    for card in cards:
        if card.tasks.fixed:
            pool.append(SecretCard(card.id, int(card.number or 0), tuple(deck.card(c) for c in card.tasks.fixed)))
    if commander.lowest_secret_task:
        rule = "lowest"
    elif commander.highest_secret_task:
        rule = "highest"
    else:
        rule = "one-else-lowest" if commander.otherwise == "lowest" else "one-else-highest"
    return SecretSpec(
        cards=tuple(sorted(pool, key=lambda c: c.number)),
        per_player=secret.per_player,
        set_aside_needed=secret.set_aside_needed,
        reveal_when_done=secret.reveal_when_done,
        commander=rule,
        commander_number=commander.secret_task_number,
    )
