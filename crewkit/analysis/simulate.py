"""Monte-Carlo simulation: many seeded games of one mission with one kind of bot.

Game ``i`` is seeded with ``f"{seed}:{i}"`` (the deal) and its bots with the same string (each bot adds
its seat), so a simulation's results depend only on its arguments, never on the number of workers.
Simulations never print; give ``progress`` a callback to follow them.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.analysis.pool import ProgressCallback, StatusCallback, Target, run_streams
from crewkit.analysis.stats import wilson_interval
from crewkit.games import TRICK_TAKING, family_for, family_named
from crewkit.games.driver import play_out


@dataclass(frozen=True)
class GameResult:
    index: int
    success: bool
    tricks: int
    reason: str
    # competitive games (Hammer): chips per seat at the end, the first dealer, each round's mode
    chips: tuple[float, ...] | None = None
    first_dealer: int | None = None
    modes: tuple[str, ...] = ()


@dataclass
class SimulationResult:
    ruleset: str
    mission: str
    players: int
    bot: str
    seed: str
    games: int
    successes: int
    tricks_total: int
    reasons: list[tuple[str, int]]  # normalised failure reasons, most common first
    seconds: float
    workers: int = 1
    readings: dict[str, str] = field(default_factory=dict)
    scoring: dict[str, Any] | None = None  # competitive games: chips per seat / dealer position, modes
    precision: float | None = None  # the target half-width (--precision), None for a fixed number of games
    max_games: int | None = None  # the cap on games with a precision
    family: str = TRICK_TAKING  # the rule set's family: its words name success (a side's win) and length

    def precision_text(self) -> str:
        """Whether the target was reached: one line, or '' without a target."""
        if self.precision is None:
            return ""
        low, high = self.interval
        reached = (high - low) / 2 <= self.precision + 1e-12
        how = "reached" if reached else f"not reached: stopped at the cap of {self.max_games} games"
        return f"precision ±{100 * self.precision:.1f} points {how} (±{100 * (high - low) / 2:.1f} after {self.games})"

    @property
    def failures(self) -> int:
        return self.games - self.successes

    @property
    def success_rate(self) -> float:
        return self.successes / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the success rate."""
        return wilson_interval(self.successes, self.games)

    @property
    def mean_tricks(self) -> float:
        return self.tricks_total / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def top_reasons(self, k: int = 5) -> list[tuple[str, int]]:
        return self.reasons[:k]

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "ruleset": self.ruleset,
            "mission": self.mission,
            "players": self.players,
            "bot": self.bot,
            "seed": self.seed,
            "readings": dict(self.readings),
            "games": self.games,
            "successes": self.successes,
            "failures": self.failures,
            "success_rate": round(self.success_rate, 6),
            "interval95": [round(low, 6), round(high, 6)],
            "mean_tricks": round(self.mean_tricks, 4),
            "failure_reasons": [{"reason": r, "count": c} for r, c in self.reasons],
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
            "workers": self.workers,
            "precision": self.precision,
            **({"scoring": self.scoring} if self.scoring else {}),
            **self._sides_json(low, high),
        }

    def _sides_json(self, low: float, high: float) -> dict[str, Any]:
        """A game of two sides: each side's bot and win rate, the mean length in the family's words."""
        family = family_named(self.family)
        sides = family.words.sides
        if sides is None:
            return {}
        won, lost = (s.lower() for s in sides)
        return {"family": self.family, "bots": family.bots_json(self.bot),
                f"{won}_win_rate": round(self.success_rate, 6),
                f"{lost}_win_rate": round(1 - self.success_rate, 6),
                f"{lost}_interval95": [round(1 - high, 6), round(1 - low, 6)],
                f"mean_{family.words.length}": round(self.mean_tricks, 4)}

    def format_text(self, reasons: int = 5) -> str:
        if self.scoring:
            return self._format_scoring()
        if family_named(self.family).words.sides is not None:
            return self._format_sides()
        low, high = self.interval
        lines = [
            f"{self.ruleset} · {self.mission} · {self.players} players · bot {self.bot} · seed {self.seed!r}",
            f"success   {self.successes}/{self.games} = {100 * self.success_rate:.1f}%"
            f"  (95% interval {100 * low:.1f}%–{100 * high:.1f}%)",
            f"tricks    {self.mean_tricks:.2f} per game on average",
        ]
        if self.reasons:
            lines.append("failures  most common reasons:")
            width = max(len(str(c)) for _, c in self.reasons[:reasons])
            for reason, count in self.reasons[:reasons]:
                share = 100 * count / max(1, self.failures)
                lines.append(f"  {count:>{width}}  {share:5.1f}%  {reason}")
        if self.precision is not None:
            lines.append(f"target    {self.precision_text()}")
        lines.append(
            f"time      {self.seconds:.2f} s, {self.games_per_second:.1f} games/s"
            f" ({self.workers} worker{'s' if self.workers != 1 else ''})"
        )
        return "\n".join(lines)


    def _format_sides(self) -> str:
        """A game of two sides (Not Alone): each side's win rate with its interval, the mean length."""
        low, high = self.interval
        family = family_named(self.family)
        words = family.words
        won, lost = words.sides or ("success", "failure")
        bots = family.bots_json(self.bot) or {}
        by_side = ", ".join(f"{side} bot {bots.get(side.lower(), self.bot)}" for side in (lost, won))
        lines = [f"{self.ruleset} · {words.players(self.players)} · {by_side} · seed {self.seed!r}",
                 f"{won:<9} {self.successes}/{self.games} = {100 * self.success_rate:.1f}%"
                 f"  (95% interval {100 * low:.1f}%–{100 * high:.1f}%)",
                 f"{lost:<9} {self.failures}/{self.games} = {100 * (1 - self.success_rate):.1f}%"
                 f"  (95% interval {100 * (1 - high):.1f}%–{100 * (1 - low):.1f}%)",
                 f"{words.length:<9} {self.mean_tricks:.2f} per game on average"]
        if self.precision is not None:
            lines.append(f"target    {self.precision_text()}")
        lines.append(f"time      {self.seconds:.2f} s, {self.games_per_second:.1f} games/s"
                     f" ({self.workers} worker{'s' if self.workers != 1 else ''})")
        return "\n".join(lines)

    def _format_scoring(self) -> str:
        sc = self.scoring or {}
        lines = [f"{self.ruleset} · {self.mission} · {self.players} players · bot {self.bot} · seed {self.seed!r}",
                 f"games     {self.games} (competitive: chips after the last round, mean with 95% interval)"]
        for title, key, label in (("per seat", "chips_by_seat", "seat"),
                                  ("per dealer position", "chips_by_dealer_position", "position")):
            lines.append(f"chips {title}:")
            for row in sc.get(key, []):
                lines.append(f"  {label} {row['index']}: {row['mean']:8.1f}  ({row['low']:.1f}–{row['high']:.1f})"
                             f"  wins {row['wins']}")
        modes = sc.get("mode_share", {})
        if modes:
            lines.append("rounds    " + ", ".join(f"{m} {100 * share:.1f}%" for m, share in modes.items()))
        lines.append(f"time      {self.seconds:.2f} s, {self.games_per_second:.1f} games/s")
        return "\n".join(lines)


