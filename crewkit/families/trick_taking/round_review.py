"""A round's review: a match played in rounds scored in chips (Hammer), judged by the adversarial search.

Each round played is reviewed with every hand known (:mod:`crewkit.families.trick_taking.solve.adversarial`):

- **challenge**: at each position of the round, can the dealer force the bet's success against the other three?
  With the dealer maximising and the others minimising, that answer can only turn from yes to no by one of
  the dealer's own plays (a position is forceable when *some* dealer play keeps it so, and stays forceable
  whatever the others play), and only from no to yes by one of the others' plays. The turning point of a
  failed bet is the first play after which the dealer could no longer force success (the dealer's), with a
  play that kept it forceable and a line; of a bet that succeeded, the others' first play after which success
  was forced.
- **penalty**: every player for themselves; each is judged by the chips they could guarantee against the other
  three (the paranoid value, see the search's module), at the round's start and before and after each of their
  plays: a play that lowered the guarantee cost them that much whatever the others did next.

Positions are searched from the round's end back to its start, so each search finds the later ones in the
table. A position not decided within the budget is undecided, named as such, never guessed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.blocks.rounds import ChooseMission, match_of
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve.adversarial import MAX_NODES, RoundSearch, in_round
from crewkit.families.trick_taking.solve.line import action_words, seat_names
from crewkit.games.protocol import NoReview

Value = Fraction | int
#: searching back from a round's end, after this many undecided answers in a row (the challenge's, or one
#: player's guarantees) the earlier positions, which are larger, are not searched: they stay undecided
GIVE_UP = 2
#: fair blame at a failed challenge's turning point: worlds, searched plays per (world, play) and in all (plays
#: searched, not seconds: the same record gets the same figures)
BLAME_WORLDS = 32
BLAME_NODES = 5_000
BLAME_TOTAL = 60_000


def chips(v: Value | None) -> str:
    if v is None:
        return "undecided"
    f = Fraction(v)
    text = str(f.numerator) if f.denominator == 1 else f"{float(f):.2f}"
    return text if f <= 0 else f"+{text}"


def _json_value(v: Value | None) -> int | float | None:
    if v is None:
        return None
    f = Fraction(v)
    return f.numerator if f.denominator == 1 else float(f)


@dataclass
class RoundPlay:
    """One round of the record: its positions are ``games[k]`` for action indices ``first .. last``."""

    round: int
    dealer: int
    mission: str
    title: str
    mode: str
    first: int  # action index of the round's first play
    last: int  # action index after the round's last play recorded (its settling play, if settled)
    result: str | None  # success | failure | scored; None: under way when the record ends
    deltas: tuple[Fraction, ...] | None


@dataclass
class MatchReview:
    """The review of a match's rounds (``crewkit review`` of a Hammer record)."""

    rounds: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    seconds: float = 0.0
    nodes: int = 0

    @property
    def status(self) -> str:
        return "unknown" if any(r["status"] == "unknown" for r in self.rounds) else "reviewed"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchReview:
        """A review as :meth:`to_json` gave it (a hosted table's seats receive it from the host)."""
        return cls(list(data.get("rounds") or []), str(data.get("reason", "")), float(data.get("seconds", 0.0)),
                   int(data.get("nodes", 0)))

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "turning_point": None, "positions": [], "reason": self.reason,
                "rounds": self.rounds, "nodes": self.nodes, "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        out = [self.reason]
        for r in self.rounds:
            out.append("")
            out.append(r["words"])
            known = (r.get("turning_point") or {}).get("known")
            if known:
                out.append(known["words"])
            out.extend(r.get("line_rows") or [])
        out.append("")
        out.append(f"{self.nodes} plays searched in {self.seconds:.2f} s")
        return "\n".join(out)


def _forceable_at(r: dict[str, Any], i: int) -> bool | None:
    return next((p["forceable"] for p in r.get("positions") or [] if p["action_index"] == i), None)


def _guarantee_at(r: dict[str, Any], i: int, name: str) -> Value | None:
    g = next((p["guarantee"] for p in r.get("positions") or [] if p["action_index"] == i), None) or {}
    v = g.get(name)
    return None if v is None else Fraction(v).limit_denominator(1000)


