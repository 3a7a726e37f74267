"""The bots' policies for the decisions of a mission's setup: one per kind of decision, none per mission.

Every policy reads the observation only (the own hand, the public answers, communications and task cards):

- **answers** say something true about the hand for the question asked, by a rule every bot knows, so that a
  teammate can read them back (:func:`predicted_answer`):
  - a mission's question (``ask``): the answers are read as a scale from the strongest hand to the weakest
    (``[good, bad]``, ``[yes, no]``, ...): the seat answers the bucket its hand's strength falls in, the buckets
    cut so that each answer is about as likely for a dealt hand (:func:`hand_strength`);
  - "who wants this task?" (commander's distribution): yes when the hand suits the task better than most hands
    would (:func:`~crewkit.families.trick_taking.bots.heuristic._task_affinity`, the draft's measure);
  - "can you take all the tasks?" (commander's decision, tasks face down): yes for a hand stronger than most;
  - a volunteer for the task cards (Mission Deep Sea) says yes when, by its play-outs, the tasks succeed more
    often with it than with any player still to be asked; where two volunteers share the cards (26), the teams
    are played out: the best it would make with players still to be asked against the best without it
    (:func:`volunteer_teams`).
- **the commander reads the answers**: worlds are sampled consistent with them (:func:`consistent_sample`), so
  a role chosen by play-outs, a task handed out or all tasks given go where the answers point;
- **the hand-out of a task** goes to the seat with whom the tasks revealed so far succeed most often in
  play-outs over those worlds; ties go to the best expected affinity for it (its own hand exactly, the others'
  from the worlds), less a little for each task that seat already holds (to spread the tasks); the expert's
  commander plays out twice as many worlds, each mended until it meets every answer
  (:func:`~crewkit.families.trick_taking.bots.mended_worlds.repaired_sample`);
- **all tasks to one player** (commander's decision): to a player who said yes, the strongest expected hand;
- **a one-taker choice** (a role that a later step gives every task card to): the seat with whom the play-outs
  succeed most often (:func:`~crewkit.families.trick_taking.bots.taskcard_choice.taker_scores`);
- **a role chosen before another the conditions name** (mission 50's opener before its closer): each candidate
  with its best completion of the later roles, played out (:func:`choose_with_open_roles`);
- **a role that may not communicate** (mission 11's silent player): the candidate whose word is worth least, by
  how often it would have something to communicate (the bots' own rule) over worlds with the tasks drafted
  (:func:`silence_costs`; JARVIS, who never communicates, costs nothing); a role the rules give no other effect:
  the first candidate from the chooser's left (the same every time);
- **token swaps and moves**: each option (and skipping) is played out over sampled deals with a draft by affinity;
- **where JARVIS sits**: right before the commander when the games, played out by the engine with the bots' own
  policies, succeed clearly more often so (a sign test), else right after
  (:mod:`~crewkit.families.trick_taking.bots.jarvis_seat`);
- **Hammer's dealer** (mission card and mode): each option played out over sampled deals of the other hands; the
  chips the dealer gains on the others, or in the match's last round how often it ends ahead
  (:mod:`~crewkit.families.trick_taking.bots.dealer_choice`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from crewkit.cards import mask_ids
from crewkit.engine.actions import Action
from crewkit.families.trick_taking.bots.mended_worlds import repaired_sample, since_answers
from crewkit.families.trick_taking.bots.sim import table_for
from crewkit.families.trick_taking.engine.observation import Observation
from crewkit.families.trick_taking.engine.step_actions import (
    Answer,
    ChoosePlayer,
    GiveAllTasks,
    GiveTask,
    MoveToken,
    Skip,
    SwapTokens,
)
from crewkit.families.trick_taking.engine.steps import DECISION_QUESTION, wants_question

if TYPE_CHECKING:
    from crewkit.families.trick_taking.bots.heuristic import HeuristicBot

VOLUNTEER_QUESTION = "Will you take the tasks?"
LOAD_PENALTY = 1.0  # affinity a task already held costs a seat in the hand-out (spreads the tasks)
CUT_SAMPLES = 300  # random hands behind each answer threshold
SEAT_WORLDS = 24  # deals behind JARVIS's seat when the commander decides (both tables played out on each)

_CUTS: dict[tuple[Any, ...], tuple[Any, list[float]]] = {}


def hand_strength(rules: Any, hand: int) -> float:
    """How many tricks a hand can expect to take, roughly: rockets count most, then the high cards of a suit."""
    t = table_for(rules)
    score = 0.0
    for c in mask_ids(hand):
        if t.trump_mask >> c & 1:
            score += 1.0 + t.rank[c] / 4
        elif t.suit[c] >= 0:
            top = max(t.rank[x] for x in mask_ids(t.suit_masks[t.suit[c]]))
            score += max(0.0, (t.rank[c] - top + 4) / 4)
        else:
            score += 1.0
    return score


def _sample_values(rules: Any, size: int, key: str, value: Callable[[int], float]) -> list[float]:
    """``value`` of CUT_SAMPLES hands of ``size`` cards dealt at random from the deck (seeded: the same cuts
    in every process), sorted."""
    cards = list(range(len(rules.deck)))
    rng = random.Random(f"cuts:{key}:{size}")
    out = []
    for _ in range(CUT_SAMPLES):
        hand = 0
        for c in rng.sample(cards, min(size, len(cards))):
            hand |= 1 << c
        out.append(value(hand))
    out.sort()
    return out


def _values(rules: Any, size: int, key: str, value: Callable[[int], float]) -> list[float]:
    k = (id(rules), size, key)
    hit = _CUTS.get(k)
    if hit is None or hit[0] is not rules:
        hit = _CUTS[k] = (rules, _sample_values(rules, size, key, value))
    return hit[1]


def _quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, max(0, int(q * len(values))))]


def ask_answer(rules: Any, hand: int, answers: Sequence[str]) -> str:
    """A mission question's answer: the strength bucket of the hand, the first answer for the strongest."""
    vals = _values(rules, hand.bit_count(), "strength", lambda h: hand_strength(rules, h))
    s = hand_strength(rules, hand)
    k = len(answers)
    for i in range(k - 1):
        if s >= _quantile(vals, 1 - (i + 1) / k):
            return answers[i]
    return answers[-1]


