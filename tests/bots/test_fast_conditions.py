"""Mission conditions in the fast bot's C look-ahead: the translated programs
(crewkit/families/trick_taking/bots/condcode.py) evaluate as the DSL does, and the C decisions with conditions
are the Python twin's, count for count."""

from __future__ import annotations

import ctypes
import random
from typing import Any

import pytest

from crewkit.dsl import DslError, compile_expr, parse
from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import conditions as conditions_module
from crewkit.families.trick_taking.bots import fastnative
from crewkit.families.trick_taking.bots.condcode import (
    NONE,
    NativeProgram,
    compile_program,
    native_program,
    trick_tail,
)
from crewkit.families.trick_taking.bots.conditions import (
    CondWorld,
    SimView,
    cond_world,
    condition_setup,
    done_so_far,
    goal_tail,
    rollout_cond,
    setup_for,
)
from crewkit.families.trick_taking.bots.fast import (
    FastBot,
    Position,
    Sampler,
    SplitMix,
    base_world,
    decide_cond,
    native_decider,
    position,
)
from crewkit.families.trick_taking.bots.heuristic import Knowledge
from crewkit.families.trick_taking.bots.sim import Table, table_for
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.rules import Condition
from crewkit.families.trick_taking.family import play_game
from tests import native_marks

needs_c = native_marks.needs_c(fastnative)