def position_mark(r: dict[str, Any], i: int, seat: int | None) -> tuple[str, str]:
    """A round's review (an entry of :attr:`MatchReview.rounds`) at the position after ``i`` actions, in words,
    and its kind (``yes``, ``no``, ``undecided``): a challenge's bet forceable or not; in penalty mode the
    guarantee of ``seat`` (the player to act there)."""
    if r.get("mode") == "challenge":
        f = _forceable_at(r, i)
        if f is None:
            return "undecided", "undecided"
        return (f"{r['dealer_name']} could force the bet", "yes") if f else ("the others could stop the bet", "no")
    name = _name_of(r, seat)
    v = None if name is None else _guarantee_at(r, i, name)
    if name is None or v is None:
        return "undecided", "undecided"
    return f"{name} could guarantee {chips(v)}", "yes"


def play_mark(r: dict[str, Any], i: int, seat: int) -> tuple[str, str] | None:
    """The review's mark of the ``i``-th action, a card ``seat`` played, and its kind (``yes``, ``no``,
    ``undecided``); None where the review says nothing of it. A challenge: the dealer's play kept the bet
    forceable or lost it, the others' play let it be forced. Penalty: the play kept the player's guarantee or
    lowered it."""
    if r.get("mode") == "challenge":
        before, after = _forceable_at(r, i), _forceable_at(r, i + 1)
        if seat == r.get("dealer"):
            if before is not True:
                return None
            if after is None:
                return "? undecided", "undecided"
            return ("✓ kept the bet forceable", "yes") if after else ("(lost the bet)", "no")
        if before is False and after is True:
            return "(let the bet be forced)", "no"
        return None
    name = _name_of(r, seat)
    if name is None:
        return None
    b, a = _guarantee_at(r, i, name), _guarantee_at(r, i + 1, name)
    if b is None or a is None:
        return "? undecided", "undecided"
    if a < b:
        return f"(lowered {chips(b)} to {chips(a)})", "no"
    return f"✓ kept {chips(b)}", "yes"


def _name_of(r: dict[str, Any], seat: int | None) -> str | None:
    return next((str(p["name"]) for p in r.get("players") or [] if p["seat"] == seat), None)


def rounds_of(initial: Game, actions: Sequence[Action]) -> tuple[list[Game], list[RoundPlay]]:
    """The positions (the game before each action and after the last) and the rounds they hold."""
    g = initial.clone()
    games = [g.clone()]
    out: list[RoundPlay] = []
    open_: RoundPlay | None = None
    for i, a in enumerate(actions):
        m = match_of(g)
        assert m is not None
        settled = len(m.round_results)
        if isinstance(a, ChooseMission):
            mission = next(x for x in g.scoring.missions if x.id == a.mission)
            open_ = RoundPlay(m.round, a.seat, a.mission, mission.title, a.mode, i + 1, i + 1, None, None)
            out.append(open_)
        g.apply(a)
        games.append(g.clone())
        if open_ is not None and not isinstance(a, ChooseMission):
            open_.last = i + 1
            if len(m.round_results) > settled:
                res = m.round_results[-1]
                open_.result, open_.deltas = res.result, res.deltas
                open_.last = i  # the settling play: the position before it is the round's last one searched
                open_ = None
    return games, out


def review_match(initial: Game, actions: Sequence[Action], *, names: Sequence[str] | None = None,
                 max_nodes: int | None = None, timeout: float | None = 10.0, total: float | None = 120.0,
                 only_round: int | None = None, stop: Callable[[], bool] | None = None,
                 blame_worlds: int = 0, seed: str = "") -> MatchReview:
    """Review every round of the match played from ``initial`` by ``actions`` (or round ``only_round``).

    ``max_nodes`` and ``timeout`` bound each question (a position undecided beyond them), ``total`` the whole
    review (the positions not searched by then stay undecided); ``stop``, asked before each question, ends the
    review the same way (the screen that asked for it is gone). ``blame_worlds``: a failed challenge's turning
    point is judged also with what the dealer could know, on that many worlds (0: not), seeded from ``seed``."""
    t0 = time.perf_counter()
    games, rounds = rounds_of(initial, actions)
    who = seat_names(initial, names)
    rv = MatchReview()
    if only_round is not None:
        numbers = sorted({r.round for r in rounds})
        rounds = [r for r in rounds if r.round == only_round]
        if not rounds:
            raise NoReview(f"there is no round {only_round} in this record; its rounds: "
                           + (", ".join(str(n) for n in numbers) or "none"))
    budget = max_nodes or MAX_NODES
    deadline = None if total is None else t0 + total
    for k, rp in enumerate(rounds):
        left = None if deadline is None else max(0.0, (deadline - time.perf_counter()) / (len(rounds) - k))
        review = _Round(rp, games, actions, who, budget, timeout, left, stop)
        review.blame_worlds, review.seed = blame_worlds, f"{seed}:{rp.round}"
        rv.rounds.append(review.run())
        rv.nodes += review.nodes
    played = len(rounds)
    rv.reason = (f"{played} round{'s' if played != 1 else ''} reviewed with every hand known: in a challenge the "
                 "dealer plays against the other three; in penalty mode each player is judged by the chips they "
                 "could guarantee if the other three played against them.")
    if not rounds:
        rv.reason = "no round of this match was played to its tricks"
    rv.seconds = time.perf_counter() - t0
    return rv