def wants_answer(rules: Any, hand: int, card: int, players: int) -> str:
    """"Who wants this task?": yes when the hand suits it better than all but one hand in ``players`` would."""
    return _wants(rules, hand, card, wants_cut(rules, hand.bit_count(), card, players))


def wants_cut(rules: Any, size: int, card: int, players: int) -> float:
    """The affinity for ``card`` from which a hand of ``size`` cards says it wants the task."""
    from crewkit.families.trick_taking.bots.knowledge import _task_affinity

    vals = _values(rules, size, f"wants:{card}", lambda h: _task_affinity(rules, h, card))
    return _quantile(vals, 1 - 1 / max(2, players))


def _wants(rules: Any, hand: int, card: int, cut: float) -> str:
    from crewkit.families.trick_taking.bots.knowledge import _task_affinity

    return "yes" if _task_affinity(rules, hand, card) >= cut else "no"


def decision_answer(rules: Any, hand: int, players: int) -> str:
    """"Can you take all the tasks?" (face down): yes for a hand stronger than all but one of the others'."""
    vals = _values(rules, hand.bit_count(), "strength", lambda h: hand_strength(rules, h))
    return "yes" if hand_strength(rules, hand) >= _quantile(vals, 1 - 1 / max(2, players - 1)) else "no"


def predicted_answer(obs: Observation, question: str, hand: int) -> str | None:
    """The answer a bot holding ``hand`` gives to ``question`` (None: an answer not worked out from the hand
    alone, such as a volunteer's)."""
    rules = obs.rules
    if question == DECISION_QUESTION:
        return decision_answer(rules, hand, obs.players)
    for t in obs.tasks:
        if question == wants_question(t.card):
            return wants_answer(rules, hand, t.card.id, obs.players)
    for step in rules.setup_steps:
        if step.kind == "ask" and step.params["question"] == question:
            return ask_answer(rules, hand, step.params["answers"])
    return None


