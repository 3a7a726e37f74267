"""The expert bot: observations only, legal actions on every rule set, worlds that are the real position when
the sampled hands are the real ones, and determinism."""

from __future__ import annotations

from typing import Any

import pytest

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.bots.base import OPTIONAL_TYPES
from crewkit.families.trick_taking.bots.expert import ExpertBot, model_fits, template_game, world_game
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import Observation, observe
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.families.trick_taking.solve import TrickSearch
from tests import native_marks


class Checked:
    """Every call gets an Observation (never the game) and returns a legal action."""

    def __init__(self, inner: Any, game: Game) -> None:
        self.inner, self.seat, self.game = inner, inner.seat, game

    def _check(self, obs: Any) -> None:
        assert type(obs) is Observation and obs.seat == self.seat
        for name in Observation.__slots__:
            assert not isinstance(getattr(obs, name, None), Game)

    def act(self, obs: Observation) -> Action:
        self._check(obs)
        action = self.inner.act(obs)
        assert action in obs.legal
        if any(not isinstance(a, OPTIONAL_TYPES) for a in obs.legal):
            assert not isinstance(action, OPTIONAL_TYPES)
        return action

    def optional(self, obs: Observation) -> Action | None:
        self._check(obs)
        action = self.inner.optional(obs)
        assert action is None or (action in obs.legal and isinstance(action, OPTIONAL_TYPES))
        return action


@pytest.mark.parametrize(("ruleset", "mission", "players"), [
    ("crew", "planet-nine/01", 3),
    ("crew", "planet-nine/05", 4),   # a role and a condition
    ("crew", "planet-nine/12", 4),   # neighbour draws after trick 1
    ("crew", "planet-nine/13", 4),   # every rocket must win a trick
    ("crew", "planet-nine/24", 5),   # commander's distribution
    ("crew", "planet-nine/29", 4),   # dead zone, balance of tricks
    ("crew-3p-challenge", "planet-nine/04", 3),
    ("crew-jarvis", "planet-nine/04", 2),  # the dummy seat: heuristic fallback
    ("crew-persian", "persian", 4),     # cards set aside, secret missions: heuristic fallback
    ("hammer", "hammer/01", 4),               # competitive scoring: heuristic fallback
])
def test_expert_plays_every_rule_set_from_observations(ruleset: str, mission: str, players: int) -> None:
    game = new_game(ruleset, mission, players, seed="expert-t")
    # a tenth of the play-out worlds (drawing them was most of the time): 407 decisions checked over the rule
    # sets instead of 403, each game as long or longer except planet-nine/05's (20 instead of 44)
    bots = [Checked(ExpertBot(s, "expert-t", worlds=3, nodes=500, rollout_worlds=40), game) for s in range(game.n)]
    play_game(game, bots)
    assert game.is_over()


def test_world_with_the_real_hands_is_the_real_position() -> None:
    """Built from an observation and the true hands, the world plays on exactly like the real game."""
    game = new_game("crew", "planet-nine/13", 4, seed="world")  # a mission with a condition
    # the heuristic bot's rules without its look-ahead drive the game: 14 positions checked, as with the
    # look-ahead (whose play-outs of the condition took 97% of this test's time)
    bots = [make_bot("rules", s, "world") for s in range(4)]
    checked = 0
    while not game.is_over():
        seat = game.to_act
        assert seat is not None
        obs = observe(game, seat, game.legal_actions(seat))
        if game.phase == "tricks" and model_fits(obs) and len(game.actions) % 3 == 0:  # a third of the plays
            world = world_game(template_game(obs), obs, list(game.hands))
            assert [a for a in world.legal_actions(seat) if isinstance(a, Play)] == \
                [a for a in game.legal_actions(seat) if isinstance(a, Play)]
            assert TrickSearch(world).run(max_nodes=200_000) == TrickSearch(game.clone()).run(max_nodes=200_000)
            rest = game.clone()
            play_game(rest, bots)
            for a in rest.actions[len(game.actions):]:
                if not world.is_over():
                    world.apply(a)
            assert world.outcome().result == rest.outcome().result
            checked += 1
        game.apply(bots[seat].act(obs))
    assert checked >= 10


