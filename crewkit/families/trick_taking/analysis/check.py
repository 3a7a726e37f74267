"""The trick-taking family's answer to ``crewkit check`` (:class:`crewkit.games.protocol.FamilyCheck`): a
mission's static warnings (its task tokens), each player count's roles, conditions and what the rules alone
show impossible, what a deal played by the bots did (roles bound, conditions traced, setup choices labelled)
and one deal solved with every hand known. The check's sampling, its estimate and its report are
:mod:`crewkit.analysis.check`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from crewkit.games.protocol import CheckedCount, CheckedDeal, GameInPlay

#: the check's solver budget counts plays of the Python search; the C search's plays cost about 1/50 of the time
#: (docs/performance.md, "Solver speed"), so each counts 1/50 (issue 47: the same time decides more deals)
SOLVER_NATIVE_WEIGHT = 50


def token_warnings(task_count: int, tokens: Sequence[str]) -> list[str]:
    """Task-token orders that cannot all be met (static)."""
    from crewkit.families.trick_taking.engine.rules import ARROWS, NUMBERED, OMEGA

    out: list[str] = []
    toks = [str(t) for t in tokens]
    if len(toks) > task_count:
        out.append(f"{len(toks)} task tokens for {task_count} tasks: some tokens have no task")
    for tok, n in Counter(toks).items():
        if n > 1:
            out.append(f"token {tok} is used {n} times: at most one task can honour it")
    numbered = sorted(int(t) for t in toks if t in NUMBERED)
    for k in numbered:
        if k > task_count:
            out.append(f"token {k} needs a {k}th task but the mission has {task_count}: it can never be met")
    if OMEGA in toks and task_count in numbered and task_count > 1:
        out.append(f"Ω and token {task_count} both demand the last task: only possible when both are done in "
                   "the same trick by one player")
    arrows = [t for t in toks if t in ARROWS]
    for i, a in enumerate(sorted(arrows, key=ARROWS.index)):
        if a != ARROWS[i]:
            out.append(f"arrow tokens skip {ARROWS[i]}: the order is still only among the arrows given")
            break
    unknown = [t for t in toks if t not in NUMBERED and t not in ARROWS and t != OMEGA]
    for t in unknown:
        out.append(f"unknown task token {t!r}")
    return out


def static_impossible(rules: Any) -> str:
    """Why no deal of ``rules`` (one player count) can be won, decided from the rules alone; "" if not decided.

    A condition no position can get past (:mod:`crewkit.families.trick_taking.analysis.condition_bounds`: a ``done_if`` that can
    never come true, a ``fail_if`` true whatever happens); a numbered task token above the number of tasks
    (each token on a task); a drafted share of tasks that needs more tricks than a hand holds (a trick
    completes the tasks of one player at most, and a player with ``q`` tasks needs ``ceil(q / players)``
    tricks)."""
    from crewkit.dsl.words import with_roles, words
    from crewkit.families.trick_taking.analysis.condition_bounds import impossible_conditions
    from crewkit.families.trick_taking.engine.rules import NUMBERED

    names = with_roles(None, tuple(rules.roles))
    for cid, which in impossible_conditions(rules):
        cond = next(c for c in rules.conditions if c.id == cid)
        if which == "done_if":
            return (f"\u201c{words(cond.done_expr, names)}\u201d ({cid}) can never come true, so the hands run out "
                    "before it is fulfilled")
        first = "card" if cond.check == "after-play" else "trick"
        return (f"the mission fails if \u201c{words(cond.fail_expr, names)}\u201d ({cid}), which is true whatever "
                f"happens: the mission fails after the first {first}")
    k = rules.task_count
    toks = [str(t) for t in rules.tokens]
    if len(toks) <= k:
        for t in toks:
            if t in NUMBERED and int(t) > k:
                return f"task token {t} asks for a {t}th task to be done, but there are {k} tasks"
    n = rules.players
    total = min(rules.hand_sizes) if rules.hand_sizes else 0
    if k and total and rules.assignment == "draft":
        need = sum(-(-(k // n + (1 if s < k % n else 0)) // n) for s in range(n))
        if need > total:
            return (f"the {k} tasks are drafted {k // n} or more to a player, and a player with q tasks needs at "
                    f"least q / {n} tricks (a trick holds {n} cards): {need} tricks, but a hand holds {total}")
    return ""


def trace_conditions(played: Any) -> tuple[tuple[int, int, int, tuple[str, ...]], ...]:
    """Replay the engine game ``played`` and evaluate each of its mission's conditions when the engine would:
    after every trick, and after every play for ``check: after-play`` conditions. Per condition: (checks,
    fail_if true, done_if true, the first three evaluation errors)."""
    from crewkit.families.trick_taking.engine.blocks.tricks import Play
    from crewkit.families.trick_taking.engine.game import Game

    rules = played.rules
    if not rules.conditions:
        return ()
    counts = [[0, 0, 0] for _ in rules.conditions]
    errors: list[list[str]] = [[] for _ in rules.conditions]
    game = Game.new(rules, seed=played.seed, deal=played.deal)
    seen = 0
    for action in played.actions:
        game.apply(action)
        trick_done = len(game.tricks) > seen
        seen = len(game.tricks)
        if not trick_done and not isinstance(action, Play):
            continue
        view = game.view()
        for k, cond in enumerate(rules.conditions):
            if not trick_done and cond.check != "after-play":
                continue
            counts[k][0] += 1
            try:
                if cond.fail_if is not None and cond.fail_if(view, {}):
                    counts[k][1] += 1
                if cond.done_if is not None and cond.done_if(view, {}):
                    counts[k][2] += 1
            except Exception as exc:  # a DSL runtime error is a finding, not a crash
                if len(errors[k]) < 3:
                    errors[k].append(str(exc))
    return tuple((c[0], c[1], c[2], tuple(e)) for c, e in zip(counts, errors, strict=True))


class TrickTakingCheck:
    """The family's answer (:meth:`crewkit.families.trick_taking.family.TrickTaking.check`)."""

    @property
    def quiet_choices(self) -> frozenset[tuple[str, str]]:
        from crewkit.families.trick_taking.analysis.choices import QUIET

        return QUIET

    def static_warnings(self, mission: Mapping[str, Any]) -> list[str]:
        tasks = mission.get("tasks") or {}
        return token_warnings(int(tasks.get("count", 0) or 0), tasks.get("tokens") or [])

    def count(self, ruleset: str, mission: str, players: int) -> CheckedCount:
        from crewkit.families.trick_taking.analysis.loading import load_rules

        rules = load_rules(ruleset, mission, players)
        return CheckedCount(tuple(rules.roles), tuple((c.id, c.fail_text, c.done_text) for c in rules.conditions),
                            static_impossible(rules))

    def played(self, game: GameInPlay, traced: bool) -> CheckedDeal:
        from crewkit.families.trick_taking.analysis.choices import choice_labels

        engine = game.engine
        return CheckedDeal(tuple(engine.roles), trace_conditions(engine) if traced else (), choice_labels(engine))

    def solve_deal(self, game: GameInPlay, max_nodes: int | None) -> tuple[str, str]:
        from crewkit.families.trick_taking.solve import solve

        # the reasons of a lost deal too; the budget is time: a play of the C search costs ~1/50 of a Python one
        result = solve(game.engine, max_nodes=max_nodes, native_weight=SOLVER_NATIVE_WEIGHT)
        return result.status, result.why


CHECK = TrickTakingCheck()

__all__ = ["CHECK", "SOLVER_NATIVE_WEIGHT", "TrickTakingCheck", "static_impossible", "token_warnings",
           "trace_conditions"]
