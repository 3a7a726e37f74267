"""One seeded game of the board family (Not Alone) played by a bot per side, summarised for ``crewkit
compare`` (``crewkit simulate`` plays its games in :mod:`crewkit.analysis.simulate`, on the same runner).

Game ``i`` is seeded ``f"{seed}:{i}"`` and its bots with the same string (each adds its seat), so paired
variants play the same shuffles with the same bot seeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from crewkit.bots.board import play_board_game, side_bots
from crewkit.engine.board import BoardGame, load_board_ruleset, with_readings
from crewkit.engine.boardstate import LONE, CardsState, TracksState
from crewkit.engine.errors import SetupError


@dataclass(frozen=True)
class BoardGameResult:
    index: int
    creature_won: bool
    rounds: int
    reason: str
    rescue: int  # where the Rescue counter ended (spaces moved)
    assimilation: int
    deal: str = ""  # the shuffled decks as text (equal: the same shuffles)


def deal_fingerprint(game: BoardGame) -> str:
    """The shuffled effect card decks as dealt, hands and draw piles (equal fingerprints: the same shuffles)."""
    cards = game.state(CardsState)
    return "|".join(
        ",".join([*(c for hand in cards.hands[deck] for c in hand), *cards.draw[deck]]) for deck in cards.draw
    )


def board_game(ruleset: str, players: int, readings: Mapping[str, str] | None, seed: str) -> BoardGame:
    """A new game of a board rule set by name or path, with other options for some readings; a player count
    the rule set does not allow, or an unknown reading, is a SetupError naming it."""
    rs = load_board_ruleset(ruleset)
    return BoardGame(with_readings(rs, readings) if readings else rs, players, seed)


def play_board(
    ruleset: str, players: int, bots: str, seed: str, index: int, readings: Mapping[str, str] | None = None
) -> BoardGameResult:
    """Game ``index`` of a run seeded ``seed``, played to its end by the side spec's bots (``heuristic``,
    ``random/heuristic``: see :func:`crewkit.bots.board.parse_side_bots`)."""
    game_seed = f"{seed}:{index}"
    game = board_game(ruleset, players, readings, game_seed)
    deal = deal_fingerprint(game)
    play_board_game(game, side_bots(game, bots, game_seed))
    tracks = game.state(TracksState)
    return BoardGameResult(
        index,
        game.winners == (LONE,),
        game.round,
        game.outcome().reason,
        tracks.position["rescue"],
        tracks.position["assimilation"],
        deal,
    )


__all__ = ["BoardGameResult", "SetupError", "board_game", "deal_fingerprint", "play_board"]
