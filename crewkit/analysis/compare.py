"""Compare variants on paired deals: the same seeds for every variant, bots and the solver on each deal.

A variant is a spec string of ``key=value`` pairs separated by commas::

    ruleset=crew,mission=planet-nine/10,players=4,bot=heuristic,reading=distress-after-failure:stays-active

Keys: ``ruleset`` (``rs``), ``mission`` (``m``), ``players`` (``p``), ``bot`` (``b``), ``reading`` (``r``,
repeatable, ``id:option``) and ``label`` (the name shown in tables). Missing keys come from the defaults
(the command's ``--ruleset/--mission/--players/--bot`` options).

Deal ``i`` of every variant is seeded ``f"{seed}:{i}"`` (as in ``crewkit simulate``), so variants that
share a deck and hand sizes play exactly the same deals, and the bots get the same seeds too: outcomes are
*paired*, and McNemar's test and paired intervals apply. Results do not depend on the number of worker
processes (the solver's limit is a node budget, not a time, unless ``solver_timeout`` is given).
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crewkit.analysis.paired import (
    McNemarResult,
    PairedDifference,
    PairedTable,
    TTestResult,
    WilcoxonResult,
    mcnemar,
    paired_difference,
    paired_t_test,
    wilcoxon_signed_rank,
)
from crewkit.analysis.pool import ProgressCallback, StatusCallback, Target, run_streams
from crewkit.analysis.stats import wilson_interval
from crewkit.games import family_for

_KEYS = {
    "ruleset": "ruleset", "rs": "ruleset", "rules": "ruleset",
    "mission": "mission", "m": "mission",
    "players": "players", "p": "players",
    "bot": "bot", "b": "bot",
    "reading": "reading", "r": "reading", "readings": "reading",
    "label": "label", "name": "label",
}


class VariantError(ValueError):
    """A variant spec string that cannot be understood."""


@dataclass(frozen=True)
class Variant:
    label: str
    ruleset: str
    mission: str
    players: int
    bot: str
    readings: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        mission = f",mission={self.mission}" if self.mission else ""
        text = f"ruleset={self.ruleset}{mission},players={self.players},bot={self.bot}"
        for rid, choice in self.readings:
            text += f",reading={rid}:{choice}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "ruleset": self.ruleset, "mission": self.mission, "players": self.players,
                "bot": self.bot, "readings": dict(self.readings)}


def parse_variant(text: str, defaults: Mapping[str, Any] | None = None, *, index: int = 0) -> Variant:
    """Parse ``key=value,...`` (see the module docs); missing keys come from ``defaults``."""
    d = dict(defaults or {})
    values: dict[str, Any] = {}
    readings: list[tuple[str, str]] = [tuple(x) for x in d.get("readings", ())]
    label = None
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        if "=" not in part:
            raise VariantError(f"{part!r} in variant {text!r} is not key=value (keys: ruleset, mission, players, "
                               "bot, reading, label)")
        key, value = (x.strip() for x in part.split("=", 1))
        canon = _KEYS.get(key.lower())
        if canon is None:
            raise VariantError(f"unknown key {key!r} in variant {text!r}; use ruleset, mission, players, bot, "
                               "reading or label")
        if not value:
            raise VariantError(f"{key} has no value in variant {text!r}")
        if canon == "reading":
            if ":" not in value:
                raise VariantError(f"reading {value!r} in variant {text!r} must be id:option")
            rid, choice = (x.strip() for x in value.split(":", 1))
            readings = [r for r in readings if r[0] != rid] + [(rid, choice)]
        elif canon == "label":
            label = value
        else:
            if canon in values:
                raise VariantError(f"{key} is given twice in variant {text!r}")
            values[canon] = value
    if "ruleset" not in values and not d.get("ruleset"):  # the mission's first listed rule set, as every command
        from crewkit.spec.mission_rulesets import default_ruleset

        values["ruleset"] = default_ruleset(values.get("mission") or d.get("mission"))
    family = family_for(str(values.get("ruleset", d.get("ruleset") or "")))
    for key in ("ruleset", "mission", "players", "bot"):
        if key not in values:
            if not family.needs_mission and key == "mission" and d.get(key) is None:
                values[key] = ""  # a Not Alone game has no mission
            elif key == "bot" and d.get(key) is None:
                values[key] = family.default_bot
            elif d.get(key) is None:
                raise VariantError(f"variant {text!r} names no {key} and there is no --{key} default")
            else:
                values[key] = d[key]
    try:
        players = int(values["players"])
    except (TypeError, ValueError):
        raise VariantError(f"players must be a number in variant {text!r}, found {values['players']!r}") from None
    v = Variant(
        label="",
        ruleset=str(values["ruleset"]),
        mission=str(values["mission"]),
        players=players,
        bot=str(values["bot"]),
        readings=tuple(sorted(readings)),
    )
    return Variant(label or text.strip() or f"variant {index + 1}", v.ruleset, v.mission, v.players, v.bot, v.readings)


# ---------------------------------------------------------------------------- results
@dataclass(frozen=True)
class DealResult:
    index: int
    success: bool
    tricks: int
    reason: str
    score: float  # tasks completed (missions with tasks) or tricks played (missions without)
    solver: str | None = None  # winnable | unwinnable | unknown | None (not run)
    solver_nodes: int = 0
    deal: str = ""  # a fingerprint of the hands (equal fingerprints: the same cards in the same seats)


@dataclass
class VariantResult:
    variant: Variant
    deals: list[DealResult]
    error: str = ""

    @property
    def games(self) -> int:
        return len(self.deals)

    @property
    def successes(self) -> int:
        return sum(d.success for d in self.deals)

    @property
    def success_rate(self) -> float:
        return self.successes / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.successes, self.games)

    @property
    def mean_tricks(self) -> float:
        return sum(d.tricks for d in self.deals) / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return sum(d.score for d in self.deals) / self.games if self.games else 0.0

    def solver_counts(self) -> dict[str, int]:
        c = Counter(d.solver for d in self.deals if d.solver is not None)
        return {"winnable": c.get("winnable", 0), "unwinnable": c.get("unwinnable", 0), "unknown": c.get("unknown", 0)}

    @property
    def solver_ran(self) -> bool:
        return any(d.solver is not None for d in self.deals)

    def winnable_share(self) -> tuple[float, float, float] | None:
        """(share of winnable deals among decided ones, low, high) with a Wilson interval; None without solver."""
        if not self.solver_ran:
            return None
        c = self.solver_counts()
        decided = c["winnable"] + c["unwinnable"]
        if decided == 0:
            return (float("nan"), 0.0, 1.0)
        low, high = wilson_interval(c["winnable"], decided)
        return (c["winnable"] / decided, low, high)

    def reasons(self, k: int = 3) -> list[tuple[str, int]]:
        from crewkit.analysis.simulate import normalise_reason

        c = Counter(normalise_reason(d.reason) for d in self.deals if not d.success)
        return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:k]

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        out: dict[str, Any] = {
            **self.variant.to_json(),
            "games": self.games,
            "successes": self.successes,
            "success_rate": round(self.success_rate, 6),
            "interval95": [round(low, 6), round(high, 6)],
            "mean_tricks": round(self.mean_tricks, 4),
            "mean_score": round(self.mean_score, 4),
            "failure_reasons": [{"reason": r, "count": c} for r, c in self.reasons(5)],
        }
        if self.solver_ran:
            share = self.winnable_share()
            assert share is not None
            out["solver"] = {**self.solver_counts(),
                             "winnable_share": None if share[0] != share[0] else round(share[0], 6),
                             "interval95": [round(share[1], 6), round(share[2], 6)]}
        if self.error:
            out["error"] = self.error
        return out


@dataclass
class PairStats:
    """Variant ``b`` against the first variant ``a`` on the same deals."""

    a: str
    b: str
    table: PairedTable
    difference: PairedDifference
    mcnemar: McNemarResult
    scores_t: TTestResult
    scores_wilcoxon: WilcoxonResult
    same_deals: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "table": {"both": self.table.both, "only_a": self.table.only_a, "only_b": self.table.only_b,
                      "neither": self.table.neither},
            "difference": self.difference.to_json(),
            "mcnemar": self.mcnemar.to_json(),
            "scores_t_test": self.scores_t.to_json(),
            "scores_wilcoxon": self.scores_wilcoxon.to_json(),
            "same_deals": self.same_deals,
        }


def pair_stats(a: VariantResult, b: VariantResult) -> PairStats:
    n = min(a.games, b.games)
    sa = [d.success for d in a.deals[:n]]
    sb = [d.success for d in b.deals[:n]]
    table = PairedTable.from_outcomes(sa, sb)
    xa = [d.score for d in a.deals[:n]]
    xb = [d.score for d in b.deals[:n]]
    same = all(x.deal == y.deal for x, y in zip(a.deals[:n], b.deals[:n], strict=True))
    return PairStats(a.variant.label, b.variant.label, table, paired_difference(table),
                     mcnemar(table.only_a, table.only_b), paired_t_test(xa, xb), wilcoxon_signed_rank(xa, xb), same)


@dataclass
class Comparison:
    results: list[VariantResult]
    games: int
    seed: str
    solver: bool
    solver_nodes: int | None
    solver_timeout: float | None
    seconds: float
    workers: int
    pairs: list[PairStats] = field(default_factory=list)
    campaign: str | None = None
    precision: float | None = None  # the target half-width, None for a fixed number of deals
    max_games: int | None = None  # the cap on deals per variant (--games); with a precision, where it may stop

    def widest_half_width(self) -> float:
        """The widest half-width of the variants' 95% intervals of bot success (0 without a result)."""
        return max(((r.interval[1] - r.interval[0]) / 2 for r in self.results if not r.error and r.games),
                   default=0.0)

    def precision_reached(self) -> bool | None:
        """Whether every variant's 95% interval came within ±precision (None without a precision)."""
        if self.precision is None:
            return None
        return self.widest_half_width() <= self.precision + 1e-12

    def precision_text(self) -> str:
        """What stopped the deals, truthfully: the precision reached, or the cap on games before it."""
        if self.precision is None:
            return ""
        widest = 100 * self.widest_half_width()
        target = 100 * self.precision
        if self.precision_reached():
            return f"played until every variant's 95% interval was within ±{target:.1f} points (widest ±{widest:.1f})"
        cap = self.max_games if self.max_games is not None else self.games
        return (f"stopped by the cap of {cap} deals (--games) before every 95% interval came within ±{target:.1f} "
                f"points (--precision): the widest is ±{widest:.1f} points")

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "campaign": self.campaign,
            "solver": {"enabled": self.solver, "nodes": self.solver_nodes, "timeout": self.solver_timeout},
            "variants": [r.to_json() for r in self.results],
            "pairs": [p.to_json() for p in self.pairs],
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "precision": self.precision,
            "precision_reached": self.precision_reached(),
            "max_games": self.max_games,
        }

    def to_csv(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([
            "label", "ruleset", "mission", "players", "bot", "readings", "games", "successes", "success_rate",
            "ci_low", "ci_high", "solver_winnable", "solver_unwinnable", "solver_unknown", "winnable_share",
            "mean_tricks", "mean_score", "diff_vs_first", "diff_low", "diff_high", "mcnemar_p", "mcnemar_method",
            "wilcoxon_p", "t_test_p", "top_failure",
        ])
        pairs = {p.b: p for p in self.pairs}
        for r in self.results:
            v = r.variant
            low, high = r.interval
            c = r.solver_counts() if r.solver_ran else {"winnable": "", "unwinnable": "", "unknown": ""}
            share = r.winnable_share()
            p = pairs.get(v.label) if r is not self.results[0] else None
            top = r.reasons(1)
            w.writerow([
                v.label, v.ruleset, v.mission, v.players, v.bot, ";".join(f"{a}:{b}" for a, b in v.readings),
                r.games, r.successes, f"{r.success_rate:.6f}", f"{low:.6f}", f"{high:.6f}",
                c["winnable"], c["unwinnable"], c["unknown"],
                "" if share is None or share[0] != share[0] else f"{share[0]:.6f}",
                f"{r.mean_tricks:.4f}", f"{r.mean_score:.4f}",
                "" if p is None else f"{p.difference.difference:.6f}",
                "" if p is None else f"{p.difference.low:.6f}",
                "" if p is None else f"{p.difference.high:.6f}",
                "" if p is None else f"{p.mcnemar.p_value:.6g}",
                "" if p is None else p.mcnemar.method,
                "" if p is None else f"{p.scores_wilcoxon.p_value:.6g}",
                "" if p is None else f"{p.scores_t.p_value:.6g}",
                top[0][0] if top else "",
            ])
        return buf.getvalue()

    def format_text(self, *, chart: bool = True, width: int = 40) -> str:
        if self.campaign:
            return self._format_campaign(chart=chart, width=width)
        lines = [f"{self.games} paired deals per variant, seeds {self.seed!r}:0..{self.games - 1}"
                 + (f"; solver up to {self.solver_nodes} nodes per deal" if self.solver and self.solver_nodes else "")]
        if self.precision is not None:
            lines.append(self.precision_text())
        lines.append("")
        for i, r in enumerate(self.results):
            v = r.variant
            lines.append(f"[{i + 1}] {v.label}")
            if v.label != v.describe():
                lines.append(f"    {v.describe()}")
            if r.error:
                lines.append(f"    error: {r.error}")
                continue
            low, high = r.interval
            words = family_for(v.ruleset).words
            if words.sides is not None:  # Not Alone: success is the Hunted's win; the score is rounds
                won, lost = words.sides
                clo, chi = wilson_interval(r.games - r.successes, r.games)
                lines.append(f"    {won + ' win':<14}{r.successes}/{r.games} = {100 * r.success_rate:.1f}%"
                             f"  (95% {100 * low:.1f}–{100 * high:.1f}%)")
                lines.append(f"    {lost + ' win':<14}{r.games - r.successes}/{r.games} = "
                             f"{100 * (1 - r.success_rate) if r.games else 0.0:.1f}%  (95% {100 * clo:.1f}–{100 * chi:.1f}%)")
                lines.append(f"    {'mean ' + words.length:<14}{r.mean_tricks:.2f}")
                for reason, count in r.reasons(3):
                    lines.append(f"    ending        {count:>4}  {reason}")
                continue
            lines.append(f"    bot success   {r.successes}/{r.games} = {100 * r.success_rate:.1f}%"
                         f"  (95% {100 * low:.1f}–{100 * high:.1f}%)")
            share = r.winnable_share()
            if share is not None and share[0] != share[0]:
                lines.append(f"    winnable      no deal decided by the solver ({r.solver_counts()['unknown']} unknown)")
            elif share is not None:
                c = r.solver_counts()
                lines.append(f"    winnable      {c['winnable']}/{c['winnable'] + c['unwinnable']} decided = "
                             f"{100 * share[0]:.1f}% (upper bound for any crew; 95% {100 * share[1]:.1f}–"
                             f"{100 * share[2]:.1f}%), {c['unknown']} unknown")
            lines.append(f"    mean tricks   {r.mean_tricks:.2f}; mean score {r.mean_score:.2f} (tasks done per deal; "
                         "tricks played where the mission has no tasks)")
            for reason, count in r.reasons(3):
                lines.append(f"    failure       {count:>4}  {reason}")
        if self.pairs:
            lines.append("")
            lines.append("Against [1] (same deals; difference = variant − [1]"
                         + "".join(sorted({_sides_note(r.variant.ruleset) for r in self.results})) + "):")
            for k, p in enumerate(self.pairs, start=2):
                d = p.difference
                lines.append(f"  [{k}] success {100 * d.difference:+.1f} points (95% {100 * d.low:+.1f} to "
                             f"{100 * d.high:+.1f})"
                             + ("" if p.same_deals else "  [the hands differ: different decks or hand sizes]"))
                lines.append(f"      won by one only: [1] alone {p.table.only_a}, [{k}] alone {p.table.only_b}; paired "
                             f"test of the outcomes on the same deals (McNemar, {_method_words(p.mcnemar.method)}) "
                             f"p = {p.mcnemar.p_value:.3g}")
                lines.append(f"      scores deal by deal: paired rank test (Wilcoxon signed-rank) p = "
                             f"{p.scores_wilcoxon.p_value:.3g}, paired t-test p = {p.scores_t.p_value:.3g}")
            lines.append("  p: the chance of a difference at least this large if both variants were equally hard; "
                         "below 0.05, chance alone is an unlikely explanation")
        if chart:
            lines.append("")
            lines.append("Bot success with 95% interval ([ ])"
                         + (f"; {SOLVER_MARK} solver-winnable share:" if any(r.solver_ran for r in self.results)
                            else ":"))
            label_w = min(24, max(len(f"[{i + 1}]") for i in range(len(self.results))))
            for i, r in enumerate(self.results):
                share = r.winnable_share()
                lines.append(f"{f'[{i + 1}]':<{label_w}} " + text_bar(r.success_rate, r.interval, width,
                                                                      None if share is None else share[0])
                             + f" {100 * r.success_rate:5.1f}%")
        lines.append("")
        lines.append(f"time {self.seconds:.1f} s ({self.workers} worker{'s' if self.workers != 1 else ''})")
        return "\n".join(lines)

    def _format_campaign(self, *, chart: bool, width: int) -> str:
        counts = {r.games for r in self.results if not r.error}
        per = f"{'up to ' if len(counts) > 1 else ''}{self.games} deals per mission"
        lines = [f"campaign {self.campaign}: {per}, seeds {self.seed!r}:0..{self.games - 1}"]
        if self.precision is not None:
            lines.append(self.precision_text().replace("every variant's", "every mission's"))
        lines.append("")
        head = f"{'mission':<16} {'deals':>5} {'bot success':>22} {'winnable (decided)':>26} {'unknown':>7} {'tricks':>6}"
        lines.append(head)
        lines.append("-" * len(head))
        for r in self.results:
            v = r.variant
            if r.error:
                lines.append(f"{v.label:<16} {'':>5} {'':>22} {'':>26} {'':>7} {'':>6}  skipped: {r.error}")
                continue
            low, high = r.interval
            bot = f"{100 * r.success_rate:5.1f}% [{100 * low:4.1f}–{100 * high:5.1f}]"
            share = r.winnable_share()
            if share is None:
                win, unk = "-", "-"
            elif share[0] != share[0]:
                win, unk = "n/a (none decided)", str(r.solver_counts()["unknown"])
            else:
                c = r.solver_counts()
                win = f"{100 * share[0]:5.1f}% [{100 * share[1]:4.1f}–{100 * share[2]:5.1f}]"
                unk = str(c["unknown"])
            lines.append(f"{v.label:<16} {r.games:>5} {bot:>22} {win:>26} {unk:>7} {r.mean_tricks:6.2f}")
        if chart:
            lines.append("")
            lines.append("Difficulty curve: █ bot success, [ ] its 95% interval"
                         + (f", {SOLVER_MARK} solver-winnable share" if any(r.solver_ran for r in self.results)
                            else ""))
            for r in self.results:
                if r.error:
                    continue
                share = r.winnable_share()
                lines.append(f"{_short_label(r.variant.label):>4} "
                             + text_bar(r.success_rate, r.interval, width, None if share is None else share[0]))
        lines.append("")
        lines.append(f"time {self.seconds:.1f} s ({self.workers} worker{'s' if self.workers != 1 else ''})")
        return "\n".join(lines)


#: where a chart marks the solver-winnable share: a sign no suit uses (◆ is blue's)
SOLVER_MARK = "×"


def _method_words(method: str) -> str:
    """McNemar's two ways, in words: an exact count (few deals won by one only) or its χ² approximation."""
    return {"exact": "exact", "chi2": "χ² approximation"}.get(method, method)


def text_bar(rate: float, interval: tuple[float, float], width: int = 40, marker: float | None = None) -> str:
    """A one-line bar: █ up to ``rate``, ``[`` and ``]`` at the interval ends, :data:`SOLVER_MARK` at ``marker``."""
    if marker is not None and marker != marker:  # NaN: no deal decided
        marker = None
    cells = [" "] * (width + 1)
    full = rate * width
    for i in range(int(full)):
        cells[i] = "█"
    frac = full - int(full)
    if frac >= 0.5 and int(full) <= width:
        cells[int(full)] = "▌"
    lo = min(width, max(0, round(interval[0] * width)))
    hi = min(width, max(0, round(interval[1] * width)))
    cells[lo] = "["
    cells[hi] = "]" if hi != lo else "|"
    if marker is not None:
        cells[min(width, max(0, round(marker * width)))] = SOLVER_MARK
    return "|" + "".join(cells) + "|"


# ---------------------------------------------------------------------------- running
_WORKER: dict[str, Any] = {}


def _init(variants: Sequence[Variant], seed: str, solver: bool, solver_nodes: int | None,
          solver_timeout: float | None, solver_games: int | None = None) -> None:
    _WORKER.clear()
    _WORKER.update(variants=list(variants), seed=seed, solver=solver, solver_nodes=solver_nodes,
                   solver_timeout=solver_timeout, solver_games=solver_games, rules={})


def _sides_note(ruleset: str) -> str:
    """For a game of sides, what the success rate and the scores of the pairs count."""
    family = family_for(ruleset)
    if family.words.sides is None:
        return ""
    return f"; {family.title}: success is the {family.words.sides[0]}'s win, scores are {family.words.length}"


def _job(job: tuple[int, int]) -> DealResult:
    from crewkit.games.driver import play_out

    k, i = job
    v: Variant = _WORKER["variants"][k]
    family = family_for(v.ruleset)
    game_seed = f"{_WORKER['seed']}:{i}"
    game = family.open(v.ruleset, v.mission or None, v.players, game_seed, dict(v.readings))
    solver_status = None
    nodes = 0
    cap = _WORKER.get("solver_games")
    if _WORKER["solver"] and family.solvable and (cap is None or i < cap):
        solver_status, nodes = family.solve(game, _WORKER["solver_timeout"], _WORKER["solver_nodes"])
    play_out(game, family.seat_players(game, v.bot, game_seed))
    s = family.summary(game)
    return DealResult(i, s.success, s.length, s.reason, s.score, solver_status, nodes, s.fingerprint)


def _succeeded(result: DealResult) -> bool:
    return result.success


def check_variant(v: Variant) -> str:
    """'' when the variant loads, else why not (unknown bot, bad spec, player count)."""
    from crewkit.errors import CrewkitError
    from crewkit.spec.errors import SpecError

    try:
        family = family_for(v.ruleset)
        family.bot_spec(v.bot)
        family.open(v.ruleset, v.mission or None, v.players, "check", dict(v.readings))
    except SpecError as exc:
        first = exc.issues[0] if exc.issues else None
        return f"cannot load {v.describe()}: {first}" if first else str(exc)
    except (CrewkitError, ValueError) as exc:  # an unknown bot, a player count or reading the rule set lacks
        return str(exc)
    return ""


def run_variants(
    variants: Sequence[Variant],
    games: int,
    seed: str,
    *,
    workers: int = 1,
    solver: bool = True,
    solver_nodes: int | None = 20_000,
    solver_timeout: float | None = None,
    progress: ProgressCallback | None = None,
    skip_invalid: bool = False,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
    precision: float | None = None,
    paired: bool = True,
    cluster: str | None = None,
    status: StatusCallback | None = None,
    checkpoint: int = 25,
    solver_games: int | None = None,
) -> tuple[list[VariantResult], int]:
    """Play ``games`` paired deals of each variant; results in variant order, deals in index order.

    With ``precision`` H, ``games`` is a cap: deals are played in blocks of ``checkpoint`` until the bot's
    95% interval is at most ±H for every variant (``paired``: all stop together, on the same deals) or for
    each variant on its own (``paired=False``, a campaign's missions). ``cluster``: see
    :func:`crewkit.analysis.pool.run_streams`."""
    errors = [check_variant(v) for v in variants]
    if not skip_invalid:
        for v, e in zip(variants, errors, strict=True):
            if e:
                raise VariantError(f"{v.label}: {e}")
    live = [k for k, e in enumerate(errors) if not e]
    init_args = (list(variants), seed, solver, solver_nodes, solver_timeout, solver_games)

    def follow(st: Any) -> None:
        if progress is not None:
            progress(st.done, st.total)
        if status is not None:
            status(st)

    out, workers = run_streams(_job, live, _succeeded, Target(games, precision, checkpoint), paired=paired,
                               workers=workers, cluster=cluster, initializer=_init, initargs=init_args, status=follow,
                               oversubscribe=oversubscribe, on_note=on_note)
    results = [VariantResult(v, out.get(k, []), errors[k]) for k, v in enumerate(variants)]
    return results, workers


def compare(
    variants: Sequence[Variant],
    games: int,
    seed: str = "compare",
    *,
    workers: int = 1,
    solver: bool = True,
    solver_nodes: int | None = 20_000,
    solver_timeout: float | None = None,
    progress: ProgressCallback | None = None,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
    precision: float | None = None,
    cluster: str | None = None,
    status: StatusCallback | None = None,
    solver_games: int | None = None,
) -> Comparison:
    """Run every variant on the same ``games`` deals (a cap with ``precision``) and compare each with the first."""
    if games < 1:
        raise ValueError("compare needs at least one game")
    if not variants:
        raise ValueError("compare needs at least one variant")
    if not any(family_for(v.ruleset).solvable for v in variants):
        solver = False  # no family of these variants has a solver (Not Alone)
    t0 = time.perf_counter()
    results, used = run_variants(variants, games, seed, workers=workers, solver=solver, solver_nodes=solver_nodes,
                                 solver_timeout=solver_timeout, progress=progress, oversubscribe=oversubscribe,
                                 on_note=on_note, precision=precision, cluster=cluster, status=status,
                                 solver_games=solver_games)
    played = max((r.games for r in results), default=0)
    cmp = Comparison(results, played, seed, solver, solver_nodes if solver else None,
                     solver_timeout if solver else None, time.perf_counter() - t0, used)
    cmp.pairs = [pair_stats(results[0], r) for r in results[1:]]
    cmp.precision = precision
    cmp.max_games = games
    return cmp


def compare_campaign(
    campaign: str,
    players: int,
    games: int,
    seed: str = "compare",
    *,
    bot: str = "heuristic",
    ruleset: str | None = None,
    workers: int = 1,
    solver: bool = True,
    solver_nodes: int | None = 20_000,
    solver_timeout: float | None = None,
    progress: ProgressCallback | None = None,
    oversubscribe: bool = False,
    on_note: Callable[[str], None] | None = None,
    precision: float | None = None,
    cluster: str | None = None,
    status: StatusCallback | None = None,
    solver_games: int | None = None,
) -> Comparison:
    """Every mission of ``campaign`` at ``players``: bot success and solver winnability (the difficulty curve)."""
    from crewkit.spec.campaigns import load_campaign

    camp = load_campaign(campaign)
    readings = tuple(sorted(camp.readings.items()))
    # label: the mission as the campaign names it; mission: what the loader opens (a file inside the campaign)
    variants = [Variant(e.key, ruleset or e.ruleset, e.ref, players, bot, readings) for e in camp.entries]
    t0 = time.perf_counter()
    results, used = run_variants(variants, games, seed, workers=workers, solver=solver, solver_nodes=solver_nodes,
                                 solver_timeout=solver_timeout, progress=progress, skip_invalid=True,
                                 oversubscribe=oversubscribe, on_note=on_note, precision=precision, paired=False,
                                 cluster=cluster, status=status, solver_games=solver_games)
    played = max((r.games for r in results), default=0)
    cmp = Comparison(results, played, seed, solver, solver_nodes if solver else None,
                      solver_timeout if solver else None, time.perf_counter() - t0, used, campaign=camp.name)
    cmp.precision = precision
    cmp.max_games = games
    return cmp


def _short_label(label: str) -> str:
    """``03`` for ``planet-nine/03``; a campaign file's mission by its file name's number or stem."""
    tail = label.rsplit("/", 1)[-1]
    for suffix in (".yaml", ".yml"):
        tail = tail.removesuffix(suffix)
    return tail.split("-", 1)[0] if tail[:1].isdigit() else tail


# ---------------------------------------------------------------------------- plots
class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailable(
            "plotting needs matplotlib, which is not installed: pip install \"crewkit[plot]\" "
            "(from a checkout of crewkit: pip install \".[plot]\")") from None


def plot(cmp: Comparison, path: str) -> None:
    """Write a bar chart (variants) or the difficulty curve (campaign) to ``path`` (.png or .svg)."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, 0.35 * len(cmp.results) + 3), 4.5))
    rows = [r for r in cmp.results if not r.error]
    labels = [_short_label(r.variant.label) if cmp.campaign else r.variant.label for r in rows]
    rates = [r.success_rate for r in rows]
    lows = [r.success_rate - r.interval[0] for r in rows]
    highs = [r.interval[1] - r.success_rate for r in rows]
    xs = list(range(len(rows)))
    if cmp.campaign:
        ax.errorbar(xs, rates, yerr=[lows, highs], fmt="o-", capsize=2, label="bot success")
        shares = [r.winnable_share() for r in rows]
        if any(s is not None for s in shares):
            ax.plot(xs, [s[0] if s else float("nan") for s in shares], "s--", label="solver-winnable share")
        ax.set_title(f"{cmp.campaign}: difficulty curve")
        ax.set_xlabel("mission")
    else:
        ax.bar(xs, rates, yerr=[lows, highs], capsize=4, label="bot success")
        shares = [r.winnable_share() for r in rows]
        if any(s is not None for s in shares):
            ax.plot(xs, [s[0] if s else float("nan") for s in shares], "D", color="black",
                    label="solver-winnable share")
        ax.set_title(f"{cmp.games} paired deals per variant")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=45 if len(rows) > 6 else 0, ha="right" if len(rows) > 6 else "center")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of deals")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def dumps_json(cmp: Comparison) -> str:
    return json.dumps(cmp.to_json(), indent=1, ensure_ascii=False)


__all__ = [
    "Comparison",
    "DealResult",
    "PairStats",
    "PlotUnavailable",
    "Variant",
    "VariantError",
    "VariantResult",
    "compare",
    "compare_campaign",
    "pair_stats",
    "parse_variant",
    "plot",
    "run_variants",
    "text_bar",
]
