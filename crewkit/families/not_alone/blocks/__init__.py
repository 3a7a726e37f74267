"""The phase blocks of a board-of-places game (:mod:`crewkit.families.not_alone.board`), named for what they do.

A rule set lists them in its ``flow:`` (``schemas/ruleset.schema.json``, ``$defs/machineFlow``); each entry may
carry parameters (``phase``, ``seats``, ``label``, ``option``):

| block | what it does |
|---|---|
| ``option-choice`` | one seat picks one of a table's keys once, before the first round (the board's side) |
| ``card-window`` | seats in order may play effect cards of the given phase (or pass) |
| ``secret-choice`` | every other seat chooses place cards at once, face down (the order never shows); before that, may spend its counter to take cards back (resist), start over (give up) or play a card |
| ``token-placement`` | the lone seat plays cards of the phase, then puts its tokens on places |
| ``reveal`` | the face-down choices are kept (one of two) and turned up |
| ``place-resolution`` | each seat's place resolved in seat order: tokens, powers, cards taken back |
| ``round-upkeep`` | played cards discarded, tokens back, cards drawn, a track moved; the next round |

Roles in ``seats:`` are the rule set's ``roles:``: the first is the lone seat (seat 0), the second every other
seat, in order.
Effects are applied through :mod:`crewkit.effects`; a decision inside an effect is asked as a
:class:`~crewkit.engine.machine.Pick` by the machine.
"""

from crewkit.families.not_alone.blocks.cards import (
    CardWindow,
    GiveUp,
    OptionChoice,
    Pass,
    PlaceToken,
    PlayCard,
    PlayPlaces,
    Resist,
    chosen,
    playable,
)
from crewkit.families.not_alone.blocks.resolution import PlaceResolution, RoundUpkeep
from crewkit.families.not_alone.blocks.rounds import Reveal, SecretChoice, TokenPlacement

__all__ = [
    "CardWindow",
    "GiveUp",
    "OptionChoice",
    "Pass",
    "PlaceResolution",
    "PlaceToken",
    "PlayCard",
    "PlayPlaces",
    "Resist",
    "Reveal",
    "RoundUpkeep",
    "SecretChoice",
    "TokenPlacement",
    "chosen",
    "playable",
]
