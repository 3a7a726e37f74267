"""Compile a resolved rule set and mission into plain Python objects, once per (rule set, mission, players).

The hot path of the engine reads only these objects: bitmasks, tuples and compiled DSL closures. Nothing
here re-reads YAML dictionaries during play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crewkit.cards import LED, SPECIAL, TRUMP, Card, Deck, SpecialSpec
from crewkit.engine.errors import SetupError

ARROWS = (">", ">>", ">>>", ">>>>")
NUMBERED = ("1", "2", "3", "4", "5")
OMEGA = "omega"


@dataclass(frozen=True, slots=True)
class FreeCard:
    """A card playable at any time, even when its holder could follow, except in the listed tricks."""

    card: Card
    not_first: bool
    not_last: bool


@dataclass(frozen=True, slots=True)
class DummySpec:
    """A dummy seat played by the commander (JARVIS): ``columns`` stacks of face-down cards under face-up ones."""

    columns: int
    face_down: int
    face_up: int
    seat_choice: str  # players | commander | fixed
    reveal: str  # after-trick | immediately
    communicates: bool
    passes_in_distress: bool

    @property
    def cards(self) -> int:
        return self.columns * (self.face_down + self.face_up)


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


@dataclass(frozen=True, slots=True)
class Condition:
    id: str
    fail_if: Callable[..., Any] | None
    done_if: Callable[..., Any] | None
    reason: tuple[Any, ...]  # template parts for crewkit.dsl.render_template
    check: str  # after-trick | after-play
    fail_text: str
    done_text: str
    render_reason: Callable[..., str] | None = None  # the reason compiled: f(view) -> str


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
    first_leader: str  # commander | dealer
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
    distress_extra_attempts: int
    conditions: tuple[Condition, ...]
    readings: Mapping[str, str]
    suit_masks: tuple[int, ...]  # per suit index
    trump_mask: int
    special_mask: int
    setup_steps: tuple[Any, ...] = ()  # crewkit.engine.steps.StepSpec, in order
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
    scoring: Any = None  # crewkit.engine.scoring.ScoringRules for competitive games
    raw_ruleset: Mapping[str, Any] = field(repr=False, default_factory=dict)
    raw_mission: Mapping[str, Any] | None = field(repr=False, default=None)

    @property
    def seats(self) -> int:
        """Seats at the table: the players plus a dummy seat."""
        return self.players + (1 if self.dummy is not None else 0)


def build_deck(deck_spec: Mapping[str, Any]) -> Deck:
    suits = [
        (s["name"], s.get("code", s["name"][:1].upper()), s["ranks"], bool(s.get("trump", False)))
        for s in deck_spec.get("suits", [])
    ]
    specials = [
        SpecialSpec(name=sp["name"], label=str(sp.get("label", sp["name"])), code=sp.get("code", ""),
                    rank=int(sp.get("rank", 0)))
        for sp in deck_spec.get("specials", []) or []
    ]
    return Deck.build(suits, specials, deck_spec.get("remove", []) or [])


def _per_count(value: Any, players: int) -> Any:
    if isinstance(value, Mapping):
        if str(players) in value:
            return value[str(players)]
        if players in value:
            return value[players]
        return None
    return value


def hand_sizes_for(deal: Mapping[str, Any], players: int) -> tuple[int, ...] | None:
    sizes = _per_count(deal.get("hands"), players)
    if sizes is None:
        return None
    if isinstance(sizes, int):
        return (sizes,) * players
    return tuple(int(x) for x in sizes)


def compile_rules(
    ruleset: Mapping[str, Any],
    mission: Mapping[str, Any] | None,
    players: int,
    *,
    mission_id: str | None = None,
    roles: Sequence[str] = (),
    round_missions: Sequence[tuple[str, Mapping[str, Any]]] = (),
    secret_cards: Sequence[tuple[str, Mapping[str, Any]]] = (),
) -> Rules:
    """Compile resolved specs (readings already applied) for one player count."""
    allowed = (mission or {}).get("players") or ruleset.get("players") or []
    if players not in allowed:
        raise SetupError(
            f"{players} players is not allowed here; allowed: {', '.join(str(p) for p in allowed)}"
        )
    deck = build_deck(ruleset["deck"])
    deal = ruleset.get("deal", {})
    dummy_raw = ruleset.get("dummy")
    dummy = None
    if isinstance(dummy_raw, Mapping):
        dummy = DummySpec(
            columns=int(dummy_raw.get("columns", 7)),
            face_down=int(dummy_raw.get("face_down", 1)),
            face_up=int(dummy_raw.get("face_up", 1)),
            seat_choice=str(dummy_raw.get("seat_choice", "fixed")),
            reveal=str(dummy_raw.get("reveal", "after-trick")),
            communicates=bool(dummy_raw.get("communicates", False)),
            passes_in_distress=bool(dummy_raw.get("passes_in_distress", False)),
        )
    hold_out = deck.card(deal["hold_out"]) if deal.get("hold_out") else None
    undealt_mask = deck.mask(deck.card(c) for c in deal.get("undealt", []) or [])
    sizes = hand_sizes_for(deal, players)
    if sizes is None or len(sizes) != players:
        raise SetupError(f"the rule set gives no hand sizes for {players} players")
    set_aside = int(_per_count(deal.get("set_aside", 0), players) or 0)
    dummy_cards = (dummy.cards if dummy else 0) + undealt_mask.bit_count()
    if sum(sizes) + set_aside + dummy_cards > len(deck):
        raise SetupError(
            f"hands of {sum(sizes)} cards plus {set_aside} set aside"
            + (f" and {dummy_cards} for the dummy" if dummy_cards else "")
            + f" need more than the deck's {len(deck)} cards"
        )

    commander_spec = ruleset.get("commander") or {}
    commander_card = deck.card(commander_spec["holder_of"]) if "holder_of" in commander_spec else None

    play = ruleset.get("play", {})
    free = tuple(
        FreeCard(
            deck.card(fc["card"]),
            "first" in (fc.get("not_in_tricks") or []),
            "last" in (fc.get("not_in_tricks") or []),
        )
        for fc in play.get("free_cards", []) or []
    )
    precedence = tuple(play.get("trick_winner", [SPECIAL, TRUMP, LED]))

    tasks = ruleset.get("tasks") or {}
    pool_suits = (tasks.get("cards") or {}).get("suits", [])
    pool = tuple(c for c in deck.cards if c.suit is not None and c.suit.name in pool_suits)
    m_tasks = (mission or {}).get("tasks") or {}
    task_count = int(m_tasks.get("count", 0))
    fixed = tuple(deck.card(t) for t in m_tasks.get("fixed", []) or [])
    tokens = tuple(str(t) for t in m_tasks.get("tokens", []) or [])
    if task_count > len(pool):
        raise SetupError(f"the mission needs {task_count} tasks but only {len(pool)} task cards exist")
    if len(tokens) > task_count:
        raise SetupError(f"{len(tokens)} tokens for only {task_count} tasks")

    symbols = (mission or {}).get("symbols") or {}
    comm = ruleset.get("communication") or {}
    distress = ruleset.get("distress") or {}
    readings = {r["id"]: r["choice"] for r in ruleset.get("readings", []) or []}

    def suit_names_mask(names: Sequence[str]) -> int:
        return deck.mask(c for c in deck.cards if c.suit is not None and c.suit.name in names)

    suit_masks = tuple(deck.suit_mask(s) for s in deck.suits)
    trump_mask = deck.mask(c for c in deck.cards if c.is_trump)
    special_mask = deck.mask(c for c in deck.cards if c.is_special)

    conditions = (compile_conditions(mission, deck, roles, source=mission_id or "the mission", seats=players)
                  if mission and mission.get("conditions") else ())
    from crewkit.engine.steps import compile_draws, compile_steps

    steps, assignment = compile_steps(mission, str(tasks.get("assignment", "draft")))
    if dummy is not None and dummy.seat_choice in ("players", "commander"):
        from crewkit.engine.steps import StepSpec

        steps = (StepSpec("dummy-seat", {"by": dummy.seat_choice}), *steps)
    all_roles = tuple(dict.fromkeys([*roles, *(mission_roles(mission) if mission else [])]))
    gold_players = (tasks.get("gold_frame") or {}).get("players", [5]) if isinstance(tasks.get("gold_frame"), Mapping) else [5]
    m_comm = (mission or {}).get("communication") or {}

    return Rules(
        ruleset_name=str(ruleset.get("name", "?")),
        mission_id=mission_id,
        players=players,
        deck=deck,
        hand_sizes=sizes,
        set_aside=set_aside,
        commander_card=commander_card,
        first_leader=ruleset.get("first_leader", "commander") if isinstance(ruleset.get("first_leader", "commander"), str) else "commander",
        must_follow=bool(play.get("must_follow", True)),
        free_cards=free,
        precedence=precedence,
        task_pool=pool,
        task_count=task_count,
        fixed_tasks=fixed,
        tokens=tokens,
        assignment=assignment,
        comm_enabled=bool(comm.get("enabled", False)),
        comm_per_player=int(comm.get("per_player", 1)),
        comm_window=str(comm.get("window", "between-tricks")),
        comm_statements=tuple(comm.get("statements", ["top", "bottom", "only"])),
        comm_excluded_mask=suit_names_mask(comm.get("excluded_suits", []) or []) | special_mask,
        comm_singleton_only=comm.get("singleton", "only") == "only",
        dead_zone=bool(symbols.get("dead_zone", False)),
        disruption=symbols.get("disruption"),
        distress_enabled=bool(distress.get("enabled", False)),
        distress_directions=tuple(distress.get("directions", ["left", "right"])),
        distress_excluded_mask=suit_names_mask(distress.get("excluded_suits", []) or []) | special_mask,
        distress_extra_attempts=int(distress.get("extra_attempts", 1)),
        conditions=conditions,
        readings=readings,
        suit_masks=suit_masks,
        trump_mask=trump_mask,
        special_mask=special_mask,
        setup_steps=steps,
        draws=compile_draws(mission),
        roles=all_roles,
        comm_barred_roles=tuple(m_comm.get("barred_roles", []) or []),
        gold_frame=bool(symbols.get("gold_frame")) and players in gold_players and task_count > 0,
        dummy=dummy,
        hold_out=hold_out,
        undealt_mask=undealt_mask,
        special_lead=str(play.get("special_lead", "next-card")),
        secret=_secret(tasks, commander_spec, secret_cards, deck),
        order_by_number=tasks.get("order") == "by-number",
        comm_per_trick=comm.get("per_trick"),
        comm_who=str(comm.get("who", "all")),
        comm_must_win_same_trick=bool(comm.get("must_win_same_trick", False)),
        scoring=_scoring(ruleset, round_missions, deck),
        raw_ruleset=ruleset,
        raw_mission=mission,
    )


def compile_conditions(mission: Mapping[str, Any], deck: Deck, roles: Sequence[str], *, source: str = "the mission",
                       seats: int | None = None) -> tuple[Condition, ...]:
    """Check and compile a mission's conditions; an error while evaluating one names ``source`` (the
    mission's file or id), the condition and the expression (:class:`crewkit.dsl.ConditionError`)."""
    from crewkit import dsl  # local: the engine works without conditions for plain missions

    role_names = frozenset(roles) | frozenset(mission_roles(mission))
    env = dsl.CheckEnv(deck=deck, roles=role_names, bound={}, expect=dsl.BOOL, seats=seats)
    out = []
    for i, cond in enumerate(mission.get("conditions", []) or []):
        cid = str(cond.get("id", f"condition-{i + 1}"))
        fail = cond.get("fail_if")
        done = cond.get("done_if")
        fail_fn = done_fn = None
        if fail:
            fail_fn = _compile_condition(fail, env, source, f"condition `{cid}` (fail_if)")
        if done:
            done_fn = _compile_condition(done, env, source, f"condition `{cid}` (done_if)")
        reason_text = str(cond.get("reason", f"condition {cond.get('id', i + 1)} broken"))
        reason = dsl.parse_template(reason_text)
        out.append(
            Condition(
                id=cid,
                fail_if=fail_fn,
                done_if=done_fn,
                reason=tuple(reason),
                check=str(cond.get("check", "after-trick")),
                fail_text=fail or "",
                done_text=done or "",
                render_reason=dsl.located(dsl.compile_template(reason), source, f"condition `{cid}` (reason)",
                                          reason_text),
            )
        )
    return tuple(out)


