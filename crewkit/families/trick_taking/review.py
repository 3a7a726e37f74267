"""``review``: where did a recorded attempt go wrong? The turning point, found by the solver with every hand known.

A position is the game after the first I actions of the record (I = 0 .. len(actions)). Winnability (the
solver's answer with every hand known) only goes from "can win" to "cannot" along a game, so the first action
after which the crew could no longer win is found by bisection over the positions: about log2(actions)
solver calls. A position the solver cannot decide within its budget is never guessed: the bisection steps
around it, and when no decided pair of neighbours is left the review says which positions stayed undecided.

At the turning point the review also judges with the player's knowledge only (*fair blame*): worlds
consistent with that seat's observation (sampled as the expert bot samples them), each of the seat's legal
plays solved in each world.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crewkit.engine.actions import Action
from crewkit.errors import CrewkitError
from crewkit.families.trick_taking.blame import ReviewStopped, Stop, blame_in_worlds
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import SUCCESS, TRICKS, Game
from crewkit.families.trick_taking.round_review import MatchReview, review_match
from crewkit.families.trick_taking.solve.line import action_words, line_rows, seat_names
from crewkit.families.trick_taking.solve.solver import UNWINNABLE, WINNABLE, SearchCache, solve
from crewkit.games.protocol import GameInPlay, NoReview

LOST = "lost"
WON = "won"
NEVER = "never-winnable"
UNDECIDED = "unknown"

#: fair blame: worlds sampled per turning point and solver budget per (world, play)
BLAME_WORLDS = 32
BLAME_NODES = 20_000
#: ... and searched plays over all worlds (node counts, not seconds: the same record gets the same figures);
#: both divided by PYTHON_SLOWDOWN where the Python search runs (mission conditions: ~50 times slower per play)
BLAME_TOTAL = 300_000
#: won games: the closest call is looked for backwards from the end within this many solver calls
CLOSEST_CALLS = 400
#: the table's first answer (shown at once, marked provisional, then refined): searched plays per position
#: and seconds in all; no fair blame, no closest call
QUICK_NODES = 3_000
QUICK_TOTAL = 1.0
#: the table's final answer: worlds of the fair blame
FINAL_WORLDS = 16
#: a match's rounds (Hammer) at the table: seconds for every round's review, the first answer's and the final's
MATCH_QUICK_TOTAL = 2.0
MATCH_TOTAL = 60.0
#: ... and the final answer's searched plays per position (None: the adversarial search's default)
MATCH_NODES: int | None = None


def match_of_game(game: Game) -> bool:
    """Whether ``game`` is a match played in rounds (Hammer): its review is the rounds' (``round_review``)."""
    from crewkit.families.trick_taking.engine.blocks.rounds import match_of

    return match_of(game) is not None