Check = tuple[int, Callable[[int], "str | None"], str]


def answer_checks(obs: Observation) -> list[Check]:
    """(seat, the answer it would give holding a hand, the answer it gave) for every answer of another seat."""
    out: list[Check] = []
    for question, given in obs.questions:
        for seat, answer in given:
            if seat == obs.seat:
                continue
            out.append((seat, _predictor(obs, question), answer))
    return out


def _predictor(obs: Observation, question: str) -> Callable[[int], str | None]:
    """:func:`predicted_answer` for one question. A "who wants this task?" is resolved once to its card and its
    yes-cut per hand size (the worlds behind a hand-out ask it of thousands of hands)."""
    rules = obs.rules
    card = next((t.card.id for t in obs.tasks if question == wants_question(t.card)), None)
    if card is None:
        def predict(hand: int) -> str | None:
            return predicted_answer(obs, question, hand)

        return predict
    cuts: dict[int, float] = {}

    def wants(hand: int) -> str:  # wants_answer, its cut looked up once per hand size
        size = hand.bit_count()
        cut = cuts.get(size)
        if cut is None:
            cut = cuts[size] = wants_cut(rules, size, card, obs.players)
        return _wants(rules, hand, card, cut)

    return wants


def consistent_sample(know: Any, obs: Observation, rng: random.Random, checks: list[Check],
                      tries: int = 24) -> list[int]:
    """A world drawn from ``know`` in which every other seat's hand gives the answers it gave (the best of
    ``tries`` draws when none does)."""
    if not checks:
        return list(know.sample(rng))
    gone, came = since_answers(obs)
    best: list[int] = []
    best_score = -1
    for _ in range(tries):
        hands = know.sample(rng)
        score = sum(1 for seat, predict, given in checks
                    if predict((hands[seat] | gone[seat]) & ~came[seat]) in (None, given))
        if score > best_score:
            best, best_score = list(hands), score
            if score == len(checks):
                break
    return best


# ---------------------------------------------------------------------------------------------------- answers
def answer(bot: HeuristicBot, obs: Observation, req: Sequence[Answer]) -> Action:
    options = [a.answer for a in req]
    question = obs.questions[-1][0] if obs.questions else ""
    if question == VOLUNTEER_QUESTION:
        return _by_answer(req, volunteer_answer(bot, obs))
    said = predicted_answer(obs, question, obs.hand_mask)
    if said is not None and said in options:
        return _by_answer(req, said)
    # a question whose answers the rule set lists (no step of it known here): the strength scale over them
    return _by_answer(req, ask_answer(obs.rules, obs.hand_mask, options))


def _by_answer(req: Sequence[Answer], said: str) -> Action:
    for a in req:
        if a.answer == said:
            return a
    return req[0]


def volunteer_answer(bot: HeuristicBot, obs: Observation) -> str:
    """Yes when the tasks succeed, by this seat's play-outs, at least as often with it as without it: with one
    role open, its taking them against each player still to be asked taking them (a volunteer asked later who
    suits them better is left to take them); with several open (Deep Sea 26's two volunteers), the best team it
    would make with players still to be asked against the best team of those players alone, each team sharing
    the cards as the crew then gives them out (:func:`volunteer_teams`)."""
    given = dict(obs.questions[-1][1]) if obs.questions else {}
    n = obs.players
    commander = obs.commander if obs.commander is not None else 0
    order = [(commander + i) % n for i in range(1, n + 1)]
    if obs.dummy_seat is not None:
        order = [s for s in order if s != obs.dummy_seat]
    later = [s for s in order if s not in given and s != obs.seat]
    if not later:
        return "yes"
    with_me, without_me = volunteer_teams(obs, later)
    if all(len(t) == 1 for t in with_me + without_me):  # one taker: as a one-taker choice
        scores = bot.taker_scores(obs, [obs.seat, *later])
    else:
        scores = team_scores(bot, obs, with_me + without_me)
    if scores is None:  # no play-outs here: the strength scale (yes for a hand stronger than most)
        return decision_answer(obs.rules, obs.hand_mask, len(later) + 2)
    mine, theirs = scores[:len(with_me)], scores[len(with_me):]
    return "yes" if max(mine) >= max(theirs, default=-1.0) else "no"


