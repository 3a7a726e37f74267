"""A trick-taking engine game as the one driver plays it (:class:`TrickTakingGame`), a bot in its seat
(:class:`BotSeat`) and :func:`play_game`: below the family and the bot registry, so that a bot's own play-outs
of whole games (JARVIS's seat) use the one driver without an import cycle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES, Bot
from crewkit.families.trick_taking.engine.blocks.rounds import match_of
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation, Table, observe, table_snapshot
from crewkit.families.trick_taking.engine.observation_json import match_json
from crewkit.families.trick_taking.engine.record import game_to_record
from crewkit.families.trick_taking.engine.state import Event
from crewkit.games.driver import BotError, play_out
from crewkit.games.protocol import EngineGame, Family, GameInPlay, GameOutcome

if TYPE_CHECKING:
    pass

def _event_text(e: Event) -> str:
    parts = [e.kind]
    if e.seat is not None:
        parts.append(f"seat {e.seat}")
    if e.card is not None:
        parts.append(e.card.name)
    if e.detail:
        parts.append(e.detail)
    return " ".join(parts)


class TrickTakingGame(EngineGame):
    """A trick-taking :class:`~crewkit.families.trick_taking.engine.game.Game` as a :class:`~crewkit.games.protocol.GameInPlay`."""

    __slots__ = ("_table",)
    engine: Game

    def __init__(self, engine: Game) -> None:
        super().__init__(engine)
        self._table: tuple[int, Table] | None = None  # a window's shared table, valid while no action is applied

    @property
    def family(self) -> Family:
        from crewkit.games import family_named  # by its entry point: the family module sits above this one

        return family_named("trick-taking")

    def waiting(self) -> tuple[int, ...]:
        seat = self.engine.to_act
        return () if seat is None else (seat,)

    def window(self) -> tuple[int, ...]:
        g = self.engine
        if g.is_over() or not g.in_communication_window():
            return ()
        return tuple((g.leader + i) % g.n for i in range(g.n))  # from the leader, clockwise

    def may_act_out_of_turn(self, seat: int) -> bool:
        return self.engine.has_optional_actions(seat)  # the engine's predicate: one rule for bots, app and checks

    def table(self) -> Table:
        """The part of every seat's observation they share now (one snapshot per window, for speed)."""
        count = len(self.engine.actions)
        if self._table is None or self._table[0] != count:
            self._table = (count, table_snapshot(self.engine, lazy_optional=True))
        return self._table[1]

    def seat_observation(self, seat: int) -> Observation:
        """The engine's observation of ``seat`` (what the family's bots read)."""
        g = self.engine
        if g.in_communication_window():
            return observe(g, seat, lazy_optional=True, table=self.table())
        return observe(g, seat, g.legal_actions(seat))

    def observation(self, seat: int) -> dict[str, Any]:
        data = observe(self.engine, seat).to_json()
        # the mission card's number of each secret mission this seat sees (its own, the revealed ones): the
        # Persian reading completes them in number order
        numbers = {t.card.name: number for t in self.engine.tasks
                   if isinstance(number := getattr(t, "number", None), int)}
        if numbers:
            for task in data["tasks"]:
                if task["card"] in numbers:
                    task["number"] = numbers[task["card"]]
        match = match_of(self.engine)
        if match is not None:  # Hammer: the rounds, the chips, the dealer's choice (public)
            data["match"] = match_json(match, self.engine.dealer, self.engine.mode)
        return data

    def public_log(self) -> list[str]:
        return [_event_text(e) for e in self.engine.events_for(-1)]

    def seat_log(self, seat: int) -> list[str]:
        return [_event_text(e) for e in self.engine.events_for(seat)]

    def outcome(self) -> GameOutcome:
        o = self.engine.outcome()
        g = self.engine
        if match_of(g) is not None and g.is_over():  # Hammer: the seats with the most chips win
            match = match_of(g)
            assert match is not None
            best = max(match.chips)
            winners = tuple(s for s, c in enumerate(match.chips) if c == best)
            return GameOutcome(o.result, o.reason, winners, "")
        if o.result == "success":
            return GameOutcome(o.result, o.reason, tuple(range(g.n)), "the crew")
        return GameOutcome(o.result, o.reason, (), "")

    def clone(self) -> TrickTakingGame:
        return TrickTakingGame(self.engine.clone())

    def record(self) -> dict[str, Any]:
        return game_to_record(self.engine)


class BotSeat:
    """A trick-taking bot (:class:`~crewkit.families.trick_taking.bots.base.Bot`) for the one driver: it reads its seat's
    observation only; an optional action from ``act`` while a required one is due, or a required one from
    ``optional``, is a bug of the bot (:class:`~crewkit.games.driver.BotError`)."""

    __slots__ = ("bot", "seat")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seat = bot.seat

    def act(self, game: GameInPlay) -> Action:
        obs = cast(TrickTakingGame, game).seat_observation(self.seat)
        action = self.bot.act(obs)
        if type(action) in OPTIONAL_TYPES and obs.required:
            raise BotError(f"the bot of seat {self.seat} returned the optional {action!r} from act()")
        return action

    def offer(self, game: GameInPlay) -> Action | None:
        g = cast(TrickTakingGame, game)
        obs = observe(g.engine, self.seat, lazy_optional=True, table=g.table())
        action = self.bot.optional(obs)
        if action is not None and type(action) not in OPTIONAL_TYPES:
            raise BotError(f"the bot of seat {self.seat} returned {action!r} from optional(): not optional")
        return action


def play_game(game: Game, bots: Sequence[Bot], max_actions: int = 10_000) -> Game:
    """Play an engine game to its end with one bot per seat, through the one driver; returns the game."""
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a {game.n}-player game")
    play_out(TrickTakingGame(game), [BotSeat(b) for b in bots], max_actions)
    return game
