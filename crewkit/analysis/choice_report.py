"""What the bots chose at a mission's setup and how the deals went, for ``crewkit check``.

An author reading a low success rate wants to know whether the mission is hard or the choice is: a family
labels each setup decision of a played deal by what it did (the trick-taking family: "gave the task to the
player holding its card", "chose the weakest hand", the distress signal by its direction; its
``FamilyCheck.played``), and ``crewkit check`` says how often each label occurred and the success rate of the
deals with it and without it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Label = tuple[str, str]  # (the decision, what was chosen)


@dataclass
class ChoiceStats:
    """Per (decision, label): decisions seen and those in a deal won; per decision: all of them."""

    seen: Counter[Label] = field(default_factory=Counter)
    won: Counter[Label] = field(default_factory=Counter)
    #: labels reported only where some deal chose otherwise (the family's: the distress signal never called)
    quiet: frozenset[Label] = frozenset()

    def add(self, labels: tuple[Label, ...], success: bool) -> None:
        for label in labels:
            self.seen[label] += 1
            self.won[label] += success

    def rows(self) -> list[dict[str, Any]]:
        """One row per label, the most frequent first within each decision."""
        totals: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        for (decision, _), n in self.seen.items():
            totals[decision] += n
        for (decision, _), n in self.won.items():
            wins[decision] += n
        out = []
        loud = {label[0] for label in self.seen if label not in self.quiet}
        for (decision, chosen), n in sorted(self.seen.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1])):
            if decision not in loud:
                continue
            w = self.won[(decision, chosen)]
            rest, rest_won = totals[decision] - n, wins[decision] - w
            out.append({"decision": decision, "chosen": chosen, "count": n, "of": totals[decision],
                        "share": round(n / totals[decision], 6),
                        "success_then": round(w / n, 6),
                        "success_otherwise": round(rest_won / rest, 6) if rest else None})
        return out

    def lines(self) -> list[str]:
        out = []
        for r in self.rows():
            otherwise = f", {100 * r['success_otherwise']:.0f}% otherwise" if r["success_otherwise"] is not None \
                else ""
            out.append(f"  choice        {r['decision']}: {r['chosen']} in {100 * r['share']:.0f}% of "
                       f"{r['of']}; success {100 * r['success_then']:.0f}% then{otherwise}")
        return out