def volunteer_teams(obs: Observation, later: Sequence[int]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The teams that would take the tasks if this seat says yes and if it says no: the volunteers so far, this
    seat or not, and as many players still to be asked (in their order) as roles are left open."""
    from itertools import combinations

    roles = next((tuple(step.params["roles"]) for step in obs.rules.setup_steps if step.kind == "volunteer"),
                 tuple(obs.rules.roles))
    bound = tuple(s for r in roles if (s := dict(obs.roles).get(r)) is not None)
    open_count = max(1, len(roles) - len(bound))
    with_me = [(*bound, obs.seat, *rest) for rest in combinations(later, open_count - 1)]
    without_me = [(*bound, *rest) for rest in combinations(later, open_count)]
    return with_me, without_me


def team_scores(bot: HeuristicBot, obs: Observation, teams: Sequence[Sequence[int]]) -> list[float] | None:
    """Per team: play-outs won when it shares the open task cards (None where the play-outs cannot judge)."""
    from crewkit.families.trick_taking.bots.fastcore import native_task_plays
    from crewkit.families.trick_taking.bots.knowledge import Knowledge, _full_view, _model_fits, world_from
    from crewkit.families.trick_taking.bots.taskcard_choice import team_scores as scores_of

    obs = _full_view(obs)
    if not _model_fits(obs, setup=True):
        return None
    # C plays the same policy (a port): used by every bot here, where teams multiply the play-outs, unless a fast
    # bot is told to stay in Python
    native = None if getattr(bot, "native", None) is False else native_task_plays  # a fast bot kept in Python
    out = scores_of(obs, teams, bot.rng, bot.taker_worlds, Knowledge, world_from, native)
    return None if all(x < 0 for x in out) else out


# ---------------------------------------------------------------------------------------------- hand-outs
def give_task(bot: HeuristicBot, obs: Observation, req: Sequence[GiveTask]) -> Action:
    """The task to the seat likeliest to fulfil it: over worlds consistent with the answers, the tasks given so
    far and this one are played out with each candidate as its owner; the most successful play-outs win, then
    the best expected affinity less the load (a task already held).

    The tasks still face down are left out of the play-outs (nothing is known of them; planning them as random
    cards given out by affinity won less: 36% against 42% on mission 24, 300 games, the fast bot). With
    ``bot.handout_repair`` (the expert's commander) each world is mended until it meets every answer, where the
    best of a few plain draws meets them all almost never once five tasks were asked about."""
    from crewkit.families.trick_taking.bots.knowledge import Knowledge, _full_view, _task_affinity

    card = req[0].card.id
    load = [0] * obs.players
    for t in obs.tasks:
        if t.owner is not None:
            load[t.owner] += 1
    view = _full_view(obs)
    know = Knowledge(view)
    checks = answer_checks(obs)
    repair = bot.handout_repair
    if repair > 0:  # the expert's commander: every world mended until it meets the answers
        worlds = [repaired_sample(know, obs, bot.rng, checks, repair) for _ in range(bot.handout_worlds)]
    else:
        worlds = [consistent_sample(know, obs, bot.rng, checks) for _ in range(bot.handout_worlds)]
    rules = obs.rules

    def fit(a: GiveTask) -> float:
        p = a.player
        if p == obs.seat:
            value = _task_affinity(rules, obs.hand_mask, card)
        else:
            value = sum(_task_affinity(rules, w[p], card) for w in worlds) / max(1, len(worlds))
        return value - LOAD_PENALTY * load[p]

    players = [a.player for a in req]
    wins = handout_wins(bot, view, know, worlds, card, players)
    best = max(range(len(req)), key=lambda i: (wins[i], fit(req[i]), -((req[i].player - obs.seat) % obs.players)))
    return req[best]


def handout_wins(bot: HeuristicBot, view: Observation, know: Any, worlds: list[list[int]], card: int,
                 candidates: Sequence[int]) -> list[float]:
    """Per candidate owner of the task ``card``: the play-outs won over ``worlds`` with the tasks revealed so
    far (the mission's conditions too). In C where the library loads (the same policy as the Python play-outs,
    :func:`~crewkit.families.trick_taking.bots.sim.rollout`), unless the bot is kept in Python; all zero where
    the world model does not describe the game (the affinity then decides)."""
    from crewkit.families.trick_taking.bots.fastcore import native_task_plays
    from crewkit.families.trick_taking.bots.knowledge import _model_fits, world_from
    from crewkit.families.trick_taking.bots.sim import rollout
    from crewkit.families.trick_taking.bots.taskcard_choice import _wins

    # the tasks still face down are not in the play-outs, so they do not stop the model from fitting
    if not worlds or not _model_fits(view, setup=True, tasks_to_come=True):
        return [0.0] * len(candidates)
    owners0 = [t.owner if t.owner is not None else -1 for t in view.tasks]
    index = next(i for i, t in enumerate(view.tasks) if t.card.id == card)
    toks = [t.token for t in view.tasks]
    in_c = getattr(bot, "native", None) is not False
    out: list[float] = []
    for p in candidates:
        owners = list(owners0)
        owners[index] = p
        given: Any = _Retasked(view, owners, toks)
        native = native_task_plays(given, know, worlds) if in_c else None
        if view.conditions:
            won = _wins(given, [world_from(given, list(w)) for w in worlds], tuple(view.conditions), native,
                        lead_in_c=True)
            if won >= 0:
                out.append(won)
                continue
        if native is not None:  # fs_rollout's state: no card on the table, the tasks with their owners, a deal
            head = [*native.head[:3], 0, *native.tail]
            out.append(float(sum(native.decider.rollout_batch(None, [[*head, *w] for w in worlds]))))
        else:
            out.append(float(sum(rollout(world_from(given, list(w))) for w in worlds)))
    return out


def give_all_tasks(bot: HeuristicBot, obs: Observation, req: Sequence[GiveAllTasks]) -> Action:
    """All the face-down tasks to a player who said they can take them, the strongest expected hand first."""
    from crewkit.families.trick_taking.bots.knowledge import Knowledge

    said = dict(obs.questions[-1][1]) if obs.questions else {}
    know = Knowledge(obs)
    checks = answer_checks(obs)
    worlds = [consistent_sample(know, obs, bot.rng, checks) for _ in range(bot.draft_worlds * 2)]

    def strength(p: int) -> float:
        if p == obs.seat:
            return hand_strength(obs.rules, obs.hand_mask)
        return sum(hand_strength(obs.rules, w[p]) for w in worlds) / max(1, len(worlds))

    return max(req, key=lambda a: (said.get(a.player) == "yes", strength(a.player),
                                   -((a.player - obs.seat) % obs.players)))


# ------------------------------------------------------------------------------------------------- roles
def taker_role(obs: Observation, role: str) -> bool:
    """Whether a later setup step gives the task cards to the player bound to ``role``."""
    return any(step.kind == "distribute-tasks" and role in step.params["to"] for step in obs.rules.setup_steps)


def choose_player(bot: HeuristicBot, obs: Observation, req: Sequence[ChoosePlayer]) -> Action:
    """A role without conditions the play-outs judge: a taker by play-outs, else the first from the left."""
    role = req[0].role
    if taker_role(obs, role) and any(t.owner is None for t in obs.task_cards):
        scores = bot.taker_scores(obs, [a.player for a in req])
        if scores is not None:
            return req[max(range(len(req)), key=lambda i: (scores[i], -i))]
    chooser = req[0].seat
    if role in obs.rules.comm_barred_roles:  # a role that may not communicate: the one whose word is worth least
        costs = silence_costs(bot, obs, [a.player for a in req])
        return req[min(range(len(req)), key=lambda i: (costs[i], (req[i].player - chooser - 1) % obs.players))]
    return min(req, key=lambda a: (a.player - chooser - 1) % obs.players)


def choose_with_open_roles(bot: HeuristicBot, obs: Observation, req: Sequence[ChoosePlayer]) -> Action | None:
    """A role chosen while later steps still choose other roles the conditions name (mission 50's opener
    before its closer), so that the conditions cannot be judged with this role alone: each candidate is worth
    its best completion, the later roles bound to every allowed combination of players (their steps'
    exclusions), all played out over the same worlds (in C where the library loads). None when no later step
    chooses a role."""
    from crewkit.families.trick_taking.bots.conditions import cond_world, condition_setup, rollout_cond
    from crewkit.families.trick_taking.bots.knowledge import Knowledge, world_from

    role = req[0].role
    now = dict(obs.roles)
    later = [st for st in obs.rules.setup_steps
             if st.kind == "choose" and st.params["role"] != role and now.get(st.params["role"]) is None]
    if not later:
        return None
    dummy = obs.rules.dummy
    barred = {obs.dummy_seat} if dummy is not None and not dummy.choosable and obs.dummy_seat is not None else set()

    def completions(bound: dict[str, int], steps: list[Any]) -> list[dict[str, int]]:
        if not steps:
            return [bound]
        step, rest = steps[0], steps[1:]
        out = set(barred)
        for name in step.params["exclude"]:
            seat = obs.commander if name == "commander" else bound.get(name, now.get(name))
            if seat is not None:
                out.add(seat)
        return [c for p in range(obs.players) if p not in out
                for c in completions({**bound, step.params["role"]: p}, rest)]

    options = [[condition_setup(obs, c) for c in completions({**now, role: a.player}, later)] for a in req]
    know = Knowledge(obs)
    native = _native_cond(obs, know)
    # pairs need more worlds than one role: six times as many where C plays them out, else twice
    deals = [bot._sample(obs, know) for _ in range((6 if native is not None else 2) * bot.role_worlds)]
    bases = [world_from(obs, list(hands)) for hands in deals]
    wins = [0] * len(req)
    for i, opts in enumerate(options):
        best = 0
        for judged in opts:
            if judged is None:
                continue
            results = native(judged, deals) if native is not None else None
            won = 0
            for k, base in enumerate(bases):
                if results is not None and results[k] != -2:
                    won += max(0, results[k])
                    continue
                w = cond_world(base, *judged)
                if w.status == 0:
                    won += rollout_cond(w)
            best = max(best, won)
        wins[i] = best
    bot.last_role_wins = wins
    return req[max(range(len(req)), key=lambda i: (wins[i], -i))]


def _native_cond(obs: Observation, know: Any) -> Callable[[Any, list[list[int]]], list[int] | None] | None:
    """Play-outs of the position with conditions in C (the fast bot's port, as in its role choice): per deal 1
    won, 0 lost, -2 left to Python; None where the library does not load or a task has no owner."""
    from crewkit.families.trick_taking.bots.condcode import native_program, trick_tail
    from crewkit.families.trick_taking.bots.conditions import goal_tail
    from crewkit.families.trick_taking.bots.fastcore import native_decider, position

    d = native_decider(table_for(obs.rules))
    if d is None or any(t.owner is None for t in obs.tasks):
        return None
    pos = position(obs, know, 0, True, 0)
    head = [pos.n, pos.leader, pos.tricks_left, 0]
    tail = [len(pos.tasks)]
    for bit, owner, kind, kk, pending in pos.tasks:
        tail += [bit, owner, kind, kk, int(pending)]
    tail.append(pos.done)

    def run(judged: Any, deals: list[list[int]]) -> list[int] | None:
        program = native_program(d._lib, judged[0])[0]
        if program is None:
            return None
        cond = trick_tail(judged[1], judged[2], goal_tail(judged))
        return d.rollout_batch(program, [[*head, *tail, *hands, *cond] for hands in deals])

    return run


def silence_costs(bot: HeuristicBot, obs: Observation, players: Sequence[int]) -> list[float]:
    """What silencing each of ``players`` costs the crew: how often, over worlds consistent with what this seat
    knows (the answers too) and the tasks drafted by affinity from the commander, that player would have
    something worth communicating at the start (:func:`~crewkit.families.trick_taking.bots.heuristic.comm_pick`,
    the bots' own rule), plus a tenth for each other seat's task card it holds (where a card is, the most useful
    word). A seat that never communicates (JARVIS under its rule set's reading) costs nothing."""
    from crewkit.families.trick_taking.bots.comm_rule import comm_pick
    from crewkit.families.trick_taking.bots.knowledge import Knowledge, _full_view, draft_by_affinity

    dummy = obs.rules.dummy
    mute = {obs.dummy_seat} if obs.dummy_seat is not None and dummy is not None and not dummy.communicates else set()
    view = _full_view(obs)
    know = Knowledge(view)
    checks = answer_checks(obs)
    worlds = [consistent_sample(know, obs, bot.rng, checks) for _ in range(max(2, 2 * bot.role_worlds))]
    commander = obs.commander if obs.commander is not None else obs.seat
    owners0 = [t.owner if t.owner is not None else -1 for t in obs.tasks]
    t = table_for(obs.rules)
    costs = [0.0] * len(players)
    for hands in worlds:
        hands = list(hands)
        hands[obs.seat] = obs.hand_mask
        owners = draft_by_affinity(view, hands, owners0, commander) if obs.tasks else []
        open_tasks = [(task.card, owners[i]) for i, task in enumerate(obs.tasks) if task.trick is None]
        for k, p in enumerate(players):
            if p in mute:
                continue
            options = _comm_options(obs.rules, t, hands[p])
            said = comm_pick(p, options, open_tasks) is not None
            theirs = sum(1 for i, task in enumerate(obs.tasks) if owners[i] not in (p, -1) and hands[p] & task.card.bit)
            costs[k] += float(said) + 0.1 * theirs
    return [c / len(worlds) for c in costs]


def _comm_options(rules: Any, t: Any, hand: int) -> list[tuple[Any, str]]:
    """The communications a hand allows at the start: per colour its only card, or its highest and lowest."""
    cards = rules.deck.cards
    out: list[tuple[Any, str]] = []
    for suit_mask in t.suit_masks:
        mine = mask_ids(hand & suit_mask & ~t.trump_mask)
        if not mine:
            continue
        if len(mine) == 1:
            out.append((cards[mine[0]], "only"))
        else:
            high = max(mine, key=lambda c: t.rank[c])
            low = min(mine, key=lambda c: t.rank[c])
            out += [(cards[high], "top"), (cards[low], "bottom")]
    return out


def choose_dummy_seat(bot: HeuristicBot, obs: Observation, req: Sequence[Action]) -> Action:
    """Where JARVIS sits: the arrangement (right after or right before the commander) whose play-outs succeed
    more often (:mod:`crewkit.families.trick_taking.bots.jarvis_seat`), on deals drawn from what the rules let
    the decider know (its hand when the commander decides; none when the players decide before the deal: whole
    deals of the mission, worked out once). The rules bot, without look-ahead, plays out a quarter as many deals
    around its hand."""
    from crewkit.families.trick_taking.bots.jarvis_seat import choose_seat
    from crewkit.families.trick_taking.engine.blocks.dummy import ChooseDummySeat

    seats = [a for a in req if isinstance(a, ChooseDummySeat)]
    if len(seats) != len(req):
        return req[0]
    worlds = SEAT_WORLDS if bot.lookahead else SEAT_WORLDS // 4
    choice, bot.last_seat_wins = choose_seat(obs, seats, bot.rng, worlds, bot.rules_playout_bot)
    return choice


# ------------------------------------------------------------------------------------------------ tokens
def tokens(bot: HeuristicBot, obs: Observation, req: Sequence[Action]) -> Action:
    """Swap or move a token, or skip: each option played out over the same sampled deals, with the tasks
    drafted by affinity from the commander; skipping wins ties."""
    from crewkit.families.trick_taking.bots.fastcore import native_task_plays
    from crewkit.families.trick_taking.bots.knowledge import Knowledge, _full_view, _model_fits, world_from
    from crewkit.families.trick_taking.bots.sim import rollout

    skip = next((a for a in req if isinstance(a, Skip)), None)
    obs = _full_view(obs)
    if not _model_fits(obs, setup=True):
        return skip if skip is not None else req[0]
    know = Knowledge(obs)
    deals = [know.sample(bot.rng) for _ in range(max(4, bot.draft_worlds))]
    base_tokens = [t.token for t in obs.tasks]
    cards = [t.card.id for t in obs.tasks]

    def tokens_after(a: Action) -> list[str | None]:
        out = list(base_tokens)
        if isinstance(a, SwapTokens):
            i, j = cards.index(a.first.id), cards.index(a.second.id)
            out[i], out[j] = out[j], out[i]
        elif isinstance(a, MoveToken):
            i, j = base_tokens.index(a.token), cards.index(a.target.id)
            out[j], out[i] = out[i], None
        return out

    owners_of = [_greedy_owners(obs, hands) for hands in deals]
    # in C where the library loads (the same policy as the Python play-outs, much cheaper with many tasks),
    # unless the bot is kept in Python
    in_c = getattr(bot, "native", None) is not False
    best: tuple[int, int] | None = None
    choice = req[0]
    order = sorted(range(len(req)), key=lambda i: not isinstance(req[i], Skip))
    bot.last_token_wins = {}
    for i in order:
        toks = tokens_after(req[i])
        won = 0
        for hands, owners in zip(deals, owners_of, strict=True):
            given: Any = _Retasked(obs, owners, toks)
            native = native_task_plays(given, know, [hands]) if in_c else None
            if native is not None:  # fs_rollout's state: no card on the table, the tasks with their owners, a deal
                won += max(0, int(native.decider.rollout_batch(None, [[*native.head[:3], 0, *native.tail, *hands]])[0]))
            else:
                won += rollout(world_from(given, list(hands)))
        bot.last_token_wins[i] = won
        if best is None or won > best[0]:
            best, choice = (won, -i), req[i]
    return choice


def _greedy_owners(obs: Observation, hands: list[int]) -> list[int]:
    """Owners of the tasks drafted by affinity in turn from the commander (the draft's usual order)."""
    from crewkit.families.trick_taking.bots.knowledge import draft_by_affinity

    owners = [t.owner if t.owner is not None else -1 for t in obs.tasks]
    return draft_by_affinity(obs, hands, owners, obs.commander if obs.commander is not None else 0)


class _Retasked:
    """An observation with task owners and tokens replaced (for token play-outs)."""

    def __init__(self, obs: Observation, owners: list[int], toks: list[str | None]) -> None:
        from crewkit.families.trick_taking.engine.observation import TaskInfo

        self._obs = obs
        self.tasks = tuple(TaskInfo(t.card, toks[i], owners[i], t.trick) for i, t in enumerate(obs.tasks))

    def __getattr__(self, name: str) -> object:
        return getattr(self._obs, name)


# ------------------------------------------------------------------------------------------------- Hammer
def choose_mission(bot: HeuristicBot, obs: Observation, req: Sequence[Any]) -> Action:
    """Hammer's dealer: the mission card and mode worth most to the dealer by play-outs of the round from its
    hand (:mod:`crewkit.families.trick_taking.bots.dealer_choice`: chips gained on the others; in the last round,
    how often the dealer ends the match ahead; the rules bot, without look-ahead, plays out two deals only).
    ``bot.last_dealer_values`` keeps every option's worth."""
    from crewkit.families.trick_taking.bots.dealer_choice import DEALER_WORLDS
    from crewkit.families.trick_taking.bots.dealer_choice import choose_mission as best_option

    if obs.match is None:  # rounds without chips: nothing to weigh; the first offered
        return req[0]
    players = [bot.without_lookahead(s, "dealer-playout") for s in range(obs.players)]
    choice, values = best_option(obs, req, bot.rng, DEALER_WORLDS if bot.lookahead else 2, players)
    bot.last_dealer_values = values
    return choice
