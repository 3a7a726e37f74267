"""The review screen (``w`` on the end screen, "where it went wrong"): the attempt's tricks one at a time with
← →, every hand as it was before the trick (the game is over), each position marked "still winnable" / "lost"
/ "undecided" by the solver (:mod:`crewkit.families.trick_taking.review`).

The review runs in a worker thread: a first answer on a small budget is shown at once, marked provisional,
then the final one replaces it (each posts :class:`ReviewScreen.Answered`). At a hosted table's seat the
host's answers are shown instead, the same way: its first one, provisional, then its final one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.tui.words import card_text

MARK_STYLE = {"still winnable": "bold green", "lost": "bold red", "undecided": "bold yellow"}
KIND_STYLE = {"yes": "bold green", "no": "bold red", "undecided": "bold yellow"}


class ReviewScreen(ModalScreen[None]):
    """Steps through the tricks of a finished game with the review's marks; Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Previous trick"),
        Binding("right", "step(1)", "Next trick"),
        Binding("escape", "dismiss_review", "Back"),
    ]
    #: the screen's heading; the plays of a trick one a row (each with a long mark) or all on one row
    HEADING = "WHERE IT WENT WRONG"
    PLAY_ROWS = False
    KEYS = "← → trick   Esc: back"

    class Answered(Message):
        """An answer is shown: the first (``provisional``) or the final one."""

        def __init__(self, provisional: bool) -> None:
            super().__init__()
            self.provisional = provisional

    def __init__(self, game: Game | None, names: Sequence[str], *, host: Any = None) -> None:
        """``game``: the finished game, reviewed here in a worker; or None with ``host``, a hosted table's seat
        (:class:`crewkit.tui.remote.HostSeat`): the host's review is asked for, with the game's record."""
        super().__init__(id="review")
        self.names = list(names)
        self.host = host
        self.trick = 0
        self.review: Any = None
        self.provisional = False  # the answer shown is the first one, still being refined
        self.positions: list[Game] = []
        self.error = ""
        self.waiting = "The host is reviewing the game…" if host is not None else "The solver is reviewing the attempt…"
        self.game: Game | None = None
        self.starts: list[int] = []  # where each trick starts: the number of actions played before its first card
        self._rebuilt: tuple[Any, Game, list[Game]] | None = None  # a seat's host record, replayed once
        if game is not None:
            self.set_game(game)

    def set_game(self, game: Game) -> None:
        self.game = game
        self.starts = self.trick_starts(game)

    @staticmethod
    def trick_starts(game: Game) -> list[int]:
        """Where each trick starts: the number of actions played before its first card (a match's round starts
        with the dealer's choice and may be settled before its last trick)."""
        starts = []
        plays = 0
        for i, a in enumerate(game.actions):
            if isinstance(a, ChooseMission):
                plays = 0
            elif isinstance(a, Play):
                if plays % game.n == 0:
                    starts.append(i)
                plays += 1
        return starts

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="review-dialog"):
            yield Static(self.body(), id="review-text")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.host is not None:
            self.run_worker(self._from_host(), group="review", exit_on_error=False)
        elif self.game is not None:
            self.run_worker(self._compute, thread=True, group="review", exit_on_error=False)

    async def _from_host(self) -> None:
        """A seat's review: the host's, computed once there for every seat (with the record: every hand); its
        first answer shown provisional while the final one comes, as the local screen's."""
        import asyncio

        came: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def first(message: dict[str, Any]) -> None:
            if not came.done():
                came.set_result(message)

        final = asyncio.ensure_future(self.host.request_review(first))
        await asyncio.wait({came, final}, return_when=asyncio.FIRST_COMPLETED)
        if came.done() and not final.done():
            await self._show_host(came.result(), provisional=True)
        await self._show_host(await final)

    async def _show_host(self, message: dict[str, Any], *, provisional: bool = False) -> None:
        import asyncio

        from crewkit.families.trick_taking.review import seat_names

        if message["type"] == "error" or message.get("error") or not message.get("review"):
            why = str(message.get("message") or message.get("error") or "the host sent no review")
            self.show(None, [], error=self.host.named(why))
            return
        try:
            if self._rebuilt is None or self._rebuilt[0] != message["record"]:
                self._rebuilt = (message["record"], *await asyncio.to_thread(_rebuilt, message["record"]))
            _, game, positions = self._rebuilt
            rv = self.review_of_json(message["review"])
        except Exception as exc:  # the host's data, refused in words (never a traceback at the seat)
            self.show(None, [], error=f"the host's record of the game cannot be replayed here: {exc}")
            return
        self.names = seat_names(game, [str(n) for n in message["names"]] or self.names)  # JARVIS too
        self.set_game(game)
        self.show(rv, positions, provisional=provisional)

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "review")  # the final answer is not waited for once the screen is gone

    def _compute(self) -> None:
        from textual.worker import get_current_worker

        from crewkit.families.trick_taking import review as reviews

        worker = get_current_worker()
        assert self.game is not None
        actions = list(self.game.actions)
        try:
            start, seed = reviews.start_of(self.game)
            positions = reviews.positions_of(start, actions)
            first = self.first_answer(start, actions, seed, lambda: worker.is_cancelled)
            if worker.is_cancelled:
                return
            self.app.call_from_thread(self.show, first, positions, provisional=True)
            final = self.final_answer(start, actions, seed, lambda: worker.is_cancelled, first)
        except reviews.ReviewStopped:  # the screen is gone: nobody waits for the answer
            return
        except reviews.NoReview as exc:
            self.app.call_from_thread(self.show, None, [], error=str(exc))
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show, final, positions)

    def first_answer(self, start: Game, actions: list[Action], seed: str, stop: Callable[[], bool]) -> Any:
        """The first answer, on a small budget (shown provisional): the attempt's bisection."""
        from crewkit.families.trick_taking import review as reviews

        return reviews.quick_review(start, actions, self.names, seed)

    def final_answer(self, start: Game, actions: list[Action], seed: str, stop: Callable[[], bool],
                     first: Any) -> Any:
        """The final answer, which replaces the first (``stop``: the screen is gone; ``first``: the first
        answer, whose decided positions are not searched again)."""
        from crewkit.families.trick_taking import review as reviews

        return reviews.final_review(start, actions, self.names, seed, stop, first)

    def review_of_json(self, data: dict[str, Any]) -> Any:
        """A review as the host sent it (its ``to_json``)."""
        from crewkit.families.trick_taking.review import Review

        return Review.from_json(data)

    def show(self, rv: Any, positions: list[Game], *, provisional: bool = False, error: str = "") -> None:
        """Show a review (``provisional``: a first answer, refined later), or why there is none."""
        self.review, self.positions, self.error, self.provisional = rv, positions, error, provisional
        self.refresh_body()
        self.post_message(self.Answered(provisional))

    def refresh_body(self) -> None:
        self.query_one("#review-text", Static).update(self.body())
        # the dialog's height follows its text (a seat's grows from one line once the host's review comes)
        self.query_one("#review-dialog", VerticalScroll).refresh(layout=True)

    def action_step(self, by: int) -> None:
        if self.starts:
            self.trick = max(0, min(len(self.starts) - 1, self.trick + by))
            self.refresh_body()

    def action_dismiss_review(self) -> None:
        self.dismiss(None)

    def body(self) -> Text:
        out = Text()
        out.append(f"{self.HEADING}\n\n", style="bold")
        if self.error:
            out.append(self.error + "\n", style="red")
            return out
        rv = self.review
        if rv is None:
            out.append(self.waiting + "\n", style="dim")
        elif self.provisional:
            out.append("First answer, provisional: the solver is still refining it…\n", style="yellow")
        if self.game is None:  # a seat waits for the host's record
            return out
        self.heading(out, rv)
        if not self.starts:
            out.append("\nNo card was played.\n")
            return out
        k = self.trick
        start = self.starts[k]
        out.append(f"\n{self.trick_title(k)}", style="bold")
        if rv is not None and self.positions:
            mark = self.position_mark(rv, start)
            if mark is not None:
                out.append(f"  before it: {mark[0]}", style=mark[1])
        out.append("\n")
        before = self.positions[start] if self.positions else None
        if before is not None:
            for seat in range(before.n):
                out.append(f"  {self.names[seat]:<10} ")
                for i, card in enumerate(before.hand(seat)):
                    if i:
                        out.append(" ")
                    out.append_text(card_text(card, short=True))
                out.append("\n")
        end = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.game.actions)
        out.append("  played:" + ("\n" if self.PLAY_ROWS else " "))
        for i in range(start, end):
            a = self.game.actions[i]
            if not isinstance(a, Play):
                continue
            out.append(f"    {self.names[a.seat]:<10} " if self.PLAY_ROWS else f"{self.names[a.seat]} ")
            out.append_text(card_text(a.card, short=True))
            mark = None if rv is None else self.play_mark(rv, i)
            if mark is not None:
                out.append(f" {mark[0]}", style=mark[1])
            out.append("\n" if self.PLAY_ROWS else "  ")
        out.append(("" if self.PLAY_ROWS else "\n") + f"\n{self.KEYS}", style="bold")
        self.tail(out, rv)
        return out

    def heading(self, out: Text, rv: Any) -> None:
        """What the review says of the whole attempt: its outcome and the fair blame."""
        if rv is None:
            return
        out.append(rv.reason + "\n", style="bold")
        known = (rv.turning_point or {}).get("known")
        if known:
            out.append(known["words"] + "\n")

    def trick_title(self, k: int) -> str:
        return f"Trick {k + 1} of {len(self.starts)}"

    def position_mark(self, rv: Any, i: int) -> tuple[str, str] | None:
        """The mark of the position after ``i`` actions, and its style."""
        from crewkit.families.trick_taking.review import position_mark

        mark = position_mark(rv, i)
        return mark, MARK_STYLE[mark]

    def play_mark(self, rv: Any, i: int) -> tuple[str, str] | None:
        """The mark of the ``i``-th action (a card played), and its style; None: no mark."""
        turning = None if rv.turning_point is None else rv.turning_point["action_index"]
        if turning is not None and i == turning:
            return "(lost the mission)", "bold red"
        if turning is not None and i < turning:
            return "✓", "green"
        return None

    def tail(self, out: Text, rv: Any) -> None:
        """What follows the trick and the keys (the Crew's screen: nothing)."""


