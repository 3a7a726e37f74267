"""At 80x24 every screen's footer shows its keys whole (issue 42, item 7): keys that do not fit are left out
(the help screen lists them all), never cut at the right edge; the Compare screen fits too."""

from __future__ import annotations

from typing import Any

from footer_fit import footer_cut, footer_keys, footer_line
from hunt_helpers import make_hunt_app
from hunt_helpers import settle as hunt_settle
from tui_helpers import advance, make_app, open_table, pass_distress, play_to_end, settle

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

    async def look(self, pilot: Any, where: str) -> None:
        app = pilot.app
        # A screen just pushed may not have laid out its footer yet (an empty last row on a loaded machine):
        # wait for the footer to be painted, a bounded number of event-loop rounds, not a wall-clock time.
        for _ in range(200):
            if footer_line(app).strip():
                break
            await pilot.pause()
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
        await tour.look(pilot, "briefing")
        for key, where in (("l", "logbook"), ("question_mark", "help"), ("v", "compare")):
            await pilot.press(key)
            await settle(pilot)
            await tour.look(pilot, where)
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await tour.look(pilot, "campaign")
        await pilot.press("c")
        await settle(pilot)
        await tour.look(pilot, "campaign chooser")
        await pilot.press("escape")
        await settle(pilot)
    app = make_app(services, mission="planet-nine/03", seed="fit")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("p")  # a practice game: take-back among the keys too
        await settle(pilot)
        if isinstance(app.screen, DistressScreen):
            await tour.look(pilot, "distress question")
        await pass_distress(pilot)
        assert isinstance(app.screen, TableScreen)
        await tour.look(pilot, "table")
        for key, where in (("k", "card tracker"), ("o", "settings")):
            await pilot.press(key)
            await settle(pilot)
            await tour.look(pilot, where)
            await pilot.press("escape")
            await settle(pilot)
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
        await tour.look(pilot, "end of mission")
        await pilot.press("escape")
        await settle(pilot)
        await tour.look(pilot, "table after the end")  # ten keys: the widest footer
    app = make_hunt_app(players=3, side="creature", seed="fit", services=services)
    async with app.run_test(size=SMALL) as pilot:
        await hunt_settle(pilot)
        await tour.look(pilot, "Not Alone")
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


async def test_the_compare_screen_fits_at_80x24(services: Services) -> None:
    from textual.widgets import Button, Checkbox, DataTable, Input

    from crewkit.analysis.compare import compare, parse_variant
    from crewkit.tui.screens.compare import CompareScreen

    specs = ["ruleset=crew,mission=planet-nine/04,players=4,bot=random",
             "ruleset=crew,mission=planet-nine/04,players=3,bot=random"]
    app = make_app(services)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        for i, spec in enumerate(specs):
            screen.query_one(f"#variant-{i + 1}", Input).value = spec
        screen.query_one("#compare-games", Input).value = "6"
        screen.query_one("#compare-solver", Checkbox).value = True
        await pilot.press("ctrl+r")
        for _ in range(2400):  # a safety net: the worker's result is what is waited on
            if screen.result is not None:
                break
            await pilot.pause(0.05)
        assert screen.result is not None
        await pilot.pause()
        # every field and button of the form inside the 80 columns
        for widget in (*screen.query(Input), *screen.query(Button), *screen.query(Checkbox)):
            assert widget.region.right <= SMALL[0], widget
        table = screen.query_one("#compare-table", DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width, "the table scrolls sideways"
        text = " ".join((await scrolled_text(pilot)).split())
        assert "Solver" in text and "+ Variant" in text and "Run" in text
        assert f"6 paired deals per variant, seed 'compare' · {screen.result.seconds:.1f} s" in text
        expected = compare([parse_variant(s) for s in specs], 6, "compare", solver=True)
        pair = expected.pairs[0]
        d = pair.difference
        for header in ("Success", "95% interval", "Winnable", "Tricks", "Δ pts"):
            assert header in text
        # the paired comparison whole: the difference, its interval and the test's p
        assert (f"[2] vs [1]: {100 * d.difference:+.1f} points (95%: {100 * d.low:+.1f} to {100 * d.high:+.1f}), "
                f"McNemar p {pair.mcnemar.p_value:.3g}") in text
        top = expected.results[0].reasons(1)[0]
        assert f"[1] top failure: {top[1]}× {top[0]}" in text


async def scrolled_text(pilot: Any) -> str:
    """What the compare screen shows, its results scrolled through from the top (they scroll at 80x24)."""
    from screen_text import screen_text
    from textual.containers import VerticalScroll

    app = pilot.app
    box = app.screen.query_one("#compare-results", VerticalScroll)
    box.scroll_home(animate=False)
    await pilot.pause()
    seen = [screen_text(app)]
    while box.scroll_y < box.max_scroll_y:
        box.scroll_to(y=min(box.max_scroll_y, box.scroll_y + max(1, box.scrollable_content_region.height - 1)),
                      animate=False)
        await pilot.pause()
        seen.append(screen_text(app))
    return "\n".join(seen)


async def test_a_hint_leaves_the_trick_panel_in_sight_at_80x24(services: Services) -> None:
    """The hint is said in the status line under the table; no toast covers the trick panel (nor anything)."""
    from screen_text import screen_text

    app = make_app(services, mission="planet-nine/01", seed="fit")
    async with app.run_test(size=SMALL, notifications=True) as pilot:  # toasts drawn, as in the terminal
        table = await open_table(pilot)
        for _ in range(40):  # the bots lead until it is our turn in a trick
            await settle(pilot)
            if await pass_distress(pilot):
                continue
            if table.session.g.phase == "tricks" and table.session.g.to_act == 0:
                break
            await advance(pilot, table.session.g.to_act == 0)
        assert table.session.g.phase == "tricks" and table.session.g.to_act == 0
        await settle(pilot)
        trick = table.query_one("#trick").region

        def panel() -> list[str]:
            rows = screen_text(app).splitlines() + [""] * SMALL[1]
            return [row[trick.x: trick.right] for row in rows[trick.y: trick.bottom]]

        before = panel()
        await pilot.press("h")
        for _ in range(600):  # a safety net: the expert bot thinks in a worker; its answer is waited on
            if table.status_text.startswith("Hint"):
                break
            await pilot.pause(0.05)
        await pilot.pause()
        assert panel() == before, "something covers the trick panel"
        assert table.status_text.startswith("Hint: play ")
        assert "marked with hints" in table.status_text
        assert not list(app._notifications)
        shown = " ".join(screen_text(app).split())
        assert " ".join(table.status_text.split()) in shown  # the whole hint in sight (it wraps)