def scoring_summary(results: list[GameResult]) -> dict[str, Any] | None:
    """Mean chips per seat and per dealer position (0 = the first dealer) with normal 95% intervals."""
    scored = [r for r in results if r.chips is not None]
    if not scored:
        return None
    n = len(scored[0].chips or ())

    def rows(values_of: Callable[[GameResult], list[float]]) -> list[dict[str, Any]]:
        out = []
        for k in range(n):
            vals = [values_of(r)[k] for r in scored]
            mean = sum(vals) / len(vals)
            var = sum((v - mean) ** 2 for v in vals) / (len(vals) - 1) if len(vals) > 1 else 0.0
            half = 1.96 * (var / len(vals)) ** 0.5
            wins = sum(1 for r in scored if values_of(r)[k] == max(values_of(r)))
            out.append({"index": k, "mean": round(mean, 3), "low": round(mean - half, 3),
                        "high": round(mean + half, 3), "wins": wins})
        return out

    def by_position(r: GameResult) -> list[float]:
        chips = list(r.chips or ())
        d = r.first_dealer or 0
        return [chips[(d + k) % n] for k in range(n)]

    modes = Counter(m for r in scored for m in r.modes)
    total = sum(modes.values()) or 1
    return {
        "chips_by_seat": rows(lambda r: list(r.chips or ())),
        "chips_by_dealer_position": rows(by_position),
        "mode_share": {m: round(c / total, 6) for m, c in sorted(modes.items())},
    }


