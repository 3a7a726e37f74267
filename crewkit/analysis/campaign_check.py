"""``crewkit check --campaign PATH``: a designed campaign's difficulty curve, and where it looks wrong.

Every mission is played on the same ``games`` deals (seeded ``f"{seed}:{i}"``) at each player count the
campaign allows for it, by bots and by the perfect-information solver (a node budget per deal), through the
same machinery as ``crewkit compare`` (:func:`crewkit.analysis.compare.run_variants`). The report gives, per
mission and player count, the bot's success rate and the solver-winnable share, each with a 95% Wilson
interval, and warns:

- where the curve goes the wrong way: a mission whose bot success is clearly below that of a mission up to
  ``LOOKAHEAD`` places later (the two 95% intervals do not overlap and the gap is at least ``MIN_GAP``);
- where a mission cannot be played at a player count the campaign allows;
- where a mission is never winnable: no sampled deal the solver decided was winnable.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crewkit.analysis.compare import SOLVER_MARK, Variant, VariantResult, run_variants, text_bar

ProgressCallback = Callable[[int, int], None]
LOOKAHEAD = 3
MIN_GAP = 0.2


@dataclass
class CampaignCheck:
    campaign: str
    title: str
    games: int
    seed: str
    results: list[VariantResult] = field(default_factory=list)
    issues: list[Any] = field(default_factory=list)  # SpecIssue of an invalid campaign
    lines: list[str] | None = None

    @property
    def valid(self) -> bool:
        return not self.issues

    def counts(self) -> list[int]:
        return sorted({r.variant.players for r in self.results})

    def curve(self, players: int) -> list[VariantResult]:
        return [r for r in self.results if r.variant.players == players]

    def warnings(self) -> list[str]:
        out: list[str] = []
        for r in self.results:
            v = r.variant
            if r.error:
                out.append(f"{v.label}: cannot be played by {v.players} players, which the campaign allows: "
                           f"{r.error}")
                continue
            c = r.solver_counts()
            if r.solver_ran and c["winnable"] == 0 and c["unwinnable"] > 0:
                out.append(f"{v.label} at {v.players} players: never winnable: the solver found no winnable deal "
                           f"among {c['unwinnable']} decided ({c['unknown']} unknown)")
            elif not r.solver_ran and r.games and r.successes == 0:
                out.append(f"{v.label} at {v.players} players: the bots never won in {r.games} deals "
                           "(run with the solver to see whether it can be won at all)")
        for players in self.counts():
            rows = [r for r in self.curve(players) if not r.error and r.games]
            for i, r in enumerate(rows):
                low_i, high_i = r.interval
                for later in rows[i + 1:i + 1 + LOOKAHEAD]:
                    low_j, _ = later.interval
                    if high_i < low_j and later.success_rate - r.success_rate >= MIN_GAP:
                        out.append(
                            f"{r.variant.label} at {players} players is much harder than {later.variant.label}, "
                            f"which comes later: bot success {_pct(r)} against {_pct(later)}; the curve goes the "
                            "wrong way (move it later, or make it easier)")
                        break
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign, "title": self.title, "games": self.games, "seed": self.seed,
            "valid": self.valid,
            "issues": [str(i) for i in self.issues],
            "missions": [{**r.to_json(), "error": r.error} for r in self.results],
            "warnings": self.warnings(),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False)

    def format_text(self, *, chart: bool = True, width: int = 30) -> str:
        if not self.valid:
            from crewkit.spec.errors import render_issue

            return "\n".join(render_issue(i, self.lines) for i in self.issues)
        lines = [f"campaign {self.campaign} ({self.title}): {self.games} deals per mission and player count, "
                 f"seeds {self.seed!r}:0..{self.games - 1}"]
        label_w = max([12, *(len(r.variant.label) for r in self.results)])
        for players in self.counts():
            lines.append("")
            lines.append(f"{players} players")
            head = f"  {'mission':<{label_w}} {'bot success (95%)':>24} {'winnable (95%)':>24} {'unknown':>7}"
            lines.append(head)
            lines.append("  " + "-" * (len(head) - 2))
            for r in self.curve(players):
                if r.error:
                    lines.append(f"  {r.variant.label:<{label_w}} cannot be played: {r.error}")
                    continue
                share = r.winnable_share()
                if share is None:
                    win, unknown = "-", "-"
                elif share[0] != share[0]:
                    win, unknown = "none decided", str(r.solver_counts()["unknown"])
                else:
                    win = f"{100 * share[0]:5.1f}% [{100 * share[1]:4.1f}–{100 * share[2]:5.1f}]"
                    unknown = str(r.solver_counts()["unknown"])
                lines.append(f"  {r.variant.label:<{label_w}} {_pct(r):>24} {win:>24} {unknown:>7}")
            if chart:
                lines.append("")
                lines.append("  difficulty curve: █ bot success, [ ] 95% interval"
                             + (f", {SOLVER_MARK} winnable share" if any(r.solver_ran for r in self.curve(players))
                                else ""))
                for r in self.curve(players):
                    if r.error:
                        continue
                    share = r.winnable_share()
                    marker = None if share is None or share[0] != share[0] else share[0]
                    lines.append(f"  {r.variant.label:<{label_w}} "
                                 + text_bar(r.success_rate, r.interval, width, marker))
        warnings = self.warnings()
        lines.append("")
        if warnings:
            lines.append(f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}:")
            lines.extend(f"  warning: {w}" for w in warnings)
        else:
            lines.append("no warnings: every mission is playable and winnable, and the curve does not go back")
        return "\n".join(lines)


def _pct(r: VariantResult) -> str:
    low, high = r.interval
    return f"{100 * r.success_rate:5.1f}% [{100 * low:4.1f}–{100 * high:5.1f}]"


def campaign_variants(camp: Any, players: Sequence[int] | None, bot: str, ruleset: str | None = None) -> list[Variant]:
    """One variant per mission and player count: the counts asked for, else those the campaign allows for the
    mission (its entry's, the campaign's, else every count its rule set allows)."""
    from crewkit.spec.loader import load_ruleset

    readings = tuple(sorted(camp.readings.items()))
    out: list[Variant] = []
    for e in camp.entries:
        rs = ruleset or e.ruleset
        counts = list(players or e.players)
        if not counts:
            try:
                counts = [int(p) for p in load_ruleset(rs, dict(readings) or None).players]
            except Exception:  # reported by the variant check as the mission's error
                counts = [4]
        out.extend(Variant(e.key, rs, e.ref, p, bot, readings) for p in counts)
    return out


def check_campaign(ref: str, *, games: int = 20, players: Sequence[int] | None = None, ruleset: str | None = None,
                   bot: str = "heuristic", seed: str = "check", solver: bool = True, solver_nodes: int = 20_000,
                   workers: int = 1, progress: ProgressCallback | None = None) -> CampaignCheck:
    """Validate the campaign (every mission, every reference), then measure its difficulty curve."""
    from crewkit.spec.campaigns import load_campaign
    from crewkit.spec.errors import SpecError

    try:
        camp = load_campaign(ref)
    except SpecError as exc:
        return CampaignCheck(ref, "", games, seed, issues=list(exc.issues),
                             lines=list(exc.source_lines) if exc.source_lines else None)
    variants = campaign_variants(camp, players, bot, ruleset)
    results, _ = run_variants(variants, games, seed, workers=workers, solver=solver, solver_nodes=solver_nodes,
                              progress=progress, skip_invalid=True)
    return CampaignCheck(camp.name, camp.title, games, seed, results)
