"""SVG snapshots of the Not Alone table at 80x24 and 120x40 (pytest-textual-snapshot, as test_tui_snapshots.py).

Deterministic: fixed seeds, the session's seeded random bots, no files. Review a changed picture as an image,
then accept it with ``pytest tests/tui/test_hunt_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hunt_helpers import choose, make_hunt_app, settle

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
Snap = Callable[..., bool]


def after(choices: int, *, close: bool) -> Callable[[Any], Any]:
    """The first ``choices`` choices by keys (the first option each time), then the dialog closed or open."""

    async def run(pilot: Any) -> None:
        await settle(pilot)
        for _ in range(choices):
            await choose(pilot)
            await settle(pilot)
        if close:
            await pilot.press("escape")
        await settle(pilot)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_hunted_first_choice(snap_compare: Snap, size: tuple[int, int]) -> None:
    """Round 1 for a Hunted: the place cards to play face down, the planet above the dialog."""
    assert snap_compare(
        make_hunt_app(players=4, side="hunted", seed="snap"),
        terminal_size=size,
        run_before=after(0, close=False),
    )


@pytest.mark.parametrize("size", SIZES)
def test_hunted_table(snap_compare: Snap, size: tuple[int, int]) -> None:
    """Some rounds in: the tokens and the Hunted on the planet, tracks, discard piles, the log (dialog closed)."""
    assert snap_compare(
        make_hunt_app(players=4, side="hunted", seed="snap"),
        terminal_size=size,
        run_before=after(6, close=True),
    )


@pytest.mark.parametrize("size", SIZES)
def test_creature_tokens(snap_compare: Snap, size: tuple[int, int]) -> None:
    """The Creature places its token: the places listed under the planet."""
    assert snap_compare(
        make_hunt_app(players=3, side="creature", seed="snap-c"),
        terminal_size=size,
        run_before=after(2, close=False),
    )