class _Round:
    def __init__(self, rp: RoundPlay, games: list[Game], actions: Sequence[Action], who: list[str],
                 budget: int, timeout: float | None, seconds: float | None,
                 stop: Callable[[], bool] | None = None) -> None:
        self.rp, self.games, self.actions, self.who = rp, games, actions, who
        self.stop = stop
        self.budget, self.timeout = budget, timeout
        self.until = None if seconds is None else time.perf_counter() + seconds
        self.positions = [i for i in range(rp.first, rp.last + 1) if in_round(games[i])]
        self.search = RoundSearch(games[self.positions[0]]) if self.positions else None
        self.nodes = 0
        self.skipped: list[int] = []  # positions not searched (out of time, or after GIVE_UP undecided ones)
        self.blame_worlds = 0  # fair blame at a failed challenge's turning point: its worlds (0: none)
        self.seed = ""

    def _deadline(self) -> float | None:
        ends = [t for t in (self.until, None if self.timeout is None else time.perf_counter() + self.timeout)
                if t is not None]
        return min(ends) if ends else None

    def _out_of_time(self) -> bool:
        return (self.until is not None and time.perf_counter() > self.until) or (
            self.stop is not None and self.stop())

    def head(self) -> dict[str, Any]:
        rp = self.rp
        return {"round": rp.round, "dealer": rp.dealer, "dealer_name": self.who[rp.dealer], "mission": rp.mission,
                "title": rp.title, "mode": rp.mode, "result": rp.result,
                "deltas": None if rp.deltas is None else [_json_value(d) for d in rp.deltas]}

    def trick(self, i: int) -> int:
        g = self.games[i]
        return len(g.tricks) + 1

    def run(self) -> dict[str, Any]:
        out = self.head()
        rp = self.rp
        title = (f"Round {rp.round} ({self.who[rp.dealer]} dealt; {rp.title} in {rp.mode} mode; "
                 + {"success": "the bet succeeded", "failure": "the bet failed", "scored": "scored",
                    None: "under way when the record ends"}[rp.result] + ")")
        out["heading"] = title
        if self.search is None:
            out.update(status="unknown", words=f"{title}: no trick was played.")
            return out
        if rp.mode == "challenge":
            self._challenge(out, title)
        else:
            self._penalty(out, title)
        if self.search is not None:
            self.nodes = self.search.nodes
        out["skipped"] = sorted(set(self.skipped))
        return out

    # -- challenge ------------------------------------------------------------------------------------------

    def _forceable(self) -> dict[int, bool | None]:
        s = self.search
        assert s is not None
        known: dict[int, bool | None] = {}
        if self.rp.result is not None:
            known[self.rp.last + 1] = self.rp.result == "success"
        misses = 0
        for i in reversed(self.positions):
            if self._out_of_time() or misses >= GIVE_UP:
                known[i] = None
                self.skipped.append(i)
                continue
            s.deadline = self._deadline()
            known[i] = s.forceable(self.games[i], self.budget)
            misses = misses + 1 if known[i] is None else 0
        return known

    def _challenge(self, out: dict[str, Any], title: str) -> None:
        known = self._forceable()
        order = sorted(known)
        out["positions"] = [{"action_index": i, "trick": self.trick(i) if i in self.positions else None,
                             "forceable": known[i]} for i in order]
        undecided = [i for i in order if known[i] is None]
        out["undecided"] = undecided
        first = known[order[0]]
        # the changes of the answer between decided positions (exact when the two are neighbours)
        changes = []
        prev: int | None = None
        for i in order:
            if known[i] is None:
                continue
            if prev is not None and known[i] != known[prev]:
                changes.append((prev, i))
            prev = i
        success = self.rp.result == "success"
        out["turning_point"] = None
        rule = (" (With the dealer against the others, only a play of the dealer's can lose a forced bet, "
                "and only a play of the others' can give one back.)")
        if self.rp.result is None:
            out["status"] = "unknown" if undecided else "under-way"
            now = known[order[-1]]
            out["words"] = (f"{title}: the round is not over; at its last position the dealer "
                            + ("can" if now else "cannot" if now is False else "may or may not")
                            + " force the bet's success.")
            return
        lost = [(a, b) for a, b in changes if known[a] and not known[b]]
        gained = [(a, b) for a, b in changes if not known[a] and known[b]]
        if not success:
            if lost:
                a, b = lost[0]
                out["status"] = "lost" if b == a + 1 else "unknown"
                out["turning_point"] = self._lost_at(a, b, undecided)
                act = self.actions[a]
                if self.blame_worlds and b == a + 1 and isinstance(act, Play):
                    blamed = challenge_blame(self.games[a], act, self.who, worlds=self.blame_worlds,
                                             seed=f"{self.seed}:{a}", stop=self.stop)
                    if blamed is not None:
                        out["turning_point"]["known"] = blamed
                words = f"{title}: {out['turning_point']['words']}"
                if gained and gained[0][1] <= a:
                    words += (" Earlier the bet could not be forced; the others gave it to "
                              f"{self.who[self.rp.dealer]} with "
                              + self._play_words(gained[0]) + ".")
                out["words"] = words + rule
                out["line_rows"] = out["turning_point"].pop("line_rows", [])
            elif first is False and not gained:
                out["status"] = "never-winnable"
                out["words"] = (f"{title}: the bet could never be forced: from the first card the others could "
                                f"stop it whatever {self.who[self.rp.dealer]} played.")
            else:
                out["status"] = "unknown"
                lost_from = next((i for i in order if known[i] is False), None)
                where = "" if lost_from is None else (
                    f"the bet could not be forced {self._at(lost_from)}"
                    if lost_from in self.positions else "the bet was not forced at the round's end")
                out["words"] = (f"{title}: the search could not decide where the bet was lost: " + where
                                + ("; " if where else "") + self._undecided_words(undecided) + ".")
            return
        if gained:
            a, b = gained[0]
            exact = b == a + 1
            out["status"] = "won" if exact else "unknown"
            act = self.actions[a]
            out["turning_point"] = {"action_index": a, "trick": self.trick(a), "seat": act.seat,
                                    "action": act.to_json(), "exact": exact, "instead": None, "line": []}
            if exact:
                words = (f"Trick {self.trick(a)}: {action_words(act, self.who)}. Before it the others could "
                         f"still stop the bet; after it {self.who[self.rp.dealer]} could force it.")
            else:
                words = (f"the others could stop the bet {self._at(a)}, and no longer {self._at(b)}; "
                         + self._undecided_words(undecided))
            out["turning_point"]["words"] = words
            out["words"] = f"{title}: {words}"
        elif first:
            out["status"] = "won"
            out["words"] = (f"{title}: the others could never stop the bet: from the first card "
                            f"{self.who[self.rp.dealer]} could force it whatever they played.")
        else:
            out["status"] = "unknown"
            out["words"] = f"{title}: " + self._undecided_words(undecided) + "."

    def _play_words(self, pair: tuple[int, int]) -> str:
        a, b = pair
        if b != a + 1:
            return f"a play between the position {self._at(a)} and the one {self._at(b)}"
        return f"trick {self.trick(a)}: {action_words(self.actions[a], self.who)}"

    def _at(self, i: int) -> str:
        """The position after ``i`` actions in words: ``after Bob played the red 9 (trick 3)``."""
        if i > 0 and isinstance(self.actions[i - 1], Play):
            return f"after {action_words(self.actions[i - 1], self.who)} (trick {self.trick(i - 1)})"
        return "before the round's first card"

    def _undecided_words(self, undecided: list[int]) -> str:
        if not undecided:
            return "every position was decided"
        tried = [i for i in undecided if i not in self.skipped]
        words = "undecided within the search's budget: the position " + ", ".join(self._at(i) for i in tried)
        if len(tried) < len(undecided):
            last = max(i for i in undecided if i in self.skipped)
            words += (f"; not searched (later positions already needed more than the budget): every position "
                      f"from the one {self._at(last)} back to the round's first card")
        return words

    def _lost_at(self, a: int, b: int, undecided: list[int]) -> dict[str, Any]:
        s = self.search
        assert s is not None
        act = self.actions[a]
        dealer = self.who[self.rp.dealer]
        if b != a + 1:
            return {"action_index": None, "between": [a, b], "trick": None, "seat": None, "action": None,
                    "instead": None, "line": [],
                    "words": (f"the bet could still be forced {self._at(a)}, and no longer {self._at(b)}; "
                              + self._undecided_words(undecided) + ".")}
        s.load(self.games[a])
        s.deadline = self._deadline()
        cid, _ = s.forcing_play(self.budget)
        instead = cid  # never the play made: it left the bet unforceable
        words = (f"Trick {self.trick(a)}: {action_words(act, self.who)}. Before it {dealer} could still force "
                 "the bet's success")
        line: list[Play] = []
        if instead is not None:
            alt = Play(act.seat, s.cards[instead])
            words += f", for example if {action_words(alt, self.who, had=True)}"
            saved = s.play(instead)
            line = [alt]
            if s.verdict is None:
                line += s.forcing_line(self.budget)
            s.undo(instead, saved)
        words += f"; after it the others could stop it whatever {dealer} played."
        rows = _line_rows(self.games[a], line, self.who) if line else []
        if rows:
            rows.insert(0, f"a line from the position before it, {dealer} forcing the bet:")
        return {"action_index": a, "trick": self.trick(a), "seat": act.seat, "action": act.to_json(),
                "instead": None if instead is None else Play(act.seat, s.cards[instead]).to_json(),
                "line": [p.to_json() for p in line], "words": words, "line_rows": rows}

    # -- penalty ----------------------------------------------------------------------------------------------

    def _penalty(self, out: dict[str, Any], title: str) -> None:
        s = self.search
        assert s is not None
        rp = self.rp
        n = len(self.who)
        values: dict[tuple[int, int], Value | None] = {}
        end = rp.last + 1
        if rp.deltas is not None:
            for p in range(n):
                values[(end, p)] = _plain(rp.deltas[p])
        want: list[tuple[int, int]] = []
        start = self.positions[0]
        for i in self.positions:
            seat = self.games[i].turn
            assert seat is not None
            want += [(i + 1, seat), (i, seat)]
        want += [(start, p) for p in range(n)]
        misses = [0] * n
        bounds: dict[int, tuple[Value | None, Value | None]] = {}  # an undecided start's proved bounds
        for i, p in sorted(set(want), key=lambda x: (-x[0], x[1])):
            if (i, p) in values or i not in self.positions:
                continue
            if self._out_of_time() or (misses[p] >= GIVE_UP and i != start):  # the start is always asked
                values[(i, p)] = None
                self.skipped.append(i)
                continue
            s.deadline = self._deadline()
            later = [(j, v) for (j, q), v in values.items() if q == p and j > i and v is not None]
            near = min(later, key=lambda jv: jv[0])[1] if later else 0  # the nearest later value: a good guess
            values[(i, p)] = s.guarantee(p, self.games[i], self.budget, guess=near)
            if values[(i, p)] is None and i == start:
                bounds[p] = s.found
            misses[p] = misses[p] + 1 if values[(i, p)] is None else 0
        players = []
        undecided = False
        lines = [f"{title}:"]
        drops = []  # (what a play cost its player, its index) where both guarantees are known
        for i in self.positions:
            q = self.games[i].turn
            b, a = values.get((i, q)), values.get((i + 1, q))
            if b is not None and a is not None and a < b:
                drops.append((a - b, i))
        costliest = min(drops)[1] if drops else None
        for p in range(n):
            got = None if rp.deltas is None else _plain(rp.deltas[p])
            guar = values.get((start, p))
            undecided |= guar is None
            lowered = []
            unknown_plays = []
            for i in self.positions:
                if self.games[i].turn != p:
                    continue
                before, after = values.get((i, p)), values.get((i + 1, p))
                if before is None or after is None:
                    if (i + 1, p) in values or i + 1 == end:
                        unknown_plays.append(i)
                    continue
                if after < before:
                    lowered.append(self._lowering(i, p, before, after))
            undecided |= bool(unknown_plays)
            lowered.sort(key=lambda x: (-(x["before_value"] - x["after_value"]), x["action_index"]))
            for x in lowered:
                x["before"], x["after"] = _json_value(x.pop("before_value")), _json_value(x.pop("after_value"))
            for x in lowered:  # the round's costliest play, judged also with what its player could know
                act = self.actions[x["action_index"]]
                if x["action_index"] == costliest and self.blame_worlds and isinstance(act, Play):
                    blamed = guarantee_blame(self.games[x["action_index"]], act, self.who,
                                             worlds=self.blame_worlds, seed=f"{self.seed}:{costliest}",
                                             stop=self.stop)
                    if blamed is not None:
                        x["known"] = blamed
            lo, hi = bounds.get(p, (None, None))
            players.append({"seat": p, "name": self.who[p], "guarantee": _json_value(guar),
                            "guarantee_bounds": [_json_value(lo), _json_value(hi)], "got": _json_value(got),
                            "lowered": lowered, "undecided_plays": unknown_plays})
            name = self.who[p]
            if guar is None:
                line = f"  {name}'s guarantee at the round's start was not decided within the search's budget"
                known = [w for w in (None if lo is None else f"at least {chips(lo)}",
                                     None if hi is None else f"at most {chips(hi)}") if w]
                if known:
                    line += " (" + ", ".join(known) + ")"
                line += f"; {name} got {chips(got)}" if got is not None else ""
            else:
                line = f"  {name} could guarantee {chips(guar)} at the round's start"
                line += f" and got {chips(got)}" if got is not None else ""
            if lowered:
                line += "; plays that lowered the guarantee, costliest first: " + "; ".join(
                    x["words"] for x in lowered)

            elif not unknown_plays:
                line += "; no play of theirs lowered it"
            if unknown_plays:
                line += (f"; {len(unknown_plays)} of their plays could not be judged within the search's budget "
                         "(in trick " + ", ".join(str(self.trick(i)) for i in unknown_plays) + ")")
            line += "."
            line += "".join(" " + x["known"]["words"] for x in lowered if "known" in x)
            lines.append(line)
        out["players"] = players
        out["status"] = "unknown" if undecided else "scored"
        out["positions"] = [{"action_index": i, "trick": self.trick(i) if i in self.positions else None,
                             "guarantee": {self.who[p]: _json_value(v) for (j, p), v in sorted(values.items())
                                           if j == i}} for i in sorted({i for i, _ in values})]
        out["words"] = "\n".join(lines)

    def _lowering(self, i: int, p: int, before: Value, after: Value) -> dict[str, Any]:
        s = self.search
        assert s is not None
        act = self.actions[i]
        s.load(self.games[i])
        s.deadline = self._deadline()
        cid = s.keeping_play(p, before, self.budget)
        words = f"trick {self.trick(i)}, the {getattr(act, 'card', act)} (from {chips(before)} to {chips(after)}"
        if isinstance(act, Play):
            words = f"trick {self.trick(i)}, the {act.card.name} (from {chips(before)} to {chips(after)}"
        instead = None
        if cid is not None:
            instead = Play(p, s.cards[cid])
            words += f"; the {instead.card.name} kept {chips(before)}"
        words += ")"
        return {"action_index": i, "trick": self.trick(i), "action": act.to_json(), "before_value": before,
                "after_value": after, "instead": None if instead is None else instead.to_json(), "words": words}