@dataclass
class Review:
    status: str  # lost | won | never-winnable | unknown
    reason: str
    positions: list[dict[str, Any]] = field(default_factory=list)
    turning_point: dict[str, Any] | None = None
    closest_call: dict[str, Any] | None = None
    undecided: list[int] = field(default_factory=list)  # positions (action indices) the solver left open
    between: tuple[int, int] | None = None  # unknown: the mission was lost after action lo, by position hi
    seconds: float = 0.0
    solver_calls: int = 0
    # the turning point's winning line as actions, and the position it starts from (for text output)
    line_game: Game | None = None
    line_actions: list[Action] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # how the words name each seat
    # solver calls per search that decided them (SolveResult.engine: core-c, core, engine); not in the JSON
    searches: dict[str, int] = field(default_factory=dict)
    reused: int = 0  # solver calls (or their starts) served by a search built for an earlier one (SearchCache)
    # the positions the solver decided (winnable or not), by action index: a later review of the same attempt
    # (the table's final answer after its first) starts from them instead of searching them again; not in the JSON
    solved: dict[int, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """A review as :meth:`to_json` gave it (a hosted table's seats receive it from the host): what the
        review screen shows (no winning line's positions)."""
        between = data.get("between")
        return cls(str(data["status"]), str(data.get("reason", "")), list(data.get("positions") or []),
                   data.get("turning_point"), data.get("closest_call"), list(data.get("undecided") or []),
                   None if not between else (int(between[0]), int(between[1])), float(data.get("seconds", 0.0)),
                   int(data.get("solver_calls", 0)))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "turning_point": self.turning_point,
            "positions": self.positions,
            "reason": self.reason,
        }
        if self.closest_call is not None:
            out["closest_call"] = self.closest_call
        if self.status == UNDECIDED:
            out["undecided"] = self.undecided
            out["between"] = None if self.between is None else list(self.between)
        out["solver_calls"] = self.solver_calls
        out["seconds"] = round(self.seconds, 3)
        return out

    def text(self) -> str:
        """As ``crewkit review`` prints it: the outcome, the fair blame, a winning line, the positions solved."""
        out = [{"lost": "lost", "won": "won", "never-winnable": "never winnable",
                "unknown": "undecided"}[self.status] + ": " + self.reason]
        tp = self.turning_point
        if tp is not None:
            known = tp.get("known")
            if known:
                out.append(known["words"])
            if self.line_game is not None and self.line_actions:
                out.append(f"a winning line from the position before it ({len(self.line_actions)} actions):")
                out.extend(line_rows(self.line_game, self.line_actions, self.names))
        if self.closest_call is not None:
            out.append(f"closest call: {self.closest_call['words']}")
        if self.status == UNDECIDED and self.undecided:
            out.append("undecided positions (after N actions): " + ", ".join(str(i) for i in self.undecided))
        decided = ", ".join(
            f"{p['action_index']}:{'?' if p['winnable'] is None else 'yes' if p['winnable'] else 'no'}"
            for p in self.positions)
        out.append(f"positions solved (after N actions: winnable?): {decided}")
        out.append(f"{self.solver_calls} solver calls in {self.seconds:.2f} s")
        return "\n".join(out)


def _trick(game: Game) -> int:
    """The 1-based number of the trick under way at ``game`` (the last one when the game is over)."""
    return max(1, len(game.tricks) + (0 if game.is_over() else 1))


class _Prober:
    """Solves positions once each, within a budget per position."""

    def __init__(self, games: list[Game], timeout: float | None, max_nodes: int | None,
                 stop: Stop | None = None, share: bool = True) -> None:
        self.games = games
        # the positions are one deal: a search built for one serves the later ones (its table, its compiled
        # conditions, its C context); see SearchCache for when that is sound
        self.cache = SearchCache() if share else None
        self.stop = stop
        self.timeout = timeout
        self.max_nodes = max_nodes
        self.known: dict[int, bool | None] = {}
        self.results: dict[int, Any] = {}
        self.calls = 0

    def given(self, solved: Mapping[int, Any]) -> None:
        """Positions an earlier review of the same attempt decided: proofs (a line, or a search that found none),
        whatever that review's budget, so they are not searched again."""
        for i, res in solved.items():
            if 0 <= i < len(self.games) and res.status in (WINNABLE, UNWINNABLE):
                self.results[i] = res
                self.known[i] = res.status == WINNABLE

    def winnable_at(self, i: int) -> None:
        """Every position asked about from now on comes after ``i`` (the latest known winnable): new searches
        are built at the first position of the tricks from there, so that the later calls can share them."""
        if self.cache is not None:
            k = next((k for k in range(i, len(self.games)) if self.games[k].phase == TRICKS), None)
            self.cache.base = None if k is None else self.games[k]

    def __call__(self, i: int) -> bool | None:
        if i not in self.known:
            if self.stop is not None and self.stop():
                raise ReviewStopped
            self.calls += 1
            res = solve(self.games[i].clone(), timeout=self.timeout, max_nodes=self.max_nodes, cache=self.cache)
            self.results[i] = res
            self.known[i] = True if res.status == WINNABLE else False if res.status == UNWINNABLE else None
        return self.known[i]


def positions_of(initial: Game, actions: Sequence[Action]) -> list[Game]:
    """The game before each action and after the last (len(actions) + 1 positions)."""
    out = [initial.clone()]
    g = initial.clone()
    for a in actions:
        g.apply(a)
        out.append(g.clone())
    return out