class MatchReviewScreen(ReviewScreen):
    """The review of a match played in rounds (Hammer's, :mod:`crewkit.families.trick_taking.round_review`): the
    same screen, stepping through every round's tricks (← →; ↑ ↓ a round), every hand as it was, each position
    marked with what the adversarial search decided (a challenge: whether the dealer could force the bet; in
    penalty mode: the guarantee of the player to lead) and each card played with what it did (kept the bet
    forceable or lost it; kept the player's guarantee or lowered it); after the keys, the round's review in
    words."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *ReviewScreen.BINDINGS,
        # before the dialog's scrolling (the words below the keys scroll with PgUp PgDn)
        Binding("up", "round(-1)", "Previous round", priority=True),
        Binding("down", "round(1)", "Next round", priority=True),
    ]
    HEADING = "THE ROUNDS, TRICK BY TRICK"
    PLAY_ROWS = True
    KEYS = "← → trick   ↑ ↓ round   PgUp PgDn: the words   Esc: back"

    def __init__(self, game: Game | None, names: Sequence[str], *, host: Any = None) -> None:
        self.rounds: list[int] = []  # by trick: the round it belongs to
        super().__init__(game, names, host=host)
        self.waiting = "The host is reviewing the rounds…" if host is not None else "Reviewing the rounds…"

    def set_game(self, game: Game) -> None:
        super().set_game(game)
        chosen = [i for i, a in enumerate(game.actions) if isinstance(a, ChooseMission)]
        self.rounds = [sum(1 for c in chosen if c < start) for start in self.starts]

    def first_answer(self, start: Game, actions: list[Action], seed: str, stop: Callable[[], bool]) -> Any:
        from crewkit.families.trick_taking import review as reviews
        from crewkit.families.trick_taking.round_review import review_match

        return review_match(start, actions, names=self.names, max_nodes=reviews.QUICK_NODES,
                            timeout=reviews.QUICK_TOTAL, total=reviews.MATCH_QUICK_TOTAL, stop=stop)

    def final_answer(self, start: Game, actions: list[Action], seed: str, stop: Callable[[], bool],
                     first: Any) -> Any:
        from crewkit.families.trick_taking import review as reviews

        return reviews.final_match_review(start, actions, self.names, seed, stop)

    def review_of_json(self, data: dict[str, Any]) -> Any:
        from crewkit.families.trick_taking.round_review import MatchReview

        return MatchReview.from_json(data)

    def action_round(self, by: int) -> None:
        """The first trick of the previous or next round."""
        if not self.rounds:
            return
        now = self.rounds[self.trick]
        if by < 0:
            earlier = [r for r in self.rounds if r < now]
            target = self.rounds.index(earlier[-1]) if earlier else 0
        else:
            target = next((k for k, r in enumerate(self.rounds) if r > now), self.trick)
        self.trick = target
        self.refresh_body()

    def _round(self, rv: Any) -> dict[str, Any] | None:
        if rv is None or not self.rounds:
            return None
        number = self.rounds[self.trick]
        return next((r for r in rv.rounds if r["round"] == number), None)

    def heading(self, out: Text, rv: Any) -> None:
        if not self.rounds:
            return
        number = self.rounds[self.trick]
        r = self._round(rv)
        out.append(f"Round {number} of {max(self.rounds)}", style="bold")
        if r is not None:
            result = {"success": "the bet succeeded", "failure": "the bet failed", "scored": "scored"}.get(
                r.get("result") or "", "under way when the game ended")
            out.append(f": {r['dealer_name']} dealt; {r['title']} in {r['mode']} mode; {result}")
        out.append("\n")

    def trick_title(self, k: int) -> str:
        number = self.rounds[k]
        of_round = [j for j, r in enumerate(self.rounds) if r == number]
        return f"Trick {of_round.index(k) + 1} of {len(of_round)}"

    def position_mark(self, rv: Any, i: int) -> tuple[str, str] | None:
        from crewkit.families.trick_taking.round_review import position_mark

        r = self._round(rv)
        if r is None:
            return None
        words, kind = position_mark(r, i, self.positions[i].turn)
        return words, KIND_STYLE[kind]

    def play_mark(self, rv: Any, i: int) -> tuple[str, str] | None:
        from crewkit.families.trick_taking.round_review import play_mark

        r = self._round(rv)
        assert self.game is not None
        mark = None if r is None else play_mark(r, i, self.game.actions[i].seat)
        return None if mark is None else (mark[0], KIND_STYLE[mark[1]])

    def tail(self, out: Text, rv: Any) -> None:
        r = self._round(rv)
        if r is None:
            return
        words = str(r.get("words", ""))  # its heading is the screen's
        out.append("\n\n" + words.removeprefix(str(r.get("heading", ""))).lstrip(": \n") + "\n")
        known = (r.get("turning_point") or {}).get("known")
        if known:
            out.append(str(known["words"]) + "\n")


def _rebuilt(record: dict[str, Any]) -> tuple[Game, list[Game]]:
    """A finished game from its record, and its positions (ValueError saying why it does not replay)."""
    from crewkit.families.trick_taking.engine.record import replay_record
    from crewkit.families.trick_taking.review import positions_of

    final = replay_record(record)
    start = replay_record({**record, "actions": []})
    if final.game is None or start.game is None or final.error is not None:
        raise ValueError(str(final.error or start.error or "no game"))
    return final.game, positions_of(start.game, list(final.game.actions))