# every word of the language the translation covers, in expressions valid for The Crew's deck
EXPRESSIONS = [
    "any(t in tricks: t.winning_card.rank == 9)",
    "max(p in players: tricks_won(p)) - min(p in players: tricks_won(p)) >= 2",
    "count(c in current_cards: is_trump(c)) >= 1",
    "all(c in cards_of(rocket): trick_of(c) != none)",
    "sum(p in players: tricks_won(p)) == tricks_played",
    "tricks_played + tricks_left == total_tricks",
    "(trick.number if trick != none else 0) % 3 == 1",
    "-tricks_played // 2 <= -1 and abs(1 - tricks_played) >= 1",
    "max(tricks_played, 3) * 2 > min(tricks_left, 4)",
    "any(c in cards_won(commander): c.suit == pink)",
    "count(hand(1)) > count(hand(2))",
    "any(t in tasks: t.done and t.trick != none and t.trick <= tricks_played)",
    "all(t in tasks: t.owner in players)",
    "count(t in tasks_of(commander): done(t)) >= 1",
    "task_of(pink 1) == none or not task_of(pink 1).done",
    "won_by(pink 1) == commander",
    "played(rocket 4) or left_unplayed(rocket 4)",
    "trick_at(2) != none and trick_at(2).leader == trick_at(1).winner",
    "first_trick != none and first_trick.is_first and not first_trick.is_last",
    "last_trick == none or last_trick.is_last",
    "left_of(commander) == right_of(right_of(commander))",
    "any(t in tricks: t.led_suit == rocket)",
    "any(t in tricks: rocket 4 in t.cards)",
    "pink 9 not in current_cards",
    "count(c in deck: c.is_trump) == 4 and not any(c in deck: c.is_special)",
    "rocket.is_trump and not pink.is_trump and any(s in suits: s.is_trump)",
    "commander in [0, 1]",
    'any(t in tasks: t.token == "1" or t.token == "omega")',
    "any(c in cards_of_rank(1): won_by(c) != none and is_colour(c))",
    "dealer == none and mode == none",
    "count(tricks) == tricks_played and count(t in tricks: t.winner == commander) * 2 >= tricks_played",
    "max(t in tricks: t.winning_card.rank) >= 8",
    "min(t in tasks: t.card.rank) <= 3",
    "any(t in tricks: t.winner == commander and t.winning_card.is_trump)",
    "all(t in tricks: count(c in t.cards: c.suit == t.led_suit) >= 2)",
    "tricks_won(commander) > 0 if tricks_played > 3 else tricks_left > 2",
    "blue 2 in [pink 1, blue 2] and pink 3 not in [pink 1, blue 2]",
    # quantifiers over the tricks whose bodies (or parts of them) C keeps per trick (condcode: MEMO)
    "all(t in tricks: t.winner != commander or t.winning_card.rank >= 2)",
    "count(t in tricks: t.winning_card.is_trump or t.led_suit == pink) <= 2",
    "any(t in tricks: t.winning_card.suit == pink and tricks_won(t.winner) >= 3)",
    "any(t in tricks: any(u in tricks: u.number > t.number and u.winning_card.rank == t.winning_card.rank))",
    "sum(t in tricks: t.winning_card.rank) > 5 * tricks_played",
    # the words Mission Deep Sea's task cards added
    "lost_for(pink 1, commander) or lost_for(blue 9, left_of(commander))",
    "any(c in cards_of_rank(3): lost_for(c, 1))",
    "longest_run(commander) >= 2 or longest_run(0) == tricks_won(0)",
    "any(p in others(commander): tricks_won(p) > tricks_won(commander))",
    "count(others(2)) == count(players) - 1 and 2 not in others(2)",
    "sum(q in others(0): longest_run(q)) >= tricks_won(0)",
    "any(t in tricks: t.last_card.rank > t.winning_card.rank or t.last_card == t.winning_card)",
    # card predicates C evaluates as masks (_fastsim.c: fold_quantifiers): over sets of cards, over lists,
    # with played/left_unplayed/trick_of, a first operand that filters, a body that can raise an error
    "count(c in cards_of_rank(1): is_colour(c) and not played(c) and not left_unplayed(c)) >= 2",
    "all(c in current_cards: c.rank > 2 or c.is_trump) or any(c in hand(commander): c.rank == 9)",
    "any(t in tricks: count(c in t.cards: c.suit == pink or c.rank in [1, 9]) >= 2)",
    "count(c in hand(1): none == trick_of(c)) + count(c in cards_of(pink): trick_of(c) != none) >= 5",
    "count(c in [pink 1, blue 2, pink 1]: not played(c)) >= 2",
    "count(c in cards_of(blue): c.rank >= 5 and (won_by(c) == commander or played(c))) >= 1",
    "any(c in current_cards: c.rank // (c.rank - 1) > 1)",
    # who won a card, compared with a constant (a seat, a role, none, a value no seat has): masks too
    "any(c in cards_of(pink): won_by(c) != none and won_by(c) != commander)",
    "all(c in cards_of(pink): won_by(c) == commander or left_unplayed(c))",
    "count(c in cards_of(blue): none != won_by(c) and 1 == won_by(c)) >= 1",
    "count(c in cards_of_rank(9): won_by(c) == none) + count(c in cards_of_rank(1): won_by(c) == 7) >= 3",
    "any(c in hand(2): won_by(c) != none) or all(c in [pink 1, blue 2]: won_by(c) != 0)",
    # "not in a trick up to t" (condcode: UNPLAYED_BY, so the body stays per trick), every way it is written;
    # with the latest trick, which is none before the first trick ends (the DSL's error, left to Python)
    "any(t in tricks: is_trump(t.winning_card) and any(c in cards_of(rocket): c.rank < t.winning_card.rank"
    " and (trick_of(c) == none or trick_of(c).number > t.number)))",
    "count(t in tricks: none == trick_of(pink 9) or t.number < trick_of(pink 9).number) == tricks_played",
    "any(c in cards_of(blue): trick_of(c) == none or trick_of(c).number > trick.number)",
    "count(c in cards_of(pink): trick_of(c) == none or trick_of(c).number > first_trick.number) >= 3",
    # a card's value compared with one that does not read the card (read once: masks too), either way round;
    # with none (an error of an order where an item reads it, none where no item does, fine for ==)
    "any(t in tricks: count(c in t.cards: c.rank > t.winning_card.rank - 3) >= 2)",
    "any(c in hand(commander): tricks_played < c.rank and not c.is_trump)",
    "any(t in tricks: any(c in cards_of(pink): c.rank == t.number and trick_of(c) != none))",
    "count(c in cards_of(blue): c.rank >= 5 and c.rank > tricks_won(commander)) >= 2",
    "any(c in current_cards: c.rank < trick.winning_card.rank)",
    "any(c in current_cards: c.suit == trick.led_suit) or count(c in current_cards: trick.led_suit != c.suit) > 1",
    "any(c in current_cards: c.rank > max(t in tricks: t.winning_card.rank))",
    "any(c in current_cards: c.rank >= 1 or c.rank > max(t in tricks: t.winning_card.rank))",
]