def test_expert_is_deterministic() -> None:
    def run() -> list[Any]:
        g = new_game("crew", "planet-nine/04", 4, seed="det")
        # every draw of worlds, the solver's and the play-outs' (rollout_worlds > worlds), with a small budget
        play_game(g, [ExpertBot(s, "det", worlds=4, nodes=800, rollout_worlds=24) for s in range(4)])
        return [a.to_json() for a in g.actions]

    assert run() == run()


def test_expert_is_registered() -> None:
    bot = make_bot("expert", 2, "x")
    assert isinstance(bot, ExpertBot) and bot.seat == 2


@pytest.mark.parametrize(("mission", "players"), [("planet-nine/10", 4), ("planet-nine/07", 3)])
def test_native_and_python_play_outs_play_the_same_game(mission: str, players: int) -> None:
    """The play-outs in C (the fast bot's port of the policy) change the expert's speed, never its games.

    The extra play-out-only worlds (``rollout_worlds``) run only in C, so they are off here: the same worlds are
    played out both ways."""
    from crewkit.families.trick_taking.bots.fast import native_decider
    from crewkit.families.trick_taking.bots.sim import table_for

    games = []
    for native in (True, False):
        game = new_game("crew", mission, players, seed="expert-c")
        if native and native_decider(table_for(game.rules)) is None:
            # only a machine without a C compiler may lack the library; with one, a failed build is a failure
            assert native_marks.c_compiler() is None, "a C compiler is here but the fast bot's library did not load"
            pytest.skip("no C compiler: the play-outs run in Python anyway")
        play_game(game, [ExpertBot(s, "expert-c", worlds=6, native_rollouts=native, rollout_worlds=6) for s in range(players)])
        games.append([str(a) for a in game.actions])
    assert games[0] == games[1]


class _Spy:
    """A bot that records the first observation of trick 4 with the real hands (the test's, not the bot's)."""

    def __init__(self, inner: Any, game: Game, found: list[tuple[Observation, list[int]]]) -> None:
        self.inner, self.seat, self.game, self.found = inner, inner.seat, game, found

    def act(self, obs: Observation) -> Action:
        if obs.phase == "tricks" and len(obs.tricks) == 3 and not self.found:
            self.found.append((obs, list(self.game.hands)))
        return self.inner.act(obs)  # type: ignore[no-any-return]

    def optional(self, obs: Observation) -> Action | None:
        return self.inner.optional(obs)  # type: ignore[no-any-return]


def _spied_position(i: int) -> tuple[Observation, list[int]] | None:
    """The first position the spy saw in game ``infer:i`` of rules bots (its observation and the real hands)."""
    game = new_game("crew", "planet-nine/10", 4, seed=f"infer:{i}")
    found: list[tuple[Observation, list[int]]] = []
    play_game(game, [_Spy(make_bot("rules", s, f"infer:{i}"), game, found) for s in range(4)])
    return found[0] if found else None


def test_the_real_hands_explain_every_teammates_communication() -> None:
    """Teammates that communicate by the bots' rule: the real hands cost no communication miss, while some
    other hands consistent with the observation do (silence and speech say something)."""
    import random

    from crewkit.families.trick_taking.bots.expert import Inference
    from crewkit.families.trick_taking.bots.heuristic import Knowledge

    seen = informative = 0
    for i in range(30):  # games that fail before trick 4 have no position: the first 8 that reach it
        if seen == 8:
            break
        spied = _spied_position(i)
        if spied is None:
            continue
        obs, hands = spied
        inf = Inference(obs, 1.0, 0.1)
        assert inf.windows
        assert inf.loglik(hands) == 0
        rng = random.Random(i)
        know = Knowledge(obs)
        seen += 1
        informative += any(inf.loglik(know.sample(rng)) < 0 for _ in range(20))
    assert seen >= 8 and informative >= seen // 2


