"""One mission being played in the TUI: the engine's game, who sits where, the bots, saving.

No rule is decided here: every legal action comes from the engine, every refusal is the engine's
:class:`~crewkit.engine.errors.IllegalAction`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crewkit.engine.actions import Action
from crewkit.engine.errors import IllegalAction
from crewkit.families.trick_taking.engine.blocks.communication import Communicate, Signal
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.game import Game
from crewkit.tui.services import BotLike, Progress, Services, progress_of, unfinished_save

HUMAN = "human"
JARVIS = "jarvis"  # the kind shown for the dummy seat; it is decided by the commander's controller
OPTIONAL = (Communicate, Distress, Signal)
#: the bot in empty seats: the strongest one whose decisions stay well under a second here (benchmarks/
#: bot_strength.py); bots decide in a worker thread, so the table keeps drawing while they think
DEFAULT_BOT = "expert-quick"
FALLBACK_BOT = "random"


def game_title(ruleset: str, mission: str) -> str:
    """The mission's title; for a mission set (Hammer, Persian) the rule set's title (and the card's)."""
    from crewkit.tui.catalog import in_mission_set, mission_title, ruleset_data

    card = mission_title(mission)
    if in_mission_set(ruleset, mission):
        rs = str(ruleset_data(ruleset).get("title") or ruleset)
        return f"{rs} · {card}" if card else rs
    return card


@dataclass
class Finished:
    """What the end-of-mission screen shows."""

    result: str
    reason: str
    record_path: Path | None
    progress: Progress | None
    distress_used: bool
    errors: list[str] = field(default_factory=list)
    logbook: bool = True  # False for games outside the campaign logbook (Hammer, Persian, practice)
    hints_used: bool = False
    practice: bool = False
    logbook_note: str | None = None  # what a seat at a hosted table says of the logbook instead (the host keeps it)
    attempt: str | None = None  # the logbook's reference of this attempt (``@12``: ``crewkit review @12``)


class Session:
    def __init__(
        self,
        services: Services,
        *,
        mission: str,
        ruleset: str,
        players: int,
        kinds: list[str],
        campaign: str | None,
        base_seed: str | None = None,
        readings: dict[str, str] | None = None,
        ref: str | None = None,
        version: str = "",
        title: str | None = None,
        practice: bool = False,
        hints: str = "allowed",
    ) -> None:
        """``practice``: a game that does not count (no logbook, no save to resume; the last card can be
        taken back, the same deal played again). ``hints``: ``forbidden`` refuses the hint key in an attempt
        that counts (the campaign's ``hints:``)."""
        self.services = services
        self.practice = practice
        self.hints = hints
        self.hints_used = False  # the player asked for a hint in this attempt
        self.readings = dict(readings or {})
        self.mission = mission  # the logbook's key (a campaign file's mission: its path in the campaign)
        self.ref = ref or mission  # what the engine loads
        self.version = version  # the mission file's version, recorded with each attempt
        self._title = title
        self.ruleset = ruleset
        self.players = players
        self.player_kinds = list(kinds)  # per real player, in seat order (JARVIS is not a player)
        self.campaign = campaign
        self.base_seed = base_seed
        self.attempt = 0
        self.game: Game | None = None
        self.bots: dict[int, BotLike] = {}
        self.finished: Finished | None = None
        self.asked_optional: set[tuple[int, int]] = set()  # (trick number, seat) bots were asked
        self.continued: set[int] = set()  # trick numbers whose communication window the humans closed
        self.distress_answered: set[int] = set()  # human seats that called distress or passed on it
        self.warnings: list[str] = []
        self._bots_for_dummy: int | None = None  # the dummy seat the bots were seated for
        self._reseat: dict[int, int] | None = None  # old seat -> new seat after the dummy moved

    # ------------------------------------------------------------------ seats
    @property
    def kinds(self) -> list[str]:
        """``human``/bot name per engine seat; the dummy seat (JARVIS) is ``jarvis``.

        The real players take the seats that are not the dummy's, in order (the engine keeps their clockwise
        order when the dummy moves)."""
        dummy = self.game.dummy_seat if self.game is not None else None
        if dummy is None:
            return list(self.player_kinds)
        out = list(self.player_kinds)
        out.insert(dummy, JARVIS)
        return out

    @property
    def dummy_seat(self) -> int | None:
        return self.game.dummy_seat if self.game is not None else None

    def controller(self, seat: int) -> int:
        """The seat whose player decides for ``seat``: the commander decides for the dummy (JARVIS)."""
        return self.game.controller(seat) if self.game is not None else seat

    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    def is_human(self, seat: int | None) -> bool:
        """True when a human decides for ``seat`` (for the dummy: when the commander is human)."""
        if seat is None:
            return False
        kinds = self.kinds
        seat = self.controller(seat)
        return 0 <= seat < len(kinds) and kinds[seat] == HUMAN

    @property
    def variant(self) -> str:
        """``hammer`` (rounds and chips), ``secret`` (Persian secret missions), ``jarvis`` or ``crew``."""
        game = self.game
        if game is None:
            return "crew"
        if game.scoring is not None:
            return "hammer"
        if game.rules.secret is not None:
            return "secret"
        if game.dummy_seat is not None:
            return "jarvis"
        return "crew"

    @property
    def uses_logbook(self) -> bool:
        """The campaign logbook counts Crew missions only: no Hammer match, no Persian secret-mission game."""
        from crewkit.families.trick_taking.engine.setup import counts_in_logbook
        from crewkit.tui.catalog import mission_set_of

        return (mission_set_of(self.ruleset) is None and (self.game is None or counts_in_logbook(self.game))
                and not self.practice)

    @property
    def hints_allowed(self) -> str | None:
        """Why the hint key is refused here (the campaign forbids hints in attempts that count), else None."""
        if self.hints == "forbidden" and not self.practice:
            return "this campaign forbids hints in attempts that count (a practice game has them)"
        return None

    @property
    def title(self) -> str:
        """The mission's title; for a mission set (Hammer, Persian) the rule set's title (and the card's)."""
        if self._title is not None:
            return self._title
        return game_title(self.ruleset, self.mission)

    def secret_numbers(self, seat: int) -> dict[int, int]:
        """Card id -> mission card number for ``seat``'s own secret tasks and the revealed ones (display)."""
        out: dict[int, int] = {}
        for task in self.game.tasks if self.game is not None else ():
            number = getattr(task, "number", None)
            if number is not None and (task.owner == seat or getattr(task, "revealed", True)):
                out[task.card.id] = int(number)
        return out

    def display_events(self) -> list[Any]:
        """The engine's events (already renumbered by the engine when JARVIS took its seat)."""
        return list(self.g.events)

    def take_reseat(self) -> dict[int, int] | None:
        """Once: how seats were renumbered by the last action (the dummy moved), else ``None``."""
        out, self._reseat = self._reseat, None
        return out

    @property
    def hotseat(self) -> bool:
        return len(self.humans) > 1

    @property
    def save_key(self) -> str:
        from crewkit.campaign.saves import attempt_key

        return attempt_key(self.campaign, self.mission, self.ruleset, self.players)

    # ------------------------------------------------------------------ attempts
    def next_seed(self) -> str:
        if self.base_seed:
            return self.base_seed if self.attempt == 0 else f"{self.base_seed}-{self.attempt + 1}"
        return secrets.token_hex(4)

    def new_attempt(self, seed: str | None = None) -> Game:
        from crewkit.families.trick_taking.engine.setup import new_game

        game = new_game(self.ruleset, self.ref, self.players, seed=seed if seed is not None else self.next_seed(),
                        readings=self.readings)
        self._install(game)
        self.attempt += 1
        self.save()
        return game

    def resume(self, record: dict[str, Any]) -> str | None:
        """Rebuild the saved attempt; an error text when the record cannot be replayed."""
        from crewkit.families.trick_taking.engine.record import replay_record

        replay = replay_record(record)
        if replay.game is None or replay.error is not None:
            return str(replay.error or "the saved attempt cannot be replayed")
        if replay.game.is_over():
            return "the saved attempt is already over"
        self._install(replay.game)
        self.attempt += 1
        return None

    def saved_record(self) -> dict[str, Any] | None:
        if self.practice:
            return None
        return unfinished_save(self.services.saves, self.save_key)

    def abandon_saved(self, record: dict[str, Any]) -> None:
        """The player chose a new attempt over a saved one: the logbook counts it as abandoned."""
        if not self.uses_logbook:
            self.discard_saved()
            return
        try:
            self.services.logbook.record_attempt(
                campaign=self.campaign or "free",
                mission=self.mission,
                players=self.players,
                ruleset=self.ruleset,
                seed=str(record.get("seed", "")),
                result="abandoned",
                reason="a new attempt was started instead of resuming this one",
                distress_used=any(a.get("type") == "distress" for a in record.get("actions") or []
                                  if isinstance(a, dict)),
                record_path=None,
                **self._version_kw(),
            )
        except Exception:
            pass
        self.discard_saved()

    def _progress(self) -> list[Progress]:
        """This mission's logbook line (of the current version of its file, when the campaign knows it)."""
        method = getattr(self.services.logbook, "progress_for_versions", None)
        if self.version and method is not None:
            from crewkit.families.trick_taking.engine.setup import logbook_extra_attempts

            try:
                lines, _ = method(self.campaign or "free", {self.mission: self.version}, logbook_extra_attempts)
                return [Progress(r.mission, r.attempts, r.done, r.distress_used, r.last_result) for r in lines]
            except Exception:
                return []
        return progress_of(self.services.logbook, self.campaign or "free", [self.mission])

    def _version_kw(self) -> dict[str, str]:
        return {"mission_version": self.version} if self.version else {}

    def discard_saved(self) -> None:
        try:
            self.services.saves.clear(self.save_key)
        except Exception:
            pass

    def _install(self, game: Game) -> None:
        self.game = game
        self.finished = None
        self.hints_used = False
        self.asked_optional = set()
        self.continued = set()
        self.distress_answered = set()
        self._reseat = None
        self._seat_bots()

    def _seat_bots(self) -> None:
        """One bot per seat a bot decides for; the dummy's bot plays it when the commander is a bot."""
        game = self.g
        self.bots = {}
        self._bots_for_dummy = game.dummy_seat
        factory = self.services.bot_factory
        kinds = self.kinds
        for seat in range(game.n):
            kind = kinds[self.controller(seat)] if seat < len(kinds) else HUMAN
            if kind in (HUMAN, JARVIS) or factory is None:
                continue
            name = DEFAULT_BOT if kind == "bot" else kind
            try:
                self.bots[seat] = factory(name, seat, game.seed)
            except Exception as exc:  # an unknown or broken bot: the simplest one instead
                self.warnings.append(f"bot {name!r} for seat {seat} is not available ({exc}); using 'random'")
                self.bots[seat] = factory(FALLBACK_BOT, seat, game.seed)

    def save(self) -> None:
        if self.game is None or self.game.is_over() or self.practice:  # a practice game is not resumed
            return
        from crewkit.families.trick_taking.engine.record import game_to_record

        try:
            self.services.saves.save(self.save_key, game_to_record(self.game))
        except Exception:
            pass  # saving is a convenience; never stop play for it

    # ------------------------------------------------------------------ acting
    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    def apply(self, action: Action) -> None:
        """Apply through the engine (raises IllegalAction); save the attempt so far."""
        game = self.g
        before = game.dummy_seat
        game.apply(action)
        if game.dummy_seat != before and before is not None and game.dummy_seat is not None:
            from crewkit.families.trick_taking.engine.blocks.dummy import dummy_moved

            order = dummy_moved(game.n, before, game.dummy_seat)  # the engine's renumbering
            self._reseat = {old: new for new, old in enumerate(order)}
            self._seat_bots()
        self.save()

    # ------------------------------------------------------------------ practice and hints
    def last_own_play(self, seat: int) -> int | None:
        """The index in the game's actions of the last card ``seat`` played (or chose for JARVIS as its
        commander), else ``None``."""
        from crewkit.families.trick_taking.engine.blocks.tricks import Play

        game = self.g
        for index in range(len(game.actions) - 1, -1, -1):
            action = game.actions[index]
            if isinstance(action, Play) and self.controller(action.seat) == seat:
                return index
        return None

    def why_no_take_back(self, seat: int) -> str | None:
        """Why ``seat`` cannot take back its last card now, else ``None``."""
        if not self.practice:
            return "only in a practice game: an attempt that counts keeps every card played"
        if self.last_own_play(seat) is None:
            return "you have not played a card yet"
        return None

    def take_back(self, seat: int) -> None:
        """Practice: the game as it was before ``seat``'s last card (everything after it is undone too). The
        engine replays the actions before it from the same deal; the bots sit down again."""
        from crewkit.families.trick_taking.engine.record import game_to_record, replay_record

        why = self.why_no_take_back(seat)
        if why is not None:
            raise IllegalAction("take-back", why)
        index = self.last_own_play(seat)
        assert index is not None
        record = game_to_record(self.g)
        record["actions"] = list(record["actions"])[:index]
        record.pop("outcome", None)
        replay = replay_record(record)
        if replay.game is None or replay.error is not None:
            raise IllegalAction("take-back", f"the game cannot be rebuilt ({replay.error})")
        game = replay.game
        self.game = game
        self.finished = None
        number = game.trick_number
        self.asked_optional = {(t, s) for t, s in self.asked_optional if t < number}
        self.continued = {t for t in self.continued if t < number}
        self._seat_bots()

    def hint(self, seat: int) -> Any:
        """What the expert bot would do for ``seat`` (its own observation), with a reason in words; the
        attempt is then marked as played with hints. Raises IllegalAction where hints are forbidden."""
        from crewkit.families.trick_taking.bots.explain import hint_for

        why = self.hints_allowed
        if why is not None:
            raise IllegalAction("hints-forbidden", why)
        found = hint_for(self.g.observation(seat), self.g.seed)
        self.hints_used = True
        return found

    def observation(self, seat: int) -> Any:
        return self.g.observation(seat)

    def communications(self, seat: int) -> list[Communicate]:
        return [a for a in self.g.optional_actions(seat) if isinstance(a, Communicate)]

    def signals(self, seat: int) -> list[Signal]:
        return [a for a in self.g.optional_actions(seat) if isinstance(a, Signal)]

    @property
    def signal_rules(self) -> bool:
        """The rule set's communication is the in-trick signal (Persian reading)."""
        return getattr(self.g.rules, "comm_window", "") == "after-first-card"

    def why_no_signal(self, seat: int) -> str:
        hand = self.g.hand(seat)
        if not hand:
            return "your hand is empty"
        try:
            self.g.clone().apply(Signal(seat, hand[0]))
        except IllegalAction as exc:
            return exc.message
        return "a signal is possible"

    def received_card(self, seat: int) -> Any:
        """The card ``seat`` received after the distress signal (its own knowledge), else ``None``."""
        for event in self.g.events:
            if event.kind == "pass" and event.card is not None and event.detail == f"to seat {seat}":
                return event.card
        return None

    def distress_actions(self, seat: int) -> list[Distress]:
        return [a for a in self.g.optional_actions(seat) if isinstance(a, Distress)]

    def why_no_communication(self, seat: int) -> str:
        """The engine's reason why ``seat`` cannot communicate now (asked on a copy of the game)."""
        hand = self.g.hand(seat)
        if not hand:
            return "your hand is empty"
        probe = self.g.clone()
        dead_zone = self.g.observation(seat).dead_zone
        reasons: list[str] = []
        for card in hand:
            try:
                probe.clone().apply(Communicate(seat, card, None if dead_zone else "top"))
            except IllegalAction as exc:
                if exc.code not in ("card-not-in-hand", "cannot-communicate-card", "false-statement",
                                    "missing-position", "dead-zone"):
                    return exc.message
                reasons.append(exc.message)
            else:
                return "a communication is possible"
        return "no card of your hand can be communicated: " + (reasons[0] if reasons else "")

    def why_no_distress(self, seat: int) -> str:
        probe = self.g.clone()
        try:
            probe.apply(Distress(seat, "left"))
        except IllegalAction as exc:
            return exc.message
        try:
            self.g.clone().apply(Distress(seat, "right"))
        except IllegalAction as exc:
            return exc.message
        return "the distress signal is possible"

    def bot_optional(self) -> tuple[int, Action] | None:
        """At a communication window, ask each bot once (from the leader on) for an optional action."""
        game = self.g
        if not game.in_communication_window():
            return None
        number = game.trick_number
        for i in range(game.n):
            seat = (game.leader + i) % game.n
            bot = self.bots.get(seat)
            if bot is None or (number, seat) in self.asked_optional:
                continue
            self.asked_optional.add((number, seat))
            if not game.optional_actions(seat):
                continue
            try:
                action = bot.optional(game.observation(seat))
            except Exception:
                action = None
            if action is not None:
                return seat, action
        return None

    def distress_pending(self) -> int | None:
        """A human seat still to say whether it calls the distress signal. The window (after the draft, before
        any communication) belongs to every human: bots communicate only once each human has answered."""
        for seat in self.humans:
            if seat not in self.distress_answered and self.distress_actions(seat):
                return seat
        return None

    def humans_may_speak(self) -> bool:
        """True at a communication window where a human seat could still communicate or call distress."""
        game = self.g
        if not game.in_communication_window() or game.trick_number in self.continued:
            return False
        return any(game.optional_actions(s) for s in self.humans)

    def bot_action(self, seat: int) -> Action:
        bot = self.bots[seat]
        return bot.act(self.g.observation(seat))

    def fallback_action(self, seat: int) -> Action | None:
        """When a bot fails: the engine's first required legal action, so the game can go on."""
        required = [a for a in self.g.legal_actions(seat) if not isinstance(a, OPTIONAL)]
        return required[0] if required else None

    # ------------------------------------------------------------------ the end
    def finish(self) -> Finished:
        if self.finished is not None:
            return self.finished
        game = self.g
        outcome = game.outcome()
        errors: list[str] = []
        path: Path | None = None
        try:
            from crewkit.families.trick_taking.engine.record import game_to_record

            path = self.services.write_record(game_to_record(game), self.mission, game.seed)
        except Exception as exc:
            errors.append(f"could not write the game record: {exc}")
        logbook = self.uses_logbook
        attempt: Any = None
        if logbook:
            try:
                attempt = self.services.logbook.record_attempt(
                    campaign=self.campaign or "free",
                    mission=self.mission,
                    players=self.players,
                    ruleset=self.ruleset,
                    seed=game.seed,
                    result=outcome.result,
                    reason=outcome.reason,
                    distress_used=game.distress_used(),
                    record_path=str(path) if path else None,
                    **self._version_kw(),
                    **({"hints_used": True} if self.hints_used else {}),
                )
            except Exception as exc:
                errors.append(f"could not write the logbook: {exc}")
        self.discard_saved()
        progress = None
        rows = self._progress() if logbook else []
        if rows:
            progress = rows[0]
        self.finished = Finished(outcome.result, outcome.reason, path, progress, game.distress_used(), errors,
                                 logbook=logbook, hints_used=self.hints_used, practice=self.practice,
                                 attempt=f"@{attempt}" if isinstance(attempt, int) and path else None)
        return self.finished