def Cond(text: str, expr: Any) -> Condition:  # noqa: N802 - reads as the condition it builds
    """A condition whose ``fail_if`` is ``text``."""
    return Condition(id=text, fail_if=compile_expr(expr), done_if=None, reason=(), check="after-trick",
                     fail_text=text, done_text="", fail_expr=expr)


def _start(mission: str, players: int, seed: str) -> tuple[Any, Any]:
    """A game of ``mission`` at its first card play (the tasks drafted by fast bots)."""
    rules = load_rules("crew", mission, players)
    game = Game.new(rules, seed=seed)
    bots = [FastBot(s, seed, draft_worlds=2) for s in range(players)]
    while not game.is_over() and game.phase != "tricks":
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.observation(seat)))
    seat = game.to_act
    assert seat is not None
    return rules, game.observation(seat)


def _world(rules: Any, obs: Any, seed: int) -> CondWorld:
    know = Knowledge(obs)
    pos = position(obs, know, 1, True, obs.hand_mask)
    hands = Sampler(pos).sample(SplitMix(seed))
    cs = setup_for(rules, dict(obs.roles), obs.commander, obs.total_tricks,
                   [(t.card, t.token) for t in obs.tasks])
    return cond_world(base_world(table_for(rules), pos, hands), cs, (), (False,) * len(rules.conditions))


def _encode_world(w: CondWorld) -> list[int]:
    out = [w.n, *w.hands, len(w.plays)]
    for s, c in w.plays:
        out += [s, c]
    out.append(len(w.task_bits))
    for i, bit in enumerate(w.task_bits):
        out += [bit, w.task_owner[i], w.pending >> i & 1]
    out.append(len(w.tricks))
    for t in w.tricks:
        out += [t.leader, t.winner, len(t.plays)]
        for s, c in t.plays:
            out += [s, c.id]
    return out


def _c_eval(program: NativeProgram, w: CondWorld) -> tuple[int, list[int]]:
    lib = fastnative.load()
    assert lib is not None
    st = _encode_world(w)
    arr = (ctypes.c_longlong * len(st))(*st)
    out = (ctypes.c_int * (2 * len(program.program.conditions)))()
    err = lib.fs_cond_eval(program.handle, arr, out)
    return err, list(out)


@needs_c
@pytest.mark.parametrize(("mission", "players"), [("planet-nine/13", 4), ("planet-nine/44", 3),
                                                  ("planet-nine/29", 5), ("planet-nine/24", 4)])
def test_translated_expressions_evaluate_as_the_dsl_does(mission: str, players: int) -> None:
    """Every expression above, on random play-outs: C gives the DSL's truth value after every card."""
    lib = fastnative.load()
    assert lib is not None
    rules, obs = _start(mission, players, f"eval:{mission}")
    compared = 0
    for seed in range(3):
        w = _world(rules, obs, seed)
        cs = w.cs
        tokens = [token for _, token in cs.tasks]
        programs = []
        for text in EXPRESSIONS:
            program, why = compile_program([Cond(text, parse(text))], cs.deck, cs.roles, cs.commander,
                                           cs.total_tricks, tokens)
            assert program is not None, f"{text}: {why}"
            programs.append((text, compile_expr(parse(text)), NativeProgram(lib, program, cs.deck)))
        rng = random.Random(seed)
        while len(w.tricks) < cs.total_tricks:
            legal = w.legal(w.turn)
            cards = [c for c in range(64) if legal >> c & 1]
            w.play(rng.choice(cards))
            view = SimView(w)
            for text, fn, native in programs:
                err, out = _c_eval(native, w)
                try:
                    expected = bool(fn(view, {}))
                except DslError:
                    assert err == 1, text  # the DSL refuses: C leaves it to Python
                    continue
                assert err == 0, text
                assert out[0] == int(expected), (text, len(w.tricks), w.plays)
                compared += 1
    assert compared > 1000