def review(initial: Game, actions: Sequence[Action], *, names: Sequence[str] | None = None,
           timeout: float | None = 10.0, max_nodes: int | None = None, blame: bool = True,
           blame_worlds: int = BLAME_WORLDS, blame_nodes: int = BLAME_NODES, seed: str = "",
           total: float | None = 120.0, closest: bool = True, stop: Stop | None = None,
           share: bool = True, solved: Mapping[int, Any] | None = None) -> Review:
    """Review the attempt that starts at ``initial`` and plays ``actions``.

    ``timeout`` (seconds) and ``max_nodes`` bound the solver per position (undecided beyond them).
    ``blame`` adds the fair-blame figures at the turning point (``blame_worlds`` worlds, ``blame_nodes`` per
    solver call), seeded from ``seed`` so the same record gets the same figures. ``closest``: look for a
    won game's closest call. ``stop``: asked before each solver call; true raises :class:`ReviewStopped`.
    ``share``: the solver calls share their searches (:class:`SearchCache`; False: each builds its own).
    ``solved``: the positions an earlier review of the same attempt decided (:attr:`Review.solved`; the table's
    first answer, for its final one): taken as decided, not searched again.
    """
    from crewkit.families.trick_taking.engine.blocks.rounds import match_of

    if match_of(initial) is not None:  # its rounds are reviewed by round_review.review_match
        raise NoReview("a match played in rounds is reviewed round by round (crewkit review RECORD), not as one "
                       "attempt at a mission")
    t0 = time.perf_counter()
    games = positions_of(initial, actions)
    who = seat_names(initial, names)
    probe = _Prober(games, timeout, max_nodes, stop, share)
    if solved:
        probe.given(solved)
    last = len(actions)
    end = games[last]

    def done(rv: Review) -> Review:
        rv.positions = [{"action_index": i, "trick": _trick(games[i]), "winnable": probe.known[i]}
                        for i in sorted(probe.known)]
        rv.seconds = time.perf_counter() - t0
        rv.solver_calls = probe.calls
        rv.names = who
        rv.reused = 0 if probe.cache is None else probe.cache.hits + probe.cache.proven_hits
        rv.solved = {i: res for i, res in probe.results.items() if res.status in (WINNABLE, UNWINNABLE)}
        for res in probe.results.values():
            if res.nodes or res.starts:
                rv.searches[res.engine] = rv.searches.get(res.engine, 0) + 1
        return rv

    final = probe(last)
    if end.is_over() and end.outcome().result == SUCCESS:
        rv = Review(WON, f"the mission was won: {end.outcome().reason}")
        rv.closest_call = _closest_call(games, actions, who, timeout, max_nodes, stop, share) if closest else None
        return done(rv)
    if final is not False:
        why = "the game is not over and the crew can still win it" if final else \
            "the game is not over and the solver could not decide its last position"
        rv = Review(UNDECIDED, why, undecided=[] if final else [last])
        return done(rv)
    first = probe(0)
    if first is False:
        res = probe.results[0]
        why = res.why or res.note or "no sequence of plays succeeds"
        return done(Review(NEVER, f"the deal could not be won from the first card: {why}"))
    # the latest position known winnable and the earliest known lost (positions an earlier review decided count)
    lo: int | None = max((i for i, w in probe.known.items() if w is True), default=None)
    hi = min(i for i, w in probe.known.items() if w is False)
    probe.winnable_at(0 if lo is None else lo)
    deadline = None if total is None else t0 + total
    while lo is None or hi > lo + 1:
        if deadline is not None and time.perf_counter() > deadline:
            break
        start = 0 if lo is None else lo + 1
        open_ = [i for i in range(start, hi) if i not in probe.known]
        if not open_:
            break
        mid = (start - 1 + hi) / 2
        i = min(open_, key=lambda k: (abs(k - mid), k))
        w = probe(i)
        if w is True:
            lo = i
            probe.winnable_at(i)
        elif w is False:
            hi = i
    if lo is not None and hi == lo + 1:
        rv = Review(LOST, "")
        rv.turning_point = _turning_point(games, actions, lo, probe, who, blame, blame_worlds, blame_nodes, seed,
                                          stop)
        rv.reason = rv.turning_point["words"]
        rv.line_game = games[lo]
        rv.line_actions = list(probe.results[lo].line)
        return done(rv)
    undecided = sorted(i for i, w in probe.known.items() if w is None)
    first_left = 1 if lo is None else lo + 1
    untried = sum(1 for k in range(first_left, hi) if k not in probe.known)
    rv = Review(UNDECIDED, f"the turning point is one of actions {first_left} to {hi} (counted from 1); the solver "
                           f"could not decide {_count(len(undecided), 'position')} in between within its budget"
                           + (f" and {untried} were not tried within the review's time" if untried else ""),
                undecided=undecided, between=(-1 if lo is None else lo, hi))
    return done(rv)


