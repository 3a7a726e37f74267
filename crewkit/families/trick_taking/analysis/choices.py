"""The trick-taking family's labels of the bots' setup choices, for ``crewkit check`` (counted by
:class:`crewkit.analysis.choice_report.ChoiceStats`).

An author reading a low success rate wants to know whether the mission is hard or the choice is: each setup
decision of a played deal is replayed with every hand known and labelled by what it did ("gave the task to the
player holding its card", "chose the weakest hand"), and the distress signal by its direction (reported only
for a mission in which it was called); ``crewkit check`` then says how often each label occurred
and the success rate of the deals with it and without it.
"""

from __future__ import annotations

from typing import Any

from crewkit.engine.phase import TRICKS

Label = tuple[str, str]  # (the decision, what was chosen)

DISTRESS = "the distress signal"
# a decision reported only where some deal chose otherwise (the signal in a mission where it was never called)
QUIET: frozenset[Label] = frozenset({(DISTRESS, "not called")})


def _strength_label(rules: Any, hands: list[int], chosen: int, candidates: list[int]) -> str:
    from crewkit.families.trick_taking.bots.choices import hand_strength

    if len(candidates) < 2:
        return "the only candidate"
    score = {s: hand_strength(rules, hands[s]) for s in candidates}
    if score[chosen] >= max(score.values()):
        return "the player with the strongest hand"
    if score[chosen] <= min(score.values()):
        return "the player with the weakest hand"
    return "a player with neither the strongest nor the weakest hand"


def _silence_label(game: Any, hands: list[int], chosen: int, candidates: list[int]) -> str:
    """A player who may not communicate, by what silencing them costs: JARVIS (who never communicates), or how
    many cards of the tasks' colours they hold (what a word would be about) against the other candidates."""
    dummy = game.rules.dummy
    if chosen == game.dummy_seat and dummy is not None and not dummy.communicates:
        return "JARVIS (who never communicates)"
    if len(candidates) < 2:
        return "the only candidate"
    colours = {t.card.suit for t in game.tasks if t.card.suit is not None}
    held = {s: sum(1 for c in game.rules.deck.cards if hands[s] & c.bit and c.suit in colours) for s in candidates}
    if held[chosen] <= min(held.values()):
        return "the player holding the fewest cards of the tasks' colours"
    if held[chosen] >= max(held.values()):
        return "the player holding the most cards of the tasks' colours"
    return "a player holding neither the fewest nor the most cards of the tasks' colours"


def choice_labels(engine: Any) -> tuple[Label, ...]:
    """The labelled setup decisions of a finished trick-taking game (``engine``: its engine game), replayed
    from its deal."""
    from crewkit.families.trick_taking.bots.choices import VOLUNTEER_QUESTION
    from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat
    from crewkit.families.trick_taking.engine.game import Game
    from crewkit.families.trick_taking.engine.step_actions import (
        Answer,
        ChoosePlayer,
        GiveAllTasks,
        GiveTask,
        MoveToken,
        Skip,
        SwapTokens,
    )

    rules = engine.rules
    distress: tuple[Label, ...] = ()
    if rules.distress_enabled:
        d = engine.distress_direction
        distress = ((DISTRESS, "not called" if d is None else f"called to the {d}"),)
    if not rules.setup_steps:
        return distress
    game = Game.new(rules, seed=engine.seed, deal=engine.deal)
    out: list[Label] = []
    for action in engine.actions:
        if game.phase == TRICKS or game.is_over():
            break
        hands = list(game.hands)
        if isinstance(action, GiveTask):
            holder = next((s for s in range(game.n) if hands[s] & action.card.bit), None)
            out.append(("a task handed out",
                        "to the player holding its card" if action.player == holder else
                        "to a player not holding its card"))
        elif isinstance(action, ChoosePlayer) and action.role in rules.comm_barred_roles:
            cands = [a.player for a in game.legal_actions(action.seat) if isinstance(a, ChoosePlayer)]
            out.append((f"the {action.role} chosen", _silence_label(game, hands, action.player, cands)))
        elif isinstance(action, ChoosePlayer):
            cands = [a.player for a in game.legal_actions(action.seat) if isinstance(a, ChoosePlayer)]
            out.append((f"the {action.role} chosen", _strength_label(rules, hands, action.player, cands)))
        elif isinstance(action, ChooseDummySeat) and game.dummy_seat is not None and game.commander is not None:
            from crewkit.families.trick_taking.engine.blocks.dummy import dummy_moved

            order = dummy_moved(game.n, game.dummy_seat, action.dummy_seat)
            after = action.dummy_seat == (order.index(game.commander) + 1) % game.n
            out.append(("JARVIS's seat", "right after the commander" if after else "right before the commander"))
        elif isinstance(action, GiveAllTasks):
            cands = [a.player for a in game.legal_actions(action.seat) if isinstance(a, GiveAllTasks)]
            out.append(("all the tasks given", _strength_label(rules, hands, action.player, cands)))
        elif isinstance(action, Answer) and action.answer == "yes" and game.questions \
                and game.questions[-1][0] == VOLUNTEER_QUESTION:
            asked = [s for s in range(game.n) if s not in game.questions[-1][1]]
            roles = next((st.params["roles"] for st in rules.setup_steps if st.kind == "volunteer"), ())
            taken = sum(1 for r in roles if game.roles.get(r) is not None)
            role = roles[taken] if 1 < len(roles) and taken < len(roles) else "volunteer"  # which place this yes takes
            out.append((f"the {role.replace('_', ' ')}", _strength_label(rules, hands, action.seat, asked)))
        elif isinstance(action, (SwapTokens, MoveToken, Skip)):
            what = "skipped" if isinstance(action, Skip) else "swapped" if isinstance(action, SwapTokens) else "moved"
            out.append(("the tokens", what))
        game.apply(action)
    return (*out, *distress)


__all__ = ["DISTRESS", "QUIET", "Label", "choice_labels"]