def test_consistent_draw_keeps_worlds_the_communication_rule_explains() -> None:
    """The expert's worlds are drawn again until the teammates' communications and silences are what the bots'
    rule would have done with those hands, while plain samples often are not."""
    import random

    from crewkit.families.trick_taking.bots.expert_worlds import Inference, consistent_draw
    from crewkit.families.trick_taking.bots.heuristic import Knowledge

    plain_misses = drawn = 0
    for i in range(8):
        spied = _spied_position(i)
        if spied is None:
            continue
        obs, _hands = spied
        inf = Inference(obs, 1.0, 0.5)
        know = Knowledge(obs)
        draw = consistent_draw(know, inf, 200)
        rng = random.Random(i)
        for _ in range(10):
            hands = draw(rng)
            assert hands[obs.seat] == obs.hand_mask
            assert inf.loglik(hands) == 0
            drawn += 1
            plain_misses += inf.loglik(know.sample(rng)) < 0
    assert drawn >= 40 and plain_misses >= drawn // 4


def test_every_solved_world_is_winnable_before_the_card() -> None:
    """With the winnable filter, a world in which the position before the card is lost is not solved: the test
    asks the solver itself about every world the expert kept (the hands it reports) and that its filter decided
    (a world whose search ran out of budget is kept as "unsure", by design), with a budget of its own. Without
    the filter some kept worlds are lost before the card."""
    from crewkit.families.trick_taking.solve import UNWINNABLE, WINNABLE, solve

    def kept_worlds(**kw: Any) -> tuple[int, int]:
        lost = winnable = 0
        for i in range(2):
            game = new_game("crew", "planet-nine/10", 4, seed=f"filter:{i}")
            bots = [ExpertBot(s, f"filter:{i}", worlds=6, rollout_worlds=6, **kw) for s in range(4)]
            for b in bots:
                inner = b.act

                def act(obs: Observation, inner: Any = inner, b: ExpertBot = b) -> Action:
                    nonlocal lost, winnable
                    b.last = {}
                    out = inner(obs)
                    if obs.phase == "tricks" and b.last:
                        for hands, checked in b.last["world_hands"]:
                            if kw["winnable_filter"] and not checked:
                                continue
                            world = world_game(template_game(obs), obs, list(hands))
                            status = solve(world, max_nodes=200_000).status
                            lost += status == UNWINNABLE
                            winnable += status == WINNABLE
                    return out  # type: ignore[no-any-return]

                b.act = act  # type: ignore[method-assign]
            play_game(game, bots)
        return lost, winnable

    unfiltered, filtered = kept_worlds(winnable_filter=0), kept_worlds(winnable_filter=3)
    assert unfiltered[0] > 0, "without the filter the expert should keep some worlds that are already lost"
    assert filtered[0] == 0 and filtered[1] > 50


def test_expert_drafts_as_the_fast_bot_with_many_worlds() -> None:
    """The task draft is the fast bot's (C play-outs in ``draft_worlds`` worlds per task); without the C
    library it is the heuristic bot's."""
    from crewkit.families.trick_taking.bots import fastnative
    from crewkit.families.trick_taking.bots.fast import FastBot
    from crewkit.families.trick_taking.bots.heuristic import HeuristicBot
    from crewkit.families.trick_taking.engine.blocks.draft import TakeTask

    drafts = 0
    for i in range(4):
        game = new_game("crew", "planet-nine/10", 4, seed=f"draft:{i}")
        while game.phase != "tricks":
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            req = obs.required or obs.legal
            if len(req) > 1 and all(isinstance(a, TakeTask) for a in req):
                expert = ExpertBot(seat, f"draft:{i}", draft_worlds=50)
                choice = expert.act(obs)
                expected = (FastBot(seat, f"draft:{i}", draft_worlds=50) if fastnative.load() is not None
                            else HeuristicBot(seat, f"draft:{i}")).act(obs)
                assert choice == expected
                drafts += 1
                game.apply(choice)
            else:
                game.apply(req[0])
    assert drafts >= 4