def test_constructs_the_play_outs_cannot_judge_stay_in_python() -> None:
    rules = load_rules("crew", "planet-nine/16", 4)
    for text in ['pink 9.name == "pink 9"', "cards_won(0) + cards_won(1) == cards_won(2)",
                 "first_trick == last_trick", "count(hand(0)) == pink 1", "any(t in tricks: t.winning_card)"]:
        program, why = compile_program([Cond(text, parse(text))], rules.deck, {}, 0, 10, [])
        assert program is None and why, text


@needs_c
def test_a_condition_that_fails_at_run_time_is_left_to_python() -> None:
    """``tricks_won(none)`` is an error in the DSL: C flags it instead of guessing."""
    lib = fastnative.load()
    assert lib is not None
    rules, obs = _start("planet-nine/16", 4, "err")
    w = _world(rules, obs, 0)
    text = "tricks_won(trick_at(9).winner) >= 0"
    program, _ = compile_program([Cond(text, parse(text))], rules.deck, {}, 0, 10, [])
    assert program is not None
    err, _ = _c_eval(NativeProgram(lib, program, rules.deck), w)
    assert err == 1
    with pytest.raises(DslError):
        compile_expr(parse(text))(SimView(w), {})


def _bundled_condition_missions() -> list[tuple[str, str, int]]:
    out = []
    for ruleset, missions in (("crew", [f"planet-nine/{n:02d}" for n in range(1, 51)]),
                              ("crew-jarvis", [f"planet-nine/{n:02d}" for n in range(1, 51)])):
        for mission in missions:
            for players in (2, 3, 4, 5):
                try:
                    rules = load_rules(ruleset, mission, players)
                except SetupError:  # a player count the rule set or mission does not allow
                    continue
                if rules.conditions:
                    out.append((ruleset, mission, players))
    return out


def test_every_bundled_condition_translates() -> None:
    cases = _bundled_condition_missions()
    assert len(cases) >= 40
    for ruleset, mission, players in cases:
        rules = load_rules(ruleset, mission, players)
        roles = {r: 0 for r in rules.roles}
        program, why = compile_program(rules.conditions, rules.deck, roles, 0, 10, [None, "1", "omega"])
        assert program is not None, f"{ruleset} {mission} at {players}: {why}"
        assert all(v == NONE or v >= 0 for v in program.tokens)


class Recorder(FastBot):
    def __init__(self, seat: int, seed: str, log: list[Any], **kw: Any) -> None:
        super().__init__(seat, seed, **kw)
        self.log = log

    def _decide_cond(self, t: Table, pos: Position, seed: int, judged: Any) -> int:
        self.log.append((t, pos, seed, judged))
        return super()._decide_cond(t, pos, seed, judged)


@needs_c
@pytest.mark.parametrize(("mission", "players"), [
    ("planet-nine/05", 4), ("planet-nine/09", 4), ("planet-nine/13", 3), ("planet-nine/16", 4),
    ("planet-nine/29", 5), ("planet-nine/44", 4), ("planet-nine/46", 4), ("planet-nine/50", 4),
    ("planet-nine/33", 3), ("planet-nine/41", 5), ("planet-nine/48", 4), ("planet-nine/34", 4),
])
def test_c_and_python_decide_alike_with_conditions(mission: str, players: int) -> None:
    log: list[Any] = []
    rules = load_rules("crew", mission, players)
    play_game(Game.new(rules, seed=f"twin:{mission}"),
              [Recorder(s, f"twin:{mission}", log, cond_worlds=6, draft_worlds=2) for s in range(players)])
    assert log
    lib = fastnative.load()
    assert lib is not None
    for t, pos, seed, judged in log[:30]:
        d = native_decider(t)
        assert d is not None
        program, why = native_program(lib, judged[0])
        assert program is not None, why
        for weight, prog_weight in ((10, 0), (1000, 7)):
            prog_c: list[int] = []
            prog_py: list[int] = []
            assert (d.decide_cond(program, pos, seed, judged[1], judged[2], weight, goal_tail(judged), prog_weight,
                                  prog_c)
                    == decide_cond(t, pos, seed, *judged, win_weight=weight, prog_weight=prog_weight,
                                   progress=prog_py))
            assert prog_c == prog_py


