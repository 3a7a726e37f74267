"""Block ``secret-tasks`` (cross-cutting): secret mission cards dealt to the seats (the Persian reading).

Each seat's mission cards name the cards it must win; the commander is chosen by mission number; cards a
mission needs but that were set aside fail the attempt at once, play on, or force a redeal (a reading; the
redeal itself happens in :func:`crewkit.families.trick_taking.engine.deal.deal_from_seed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crewkit.engine.errors import SetupError
from crewkit.engine.phase import Block, register
from crewkit.families.trick_taking.engine.state import Deal, Task

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@register
class SecretTasks(Block):
    name = "secret-tasks"

    def prepare(self, g: Game, deal: Deal) -> None:
        spec = g.rules.secret
        assert spec is not None
        by_id = {c.id: c for c in spec.cards}
        g.tasks = []
        for seat, ids in enumerate(deal.secret):
            for mid in ids:
                card = by_id.get(mid)
                if card is None:
                    raise SetupError(f"unknown secret mission card {mid!r}")
                for c in card.cards:
                    g.tasks.append(Task(c, None, seat, None, False, card.number, mid))

    def choose_commander(self, g: Game) -> int | None:
        spec = g.rules.secret
        assert spec is not None
        numbers = [(t.number or 0, t.owner or 0) for t in g.tasks]
        if spec.commander in ("one-else-highest", "one-else-lowest"):
            for number, owner in numbers:
                if number == spec.commander_number:
                    return owner
            pick = max if spec.commander == "one-else-highest" else min
        else:
            pick = max if spec.commander == "highest" else min
        return pick(numbers)[1]

    def started(self, g: Game) -> None:
        spec = g.rules.secret
        if spec is None or spec.set_aside_needed != "fail-at-once":
            return
        held = 0
        for h in g.hands:
            held |= h
        lost = [t for t in g.tasks if not held & t.card.bit]
        if lost:
            t = lost[0]
            g.fail(f"failed before trick 1: {t.card}, needed by mission card {t.number} (seat {t.owner}), "
                   "was set aside", None)
