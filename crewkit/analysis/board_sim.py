"""Simulations of the board-of-places family (Not Alone): many seeded games with a bot per side, each side's
win rate with a 95% interval and the mean number of rounds.

``crewkit simulate`` and ``crewkit compare`` dispatch here by the rule set's family (:func:`is_board_ruleset`);
the games run on the same runner as the trick-taking ones (:func:`crewkit.analysis.pool.run_streams`:
``--workers``, ``--precision``, ``--cluster``). Game ``i`` is seeded ``f"{seed}:{i}"`` and its bots with the
same string (each adds its seat), so results depend only on the arguments, never on the number of workers;
paired variants (compare) play the same shuffles with the same bot seeds.
"""

from __future__ import annotations

import functools
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.analysis.pool import StatusCallback, Target, run_streams
from crewkit.analysis.stats import wilson_interval
from crewkit.bots.board import parse_side_bots, play_board_game, side_bots, side_label
from crewkit.effects.ruleset import EffectRuleSet
from crewkit.engine.board import BoardGame, board_ruleset_path, load_board_ruleset, new_board_game
from crewkit.engine.boardstate import LONE, CardsState, TracksState
from crewkit.engine.errors import SetupError

_TOP_KEY = re.compile(r"^(family|extends):\s*['\"]?([^'\"#\s]+)")
BOARD_FAMILIES = ("not-alone",)


def is_board_ruleset(ref: str | Path) -> bool:
    """Whether ``ref`` (a bundled name or a path) is a rule set of the board family (``family: not-alone``),
    read from its top-level ``family:`` line, or that of the file it ``extends:``; False when there is no such
    file (the trick-taking loader then says what is wrong)."""
    try:
        path = board_ruleset_path(ref)
    except SetupError:
        return False
    for _ in range(8):  # a chain of extends: at most a few files
        keys: dict[str, str] = {}
        try:
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    found = _TOP_KEY.match(line)
                    if found:
                        keys.setdefault(found.group(1), found.group(2))
        except (OSError, UnicodeDecodeError):
            return False
        if "family" in keys:
            return keys["family"] in BOARD_FAMILIES
        if "extends" not in keys:
            return False
        parent = path.parent / keys["extends"]
        path = parent if parent.suffix in (".yaml", ".yml") else parent.with_suffix(".yaml")
    return False


# ---------------------------------------------------------------------------- one game
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
    """The shuffled hunt and survival cards as dealt (equal fingerprints: the same shuffles)."""
    cards = game.state(CardsState)
    return "|".join([",".join(cards.hunt_hand + cards.hunt_deck), *(",".join(h) for h in cards.survival),
                     ",".join(cards.survival_deck)])


def play_board(ruleset: EffectRuleSet, players: int, creature: str, hunted: str, seed: str, index: int) -> \
        BoardGameResult:
    """Game ``index`` of a simulation seeded ``seed``, played to its end by the two sides' bots."""
    game_seed = f"{seed}:{index}"
    game = new_board_game(ruleset, players, game_seed)
    deal = deal_fingerprint(game)
    play_board_game(game, side_bots(game, creature, hunted, game_seed))
    tracks = game.state(TracksState)
    return BoardGameResult(index, game.winners == (LONE,), game.round, game.outcome().reason,
                           tracks.position["rescue"], tracks.position["assimilation"], deal)


_STATE: dict[str, Any] = {}


@functools.lru_cache(maxsize=16)
def cached_ruleset(ref: str) -> EffectRuleSet:
    """A board rule set loaded and checked once per process (checking the card files takes a second or more)."""
    return load_board_ruleset(ref)


def _init_worker(ruleset: str, players: int, creature: str, hunted: str, seed: str) -> None:
    _STATE.clear()
    _STATE.update(ruleset=cached_ruleset(ruleset), players=players, creature=creature, hunted=hunted, seed=seed)


def _play_job(job: tuple[int, int]) -> BoardGameResult:
    st = _STATE
    return play_board(st["ruleset"], st["players"], st["creature"], st["hunted"], st["seed"], job[1])


def _creature_won(result: BoardGameResult) -> bool:
    return result.creature_won


