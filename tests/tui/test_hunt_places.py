"""Not Alone at 80x24: the whole power of every place is readable, not only the first words the boxes hold.

Every place of every bundled Not Alone rule set, its name and power whitespace-normalised, must stand on the
terminal as the detail under the planet when the cursor is on it (``p`` then the arrows); at a crowded table
(7 players), where the players panel keeps its rows, the detail says the rest is behind ``i``, which lists every
place in full.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hunt_helpers import make_hunt_app, settle
from screen_text import screen_text

from crewkit.families.not_alone.tui.end import HuntPlacesScreen
from crewkit.families.not_alone.tui.planet import PlanetView
from crewkit.families.not_alone.tui.table import HuntTableScreen
from crewkit.spec.bundled import bundled_rulesets

RULESETS = [p.stem for p in bundled_rulesets("not-alone")]


def flat(text: str) -> str:
    """Whitespace-normalised, without the dialog's border blocks: words in one line."""
    return " ".join(re.sub(r"[█▀▄│]", " ", text).split())


def hunt_table(app: Any) -> HuntTableScreen:
    table = app.table()
    assert isinstance(table, HuntTableScreen)
    return table


def powers(table: HuntTableScreen) -> dict[int, str]:
    return {n: flat(f"{n} {card.name}: {card.text}") for n, card in table.catalog.places.items()}


async def walk(pilot: Any) -> dict[int, str]:
    """Put the cursor on every place of the planet by the arrow keys, row by row: per place, the terminal's
    text (whitespace-normalised) while the cursor is on it."""
    table = pilot.app.table()
    planet = table.query_one("#planet", PlanetView)
    shown: dict[int, str] = {}
    for r, row in enumerate(table.catalog.rows):
        if r:
            await pilot.press("down")
        await pilot.press(*(["left"] * len(row)))
        for c, place in enumerate(row):
            if c:
                await pilot.press("right")
            await pilot.pause()
            assert planet.cursor == place
            shown[place] = flat(screen_text(pilot.app))
    return shown


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_every_place_power_is_on_screen_in_full_at_80x24(ruleset: str) -> None:
    assert RULESETS, "no bundled Not Alone rule set"
    app = make_hunt_app(players=4, seed="places", ruleset=ruleset)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "p")  # look at the table; the planet
        shown = await walk(pilot)
        whole = powers(hunt_table(app))
        assert sorted(shown) == sorted(whole)
        for number, power in whole.items():
            assert power in shown[number], f"{ruleset}: the power of place {number} is not shown in full"
        assert max(len(p) for p in whole.values()) > 2 * 78  # a power longer than two lines is tested


async def test_a_crowded_table_says_where_the_rest_is_and_i_shows_every_place_in_full() -> None:
    """7 players at 80x24: the players panel keeps a row per seat, so the Lair's power does not fit under the
    planet; the detail says so (never cut silently) and ``i`` shows every place's power in full."""
    app = make_hunt_app(players=7, seed="places")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "p")
        table = hunt_table(app)
        planet = table.query_one("#planet", PlanetView)
        await pilot.press(*(["left"] * 5), *(["up"] * 2))
        await pilot.pause()
        whole = powers(table)
        assert planet.cursor == max(whole, key=lambda n: len(whole[n]))  # the Lair, the longest power
        shown = flat(screen_text(app))
        assert whole[planet.cursor] not in shown
        assert "i: every place in full" in shown
        for name in table.session.names:  # every seat keeps its row in the players panel
            assert name in shown
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, HuntPlacesScreen)
        shown = flat(screen_text(app))
        for number, power in whole.items():
            assert power in shown, f"place {number} is not in the list of places in full"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HuntTableScreen)
