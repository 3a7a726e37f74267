"""Setup choices that used to be placeholders, each now reasoned (issue 43 item 1): Deep Sea 26's second
volunteer judged with the first one as a pair, Hammer's dealer judged by play-outs of the round, JARVIS's seat
judged by play-outs of both arrangements, a silenced player chosen by what the silence costs.

Each test builds a position where the old placeholder chose badly and asks the bot's policy directly."""

from __future__ import annotations

from crewkit.cards import Card
from crewkit.families.trick_taking.analysis.loading import load_rules
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import observe
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Deal
from crewkit.families.trick_taking.engine.step_actions import Answer


def _deal(rules: Rules, seats: dict[int, list[str]], n: int) -> tuple[tuple[Card, ...], ...]:
    """Hands with the cards ``seats`` names; the rest (less any card never dealt) in deck order to fill the
    others."""
    deck = rules.deck
    named = {c for cards in seats.values() for c in cards}
    rest = [c for c in deck.cards if str(c) not in named and not rules.undealt_mask >> c.id & 1]
    size = (len(rest) + len(named)) // n
    hands: list[list[Card]] = [[deck.card(x) for x in seats.get(s, [])] for s in range(n)]
    for c in rest:
        next(h for h in hands if len(h) < size).append(c)
    return tuple(tuple(h) for h in hands)


# difficulty 12: 'win the first trick' and 'win the last trick and no other' cannot go to one player; the strong
# first volunteer can take the first and the rest, a partner has to win the last trick alone
CARDS_26 = ("first-trick", "only-last-trick", "first-two-tricks", "two-in-a-row", "first-three-tricks",
            "win-submarine-3", "never-lead-pink-green")


def test_second_volunteer_is_judged_with_the_first_as_a_pair() -> None:
    """Deep Sea 26: 'I win the first trick' and 'I win the last trick and no other' cannot both go to one player,
    so judged as one taker (the old policy) every player scores nothing and the seat asked says yes whatever it
    holds. Judged as the pair it would make with the first volunteer, a seat holding the ten lowest colour cards
    (it can win no trick, the last one least) leaves the second place to a player still to be asked."""
    rules = load_rules("crew-deep-sea", "deep-sea/26", 4)
    weak = [f"{s} {r}" for r in (1, 2) for s in ("blue", "green", "yellow", "pink")] + ["blue 3", "green 3"]
    strong = ["submarine 1", "submarine 2", "submarine 3"] + [f"{s} {r}" for r in (9, 8) for s in
                                                                ("blue", "green", "yellow")] + ["pink 9"]
    # seat 3 commands (submarine 4): seat 0 is asked first and volunteers, seat 1 (the weak hand) next
    hands = _deal(rules, {0: strong, 1: weak, 3: ["submarine 4"]}, 4)
    game = Game.new(rules, seed="pair", deal=Deal(hands, (), task_cards=CARDS_26))
    assert game.commander == 3 and game.to_act == 0
    game.apply(Answer(0, "yes"))
    assert game.to_act == 1
    bot = make_bot("fast", 1, "pair")
    assert bot.act(observe(game, 1)) == Answer(1, "no")


def _hammer_at(dealer_hand: list[str], round_: int = 1, chips: tuple[int, ...] = (500, 500, 500, 500)) -> Game:
    """A Hammer match at the start of ``round_`` with seat 0 dealing ``dealer_hand``, the others dealt the rest
    in deck order, the chips as given."""
    from fractions import Fraction

    from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
    from crewkit.families.trick_taking.engine.deal import first_dealer

    rules = load_rules("hammer", "hammer", 4)
    hands = _deal(rules, {0: dealer_hand}, 4)
    seed = next(f"dealer{i}" for i in range(50) if first_dealer(rules, f"dealer{i}") == 0)
    game = Game.new(rules, seed=seed, deal=Deal(hands, ()))
    m = game.state(MatchState)
    m.round, m.chips = round_, [Fraction(c) for c in chips]
    assert game.to_act == 0
    return game


