"""Nothing hidden leaks (issue 17): random games driven through the app's text, checked against seat 0's view.

The bots call the distress signal when they may (cards then pass between two bots), communicate at random,
and now and then try a card they may not play (refused by the engine: the bot's hand must not show). After
every step the screen (status line and log included) and every notification are searched for the name of a
card the human seat cannot see.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from tui_helpers import SIZE, _saves, open_table, pass_distress, press_first_legal, settle, text_of

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.tui.end import EndScreen
from crewkit.families.trick_taking.tui.table import TableScreen
from crewkit.tui.app import CrewApp
from crewkit.tui.launch import PlayOptions
from crewkit.tui.screens.dialogs import HandoffScreen
from crewkit.tui.services import MemoryLogbook, Services


class MischiefBot:
    """Random legal moves; distress whenever possible; sometimes an illegal card from its own hand."""

    def __init__(self, seat: int, seed: str) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")

    def act(self, obs: Any) -> Action:
        required = [a for a in obs.legal if not isinstance(a, Communicate | Distress)]
        plays = {a.card for a in required if isinstance(a, Play)}
        illegal = [c for c in obs.hand if c not in plays]
        if plays and illegal and self.rng.random() < 0.4:
            return Play(self.seat, self.rng.choice(illegal))  # refused by the engine
        return self.rng.choice(required)

    def optional(self, obs: Any) -> Action | None:
        distress = [a for a in obs.legal if isinstance(a, Distress)]
        if distress:
            return distress[0]
        comms = [a for a in obs.legal if isinstance(a, Communicate)]
        return self.rng.choice(comms) if comms and self.rng.random() < 0.5 else None


def hidden_from(game: Any, seat: int) -> set[str]:
    """Names of the cards ``seat`` cannot see: the others' hands, less its own passed card and the cards named
    in public (communicated, face up for JARVIS, task cards, the commander's announced card)."""
    obs = game.observation(seat)
    known = {c.card for c in obs.communications} | set(obs.dummy_up) | {t.card for t in obs.tasks}
    known |= {e.card for e in game.events if e.kind in ("commander", "role") and e.card is not None}
    if game.passes.get(seat) is not None:
        known.add(game.passes[seat])
    cards = {c for s in range(game.n) if s != seat for c in game.hand(s)} - known
    return {c.name for c in cards}


def leaks(text: str, hidden: set[str]) -> list[str]:
    return [name for name in hidden if re.search(rf"(?<![\w]){re.escape(name)}(?!\d)", text)]


@pytest.mark.parametrize(("mission", "seed"), [("planet-nine/01", "leak-a"), ("planet-nine/03", "leak-b"),
                                               ("planet-nine/05", "leak-c")])
async def test_no_hidden_card_in_any_text(home: Any, mission: str, seed: str) -> None:
    services = Services(bot_factory=lambda name, seat, s: MischiefBot(seat, seed), logbook=MemoryLogbook(),
                        saves=_saves(lambda: home), home=lambda: home)
    app = CrewApp(PlayOptions(mission=mission, seed=seed, fast=True), services=services)
    notes: list[str] = []
    notify = app.notify

    def record(message: str, *args: Any, **kw: Any) -> None:
        notes.append(str(message))
        notify(message, *args, **kw)

    app.notify = record  # type: ignore[method-assign]
    passed_between_bots = refused = 0
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # campaign or briefing
        await settle(pilot)
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")
            await settle(pilot)
        for _ in range(400):
            await settle(pilot)
            screen = app.screen
            if isinstance(screen, EndScreen):
                break
            table = app.table()
            game = table.session.g
            hidden = hidden_from(game, 0)
            found = leaks(text_of(app) + "\n".join(notes), hidden)
            assert not found, (found, notes)
            notes.clear()
            passed_between_bots += sum(1 for e in game.events if e.kind == "pass" and e.seat != 0
                                       and not e.detail.endswith(" 0"))
            refused += sum(1 for e in game.events if e.kind == "refused")
            if isinstance(screen, HandoffScreen):
                await pilot.press("enter")
            elif await pass_distress(pilot):
                continue
            elif isinstance(screen, TableScreen) and not game.is_over():
                if table.session.is_human(game.to_act):
                    if game.phase == "distress-pass":
                        await pilot.press("home", "enter")
                    else:
                        await press_first_legal(pilot)
                else:
                    await pilot.press("space")
            else:
                await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)
        assert passed_between_bots  # the case of the issue happened: a card passed from one bot to another


PLANTS = ["status line", "log", "notification", "dialog", "border title", "task panel scrolled into view"]


@pytest.mark.parametrize("where", PLANTS)
async def test_a_planted_card_is_found_anywhere_on_screen(services: Services, where: str) -> None:
    """The check above reads what the terminal shows: a hidden card planted in any part of the screen is found;
    the same card in a widget that is not shown (hidden, or scrolled out of its panel) is not on screen."""
    from rich.text import Text
    from textual.containers import VerticalScroll
    from textual.widgets import Static

    from crewkit.tui.screens.dialogs import ChoiceScreen

    app = CrewApp(PlayOptions(mission="planet-nine/01", seed="plant", fast=True), services=services)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:  # toasts drawn, as in a terminal
        table = await open_table(pilot)
        await pass_distress(pilot)
        await settle(pilot)
        game = table.session.g
        hidden = hidden_from(game, 0)
        name = sorted(hidden)[0]
        assert not leaks(text_of(app), hidden)
        if where == "status line":
            table.set_status(f"Bot 2 holds {name}")
        elif where == "log":
            table.query_one("#log", Static).update(Text(f"Bot 2 plays {name}"))
        elif where == "notification":
            app.notify(f"Bot 2 holds {name}", title="Crew")
        elif where == "dialog":
            app.push_screen(ChoiceScreen("A question", [(f"take {name}", 1)], id="planted"))
        elif where == "border title":
            table.query_one("#crew").border_title = name
        else:  # a line past the bottom of the tasks panel: not on screen until the panel is scrolled
            box = table.query_one("#tasks-box", VerticalScroll)
            table.query_one("#tasks", Static).update(Text("\n".join(["task"] * 30 + [name])))
            await settle(pilot)
            assert box.max_scroll_y > 0 and not leaks(text_of(app), hidden)
            box.scroll_end(animate=False)
        await settle(pilot)
        assert leaks(text_of(app), hidden) == [name], text_of(app)
        if where == "log":  # hidden, the same widget shows nothing
            table.query_one("#log").display = False
            await settle(pilot)
            assert not leaks(text_of(app), hidden)
