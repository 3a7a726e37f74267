"""Effects as data: the vocabulary of effect words, their checking and their application to a game state.

Card and place powers (Not Alone's places, hunt cards, survival cards) are lists of effect words in YAML,
checked against :mod:`crewkit.effects.words` with positioned errors and applied through the
:class:`~crewkit.effects.state.EffectState` protocol. ``python -m crewkit.effects.docs`` prints the reference.
"""

from __future__ import annotations

from .cardsets import Card, CardSet, load_card_set
from .check import EffectChecker, check_effects
from .model import CHANCE, CREATURE, ActiveRule, Duration, Effect, RuleBook
from .state import Chooser, Context, EffectState
from .words import WORDS, Word, apply, apply_all, describe, possible

__all__ = [
    "CHANCE",
    "CREATURE",
    "WORDS",
    "ActiveRule",
    "Card",
    "CardSet",
    "Chooser",
    "Context",
    "Duration",
    "Effect",
    "EffectChecker",
    "EffectState",
    "RuleBook",
    "Word",
    "apply",
    "apply_all",
    "check_effects",
    "describe",
    "load_card_set",
    "possible",
]