def test_hammer_dealer_bets_on_a_hand_that_takes_every_trick() -> None:
    """Every 9 and 8 and the red 7: led low or high, each card wins its trick. The old placeholder announced the
    mission card at its seat's index in penalty mode (seat 0: 'Every trick', -40 a trick: about -360 chips);
    the play-outs find the challenge on that card (take every trick: 150 from each player)."""
    hand = [f"{s} {r}" for r in (9, 8) for s in ("red", "blue", "yellow", "green")] + ["red 7"]
    game = _hammer_at(hand)
    bot = make_bot("fast", 0, "dealer")
    choice = bot.act(observe(game, 0))
    assert (choice.mission, choice.mode) == ("hammer/01", "challenge")  # type: ignore[attr-defined]


HAND_2 = ["red 9", "blue 9", "yellow 9", "green 9", "red 8", "blue 8", "red 7", "green 7", "yellow 6"]


def test_hammer_dealer_weighs_the_chips_in_the_last_round() -> None:
    """A hand that surely takes every red card (the red challenge: 90 from each) but not surely every trick.
    In round 7 the dealer takes the sure bet; in the last round, 400 chips behind the leader, the red challenge
    cannot make it first and only the 'every trick' challenge (150 from each) can: the dealer takes that risk.
    The old placeholder announced 'Every trick' in penalty mode in both."""
    bot = make_bot("fast", 0, "dealer")
    early = bot.act(observe(_hammer_at(HAND_2, 7, (300, 700, 500, 500)), 0))
    assert (early.mission, early.mode) == ("hammer/02", "challenge")  # type: ignore[attr-defined]
    last = bot.act(observe(_hammer_at(HAND_2, 8, (300, 700, 500, 500)), 0))
    assert (last.mission, last.mode) == ("hammer/01", "challenge")  # type: ignore[attr-defined]


AFTER, BEFORE = "right after the commander", "right before the commander"


def arrangement(n: int, dummy: int, where: int, commander: int) -> str:
    """Whether JARVIS seated at ``where`` sits right after or right before the commander (the engine's
    renumbering: the real players keep their order)."""
    from crewkit.families.trick_taking.engine.blocks.dummy import dummy_moved

    order = dummy_moved(n, dummy, where)
    return AFTER if where == (order.index(commander) + 1) % n else BEFORE


def test_jarvis_is_the_one_silenced() -> None:
    """Mission 11 with JARVIS (may be picked): JARVIS never communicates, so silencing it costs nothing. With
    JARVIS seated right before the commander, the old placeholder (the first candidate on the chooser's left)
    silenced the other real player, the crew's only other voice."""
    from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat

    rules = load_rules("crew-jarvis", "planet-nine/11", 2)
    game = Game.new(rules, seed="silent")
    d, c, seat = game.dummy_seat, game.commander, game.to_act
    assert d is not None and c is not None and seat is not None
    where = next(w for w in range(3) if arrangement(3, d, w, c) == BEFORE)
    game.apply(ChooseDummySeat(seat, where))
    chooser = game.to_act
    assert chooser is not None and chooser == game.commander
    choice = make_bot("fast", chooser, "silent").act(observe(game, chooser))
    assert choice.player == game.dummy_seat  # type: ignore[attr-defined]


def test_commander_silences_itself_when_it_has_nothing_to_say() -> None:
    """Mission 11 where the commander may silence itself (reading commander-picks-self=yes): a commander whose
    hand holds no card of a task's colour has nothing worth communicating (the bots' rule), so it takes the
    silence itself; the old placeholder silenced the player on its left."""
    from crewkit.families.trick_taking.engine.step_actions import ChoosePlayer

    rules = load_rules("crew", "planet-nine/11", 4, {"commander-picks-self": "yes"})
    hand = ["rocket 4", "rocket 3", "rocket 2", "rocket 1"] + [f"blue {r}" for r in range(1, 7)]
    hands = _deal(rules, {0: hand}, 4)
    deck = rules.deck
    tasks = tuple(deck.card(x) for x in ("pink 5", "green 3", "yellow 7", "pink 9"))
    game = Game.new(rules, seed="silent", deal=Deal(hands, tasks))
    assert game.to_act == 0 and game.commander == 0
    obs = observe(game, 0)
    assert {a.player for a in obs.required if isinstance(a, ChoosePlayer)} == {0, 1, 2, 3}
    choice = make_bot("fast", 0, "silent").act(obs)
    assert choice.player == 0  # type: ignore[attr-defined]


