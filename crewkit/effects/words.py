"""The single table of every effect word: its arguments, its player text, an example and what it does.

In the style of :mod:`crewkit.dsl.vocabulary`: the checker (:mod:`crewkit.effects.check`) reads the
arguments from here, ``docs.py`` the rest, and a test applies every example to a small fake game. Each word
is one building block; a card or place is a list of words in YAML, never Python of its own.

A word is an *action* (it happens now) or a *rule* (it changes the rules for a while and is kept in the
game's rule book until its duration ends; see :class:`~crewkit.effects.model.Duration`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crewkit.errors import CrewkitError

from .cost import MAX_COUNT, MAX_EFFECT_DEPTH
from .model import CHANCE, CREATURE, Duration, Effect
from .state import Context

# ------------------------------------------------------------------------------------------ argument types

PLACE_REFS: dict[str, str] = {
    "this": "the place being resolved",
    "creature_token": "the place holding the Creature token",
    "target_token": "the place(s) holding the Target token",
    "artemia_token": "the place(s) holding the Artemia token",
    "adjacent": "a place next to this one (chosen)",
    "chosen": "a place of the player's choice",
    "any": "every place",
}
WHO: dict[str, str] = {
    "self": "the player who plays the card or uses the place",
    "affected": "the Hunted the card acts on (the one on the targeted place)",
    "chosen_hunted": "one Hunted chosen by the player who acts",
    "each_hunted": "every Hunted",
}
TOKENS = ("creature", "target", "artemia")
TRACKS = ("rescue", "assimilation")
# The decks the card words name (a rule set of this vocabulary names its effect card decks so: ``decks:``).
SURVIVAL, HUNT = "survival", "hunt"


@dataclass(frozen=True)
class ArgType:
    """The type of one argument: its name in the docs and how a YAML value is checked."""

    name: str
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int = 1
    allow_all: bool = False
    maximum: int = MAX_COUNT  # a count: cards, places, spaces, counters (the schema's bound of the same things)

    def problem(self, value: Any, place_ids: Mapping[str, int]) -> str | None:
        """Why ``value`` is not of this type (None when it is). ``place_ids`` are the known place names."""
        if self.name in ("count", "int"):
            if self.allow_all and value == "all":
                return None
            if isinstance(value, bool) or not isinstance(value, int):
                return f"expected {self.doc}, found {found_text(value)}"
            if value < self.minimum:
                return f"expected {self.doc}, found {value} (at least {self.minimum})"
            if value > self.maximum:
                return f"expected {self.doc}, found {value} (at most {self.maximum})"
            return None
        if self.name == "bool":
            return None if isinstance(value, bool) else f"expected true or false, found {found_text(value)}"
        if self.name == "choice":
            if value in self.choices:
                return None
            return f"expected one of {', '.join(self.choices)}, found {found_text(value)}"
        if self.name == "name":
            if isinstance(value, str) and value.isidentifier() and value == value.lower():
                return None
            return f"expected {self.doc}, found {found_text(value)}"
        if self.name == "place":
            return _place_problem(value, place_ids)
        if self.name == "places":
            items = value if isinstance(value, list) else [value]
            if not items:
                return "expected at least one place, found an empty list"
            for item in items:
                problem = _place_problem(item, place_ids)
                if problem:
                    return problem
            return None
        raise AssertionError(self.name)  # pragma: no cover - every type is handled above


def _place_problem(value: Any, place_ids: Mapping[str, int]) -> str | None:
    if isinstance(value, str) and (value in PLACE_REFS or value in place_ids):
        return None
    known = ", ".join([*PLACE_REFS, *place_ids])
    return f"expected a place ({known}), found {found_text(value)}"


def found_text(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}"
    return "a list" if isinstance(value, list) else "a mapping"


COUNT = ArgType("count", "a whole number of at least 1")
COUNT_OR_ALL = ArgType("count", "a whole number of at least 1, or all", allow_all=True)
KEEP = ArgType("int", "a whole number of at least 0", minimum=0)
BOOL = ArgType("bool", "true or false")
PLACE = ArgType("place", "a place: a place name or " + ", ".join(PLACE_REFS))
PLACES = ArgType("places", "a place or a list of places")
WHO_T = ArgType("choice", "who: " + ", ".join(WHO), tuple(WHO))
HUNTED_T = ArgType("choice", "who: " + ", ".join(WHO), tuple(WHO))
# Tracks and tokens are the rule set's (`tracks:`, `tokens:`): a card names them, the rule set's check
# (crewkit.effects.ruleset) finds a name it does not declare, at the card's line.
TOKEN = ArgType("name", "a token of the rule set (Not Alone: " + ", ".join(TOKENS) + ")")
TRACK = ArgType("name", "a track of the rule set (Not Alone: " + ", ".join(TRACKS) + ")")
CHOOSER = ArgType("choice", "who chooses: self or affected", ("self", "affected"))
HUNT_DEST = ArgType("choice", "where the cards go: discard or deck_bottom", ("discard", "deck_bottom"))
RESOLVE = ArgType("choice", "one (keep one card, take the others back) or all (resolve every card)", ("one", "all"))
OPTIONS = ArgType("options", "a list of options, each a list of effects")
REQUIRED = object()


@dataclass(frozen=True)
class Param:
    name: str
    type: ArgType
    default: Any = REQUIRED
    doc: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class Word:
    """One effect word."""

    name: str
    kind: str  # "action" or "rule"
    params: tuple[Param, ...]
    text: str  # player text with {arg} slots, filled by describe()
    doc: str
    example: str  # one YAML flow mapping, as written in a card set file
    apply: Callable[[Context, Effect], None]
    possible: Callable[[Context, Effect], bool] | None = None
    default_lasts: Duration = Duration.NOW

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    @property
    def signature(self) -> str:
        parts = [f"{p.name}: {p.type.name}" + ("" if p.required else f" = {_show(p.default)}") for p in self.params]
        if self.kind == "rule":
            parts.append(f"lasts = {self.default_lasts.value}")
        return f"{self.name}({', '.join(parts)})"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


# ------------------------------------------------------------------------------------------ helpers


def seats(ctx: Context, who: str, why: str) -> list[int]:
    """The Hunted an effect acts on."""
    st = ctx.state
    if who == "self":
        return [ctx.actor]
    if who == "affected":
        return [ctx.affected] if ctx.affected is not None else []
    if who == "each_hunted":
        return list(st.other_seats())
    if "chosen_hunted" in ctx.chosen:
        return [int(ctx.chosen["chosen_hunted"])]  # type: ignore[call-overload]
    picked = ctx.chooser.pick(ctx.actor, list(st.other_seats()), 1, why)
    ctx.chosen["chosen_hunted"] = picked[0]
    return picked


def places(ctx: Context, ref: str | list[str], why: str, choose: bool = True) -> list[int]:
    """The place numbers a place reference stands for; ``chosen`` and ``adjacent`` ask the actor once."""
    refs = ref if isinstance(ref, list) else [ref]
    out: list[int] = []
    every = sorted(set(ctx.place_ids.values())) or list(range(1, 11))
    for r in refs:
        if r == "this":
            out += [ctx.place] if ctx.place is not None else []
        elif r.endswith("_token"):
            out += list(ctx.state.token_places(r.removesuffix("_token")))
        elif r == "any":
            out += every
        elif r in ("chosen", "adjacent"):
            options = every if r == "chosen" else list(ctx.state.adjacent(ctx.place)) if ctx.place else []
            out += ctx.chooser.pick(ctx.actor, options, 1, why) if choose and options else options
        else:
            out.append(ctx.place_ids[r])
    return list(dict.fromkeys(out))


def in_force(ctx: Context, word: str) -> list[Any]:
    return list(ctx.state.rules(word))


def _rule(ctx: Context, effect: Effect, **context: Any) -> None:
    ctx.state.add_rule(effect, ctx.actor, ctx.card, context)


def _pick(ctx: Context, who: int, options: Sequence[Any], count: int, why: str) -> list[Any]:
    if count <= 0 or not options:
        return []
    return ctx.chooser.pick(who, list(options), min(count, len(options)), why)


# ------------------------------------------------------------------------------------------ actions


def _take_back_places(ctx: Context, e: Effect) -> None:
    st = ctx.state
    for seat in seats(ctx, e["who"], "whose discard pile gives back cards"):
        pile = list(st.places(seat, "discard"))
        n = len(pile) if e["count"] == "all" else int(e["count"])
        if ctx.place is not None:  # a place's power: a rule may limit how many cards come back
            for rule in in_force(ctx, "take_back_limit"):
                n = min(n, int(rule.effect["max"]))
        cards = pile if n >= len(pile) else _pick(ctx, seat, pile, n, "place cards to take back")
        st.move_places(seat, cards, "discard", "hand")


def _take_back_played(ctx: Context, e: Effect) -> None:
    st = ctx.state
    if ctx.place is not None and ctx.place in st.places(ctx.actor, "played"):
        st.move_places(ctx.actor, [ctx.place], "played", "hand")


def _take_from_reserve(ctx: Context, e: Effect) -> None:
    st = ctx.state
    owned = set(st.places(ctx.actor, "hand")) | set(st.places(ctx.actor, "discard")) | set(
        st.places(ctx.actor, "played"))
    options = sorted(set(st.places(ctx.actor, "reserve")))
    if e["only_new"]:
        options = [p for p in options if p not in owned]
    st.move_places(ctx.actor, _pick(ctx, ctx.actor, options, int(e["count"]), "a place card from the reserve"),
                   "reserve", "hand")


def _has_reserve(ctx: Context, e: Effect) -> bool:
    st = ctx.state
    owned = set(st.places(ctx.actor, "hand")) | set(st.places(ctx.actor, "discard")) | set(
        st.places(ctx.actor, "played"))
    return any(not e["only_new"] or p not in owned for p in st.places(ctx.actor, "reserve"))


def _discard_places(ctx: Context, e: Effect) -> None:
    st = ctx.state
    for seat in seats(ctx, e["who"], "who discards place cards"):
        hand = list(st.places(seat, "hand"))
        st.move_places(seat, _pick(ctx, seat, hand, int(e["count"]), "place cards to discard"), "hand", "discard")


def _discard_places_down_to(ctx: Context, e: Effect) -> None:
    st = ctx.state
    for seat in seats(ctx, e["who"], "who discards place cards"):
        hand = list(st.places(seat, "hand"))
        keep = _pick(ctx, seat, hand, int(e["keep"]), "place cards to keep")
        rest = list(hand)
        for card in keep:
            rest.remove(card)
        st.move_places(seat, rest, "hand", "discard")


def _show_places(ctx: Context, e: Effect) -> None:
    st = ctx.state
    for seat in seats(ctx, e["who"], "whose hand is shown"):
        hand = list(st.places(seat, "hand"))
        hidden = _pick(ctx, seat, hand, int(e["keep_hidden"]), "place cards to keep hidden")
        shown = list(hand)
        for card in hidden:
            shown.remove(card)
        st.reveal_places(seat, shown, ctx.actor)


def _gain_will(ctx: Context, e: Effect) -> None:
    for seat in seats(ctx, e["who"], "who regains will"):
        ctx.state.change_will(seat, int(e["amount"]))


def _lose_will(ctx: Context, e: Effect) -> None:
    for seat in seats(ctx, e["who"], "who loses will"):
        ctx.state.change_will(seat, -int(e["amount"]))


def _move_track(ctx: Context, e: Effect) -> None:
    if any(r.effect["track"] == e["track"] for r in in_force(ctx, "stop_track")):
        ctx.state.log(f"{ctx.card}: the {e['track']} counter cannot move this round")
        return
    ctx.state.move_track(e["track"], int(e["by"]))


def _put_marker(ctx: Context, e: Effect) -> None:
    ctx.state.set_marker(True)


def _remove_marker(ctx: Context, e: Effect) -> None:
    ctx.state.set_marker(False)


def _draw_survival(ctx: Context, e: Effect) -> None:
    st = ctx.state
    if in_force(ctx, "no_survival_cards"):
        st.log(f"{ctx.card}: no survival card may be drawn this round")
        return
    drawn = list(st.draw_effect_cards(ctx.actor, SURVIVAL, int(e["count"])))
    keep = int(e["keep"])
    if keep < len(drawn):
        kept = _pick(ctx, ctx.actor, drawn, keep, "survival cards to keep")
        rest = list(drawn)
        for card in kept:
            rest.remove(card)
        st.discard_effect_cards(ctx.actor, SURVIVAL, rest)


def _discard_survival(ctx: Context, e: Effect) -> None:
    st = ctx.state
    for seat in seats(ctx, e["who"], "who discards survival cards"):
        hand = list(st.effect_hand(seat, SURVIVAL))
        st.discard_effect_cards(seat, SURVIVAL, _pick(ctx, seat, hand, int(e["count"]), "survival cards to discard"))


def _copy_options(ctx: Context, e: Effect) -> list[int]:
    found = places(ctx, e["of"], "", choose=False)
    return [p for p in found if p not in ctx.not_copyable and p != ctx.place]


def _copy_power(ctx: Context, e: Effect) -> None:
    options = _copy_options(ctx, e)
    if options:
        place = _pick(ctx, ctx.actor, options, 1, "the place whose power to copy")[0]
        ctx.state.use_power(ctx.actor, place)


def _one_of(ctx: Context, e: Effect) -> None:
    options: list[list[Effect]] = [list(o) for o in e["options"]]
    usable = [i for i, o in enumerate(options) if all(possible(ctx, sub) for sub in o[:1])]
    if not usable:
        return
    who = ctx.affected if e["chooser"] == "affected" and ctx.affected is not None else ctx.actor
    # an option is recorded by its place on the card (option-1, option-2), read by its words
    ids = [f"option-{i + 1}" for i in usable]
    labels = [" then ".join(describe(sub) for sub in options[i]) for i in usable]
    chosen = ctx.chooser.pick(who, ids, 1, "which option", labels)[0]
    for sub in options[usable[ids.index(chosen)]]:
        apply(ctx, sub)


def _move_hunted(ctx: Context, e: Effect) -> None:
    st = ctx.state
    for seat in seats(ctx, e["who"], "which Hunted to move"):
        here = st.position(seat)
        if here is None:
            continue
        options = list(st.adjacent(here))
        if options:
            st.set_position(seat, _pick(ctx, ctx.actor, options, 1, "where the Hunted goes")[0])


def _move_token(ctx: Context, e: Effect) -> None:
    st = ctx.state
    token = e["token"]
    now = list(st.token_places(token))
    if len(now) != 1:
        return
    options = list(st.adjacent(now[0]))
    if options:
        st.set_token_places(token, _pick(ctx, ctx.actor, options, 1, f"where the {token} token goes"))


def _token_placed(ctx: Context, e: Effect) -> bool:
    return len(ctx.state.token_places(e["token"])) == 1


def _swap_played(ctx: Context, e: Effect) -> None:
    st = ctx.state
    played = list(st.places(ctx.actor, "played"))
    discard = list(st.places(ctx.actor, "discard"))
    if not played or not discard:
        return
    new = _pick(ctx, ctx.actor, discard, 1, "the place card to play instead")[0]
    st.move_places(ctx.actor, [new], "discard", "played")
    st.move_places(ctx.actor, played[:1], "played", "discard")


def _remove_hunt_cards(ctx: Context, e: Effect) -> None:
    st = ctx.state
    hand = list(st.effect_hand(CREATURE, HUNT))
    n = len(hand) if e["count"] == "all" else int(e["count"])
    who = CHANCE if e["random"] else CREATURE
    cards = hand if n >= len(hand) else _pick(ctx, who, hand, n, "hunt cards to remove")
    if e["to"] == "deck_bottom":
        st.effect_cards_to_bottom(CREATURE, HUNT, cards)
    else:
        st.discard_effect_cards(CREATURE, HUNT, cards)


# ------------------------------------------------------------------------------------------ rules


def _rule_plain(ctx: Context, e: Effect) -> None:
    _rule(ctx, e)


def _rule_places(arg: str) -> Callable[[Context, Effect], None]:
    def run(ctx: Context, e: Effect) -> None:
        _rule(ctx, e, places=places(ctx, e[arg], "which place"))

    return run


def _rule_seats(ctx: Context, e: Effect) -> None:
    _rule(ctx, e, seats=seats(ctx, e["who"], "which Hunted"))


# ------------------------------------------------------------------------------------------ the table


def _w(name: str, kind: str, params: Sequence[Param], text: str, doc: str, example: str,
       impl: Callable[[Context, Effect], None], possible: Callable[[Context, Effect], bool] | None = None,
       lasts: Duration | None = None) -> Word:
    default = lasts or (Duration.THIS_ROUND if kind == "rule" else Duration.NOW)
    return Word(name, kind, tuple(params), text, doc, example, impl, possible, default)


WHO_SELF = Param("who", WHO_T, "self", "whose discard pile")

_WORDS: list[Word] = [
    # ---- place cards
    _w("take_back_places", "action", [Param("count", COUNT_OR_ALL), WHO_SELF],
       "{who} take[s] back {count} place card(s) of their choice from their discard pile",
       "Discarded place cards return to the hand; the owner chooses which. While a `take_back_limit` rule is in "
       "force, a place's power gives back at most that many.",
       "{take_back_places: {count: 2}}", _take_back_places),
    _w("take_back_played", "action", [],
       "take back into your hand the place card you played",
       "The place card being resolved goes back to the hand instead of the discard pile.",
       "{take_back_played: {}}", _take_back_played),
    _w("take_from_reserve", "action", [Param("count", COUNT, 1), Param("only_new", BOOL, True)],
       "take {count} place card(s) from the reserve{only_new? (a number you do not have in any pile)}",
       "Place cards come from the shared reserve into the hand; with `only_new`, only numbers the Hunted has "
       "in no pile.", "{take_from_reserve: {count: 1}}", _take_from_reserve, _has_reserve),
    _w("discard_places", "action", [Param("count", COUNT), Param("who", WHO_T, "self")],
       "{who} discard[s] {count} place card(s) from their hand",
       "Each Hunted named chooses place cards from their hand and discards them face up.",
       "{discard_places: {count: 1, who: each_hunted}}", _discard_places),
    _w("discard_places_down_to", "action", [Param("keep", KEEP), Param("who", WHO_T, "chosen_hunted")],
       "{who} keep[s] {keep} place card(s) of their choice and discard[s] the rest of their hand",
       "The Hunted keeps the cards of their choice and discards the rest of their hand.",
       "{discard_places_down_to: {keep: 2}}", _discard_places_down_to),
    _w("show_places", "action", [Param("keep_hidden", KEEP), Param("who", WHO_T, "chosen_hunted")],
       "{who} show[s] you the place cards in their hand, all but {keep_hidden} of their choice",
       "Only the player acting sees the cards (hidden information: the others do not).",
       "{show_places: {keep_hidden: 2}}", _show_places),
    _w("swap_played", "action", [],
       "swap the place card you played for one from your discard pile",
       "The chosen discarded card becomes the played card; the played card goes to the discard pile.",
       "{swap_played: {}}", _swap_played),
    # ---- will and tracks
    _w("gain_will", "action", [Param("amount", COUNT, 1), Param("who", WHO_T, "self")],
       "{who} regain[s] {amount} will",
       "Will comes back (never above the starting will; the game caps it).", "{gain_will: {amount: 1, who: chosen_hunted}}", _gain_will),
    _w("lose_will", "action", [Param("amount", COUNT, 1), Param("who", WHO_T, "affected")],
       "{who} lose[s] {amount} will",
       "Will is lost (the game applies the third-will rule).", "{lose_will: {amount: 1}}", _lose_will),
    _w("move_track", "action", [Param("track", TRACK), Param("by", COUNT, 1)],
       "move the {track} counter forward {by} space(s)",
       "Counters only move forward; reaching the goal ends the game at once. Nothing happens while a "
       "`stop_track` rule holds that track.", "{move_track: {track: rescue, by: 1}}", _move_track),
    _w("put_marker", "action", [],
       "put the marker counter on the Beach",
       "Possible only while the marker is not on the Beach.", "{put_marker: {}}", _put_marker,
       lambda ctx, e: not ctx.state.marker_placed()),
    _w("remove_marker", "action", [],
       "take the marker counter off the Beach",
       "Possible only while the marker is on the Beach (followed by what removing it earns).",
       "{remove_marker: {}}", _remove_marker, lambda ctx, e: ctx.state.marker_placed()),
    # ---- survival and hunt cards
    _w("draw_survival", "action", [Param("count", COUNT, 1), Param("keep", KEEP, 1)],
       "draw {count} survival card(s) and keep {keep}",
       "The cards not kept are discarded; no hand limit.", "{draw_survival: {count: 2, keep: 1}}", _draw_survival),
    _w("discard_survival", "action", [Param("count", COUNT, 1), Param("who", WHO_T, "affected")],
       "{who} discard[s] {count} survival card(s)",
       "The owner chooses which of their survival cards go.", "{discard_survival: {count: 1}}", _discard_survival),
    _w("remove_hunt_cards", "action", [Param("count", COUNT_OR_ALL), Param("random", BOOL, False),
                                       Param("to", HUNT_DEST, "discard")],
       "{count} of the Creature's hunt cards{random? (chosen at random)} go {to}",
       "With `random`, chance picks the cards, not a player. `to: deck_bottom` puts them under the hunt deck; "
       "the Creature draws back up to 3 at the end of the round as usual.",
       "{remove_hunt_cards: {count: 2, random: true, to: deck_bottom}}", _remove_hunt_cards),
    # ---- places and tokens
    _w("copy_power", "action", [Param("of", PLACE)],
       "use the power of {of} as if you were there",
       "Copies a place's power; a place marked `copyable: false` (the Artefact) and the place itself cannot be "
       "copied.", "{copy_power: {of: creature_token}}", _copy_power,
       lambda ctx, e: bool(_copy_options(ctx, e))),
    _w("move_hunted", "action", [Param("who", WHO_T, "chosen_hunted")],
       "move {who} to a place next to theirs",
       "The Hunted now stands on the chosen adjacent place (their card is unchanged).",
       "{move_hunted: {}}", _move_hunted),
    _w("move_token", "action", [Param("token", TOKEN)],
       "move the {token} token to a place next to it",
       "The player acting chooses the adjacent place.", "{move_token: {token: creature}}", _move_token,
       _token_placed),
    # ---- combinators
    _w("one_of", "action", [Param("options", OPTIONS), Param("chooser", CHOOSER, "self")],
       "choose one: {options}",
       "The chooser picks one option among those whose first effect is possible, then its effects happen in "
       "order.", "{one_of: {options: [[{gain_will: {}}], [{draw_survival: {}}]]}}", _one_of),
    # ---- rules
    _w("play_place_cards", "rule", [Param("count", COUNT, 2), Param("resolve", RESOLVE, "one")],
       "play {count} place cards face down: {resolve}",
       "The Hunted plays several place cards face down: with `one`, they keep one before the reveal and take "
       "the others back; with `all`, every card is resolved.",
       "{play_place_cards: {count: 2, resolve: one, lasts: next_round}}", _rule_plain,
       lasts=Duration.NEXT_ROUND),
    _w("cancel_power", "rule", [Param("where", PLACES)],
       "the power of {where} has no effect",
       "A Hunted there may neither use the power nor take back a card instead.",
       "{cancel_power: {where: chosen}}", _rule_places("where")),
    _w("forbid_places", "rule", [Param("where", PLACES)],
       "no Hunted may play {where}", "Those place cards may not be played this round.",
       "{forbid_places: {where: target_token}}", _rule_places("where")),
    _w("token_acts_as", "rule", [Param("token", TOKEN), Param("as", TOKEN)],
       "the {token} token also counts as the {as} token", "The token has both tokens' effects.",
       "{token_acts_as: {token: target, as: creature}}", _rule_plain),
    _w("extra_will_loss", "rule", [Param("token", TOKEN, "creature"), Param("amount", COUNT, 1),
                                   Param("on", PLACES, "any")],
       "a Hunted caught by the {token} token {on} loses {amount} more will",
       "Adds to the will a token takes; `on: this` limits it to the place that has this rule.",
       "{extra_will_loss: {token: creature, amount: 1}}", _rule_places("on")),
    _w("catch_moves_more", "rule", [Param("who", WHO_T, "chosen_hunted"), Param("token", TOKEN, "creature"),
                                      Param("by", COUNT, 1)],
       "if {who} is caught by the {token} token, the Assimilation counter moves {by} more space(s)",
       "The chosen Hunted is remembered when the card is played.",
       "{catch_moves_more: {by: 1}}", _rule_seats),
    _w("no_survival_cards", "rule", [],
       "no survival card may be played or drawn",
       "Survival cards can be neither played nor drawn (a place that would draw one gives nothing).",
       "{no_survival_cards: {}}", _rule_plain),
    _w("no_hunt_cards", "rule", [],
       "no hunt card may be played",
       "The Creature may play no hunt card while this is in force.", "{no_hunt_cards: {}}", _rule_plain),
    _w("hide_discards", "rule", [],
       "every Hunted's discarded place cards are hidden",
       "The discard piles of place cards are turned face down: the Creature no longer sees them.",
       "{hide_discards: {}}", _rule_plain),
    _w("take_back_limit", "rule", [Param("max", COUNT)],
       "a place's power gives back at most {max} place card(s)",
       "Caps `take_back_places` used through a place's power.", "{take_back_limit: {max: 1}}", _rule_plain),
    _w("stop_track", "rule", [Param("track", TRACK)],
       "the {track} counter cannot move forward",
       "`move_track` and the end-of-round move do nothing for that track.",
       "{stop_track: {track: rescue}}", _rule_plain),
    _w("hunt_card_limit", "rule", [Param("count", COUNT, 2)],
       "the Creature may play up to {count} hunt cards",
       "Raises the one-hunt-card-per-round limit.", "{hunt_card_limit: {count: 2, lasts: next_round}}",
       _rule_plain, lasts=Duration.NEXT_ROUND),
    _w("ignore_token", "rule", [Param("token", TOKEN)],
       "you avoid the effects of the {token} token",
       "Applies to the player who made the rule.", "{ignore_token: {token: creature}}", _rule_plain),
]

WORDS: dict[str, Word] = {w.name: w for w in _WORDS}


# ------------------------------------------------------------------------------------------ use


def possible(ctx: Context, effect: Effect) -> bool:
    """Whether the effect can happen now (a word without a condition always can)."""
    word = WORDS[effect.word]
    return word.possible is None or word.possible(ctx, effect)


class EffectsTooDeep(CrewkitError):
    """Effects applying effects (a copied power copying a power, ...) nested past :data:`MAX_EFFECT_DEPTH`."""


_depth = [0]  # effects being applied, nested (a game runs on one thread at a time)


def apply(ctx: Context, effect: Effect) -> None:
    """Apply one checked effect: an action happens now, a rule goes into the game's rule book. Effects that
    apply effects stop past :data:`~crewkit.effects.cost.MAX_EFFECT_DEPTH` with a message naming the effect
    (the load checks of :mod:`crewkit.effects.cost` keep a checked rule set from getting there)."""
    if _depth[0] >= MAX_EFFECT_DEPTH:
        raise EffectsTooDeep(f"{effect.where()}: {effect.word}: effects apply one another more than "
                             f"{MAX_EFFECT_DEPTH} deep (cards that copy each other?)")
    _depth[0] += 1
    try:
        WORDS[effect.word].apply(ctx, effect)
    finally:
        _depth[0] -= 1


def apply_all(ctx: Context, effects: Sequence[Effect]) -> None:
    for effect in effects:
        apply(ctx, effect)


# How argument values read in player text (the table's "rules in force", docs/missions.md).
WHO_WORDS: dict[str, str] = {"self": "you", "affected": "the Hunted", "chosen_hunted": "a Hunted of your choice",
                             "each_hunted": "every Hunted"}
PLACE_WORDS: dict[str, str] = {
    "this": "this place",
    "creature_token": "the place holding the Creature token",
    "target_token": "any place holding the Target token",
    "artemia_token": "any place holding the Artemia token",
    "adjacent": "a place next to this one",
    "chosen": "a place of your choice",
    "any": "any place",
}
CHOICE_WORDS: dict[tuple[str, str], str] = {
    ("to", "discard"): "to the discard pile",
    ("to", "deck_bottom"): "under the hunt deck",
    ("resolve", "one"): "before they are revealed you keep one and take the others back into your hand",
    ("resolve", "all"): "every one of them is resolved",
    ("chooser", "self"): "you",
    ("chooser", "affected"): "the Hunted",
}


def describe(effect: Effect) -> str:
    """Player text of one effect, from its word's text and arguments (durations included).

    A word's text marks what agrees with its arguments: ``take[s]`` agrees with ``{who}`` ("you take", "every
    Hunted takes", and "their" reads "your" after "you"), ``card(s)`` with the number before it ("1 place
    card", "2 place cards", "all place cards"), and ``{flag? words}`` shows the words when a true-or-false
    argument is true."""
    word = WORDS[effect.word]
    values: dict[str, str] = {}
    flags: dict[str, bool] = {}
    for p in word.params:
        value: Any = effect.args[p.name]
        if p.type.name == "options":
            values[p.name] = " or ".join(
                "(" + ", then ".join(describe(sub) for sub in opt) + ")" for opt in value or [])
        elif p.name == "who":
            values[p.name] = WHO_WORDS[value]
        elif p.type.name in ("place", "places"):
            items = value if isinstance(value, list) else [value]
            named = [PLACE_WORDS.get(i) or "the " + _title(i) for i in items]
            values[p.name] = " and ".join(named)
            if p.name == "on":  # where a rule applies: anywhere needs no words
                values[p.name] = "" if items == ["any"] else "on " + values[p.name]
        elif p.type.name == "bool":
            flags[p.name] = bool(value)
            values[p.name] = "yes" if value else "no"
        elif (p.name, str(value)) in CHOICE_WORDS:
            values[p.name] = CHOICE_WORDS[(p.name, str(value))]
        elif p.type.name == "name":  # a token or a track of the rule set: the Creature token, the Rescue counter
            values[p.name] = _title(str(value))
        else:
            values[p.name] = _show(value)
    text = re.sub(r"\{(\w+)\?([^}]*)\}", lambda m: m.group(2) if flags.get(m.group(1)) else "", word.text)
    text = text.format(**values)
    you = values.get("who") == "you"
    text = re.sub(r"(\w+)\[s\]", lambda m: m.group(1) if you else _third_person(m.group(1)), text)
    if you:
        text = re.sub(r"\btheir\b", "your", text)
    text = _numbers(text)
    # "all place cards of your choice": every one of them, nothing is chosen
    text = re.sub(r"\ball ((?:[\w']+ )*?[\w']+s) of (?:your|their) choice", r"all the \1", text)
    text = " ".join(text.split())
    if effect.lasts is Duration.NEXT_ROUND:
        text = "next round, " + text
    elif effect.lasts is Duration.THIS_ROUND:
        text += " this round"
    return text


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    return verb + "s"


def _numbers(text: str) -> str:
    """``1 place card(s)`` → ``1 place card``, ``2 place card(s)`` → ``2 place cards``."""

    def one(m: re.Match[str]) -> str:
        return m.group(1) + m.group(2) + ("" if m.group(1).split(" ", 1)[0] == "1" else "s")

    text = re.sub(r"\b((?:\d+|all) )((?:[\w']+ ){0,2}?[\w']+)\(s\)", one, text)
    return text.replace("(s)", "s")


def _title(name: str) -> str:
    """A place, token or track of the rule set by its name: ``wreck`` → ``Wreck``, ``rescue`` → ``Rescue``."""
    return " ".join(w[:1].upper() + w[1:] for w in re.split(r"[_\s]+", name) if w)