def start_of(final: Game) -> tuple[Game, str]:
    """A game played to its end: its start rebuilt from its own record, and the seed of the fair-blame worlds
    (the record's deal: the same game gets the same figures)."""
    from crewkit.families.trick_taking.engine.record import game_to_record, replay_record

    record = game_to_record(final)
    start = replay_record({**record, "actions": []}).game
    if start is None:
        raise NoReview("this game's start could not be rebuilt from its record")
    return start, repr(record.get("deal") or record.get("seed"))


def review_finished(final: Game, *, names: Sequence[str] | None = None, **kw: Any) -> tuple[Review, list[Game]]:
    """Review a game played to its end (the table's end screen): its start rebuilt from its own record; also
    the positions, for showing every hand as it was."""
    start, seed = start_of(final)
    kw.setdefault("seed", seed)
    return review(start, list(final.actions), names=names, **kw), positions_of(start, list(final.actions))


def quick_review(start: Game, actions: Sequence[Action], names: Sequence[str] | None, seed: str) -> Review:
    """The table's first answer: the bisection on a small budget, shown as provisional. It never waits for the
    C search to be compiled (a fresh install): the compilation starts in the background and, until it is
    ready, the positions are searched in Python (the final answer waits for it)."""
    from crewkit.families.trick_taking.solve import native
    from crewkit.nativelib import without_waiting

    native.prepare()
    with without_waiting():
        return review(start, actions, names=names, seed=seed, max_nodes=QUICK_NODES, timeout=QUICK_TOTAL,
                      total=QUICK_TOTAL, blame=False, closest=False)


def final_review(start: Game, actions: Sequence[Action], names: Sequence[str] | None, seed: str,
                 stop: Stop | None = None, first: Review | None = None) -> Review:
    """The table's final answer, which replaces the first (``first``: the positions it decided are not searched
    again)."""
    return review(start, actions, names=names, seed=seed, blame_worlds=FINAL_WORLDS, stop=stop,
                  solved=None if first is None else first.solved)


def final_match_review(start: Game, actions: Sequence[Action], names: Sequence[str] | None, seed: str,
                       stop: Stop | None = None) -> MatchReview:
    """The table's final answer for a match played in rounds (Hammer): every round's review."""
    return review_match(start, actions, names=names, max_nodes=MATCH_NODES, total=MATCH_TOTAL, stop=stop,
                        blame_worlds=FINAL_WORLDS, seed=seed)


def position_mark(rv: Review, i: int) -> str:
    """``still winnable`` / ``lost`` / ``undecided`` for the position after ``i`` actions (monotone: every
    position up to a winnable one was winnable, every one after a lost one lost)."""
    known = {p["action_index"]: p["winnable"] for p in rv.positions}
    if rv.status == WON:
        return "still winnable"
    if rv.status == NEVER:
        return "lost"
    if rv.turning_point is not None:
        return "still winnable" if i <= rv.turning_point["action_index"] else "lost"
    if any(k >= i and w is True for k, w in known.items()):
        return "still winnable"
    if any(k <= i and w is False for k, w in known.items()):
        return "lost"
    return "undecided"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _turning_point(games: list[Game], actions: Sequence[Action], i: int, probe: _Prober, who: list[str],
                   blame: bool, blame_worlds: int, blame_nodes: int, seed: str,
                   stop: Stop | None = None) -> dict[str, Any]:
    action = actions[i]
    before = games[i]
    res = probe.results[i]
    line: list[Action] = list(res.line)
    instead = line[0] if line and line[0].seat == action.seat and line[0] != action else None
    trick = _trick(before)
    words = f"Trick {trick}: {action_words(action, who)}. Before it the mission could still be won"
    if instead is not None:
        words += f", for example if {action_words(instead, who, had=True)}"
    words += "."
    after = probe.results.get(i + 1)
    if after is not None and after.why:
        words += f" After it: {after.why}."
    out: dict[str, Any] = {
        "action_index": i,
        "trick": trick,
        "seat": action.seat,
        "action": action.to_json(),
        "words": words,
        "instead": None if instead is None else instead.to_json(),
        "line": [a.to_json() for a in line],
    }
    if blame:
        known = fair_blame(before, action, who, worlds=blame_worlds, nodes=blame_nodes, seed=f"{seed}:{i}", stop=stop)
        if known is not None:
            out["known"] = known
    return out