@needs_c
@pytest.mark.parametrize(("mission", "players", "seed"), [
    ("planet-nine/16", 4, "a"), ("planet-nine/29", 4, "b"), ("planet-nine/44", 5, "c"), ("planet-nine/13", 4, "d"),
])
def test_c_and_python_play_the_same_condition_games(mission: str, players: int, seed: str) -> None:
    rules = load_rules("crew", mission, players)
    games = []
    for native in (True, False):
        game = Game.new(rules, seed=seed)
        play_game(game, [FastBot(s, seed, native=native, cond_worlds=4, draft_worlds=2) for s in range(players)])
        games.append(game)
    assert games[0].actions == games[1].actions
    assert games[0].outcome() == games[1].outcome()


def test_condition_setup_of_an_observation_translates_with_its_roles() -> None:
    """Mission 16's conditions under the observation's own roles and commander (the bot's real input)."""
    rules, obs = _start("planet-nine/16", 4, "roles")
    judged = condition_setup(obs)
    assert judged is not None
    cs = judged[0]
    program, why = compile_program(cs.conditions, cs.deck, cs.roles, cs.commander, cs.total_tricks,
                                   [token for _, token in cs.tasks])
    assert program is not None, why
    assert program.total_tricks == obs.total_tricks


@needs_c
@pytest.mark.parametrize(("mission", "players"), [("planet-nine/05", 4), ("planet-nine/13", 3),
                                                  ("planet-nine/44", 4), ("planet-nine/48", 5),
                                                  ("planet-nine/26", 4),
                                                  ("benchmarks/authored/14-last-by-a-one.yaml", 4),
                                                  ("benchmarks/authored/07-left-closes.yaml", 4),
                                                  ("benchmarks/authored/04-quiet-commander.yaml", 3),
                                                  ("benchmarks/authored/13-pink-trickle.yaml", 5)])
def test_c_play_outs_with_conditions_match_python(mission: str, players: int) -> None:
    """``fs_rollout_cond`` (the expert's play-outs) against ``rollout_cond`` on the same worlds and cards."""
    assert _play_outs_match(load_rules("crew", mission, players), f"po:{mission}") > 60


def _play_outs_match(rules: Any, seed: str) -> int:
    """Play-outs from the decisions of one game, each by C and by Python; how many were compared."""
    log: list[Any] = []
    players = rules.players
    play_game(Game.new(rules, seed=seed),
              [Recorder(s, seed, log, cond_worlds=2, draft_worlds=2) for s in range(players)])
    lib = fastnative.load()
    assert lib is not None
    compared = 0
    for t, pos, seed, judged in log[:25]:
        d = native_decider(t)
        assert d is not None
        program, _ = native_program(lib, judged[0])
        assert program is not None
        head = [pos.n, pos.leader, pos.tricks_left, len(pos.current) + 1]
        for s, c in pos.current:
            head += [s, c]
        head.append(pos.me)
        tail = [len(pos.tasks)]
        for task in pos.tasks:
            tail += [task[0], task[1], task[2], task[3], int(task[4])]
        tail.append(pos.done)
        rng = SplitMix(seed)
        for _ in range(5):
            hands = Sampler(pos).sample(rng)
            base = cond_world(base_world(t, pos, list(hands)), *judged)
            m = pos.candidates
            while m:
                cid = (m & -m).bit_length() - 1
                m &= m - 1
                w = base.copy()
                w.play(cid)
                expected = rollout_cond(w)
                got = d.rollout_cond(program, [*head, cid, *tail, *hands, *trick_tail(judged[1], judged[2], goal_tail(judged))])
                assert got == expected
                compared += 1
        # the same play-outs in one call (the expert's extra worlds)
        hands_list = [Sampler(pos).sample(SplitMix(seed + k)) for k in range(3)]
        cands = [c for c in range(64) if pos.candidates >> c & 1]
        sts = [[*head, cid, *tail, *hands, *trick_tail(judged[1], judged[2], goal_tail(judged))] for hands in hands_list for cid in cands]
        assert d.rollout_batch(program, sts) == [d.rollout_cond(program, st) for st in sts]
        plain = [[*head, cid, *tail, *hands] for hands in hands_list for cid in cands]
        assert d.rollout_batch(None, plain) == [d.rollout(st) for st in plain]
    return compared