def challenge_blame(before: Game, action: Play, names: Sequence[str], *, worlds: int = BLAME_WORLDS,
                    nodes: int = BLAME_NODES, total: int = BLAME_TOTAL, seed: str = "",
                    stop: Callable[[], bool] | None = None) -> dict[str, Any] | None:
    """Fair blame for the dealer's play that lost a challenge: in worlds consistent with the dealer's observation
    (sampled as the Crew review's fair blame samples them), the share in which each of the dealer's legal plays
    kept the bet forceable (the adversarial search, ``nodes`` searched plays each, ``total`` in all). None where
    there is no choice, or ``stop`` said to stop."""

    def forced(s: RoundSearch) -> bool | None:
        return s.verdict[0] == "success" if s.verdict is not None else s.forceable(None, nodes)

    return _blame(before, action, names, forced, lambda v: v, "kept the bet forceable", "the bet", worlds=worlds,
                  total=total, seed=seed, stop=stop)


def guarantee_blame(before: Game, action: Play, names: Sequence[str], *, worlds: int = BLAME_WORLDS,
                    nodes: int = BLAME_NODES, total: int = BLAME_TOTAL, seed: str = "",
                    stop: Callable[[], bool] | None = None) -> dict[str, Any] | None:
    """Fair blame for a play that lowered its player's guarantee (penalty mode): in worlds consistent with the
    player's observation, the share in which each of the player's legal plays kept the most they could guarantee
    in that world (a play whose guarantee is not decided within ``nodes`` counts as undecided, and so do the
    others' where it leaves the best one open)."""
    seat = action.seat

    def value(s: RoundSearch) -> Value | None:
        return s.verdict[2][seat] if s.verdict is not None else s.guarantee(seat, None, nodes)

    def best(values: dict[int, Value | None]) -> dict[int, bool | None]:
        known = [v for v in values.values() if v is not None]
        top = max(known, default=None)
        every = len(known) == len(values)
        return {c: None if v is None or top is None else False if v < top else True if every else None
                for c, v in values.items()}

    who = names[seat] if seat < len(names) else f"Player {seat + 1}"
    return _blame(before, action, names, value, best, f"kept the most {who} could guarantee", "the chips",
                  worlds=worlds, total=total, seed=seed, stop=stop)


