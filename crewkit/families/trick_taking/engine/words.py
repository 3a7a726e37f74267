"""Words a player reads for the engine's codes, shared by every front end (no imports: the terminal app's first
screen loads it without the engine)."""

from __future__ import annotations

#: a communication's statement (the token's position, or the Persian signal) in words: the table, the dialogs,
#: ``crewkit replay``
STATEMENT_WORDS: dict[str, str] = {
    "top": "highest",
    "bottom": "lowest",
    "only": "only",
    "signal": "signalled",
}