# ---------------------------------------------------------------------------- the summary
@dataclass
class BoardSimulationResult:
    ruleset: str
    players: int
    creature_bot: str
    hunted_bot: str
    seed: str
    games: int
    creature_wins: int
    rounds_total: int
    reasons: list[tuple[str, int]]
    seconds: float
    workers: int = 1
    precision: float | None = None
    max_games: int | None = None
    rounds: list[int] = field(default_factory=list, repr=False)

    @property
    def hunted_wins(self) -> int:
        return self.games - self.creature_wins

    def rate(self, side: str) -> float:
        wins = self.creature_wins if side == "creature" else self.hunted_wins
        return wins / self.games if self.games else 0.0

    def interval(self, side: str) -> tuple[float, float]:
        """The 95% Wilson interval of ``side``'s win rate (``creature`` or ``hunted``)."""
        return wilson_interval(self.creature_wins if side == "creature" else self.hunted_wins, self.games)

    @property
    def mean_rounds(self) -> float:
        return self.rounds_total / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def bot(self) -> str:
        return side_label(self.creature_bot, self.hunted_bot)

    def precision_text(self) -> str:
        if self.precision is None:
            return ""
        low, high = self.interval("creature")
        reached = (high - low) / 2 <= self.precision + 1e-12
        how = "reached" if reached else f"not reached: stopped at the cap of {self.max_games} games"
        return f"precision ±{100 * self.precision:.1f} points {how} (±{100 * (high - low) / 2:.1f} after {self.games})"

    def to_json(self) -> dict[str, Any]:
        def side(name: str) -> dict[str, Any]:
            low, high = self.interval(name)
            wins = self.creature_wins if name == "creature" else self.hunted_wins
            return {"wins": wins, "win_rate": round(self.rate(name), 6), "interval95": [round(low, 6), round(high, 6)]}

        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "bots": {"creature": self.creature_bot, "hunted": self.hunted_bot},
            "seed": self.seed,
            "games": self.games,
            "creature": side("creature"),
            "hunted": side("hunted"),
            "mean_rounds": round(self.mean_rounds, 4),
            "endings": [{"reason": r, "count": c} for r, c in self.reasons],
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
            "workers": self.workers,
            "precision": self.precision,
        }

    def format_text(self) -> str:
        lines = [f"{self.ruleset} · {self.players} players (1 Creature, {self.players - 1} Hunted) · Creature bot "
                 f"{self.creature_bot}, Hunted bot {self.hunted_bot} · seed {self.seed!r}"]
        for name, title in (("creature", "Creature"), ("hunted", "Hunted")):
            low, high = self.interval(name)
            wins = self.creature_wins if name == "creature" else self.hunted_wins
            lines.append(f"{title:<9} wins {wins}/{self.games} = {100 * self.rate(name):.1f}%"
                         f"  (95% interval {100 * low:.1f}%–{100 * high:.1f}%)")
        lines.append(f"rounds    {self.mean_rounds:.2f} per game on average")
        if self.reasons:
            lines.append("endings   " + "; ".join(f"{c}× {r}" for r, c in self.reasons))
        if self.precision is not None:
            lines.append(f"target    {self.precision_text()}")
        lines.append(f"time      {self.seconds:.2f} s, {self.games_per_second:.1f} games/s"
                     f" ({self.workers} worker{'s' if self.workers != 1 else ''})")
        return "\n".join(lines)


def summarise_board(results: list[BoardGameResult], ruleset: str, players: int, creature: str, hunted: str,
                    seed: str, seconds: float, workers: int = 1) -> BoardSimulationResult:
    reasons = Counter(r.reason for r in results)
    return BoardSimulationResult(
        ruleset=ruleset, players=players, creature_bot=creature, hunted_bot=hunted, seed=seed, games=len(results),
        creature_wins=sum(r.creature_won for r in results), rounds_total=sum(r.rounds for r in results),
        reasons=sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])), seconds=seconds, workers=workers,
        rounds=[r.rounds for r in results])


def check_board(ruleset: str, players: int) -> EffectRuleSet:
    """The rule set, loaded and checked for ``players`` (raises SetupError or SpecError saying what is wrong)."""
    rs = cached_ruleset(ruleset)
    allowed = list(rs.data["players"])
    if players not in allowed:
        raise SetupError(f"rule set {rs.name} is for {', '.join(map(str, allowed))} players, not {players}")
    return rs


def simulate_board(
    ruleset: str,
    players: int,
    games: int,
    bot: str = "heuristic",
    seed: str = "crewkit",
    *,
    creature_bot: str | None = None,
    hunted_bot: str | None = None,
    workers: int = 1,
    precision: float | None = None,
    cluster: str | None = None,
    status: StatusCallback | None = None,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
    checkpoint: int = 25,
) -> BoardSimulationResult:
    """Play ``games`` games (a cap with ``precision``: until the 95% interval of the win rates is at most ±H)."""
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    if precision is not None and not 0 < precision < 0.5:
        raise ValueError(f"the precision is a half-width between 0 and 0.5, found {precision}")
    creature, hunted = parse_side_bots(bot, creature_bot, hunted_bot)
    check_board(ruleset, players)  # fail early, in this process
    start = time.perf_counter()
    by_stream, used = run_streams(_play_job, [0], _creature_won, Target(games, precision, checkpoint),
                                  workers=workers, cluster=cluster, initializer=_init_worker,
                                  initargs=(ruleset, players, creature, hunted, seed), status=status, max_chunk=16,
                                  oversubscribe=oversubscribe, on_note=on_note)
    out = summarise_board(by_stream[0], ruleset, players, creature, hunted, seed, time.perf_counter() - start, used)
    out.precision, out.max_games = precision, (games if precision is not None else None)
    return out


__all__ = [
    "BoardGameResult",
    "BoardSimulationResult",
    "cached_ruleset",
    "check_board",
    "deal_fingerprint",
    "is_board_ruleset",
    "play_board",
    "simulate_board",
    "summarise_board",
]