def fair_blame(game: Game, action: Action, names: Sequence[str], *, worlds: int = BLAME_WORLDS,
               nodes: int = BLAME_NODES, seed: str = "", stop: Stop | None = None) -> dict[str, Any] | None:
    """With what the acting seat could know: for each of its legal plays, the share of the worlds consistent
    with its observation in which the play keeps the mission winnable. None where the worlds cannot be
    sampled (not a play, a dummy seat, hidden tasks, cards set aside)."""
    from crewkit.families.trick_taking.bots.expert import (
        PYTHON_SLOWDOWN,
        model_fits,
        template_game,
        world_game,
    )
    from crewkit.families.trick_taking.solve.core import SearchAborted, TrickSearch, Unsupported

    if not isinstance(action, Play) or game.phase != TRICKS:
        return None
    obs = game.observation(action.seat)
    if not model_fits(obs):
        return None
    template = template_game(obs)
    budget = {"nodes": nodes, "total": BLAME_TOTAL, "used": 0}
    search: TrickSearch | None = None

    def judge(hands: list[int], plays: Sequence[Play]) -> dict[int, bool | None]:
        nonlocal search
        world = world_game(template, obs, hands)
        search = None
        out: dict[int, bool | None] = {}
        for a in plays:
            child = world.clone()
            child.apply(a)
            if child.is_over():
                ok: bool | None = child.outcome().result == SUCCESS
            else:
                before = 0
                try:
                    if search is not None and search.shares_positions:
                        before = search.nodes
                        ok = search.run_from(child, max_nodes=budget["nodes"])
                    else:
                        search = TrickSearch(child)
                        if not search.native and budget["total"] == BLAME_TOTAL:
                            budget["nodes"] = max(50, nodes // PYTHON_SLOWDOWN)
                            budget["total"] = BLAME_TOTAL // PYTHON_SLOWDOWN
                        ok = search.run(max_nodes=budget["nodes"])
                except SearchAborted:
                    ok = None
                except (Unsupported, ValueError):
                    search, ok = None, None
                if search is not None:
                    budget["used"] += search.nodes - before
            out[a.card.id] = ok
        return out

    return blame_in_worlds(obs, action, names, judge, lambda: budget["used"] < budget["total"], worlds=worlds,
                           seed=seed, stop=stop)


def _closest_call(games: list[Game], actions: Sequence[Action], who: list[str], timeout: float | None,
                  max_nodes: int | None, stop: Stop | None = None, share: bool = True) -> dict[str, Any] | None:
    """A won game's closest call: the last position where only the play made kept the mission winnable
    (every other legal play decided lost). Looked for backwards from the end within CLOSEST_CALLS solver calls.
    ``share``: the other plays of one position share a search built at it (SearchCache)."""
    calls = 0
    cache = SearchCache() if share else None
    for i in range(len(actions) - 1, -1, -1):
        action = actions[i]
        g = games[i]
        if not isinstance(action, Play) or g.phase != TRICKS:
            continue
        others = [a for a in g.legal_actions(action.seat) if isinstance(a, Play) and a != action]
        if not others:
            continue
        alone = True
        if cache is not None:
            cache.base = g  # before every play tried here
        for a in others:
            if calls >= CLOSEST_CALLS:
                return None
            if stop is not None and stop():
                raise ReviewStopped
            child = g.clone()
            child.apply(a)
            calls += 1
            res = solve(child, timeout=timeout, max_nodes=max_nodes, cache=cache)
            if res.status != UNWINNABLE:
                alone = False
                break
        if alone:
            trick = _trick(g)
            return {"action_index": i, "trick": trick, "seat": action.seat, "action": action.to_json(),
                    "words": f"trick {trick}: {action_words(action, who)}, the only play that kept the mission "
                             "winnable"}
    return None


class TrickTakingReview:
    """The trick-taking family's review behind :class:`crewkit.games.protocol.FamilyReview`."""

    def of_record(self, record: Mapping[str, Any], final: GameInPlay, *, names: Sequence[str] | None,
                  timeout: float | None, max_nodes: int | None, total: float | None, blame: bool,
                  blame_worlds: int, only_round: int | None = None) -> Review | MatchReview:
        from crewkit.families.trick_taking.engine.blocks.rounds import match_of
        from crewkit.families.trick_taking.engine.record import replay_record

        start = replay_record({**record, "actions": []})
        if start.error is not None or start.game is None:
            raise NoReview(str(start.error))
        seed = json.dumps(record.get("deal") or record.get("seed"), sort_keys=True)
        engine: Game = final.engine
        if match_of(start.game) is not None:  # Hammer: each round judged by the adversarial search
            return review_match(start.game, list(engine.actions), names=names, max_nodes=max_nodes,
                                timeout=timeout, total=total, only_round=only_round,
                                blame_worlds=blame_worlds if blame else 0, seed=seed)
        if only_round is not None:
            raise NoReview("--round picks a round of a match played in rounds (Hammer); this record is one attempt "
                           "of a mission")
        return review(start.game, list(engine.actions), names=names, timeout=timeout, max_nodes=max_nodes,
                      blame=blame, blame_worlds=blame_worlds, seed=seed, total=total)

    def of_game(self, game: GameInPlay, names: Sequence[str], first: Any = None) -> Review | MatchReview:
        final: Game = game.engine
        if match_of_game(final):
            start, seed = start_of(final)
            return final_match_review(start, list(final.actions), names, seed)
        solved = first.solved if isinstance(first, Review) else None
        return review_finished(final, names=names, blame_worlds=FINAL_WORLDS, solved=solved)[0]

    def first_of_game(self, game: GameInPlay, names: Sequence[str]) -> Review | MatchReview:
        final: Game = game.engine
        start, seed = start_of(final)
        if match_of_game(final):
            return review_match(start, list(final.actions), names=names, max_nodes=QUICK_NODES,
                                timeout=QUICK_TOTAL, total=MATCH_QUICK_TOTAL)
        return quick_review(start, list(final.actions), names, seed)

    def text_of(self, record: Mapping[str, Any], names: Sequence[str], data: Mapping[str, Any]) -> str:
        """A review a hosted table's host sent (its JSON, with the game's record) as ``crewkit review`` prints
        it: the winning line from the turning point rebuilt by replaying the record up to it."""
        from crewkit.engine.actions import action_from_json
        from crewkit.families.trick_taking.engine.record import replay_record

        if "rounds" in data:  # a match's rounds (Hammer)
            return MatchReview.from_json(dict(data)).text()
        rv = Review.from_json(dict(data))
        rv.names = list(names)
        tp = rv.turning_point
        actions = list(record.get("actions") or [])
        if tp is not None and tp.get("line") and 0 <= int(tp.get("action_index", -1)) <= len(actions):
            before = replay_record({**record, "actions": actions[:int(tp["action_index"])]})
            if before.error is None and before.game is not None:
                deck = before.game.rules.deck
                try:
                    rv.line_actions = [action_from_json(a, deck) for a in tp["line"]]
                    rv.line_game = before.game
                except (CrewkitError, ValueError):  # a line this copy cannot read: the review without it
                    rv.line_actions = []
        return rv.text()


REVIEW = TrickTakingReview()

__all__ = ["LOST", "NEVER", "NoReview", "ReviewStopped", "Stop", "UNDECIDED", "WON", "Review", "action_words", "blame_in_worlds", "fair_blame", "line_rows", "position_mark", "positions_of", "quick_review", "final_review",
           "review", "review_finished", "seat_names", "start_of", "REVIEW", "TrickTakingReview"]
