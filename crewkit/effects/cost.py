"""What a board-family rule set may cost to play, checked at load as :mod:`crewkit.dsl.cost` checks conditions.

Rule sets come from strangers. The schema bounds every number a rule set declares (cards dealt and drawn,
cards a round, the reserve, seats, counters, tracks, tokens, readings: ``schemas/not-alone-ruleset.schema.json``
and ``schemas/card-set.schema.json``); what no single number shows is checked here:

* **how long a game lasts**: some block of the flow must move a track every round (a ``round-upkeep`` whose
  ``config`` section moves a track at least one space), so a game ends within ``goal / step`` rounds
  (at most :data:`MAX_ROUNDS`) whatever the players do;
* **the counts effects name** (cards, places, spaces, counters): at most :data:`MAX_COUNT`
  (:class:`crewkit.effects.words.ArgType`);
* **effects that copy effects**: a place whose power applies another place's power (``copy_power``) may not be
  copied by another such place, or the two copy each other forever: among the places at most one copyable
  place copies a power. (A card that is played as another, ``copies: last_discarded``, never copies a card that
  copies: :meth:`crewkit.effects.cardsets.CardSet.copied`.)

At run time :func:`crewkit.effects.words.apply` still stops effects nested deeper than
:data:`MAX_EFFECT_DEPTH` with a message (never a ``RecursionError``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from crewkit.spec.errors import SpecIssue
from crewkit.spec.yamlio import LoadedDoc

from .model import Effect

#: the most rounds a game may last: the longest goal (the schema's 100 spaces) at one space a round
MAX_ROUNDS = 100
#: effects applying effects (a copied power, a copied card, an option) at most this deep
MAX_EFFECT_DEPTH = 16
#: the largest count an effect may name (cards, places, spaces, counters: the schema bounds the rule set's own)
MAX_COUNT = 20
#: the words whose effect applies another card's effects: the card set whose cards they copy, and in words
COPY_WORDS = {"copy_power": ("places", "the power of another place")}


def _words(effects: Sequence[Effect]) -> Iterator[str]:
    for effect in effects:
        yield effect.word
        for value in effect.args.values():  # the options of one_of: lists of lists of effects
            if isinstance(value, list | tuple):
                for option in value:
                    if isinstance(option, list | tuple):
                        yield from _words([e for e in option if isinstance(e, Effect)])


def copy_cycle_issues(doc: LoadedDoc, kind: str, cards: Sequence[Any]) -> list[SpecIssue]:
    """The cards of a card set of ``kind`` (``cards``: :class:`~crewkit.effects.cardsets.Card`) that could copy
    one another forever: for each word copying cards of that kind, every copyable card using it after the first
    (a card of another set that copies one of these starts a chain that ends)."""
    out: list[SpecIssue] = []
    for word, (copied_kind, what) in COPY_WORDS.items():
        if copied_kind != kind:
            continue
        copiers = [(i, card) for i, card in enumerate(cards)
                   if card.copyable and word in set(_words((*card.effects, *card.passive)))]
        for i, card in copiers[1:]:
            first = copiers[0][1]
            line, column = doc.position_of(("cards", i, "id"))
            out.append(SpecIssue(doc.filename, line, column, ("cards", i, "id"),
                                 f"{card.id} and {first.id} both copy {what} ({word}): each could copy the other, "
                                 f"forever; mark all but one of them `copyable: false`"))
    return out


def game_length_issues(doc: LoadedDoc) -> list[SpecIssue]:
    """Whether every game ends: some ``round-upkeep`` of the flow moves a track every round, and the rounds that
    takes stay within :data:`MAX_ROUNDS`."""
    data = doc.data
    goals = {name: max((int(v) for v in (spec.get("goal") or {}).values()), default=0)
             for name, spec in (data.get("tracks") or {}).items() if isinstance(spec, Mapping)}
    rounds: list[int] = []
    for entry in data.get("flow") or []:
        if not isinstance(entry, Mapping) or entry.get("block") != "round-upkeep":
            continue
        section: Any = data
        for key in str(entry.get("config", "")).split(".") if entry.get("config") else ():
            section = section.get(key, {}) if isinstance(section, Mapping) else {}
        moves = section.get("move_track") if isinstance(section, Mapping) else None
        for track, step in (moves or {}).items():
            if isinstance(step, int) and step > 0 and goals.get(track):
                rounds.append(-(-goals[track] // step))
    if not rounds:
        line, column = doc.position_of(("flow",))
        return [SpecIssue(doc.filename, line, column, ("flow",),
                          "no track moves every round (a round-upkeep block whose config moves a track at least "
                          "one space): a game could go on forever")]
    if min(rounds) > MAX_ROUNDS:  # pragma: no cover - the schema's bounds keep goal / step within it
        line, column = doc.position_of(("tracks",))
        return [SpecIssue(doc.filename, line, column, ("tracks",),
                          f"a game could last {min(rounds)} rounds (at most {MAX_ROUNDS})")]
    return []


__all__ = ["COPY_WORDS", "MAX_COUNT", "MAX_EFFECT_DEPTH", "MAX_ROUNDS", "copy_cycle_issues", "game_length_issues"]