def _compile_condition(text: str, env: Any, source: str, where: str) -> Callable[..., Any]:
    from crewkit import dsl

    try:
        expr = dsl.parse(text)
        dsl.check(expr, env)
    except dsl.DslError as exc:  # a file that was not validated first, or a narrower table than checked
        raise dsl.ConditionError.wrap(exc, source, where, text) from None
    return dsl.located(dsl.compile_expr(expr), source, where, text)


def mission_roles(mission: Mapping[str, Any]) -> list[str]:
    """Role names bound by a mission's setup steps."""
    roles: list[str] = []
    for step in mission.get("setup", []) or []:
        if not isinstance(step, Mapping):
            continue
        for body in step.values():
            if isinstance(body, Mapping):
                if isinstance(body.get("role"), str):
                    roles.append(body["role"])
                for r in body.get("roles", []) or []:
                    if isinstance(r, str):
                        roles.append(r)
                    elif isinstance(r, Mapping) and isinstance(r.get("role"), str):
                        roles.append(r["role"])
    return roles


def _scoring(ruleset: Mapping[str, Any], missions: Sequence[tuple[str, Mapping[str, Any]]], deck: Deck) -> Any:
    if not ruleset.get("rounds") and not ruleset.get("scoring"):
        return None
    from crewkit.engine.scoring import compile_scoring

    return compile_scoring(ruleset, missions, deck)


def _secret(tasks: Mapping[str, Any], commander: Mapping[str, Any], cards: Sequence[tuple[str, Mapping[str, Any]]],
            deck: Deck) -> SecretSpec | None:
    secret = tasks.get("secret")
    if tasks.get("assignment") != "secret-deal" or not isinstance(secret, Mapping):
        return None
    pool = []
    for mission_id, data in cards:
        fixed = ((data.get("tasks") or {}).get("fixed") or [])
        if fixed:
            pool.append(SecretCard(mission_id, int(data.get("number", 0)), tuple(deck.card(c) for c in fixed)))
    if commander.get("lowest_secret_task"):
        rule = "lowest"
    elif commander.get("highest_secret_task"):
        rule = "highest"
    else:
        rule = "one-else-lowest" if commander.get("else") == "lowest" else "one-else-highest"
    return SecretSpec(
        cards=tuple(sorted(pool, key=lambda c: c.number)),
        per_player=int(secret.get("per_player", 1)),
        set_aside_needed=str(secret.get("set_aside_needed", "play-on")),
        reveal_when_done=bool(secret.get("reveal_when_done", True)),
        commander=rule,
        commander_number=int(commander.get("secret_task_number") or 1),
    )