# ---------------------------------------------------------------------------- failure reasons
_PREFIX = re.compile(r"^failed (?:in|after) trick \d+:\s*")


def normalise_reason(reason: str) -> str:
    """Group failure reasons in words a player reads (every report's reasons come from here): the trick,
    the player and the card that vary from game to game become "a trick", "a player", "a 9", and a seat named
    in parentheses after a role or a card ("the sick crew member (seat 2)") is dropped, since the group holds
    every player. ``"the sick crew member won a trick"``, ``"a trick was won by a 9"``."""
    text = _PREFIX.sub("", reason.strip())
    low = text.lower()
    if "task order broken" in low:
        return "the task order was broken"
    if re.search(r"won by seat \d+, task of", low):
        return "a task card was won by another player"
    if "hands ran out with tasks undone" in low:
        return "the hands ran out with tasks undone"
    text = re.sub(r"\s*\(seat \d+(?: did| with [^()]*)?\)", "", text)
    text = re.sub(r"\bseat \d+(?=, not\b)", "another player", text)
    text = re.sub(r"\bseat \d+\b", "a player", text)
    text = re.sub(r", trick \d+\b", "", text)  # "won a second trick, trick 5"
    text = re.sub(r"\btrick \d+\b", "a trick", text)
    # a card a condition's value names keeps its rank (the conditions speak of ranks); one the reason's own
    # words name ("the pink 3") stays as it is
    text = re.sub(r"(?<!the )\b(?:blue|green|yellow|pink) ([1-9])\b", lambda m: f"{'an' if m[1] == '8' else 'a'} {m[1]}",
                  text, flags=re.IGNORECASE)
    text = re.sub(r"(?<!the )\brocket [1-4]\b", "a rocket", text, flags=re.IGNORECASE)
    text = re.sub(r"\s*\(\d+\)", "", text)  # a count in parentheses ("before the last trick (13)")
    return re.sub(r"\s+", " ", text).strip() or "failure"


# ---------------------------------------------------------------------------- workers
_STATE: dict[str, Any] = {}


def _init_worker(
    ruleset: str,
    mission: str,
    players: int,
    readings: Mapping[str, str] | None,
    bot: str,
    seed: str,
    records_dir: str | None,
) -> None:
    _STATE.clear()
    _STATE.update(family=family_for(ruleset), ruleset=ruleset, mission=mission or None, players=players,
                  readings=dict(readings or {}), bot=bot, seed=seed, records_dir=records_dir)


def _play_one(i: int) -> GameResult:
    st = _STATE
    family = st["family"]
    game_seed = f"{st['seed']}:{i}"
    game = family.open(st["ruleset"], st["mission"], st["players"], game_seed, st["readings"])
    play_out(game, family.seat_players(game, st["bot"], game_seed))  # a dummy seat gets a bot too
    if st["records_dir"] is not None:
        from crewkit.atomic import write_json_atomic

        write_json_atomic(Path(st["records_dir"]) / f"game-{i + 1:05d}.json", game.record())
    s = family.summary(game)
    return GameResult(i, s.success, s.length, s.reason, s.chips, s.first_dealer, s.modes)


