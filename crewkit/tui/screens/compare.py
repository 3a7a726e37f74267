"""Compare variants: a form over ``crewkit.analysis.compare``, its table and its text bar chart.

Every number on this screen comes from the library (``parse_variant``, ``compare``, the result's rates,
intervals, reasons and paired statistics, ``text_bar``); the screen only reads the form, runs the comparison
in a worker thread and lays the result out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Header, Input, Label, ProgressBar, Static
from textual.worker import Worker, get_current_worker

from crewkit.tui.footer import FitFooter
from crewkit.tui.text import plural

if TYPE_CHECKING:
    from crewkit.analysis.compare import Comparison, Variant

DEFAULT_VARIANTS = (
    "ruleset=crew,mission=planet-nine/04,players=4,bot=rules",
    "ruleset=crew,mission=planet-nine/04,players=3,bot=rules",
)
DEFAULT_GAMES = 40
DEFAULT_SEED = "compare"
# Missing keys of the first variant: the CLI's defaults (``crewkit compare``); later variants take theirs from [1].
FIRST_DEFAULTS: dict[str, Any] = {"ruleset": None, "players": 4, "bot": "heuristic"}  # ruleset: the mission's first
MAX_VARIANTS = 6
CHART_WIDTH = 50
LABEL_WIDTH = 24
NARROW_LABEL_WIDTH = 14
REASON_WIDTH = 22
#: the columns the full table needs; narrower, the paired comparison and the top failure go under the table
WIDE = 118
#: the rows under which the form's fields lose their borders (80x24)
SHORT = 30

HINT = ("One variant per line: key=value pairs — ruleset, mission, players, bot (random, heuristic, rules), "
        "reading=id:option, label. Keys left out come from [1]. Solver: also the share of deals a perfect crew "
        "wins (slower). Enter runs; Esc cancels a run or goes back.")


class CompareCancelled(Exception):
    """Raised inside the progress callback to stop a cancelled run between two deals."""


def short_label(variant: Variant, index: int, variants: list[Variant]) -> str:
    """The variant's own label, or its ``key=value`` parts that not every variant shares."""
    if "=" not in variant.label:  # a label= of its own
        return variant.label
    parts = [p.split(",") for p in (v.describe() for v in variants)]
    shared = set(parts[0]).intersection(*parts[1:]) if len(parts) > 1 else set()
    own = [p for p in parts[index] if p not in shared]
    return ",".join(own) or variant.describe()


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class CompareScreen(Screen[None]):
    """Variants on the same deals: bot success with intervals, solver-winnable share, McNemar against [1]."""

    BINDINGS = [
        Binding("escape", "back", "Back / cancel run"),
        Binding("ctrl+r", "run", "Run"),
    ]

    DEFAULT_CSS = """
    CompareScreen #compare-form {
        height: auto;
        padding: 0 1;
    }
    CompareScreen #compare-hint {
        color: $text-muted;
        height: auto;
    }
    CompareScreen #compare-variants {
        height: auto;
    }
    CompareScreen #compare-options {
        height: auto;
    }
    CompareScreen #compare-options Label {
        padding: 1 1 0 1;
    }
    CompareScreen #compare-games {
        width: 10;
    }
    CompareScreen #compare-seed {
        width: 20;
    }
    CompareScreen #compare-options Button {
        margin: 0 0 0 1;
        min-width: 7;
    }
    CompareScreen.short #compare-options Label {
        padding: 0 1;
    }
    CompareScreen #compare-progress-row {
        height: auto;
        padding: 0 1;
    }
    CompareScreen #compare-status {
        width: 1fr;
        height: auto;
        padding: 0 0 0 2;
        color: $text-muted;
    }
    CompareScreen #compare-error {
        height: auto;
        padding: 0 1;
        color: $error;
        text-style: bold;
    }
    CompareScreen #compare-error.-empty {
        display: none;
    }
    CompareScreen #compare-results {
        height: 1fr;
        padding: 0 1;
    }
    CompareScreen #compare-table {
        height: auto;
        max-height: 12;
    }
    CompareScreen #compare-chart {
        height: auto;
        padding: 1 0 0 0;
    }
    """

    def __init__(self, variants: tuple[str, ...] | list[str] = DEFAULT_VARIANTS, games: int = DEFAULT_GAMES,
                 seed: str = DEFAULT_SEED, solver: bool = False) -> None:
        super().__init__(id="compare")
        self.initial_variants = list(variants) or [""]
        self.initial_games = games
        self.initial_seed = seed
        self.initial_solver = solver
        self.running: Worker[None] | None = None
        self.result: Comparison | None = None
        self._narrow = False  # the result laid out for fewer than WIDE columns

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(Text.assemble(("Compare variants", "bold"), "   the same deals for every variant"),
                     classes="screen-title")
        with Vertical(id="compare-form"):
            yield Static(HINT, id="compare-hint")
            with Vertical(id="compare-variants"):
                for i, spec in enumerate(self.initial_variants):
                    yield self._variant_input(i, spec)
            with Horizontal(id="compare-options"):
                yield Label("Games")
                yield Input(str(self.initial_games), type="integer", id="compare-games")
                yield Label("Seed")
                yield Input(self.initial_seed, id="compare-seed")
                yield Checkbox("Solver", self.initial_solver, id="compare-solver")
                yield Button("Run", variant="primary", id="compare-run")
                yield Button("+ Variant", id="compare-add")
        with Horizontal(id="compare-progress-row"):
            yield ProgressBar(total=1, show_eta=True, id="compare-progress")
            yield Static("Not run yet.", id="compare-status")
        yield Static("", id="compare-error", classes="-empty")
        with VerticalScroll(id="compare-results"):
            yield DataTable(id="compare-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="compare-chart")
        yield FitFooter()

    @staticmethod
    def _variant_input(index: int, spec: str) -> Input:
        return Input(spec, placeholder=f"[{index + 1}] ruleset=…,mission=…,players=…,bot=…",
                     id=f"variant-{index + 1}", classes="variant")

    def on_mount(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)
        self.query_one("#variant-1", Input).focus()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """80x24: the form's fields without borders; narrower than the full table, the result laid out again."""
        short = height < SHORT
        self.set_class(short, "short")
        for field in self.query("Input, Button, Checkbox"):
            field.compact = short  # type: ignore[attr-defined]
        narrow = width < WIDE
        if self.result is not None and narrow != self._narrow:
            self._narrow = narrow
            self.show_result(self.result)
        self._narrow = narrow

    # ------------------------------------------------------------------ form
    def specs(self) -> list[str]:
        return [i.value.strip() for i in self.query(".variant").results(Input) if i.value.strip()]

    def show_error(self, message: str) -> None:
        error = self.query_one("#compare-error", Static)
        error.update(Text(message))
        error.set_class(not message, "-empty")

    def set_status(self, message: str) -> None:
        self.query_one("#compare-status", Static).update(Text(message))

    def read_form(self) -> tuple[list[Variant], int, str, bool] | None:
        """The form as library objects, or ``None`` after showing what is wrong."""
        from crewkit.analysis.compare import Variant, VariantError, parse_variant

        specs = self.specs()
        if not specs:
            self.show_error("Give at least one variant, e.g. ruleset=crew,mission=planet-nine/04,players=4,bot=rules")
            return None
        games_text = self.query_one("#compare-games", Input).value.strip()
        try:
            games = int(games_text)
        except ValueError:
            games = 0
        if games < 1:
            self.show_error(f"Games must be a whole number of at least 1, found {games_text!r}.")
            return None
        seed = self.query_one("#compare-seed", Input).value.strip() or DEFAULT_SEED
        variants: list[Variant] = []
        try:
            for i, text in enumerate(specs):
                defaults = FIRST_DEFAULTS if not variants else {
                    "ruleset": variants[0].ruleset, "mission": variants[0].mission,
                    "players": variants[0].players, "bot": variants[0].bot, "readings": list(variants[0].readings)}
                variants.append(parse_variant(text, defaults, index=i))
        except VariantError as exc:
            self.show_error(f"[{len(variants) + 1}] {exc}")
            return None
        labels = [v.label for v in variants]
        if len(set(labels)) != len(labels):  # as ``crewkit compare`` does: labels must tell variants apart
            variants = [Variant(f"{v.label} #{i + 1}", v.ruleset, v.mission, v.players, v.bot, v.readings)
                        for i, v in enumerate(variants)]
        return variants, games, seed, self.query_one("#compare-solver", Checkbox).value

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_run()

    @on(Button.Pressed, "#compare-run")
    def _run_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_run()

    @on(Button.Pressed, "#compare-add")
    def _add_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        box = self.query_one("#compare-variants", Vertical)
        count = len(box.children)
        if count >= MAX_VARIANTS:
            self.notify(f"At most {MAX_VARIANTS} variants here.", severity="warning")
            return
        new = self._variant_input(count, "")
        new.compact = self.has_class("short")
        box.mount(new)
        new.focus()

    # ------------------------------------------------------------------ running
    def action_run(self) -> None:
        if self.running is not None and self.running.is_running:
            self.notify("A comparison is running; Esc cancels it.", severity="warning")
            return
        form = self.read_form()
        if form is None:
            return
        variants, games, seed, solver = form
        self.show_error("")
        bar = self.query_one("#compare-progress", ProgressBar)
        bar.update(total=len(variants) * games, progress=0)
        self.query_one("#compare-run", Button).disabled = True
        self.result = None
        self.query_one("#compare-table", DataTable).clear(columns=True)
        self.query_one("#compare-chart", Static).update("")
        self.set_status(f"Running {plural(len(variants), 'variant')} × {plural(games, 'deal')}" + (" with the solver…" if solver else "…"))
        self.running = self.run_compare(variants, games, seed, solver)

    @work(thread=True, exclusive=True, group="compare", exit_on_error=False)
    def run_compare(self, variants: list[Variant], games: int, seed: str, solver: bool) -> None:
        from crewkit.analysis.compare import compare

        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise CompareCancelled
            self.app.call_from_thread(self._progress, done, total)

        try:
            result = compare(variants, games, seed, workers=1, solver=solver, progress=progress)
        except CompareCancelled:
            return
        except Exception as exc:  # the library's message, never a traceback
            if not worker.is_cancelled:
                self.app.call_from_thread(self._failed, str(exc) or type(exc).__name__)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._finished, result)

    def _progress(self, done: int, total: int) -> None:
        if self.is_attached:
            self.query_one("#compare-progress", ProgressBar).update(total=total, progress=done)

    def _failed(self, message: str) -> None:
        if not self.is_attached:
            return
        self.query_one("#compare-run", Button).disabled = False
        self.set_status("Not run: see the message above.")
        self.show_error(message)

    def _finished(self, result: Comparison) -> None:
        if not self.is_attached:
            return
        self.result = result
        self.query_one("#compare-run", Button).disabled = False
        self.set_status(f"{result.games} paired deals per variant, seed {result.seed!r} · "
                        f"{result.seconds:.1f} s")
        self.show_result(result)

    def action_back(self) -> None:
        if self.running is not None and self.running.is_running:
            self.running.cancel()
            self.query_one("#compare-run", Button).disabled = False
            self.set_status("Cancelled.")
            return
        self.dismiss(None)

    # ------------------------------------------------------------------ result
    def show_result(self, result: Comparison) -> None:
        """The table (at fewer than WIDE columns: without the top failure and the paired test, which go under
        it, one line each) and the chart."""
        narrow = self._narrow
        variants = [r.variant for r in result.results]
        solver = any(r.solver_ran for r in result.results)
        table = self.query_one("#compare-table", DataTable)
        table.clear(columns=True)
        table.add_column("#", key="num")
        table.add_column("Variant", key="variant")
        table.add_column("Success", key="success")
        table.add_column("95% interval", key="interval")
        if solver:
            table.add_column("Winnable", key="winnable")
        table.add_column("Tricks", key="tricks")
        if narrow:
            table.add_column("Δ pts", key="diff")
        else:
            table.add_column("Top failure", key="failure")
            table.add_column("Δ pts vs [1] (95%)", key="diff")
            table.add_column("McNemar p", key="mcnemar")
        pairs = {p.b: p for p in result.pairs}
        details: list[Text] = []
        notes: list[Text] = []
        for i, r in enumerate(result.results):
            label = Text(clip(short_label(r.variant, i, variants), NARROW_LABEL_WIDTH if narrow else LABEL_WIDTH))
            if r.error:
                table.add_row(Text(f"[{i + 1}]"), label, Text(clip(f"error: {r.error}", 7) if narrow
                                                              else f"error: {r.error}", style="red"), key=str(i))
                if narrow:
                    details.append(Text(f"[{i + 1}] error: {r.error}", style="red"))
                continue
            low, high = r.interval
            row: list[Text] = [
                Text(f"[{i + 1}]"),
                label,
                Text(f"{100 * r.success_rate:5.1f}%", style="bold", justify="right"),
                Text(f"{100 * low:.1f}–{100 * high:.1f}%"),
            ]
            if solver:
                share = r.winnable_share()
                counts = r.solver_counts()
                if share is None:
                    row.append(Text("-"))
                elif share[0] != share[0]:  # NaN: the solver decided no deal
                    row.append(Text(f"n/a ({counts['unknown']} unknown)"))
                else:
                    row.append(Text(f"{100 * share[0]:5.1f}% of {counts['winnable'] + counts['unwinnable']}"))
            row.append(Text(f"{r.mean_tricks:.2f}", justify="right"))
            top = r.reasons(1)
            if not narrow:
                row.append(Text(clip(f"{top[0][1]}× {top[0][0]}", REASON_WIDTH) if top else "-"))
            elif top:
                details.append(Text(f"[{i + 1}] top failure: {top[0][1]}× {top[0][0]}"))
            pair = pairs.get(r.variant.label) if i else None
            if pair is None:
                row += [Text("—")] if narrow else [Text("—"), Text("—")]
            else:
                d = pair.difference
                if narrow:
                    row.append(Text(f"{100 * d.difference:+.1f}", justify="right"))
                    details.append(Text(f"[{i + 1}] vs [1]: {100 * d.difference:+.1f} points (95%: "
                                        f"{100 * d.low:+.1f} to {100 * d.high:+.1f}), McNemar p "
                                        f"{pair.mcnemar.p_value:.3g}"))
                else:
                    row.append(Text(f"{100 * d.difference:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"))
                    row.append(Text(f"{pair.mcnemar.p_value:.3g}", justify="right"))
                if not pair.same_deals:
                    notes.append(Text(f"[{i + 1}] plays other hands than [1] (a different deck or hand size): "
                                      "paired by seed only.", style="italic"))
            table.add_row(*row, key=str(i))
        self.query_one("#compare-chart", Static).update(self.chart(result, notes, details))

    @staticmethod
    def chart(result: Comparison, notes: list[Text], details: list[Text] | None = None) -> Text:
        """``details``: lines before the chart (the narrow table's top failures and paired tests)."""
        from crewkit.analysis.compare import SOLVER_MARK, text_bar

        solver = any(r.solver_ran for r in result.results)
        lines: list[Text] = [*details, Text("")] if details else []
        lines += [Text("Bot success: █ rate, [ ] 95% interval" + (f", {SOLVER_MARK} solver-winnable share" if solver
                                                                  else ""), style="bold")]
        for i, r in enumerate(result.results):
            if r.error:
                continue
            share = r.winnable_share()
            bar = text_bar(r.success_rate, r.interval, CHART_WIDTH, None if share is None else share[0])
            lines.append(Text(f"[{i + 1}] {bar} {100 * r.success_rate:5.1f}%"))
        lines.append(Text(""))
        for i, r in enumerate(result.results):
            lines.append(Text(f"[{i + 1}] {r.variant.label}", style="dim"))
        lines += notes
        return Text("\n").join(lines)