@pytest.mark.parametrize(("text", "memos"), [
    ("all(t in tricks: t.winner != commander or t.winning_card.rank >= 2)", 1),  # the whole body
    ("any(t in tricks: t.winning_card.suit == pink and tricks_won(t.winner) >= 3)", 1),  # the part on its trick
    ("any(t in tricks: tricks_won(t.winner) >= 3)", 0),  # nothing of 3 nodes reads only the trick
    ("any(p in players: tricks_won(p) >= 3)", 0),  # not over the tricks
    ("any(t in tricks: trick_of(pink 9) == none or trick_of(pink 9).number > trick.number)", 0),  # not t
])
def test_bodies_over_the_tricks_that_read_only_their_trick_are_kept_per_trick(text: str, memos: int) -> None:
    from crewkit.families.trick_taking.bots.condcode import OP

    rules = load_rules("crew", "planet-nine/44", 4)
    program, why = compile_program([Cond(text, parse(text))], rules.deck, {}, 0, 10, [])
    assert program is not None, why
    assert program.code[::4].count(OP["MEMO"]) == memos


@pytest.mark.parametrize("later", ["trick_of(c).number > t.number", "t.number < trick_of(c).number"])
def test_where_a_card_fell_after_a_trick_is_kept_with_that_trick(later: str) -> None:
    """Mission 44's order of the rockets: "a lower rocket in no trick up to t" reads only the tricks up to t,
    so the whole body is kept per trick (the written form reads where the card fell later)."""
    from crewkit.families.trick_taking.bots.condcode import OP

    rules = load_rules("crew", "planet-nine/44", 3)
    text = (f"any(t in tricks: is_trump(t.winning_card) and any(c in cards_of(rocket): "
            f"c.rank < t.winning_card.rank and (none == trick_of(c) or {later})))")
    program, why = compile_program([Cond(text, parse(text))], rules.deck, {}, 0, 13, [])
    assert program is not None, why
    code = program.code
    top = program.conditions[0][0]
    assert code[4 * top] == OP["ANY"] and code[4 * code[4 * top + 3]] == OP["MEMO"]
    assert code[::4].count(OP["UNPLAYED_BY"]) == 1 and code[::4].count(OP["TRICK_OF"]) == 0


@needs_c
@pytest.mark.parametrize("seed", ["s1", "s2"])
def test_after_play_conditions_keep_what_a_trick_changes_live(seed: str) -> None:
    """A condition judged after every card, mixing the cards on the table (which change with each card)
    with completed tricks (which C keeps from one trick's end to the next, ``STABLE``): the C games are the
    Python twin's, so the kept part never hides a change of the live one."""
    import dataclasses

    text = ("count(c in current_cards: c.rank >= 7) >= 3 or any(t in tricks: t.winning_card.rank == 9"
            " and t.winner == 0) or tricks_won(1) >= 5")
    cond = dataclasses.replace(Cond(text, parse(text)), check="after-play")
    rules = dataclasses.replace(load_rules("crew", "planet-nine/10", 4), conditions=(cond,))
    cs = setup_for(rules, {}, 0, 10, [])
    program, why = compile_program(cs.conditions, cs.deck, {}, 0, 10, [])
    assert program is not None, why
    from crewkit.families.trick_taking.bots.condcode import OP

    assert OP["STABLE"] in program.code[::4]
    assert _play_outs_match(rules, seed) > 60
    games = []
    for native in (True, False):
        game = Game.new(rules, seed=seed)
        play_game(game, [FastBot(s, seed, native=native, cond_worlds=4, draft_worlds=2) for s in range(4)])
        games.append(game)
    assert games[0].actions == games[1].actions
    assert games[0].outcome() == games[1].outcome()


