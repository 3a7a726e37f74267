"""The data model of effects: one checked effect, its duration, and the rules in force for a while.

An effect is one word of the vocabulary (:mod:`crewkit.effects.words`) with its arguments, as written in a
card set file::

    effects:
      - take_back_places: {count: 1}
      - play_place_cards: {count: 2, resolve: one, lasts: next_round}

Words are of two kinds. An *action* happens at once (take back a card, move a track). A *rule* changes the
game's rules for a while: it has a duration (``lasts``), ``this_round`` unless said otherwise, or
``next_round`` (from the start of the next round to its end). Rules are kept in a :class:`RuleBook`, which
drops them when their last round ends: no card needs Python of its own to expire.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from crewkit.spec.errors import Path


class Duration(StrEnum):
    """How long a rule lasts. Actions have no duration (``NOW``)."""

    NOW = "now"
    THIS_ROUND = "this_round"
    NEXT_ROUND = "next_round"

    def rounds(self, current: int) -> tuple[int, int]:
        """The first and last round (inclusive) a rule made in round ``current`` is in force."""
        if self is Duration.NEXT_ROUND:
            return current + 1, current + 1
        return current, current


@dataclass(frozen=True)
class Effect:
    """One checked effect: a word, its arguments (defaults filled in) and where it was written.

    ``args`` never holds ``lasts``: that is :attr:`lasts`. Nested effects (``one_of``) are Effects too.
    """

    word: str
    args: Mapping[str, Any]
    lasts: Duration = Duration.NOW
    file: str = ""
    line: int = 0
    column: int = 0
    path: Path = ()

    def __getitem__(self, name: str) -> Any:
        return self.args[name]

    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}" if self.file else "(no file)"


@dataclass(frozen=True)
class ActiveRule:
    """A rule in force from round ``first`` to round ``last`` (inclusive), made by ``actor`` with ``card``.

    ``actor`` is a Hunted's seat, or :data:`CREATURE`. ``context`` keeps what the rule was aimed at when it
    was made (a chosen place, a chosen Hunted), so a later check does not have to ask again.
    """

    effect: Effect
    actor: int
    first: int
    last: int
    card: str = ""
    context: Mapping[str, Any] = field(default_factory=dict)

    @property
    def word(self) -> str:
        return self.effect.word

    def in_force(self, round_number: int) -> bool:
        return self.first <= round_number <= self.last


LONE_SEAT = -1
"""The seat number used for the lone seat (Not Alone's Creature) when an effect names who acts or chooses."""

CREATURE = LONE_SEAT  # the name Not Alone's vocabulary and card tests use

CHANCE = -2
"""The "seat" that chooses when a card says *at random*: the game's random source, not a player."""


class RuleBook:
    """The rules made by effects that are, or will be, in force. Generic: it knows words, not cards."""

    def __init__(self) -> None:
        self._rules: list[ActiveRule] = []

    def add(self, effect: Effect, actor: int, current_round: int, card: str = "",
            context: Mapping[str, Any] | None = None) -> ActiveRule:
        if effect.lasts is Duration.NOW:
            raise ValueError(f"{effect.word} is an action, not a rule: it has no duration")
        first, last = effect.lasts.rounds(current_round)
        rule = ActiveRule(effect, actor, first, last, card, dict(context or {}))
        self._rules.append(rule)
        return rule

    def in_force(self, round_number: int, word: str | None = None) -> list[ActiveRule]:
        """The rules in force in ``round_number`` (only those of ``word`` when given), oldest first."""
        return [r for r in self._rules if r.in_force(round_number) and (word is None or r.word == word)]

    def end_round(self, round_number: int) -> list[ActiveRule]:
        """Drop the rules whose last round is ``round_number`` (or earlier); returns the dropped ones."""
        gone = [r for r in self._rules if r.last <= round_number]
        self._rules = [r for r in self._rules if r.last > round_number]
        return gone

    def __iter__(self) -> Iterator[ActiveRule]:
        return iter(list(self._rules))

    def copy(self) -> RuleBook:
        """An independent copy (the rules themselves are immutable and shared)."""
        other = RuleBook()
        other._rules = list(self._rules)
        return other

    def __len__(self) -> int:
        return len(self._rules)