def _play_job(job: tuple[int, int]) -> GameResult:
    return _play_one(job[1])


def _succeeded(result: GameResult) -> bool:
    return result.success


def simulate(
    ruleset: str,
    mission: str,
    players: int,
    games: int,
    bot: str,
    seed: str,
    workers: int = 1,
    readings: Mapping[str, str] | None = None,
    records_dir: str | Path | None = None,
    progress: ProgressCallback | None = None,
    overwrite: bool = False,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
    precision: float | None = None,
    cluster: str | None = None,
    status: StatusCallback | None = None,
    checkpoint: int = 25,
) -> SimulationResult:
    """Play ``games`` games and summarise them (identical results for any ``workers`` or ``cluster``).

    With ``precision`` H, ``games`` is a cap: games are played in blocks of ``checkpoint`` until the 95%
    interval of the success rate is at most ±H (see :class:`crewkit.analysis.pool.Target`). ``cluster``
    runs the games on Dask (an address, or ``"local"``); ``status`` follows the interval as games finish.

    ``records_dir`` must be empty or missing unless ``overwrite`` (files there are never replaced silently).
    ``workers`` is capped at the CPUs unless ``oversubscribe`` (see :mod:`crewkit.analysis.pool`); ``on_note``
    receives the message saying so.
    """
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    family = family_for(ruleset)
    # fail early, in this process, with the list of names for an unknown bot, positions for a bad spec
    family.bot_spec(bot)
    family.open(ruleset, mission or None, players, "check", readings)
    rd = str(records_dir) if records_dir is not None else None
    if rd is not None:
        folder = Path(rd)
        folder.mkdir(parents=True, exist_ok=True)
        if not overwrite and any(folder.iterdir()):
            raise FileExistsError(f"--records {rd}: the folder is not empty; its game-NNNNN.json files would be "
                                  "replaced: choose an empty folder, or add --overwrite")
    init_args = (ruleset, mission, players, dict(readings) if readings else None, bot, seed, rd)
    start = time.perf_counter()
    if precision is not None and not 0 < precision < 0.5:
        raise ValueError(f"the precision is a half-width between 0 and 0.5, found {precision}")

    def follow(st: Any) -> None:
        if progress is not None:
            progress(st.done, st.total)
        if status is not None:
            status(st)

    by_stream, workers = run_streams(_play_job, [0], _succeeded, Target(games, precision, checkpoint),
                                     workers=workers, cluster=cluster, initializer=_init_worker, initargs=init_args,
                                     status=follow, max_chunk=64, oversubscribe=oversubscribe, on_note=on_note)
    results = by_stream[0]
    seconds = time.perf_counter() - start
    out = summarise(results, ruleset, mission, players, bot, seed, seconds, workers, readings)
    out.precision, out.max_games = precision, (games if precision is not None else None)
    out.family = family.name
    if family.words.sides is not None:
        out.reasons = []  # a game of sides has no failures to list, only the other side's wins
    return out


def summarise(
    results: list[GameResult],
    ruleset: str,
    mission: str,
    players: int,
    bot: str,
    seed: str,
    seconds: float,
    workers: int = 1,
    readings: Mapping[str, str] | None = None,
) -> SimulationResult:
    scoring = scoring_summary(results)
    reasons = Counter(normalise_reason(r.reason) for r in results if not r.success and r.chips is None)
    ordered = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    return SimulationResult(
        ruleset=ruleset,
        mission=mission,
        players=players,
        bot=bot,
        seed=seed,
        games=len(results),
        successes=sum(r.success for r in results),
        tricks_total=sum(r.tricks for r in results),
        reasons=ordered,
        seconds=seconds,
        workers=workers,
        readings=dict(readings or {}),
        scoring=scoring,
    )