def test_jarvis_seat_by_play_outs_of_both_tables() -> None:
    """JARVIS's seat, the commander deciding after seeing its hand (reading jarvis-seat=commander-decides): on
    this deal of mission 02 the play-outs of JARVIS right before the commander succeed far more often than right
    after (the old placeholder's seat), and the game itself, played by the fast bots from each seat, agrees."""
    from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat
    from crewkit.families.trick_taking.family import play_game

    rules = load_rules("crew-jarvis", "planet-nine/02", 2, {"jarvis-seat": "commander-decides"})
    game = Game.new(rules, seed="seat:25")
    d, c, seat = game.dummy_seat, game.commander, game.to_act
    assert d is not None and c is not None and seat == c
    choice = make_bot("fast", seat, "seat").act(observe(game, seat))
    assert arrangement(3, d, choice.dummy_seat, c) == BEFORE  # type: ignore[attr-defined]
    results = {}
    for kind in (AFTER, BEFORE):
        g = Game.new(rules, seed="seat:25")
        g.apply(ChooseDummySeat(seat, next(w for w in range(3) if arrangement(3, d, w, c) == kind)))
        play_game(g, [make_bot("fast", s, "seat") for s in range(3)])
        results[kind] = g.outcome().result
    assert results == {AFTER: "failure", BEFORE: "success"}


def test_jarvis_seat_play_outs_of_mission_46() -> None:
    """Mission 46 with JARVIS: among these deals the pink 9 lies face down under a JARVIS card in some (JARVIS
    holds it: tests/engine/test_jarvis_holder_role.py); the play-outs of both tables run to their ends."""
    from crewkit.families.trick_taking.bots.heuristic import HeuristicBot
    from crewkit.families.trick_taking.bots.jarvis_seat import _mission_wins

    rules = load_rules("crew-jarvis", "planet-nine/46", 2)
    wins = _mission_wins(rules, 32, HeuristicBot.rules_playout_bot)
    assert {AFTER, BEFORE} <= set(wins)


def test_opener_judged_with_the_closer_still_open() -> None:
    """Mission 50: the opener is chosen before the closer, so with the closer unbound the conditions could not be
    judged and every candidate scored nothing: the old choice was the first candidate. The player holding all
    four rockets (the commander, who leads: rocket after rocket wins the first four tricks) and otherwise only
    low cards (it wins nothing after) is the opener its best closer makes work."""
    from crewkit.engine.phase import TRICKS
    from crewkit.families.trick_taking.engine.step_actions import ChoosePlayer

    rules = load_rules("crew", "planet-nine/50", 4)
    hand = ["rocket 4", "rocket 3", "rocket 2", "rocket 1"] + [f"{s} 1" for s in ("blue", "green", "yellow", "pink")]
    hand += ["blue 2", "green 2"]
    hands = _deal(rules, {2: hand}, 4)
    game = Game.new(rules, seed="finale", deal=Deal(hands, ()))
    bots = [make_bot("fast", s, "finale") for s in range(4)]
    while game.phase != TRICKS:
        seat = game.to_act
        assert seat is not None
        obs = observe(game, seat)
        action = bots[seat].act(obs)
        if isinstance(action, ChoosePlayer) and action.role == "opener":
            assert action.player == 2
            return
        game.apply(action)
    raise AssertionError("no opener was chosen")