def _blame(before: Game, action: Play, names: Sequence[str], judge_play: Callable[[RoundSearch], Any],
           judge_world: Callable[[dict[int, Any]], dict[int, bool | None]], goal: str, stake: str, *, worlds: int,
           total: int, seed: str, stop: Callable[[], bool] | None) -> dict[str, Any] | None:
    """Fair blame in a round: ``judge_play(search)`` after each legal play of ``action``'s player in each world,
    ``judge_world`` turning a world's answers into kept / not / undecided (see ``blame.blame_in_worlds``)."""
    from crewkit.families.trick_taking.blame import ReviewStopped, blame_in_worlds
    from crewkit.families.trick_taking.bots.knowledge import Knowledge

    obs = before.observation(action.seat)
    know = Knowledge(obs)  # (Hammer's 10 outside a challenge out of the round: everyone knows)
    search = RoundSearch(before)
    first = search.nodes

    def judge(hands: list[int], plays: Sequence[Play]) -> dict[int, bool | None]:
        world = before.clone()
        world.hands = list(hands)
        out: dict[int, Any] = {}
        for a in plays:
            search.load(world)
            saved = search.play(a.card.id)
            try:
                out[a.card.id] = judge_play(search)
            finally:
                search.undo(a.card.id, saved)
        return judge_world(out)

    try:
        return blame_in_worlds(obs, action, names, judge, lambda: search.nodes - first < total, worlds=worlds,
                               seed=seed, stop=stop, know=know, goal=goal, stake=stake)
    except ReviewStopped:
        return None


def _plain(v: Fraction) -> Value:
    return int(v) if v.denominator == 1 else v


def _line_rows(game: Game, line: Sequence[Play], who: list[str]) -> list[str]:
    """A line of plays from ``game``'s position, one row per trick, and how the round was settled."""
    s = RoundSearch(game)
    rows: list[str] = []
    pending = [f"{who[seat]} {card.name}" for seat, card in game.plays]  # the trick under way, as it stood
    for a in line:
        pending.append(f"{who[a.seat]} {a.card.name}")
        s.play(a.card.id)
        if not s.plays:
            t = s.tricks[-1]
            rows.append(f"  trick {t.number:>2}: {', '.join(pending)}; won by {who[t.winner]}")
            pending = []
        if s.verdict is not None:
            rows.append(f"  then: {s.verdict[1]}")
            break
    if pending:
        rows.append(f"  trick {len(s.tricks) + 1:>2}: {', '.join(pending)}")
    return rows


__all__ = ["MatchReview", "RoundPlay", "play_mark", "position_mark", "review_match", "rounds_of"]
