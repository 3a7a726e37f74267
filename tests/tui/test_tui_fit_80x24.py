"""At 80x24 every screen's footer shows its keys whole (issue 42, item 7): keys that do not fit are left out
(the help screen lists them all), never cut at the right edge; the Compare screen fits too."""

from __future__ import annotations

from typing import Any

from footer_fit import footer_cut, footer_keys, footer_line
from hunt_helpers import make_hunt_app
from hunt_helpers import settle as hunt_settle
from tui_helpers import make_app, pass_distress, play_to_end, settle

from crewkit.families.trick_taking.tui.dialogs import DistressScreen
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.tui.services import Services

SMALL = (80, 24)


class Tour:
    """The screens visited, each with what its footer lists and what of it is cut."""

    def __init__(self) -> None:
        self.seen: dict[str, list[str]] = {}
        self.cut: dict[str, list[str]] = {}

    def look(self, app: Any, where: str) -> None:
        keys = footer_keys(app)
        assert keys, f"{where}: an empty footer"
        self.seen[where] = keys
        cut = footer_cut(app)
        if cut:
            self.cut[where] = cut + [footer_line(app)]


async def test_every_footer_shows_its_keys_whole_at_80x24(services: Services) -> None:
    tour = Tour()
    app = make_app(services, mission="planet-nine/03", seed="fit")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        tour.look(app, "briefing")
        for key, where in (("l", "logbook"), ("question_mark", "help"), ("v", "compare")):
            await pilot.press(key)
            await settle(pilot)
            tour.look(app, where)
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        tour.look(app, "campaign")
        await pilot.press("c")
        await settle(pilot)
        tour.look(app, "campaign chooser")
        await pilot.press("escape")
        await settle(pilot)
    app = make_app(services, mission="planet-nine/03", seed="fit")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("p")  # a practice game: take-back among the keys too
        await settle(pilot)
        if isinstance(app.screen, DistressScreen):
            tour.look(app, "distress question")
        await pass_distress(pilot)
        assert isinstance(app.screen, TableScreen)
        tour.look(app, "table")
        for key, where in (("k", "card tracker"), ("o", "settings")):
            await pilot.press(key)
            await settle(pilot)
            tour.look(app, where)
            await pilot.press("escape")
            await settle(pilot)
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        tour.look(app, "end of mission")
        await pilot.press("escape")
        await settle(pilot)
        tour.look(app, "table after the end")  # ten keys: the widest footer
    app = make_hunt_app(players=3, side="creature", seed="fit", services=services)
    async with app.run_test(size=SMALL) as pilot:
        await hunt_settle(pilot)
        tour.look(app, "Not Alone")
    assert not tour.cut, tour.cut
    for where in ("briefing", "table", "table after the end"):  # the way out stays in sight
        assert "? Help" in tour.seen[where] and "q Quit" in tour.seen[where], tour.seen[where]


async def test_the_footer_shows_again_what_fits_once_the_terminal_is_wider(services: Services) -> None:
    app = make_app(services, mission="planet-nine/03", seed="fit")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert "v Compare" not in footer_keys(app) or "^p palette" not in footer_keys(app)
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        await pilot.pause()
        assert "v Compare" in footer_keys(app) and "^p palette" in footer_keys(app)
        assert not footer_cut(app)