@pytest.mark.parametrize("mission", ["planet-nine/05", "planet-nine/33", "planet-nine/41", "planet-nine/50",
                                     "tests/analysis/authored/pink-hoard.yaml"])
def test_role_choice_played_out_in_c_is_the_pythons(mission: str) -> None:
    """The fast bot chooses a role (the sick crew member, the volunteer, ...) by play-outs of each candidate;
    in C (from the trick start, no card weighed) they win exactly as the Python twin's: the same wins per
    candidate, the same choice (a hard mission may win none of a deal's play-outs; over the deals, some)."""
    from crewkit.families.trick_taking.bots.fast import FastBot
    from crewkit.families.trick_taking.engine.observation import observe
    from crewkit.families.trick_taking.engine.setup import new_game
    from crewkit.families.trick_taking.engine.step_actions import ChoosePlayer

    compared = won = 0
    for players in (3, 4, 5):
        for i in range(4):
            game = new_game("crew", mission, players, seed=f"roles:{i}")
            while game.phase == "setup":
                seat = game.to_act
                req = tuple(game.legal_actions(seat))
                if len(req) > 1 and all(isinstance(a, ChoosePlayer) for a in req):
                    c, py = FastBot(seat, f"roles:{i}"), FastBot(seat, f"roles:{i}", native=False)
                    assert c._choose_player(observe(game, seat), req) == py._choose_player(observe(game, seat), req)
                    assert c.last_role_wins == py.last_role_wins
                    compared += 1
                    won += sum(c.last_role_wins)
                game.apply(req[0])
    assert compared >= 12
    assert won > 0  # some play-out won: the comparison is not of empty counts


@pytest.mark.parametrize(("mission", "players", "seed"), [("planet-nine/44", 4, "done-7"),
                                                          ("planet-nine/46", 4, "done-8")])
def test_done_so_far_judges_only_the_newest_trick_and_answers_as_from_scratch(
        mission: str, players: int, seed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot asks which conditions the tricks so far completed at every decision; with the answer for one
    trick less kept, only the newest prefix is judged, and the answers are those of judging every prefix."""
    rules = load_rules("crew", mission, players)
    game = Game.new(rules, seed=seed)
    play_game(game, [FastBot(s, seed, cond_worlds=2, draft_worlds=2) for s in range(players)])
    obs = game.observation(0)
    tricks = tuple(obs.tricks)
    cs = setup_for(rules, dict(obs.roles), obs.commander, obs.total_tricks, [(t.card, t.token) for t in obs.tasks])
    firsts: list[int] = []
    judge = conditions_module._judge_done

    def spy(cs: Any, tricks: Any, n: int, first: int, known: Any, owners: Any) -> Any:
        firsts.append(first)
        return judge(cs, tricks, n, first, known, owners)

    conditions_module._DONE.clear()
    monkeypatch.setattr(conditions_module, "_judge_done", spy)
    answers = [done_so_far(cs, tricks[:k], players) for k in range(len(tricks) + 1)]
    assert firsts == list(range(len(tricks) + 1))  # each call judged its newest prefix alone
    assert done_so_far(cs, tricks, players) == answers[-1] and len(firsts) == len(tricks) + 1  # kept
    fresh = [judge(cs, tricks[:k], players, 0, (False,) * len(cs.conditions), (None,) * len(cs.tasks))
             for k in range(len(tricks) + 1)]
    assert answers == fresh
    assert answers[0] != answers[-1]  # some condition became done during the game
