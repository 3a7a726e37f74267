"""The JSON form of a seat's :class:`~crewkit.families.trick_taking.engine.observation.Observation`: what one seat may know, nothing
more (a hosted table's ``state`` messages carry it; docs/online.md describes every field)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.blocks.rounds import MatchState
    from crewkit.families.trick_taking.engine.observation import Observation


def observation_json(obs: Observation) -> dict[str, Any]:
    return {
        "seat": obs.seat,
        "phase": obs.phase,
        "hand": [c.name for c in obs.hand],
        "hand_sizes": list(obs.hand_sizes),
        "commander": obs.commander,
        "to_act": obs.to_act,
        "trick_number": obs.trick_number,
        "total_tricks": obs.total_tricks,
        "current_trick": [{"seat": s, "card": c.name} for s, c in obs.current_trick],
        "tricks": tricks_json(obs.tricks),
        "tasks": [
            {"card": t.card.name, "token": t.token, "owner": t.owner, "trick": t.trick} for t in obs.tasks
        ],
        "hidden_tasks": obs.hidden_tasks,
        "task_cards": [t.to_json() for t in obs.task_cards],
        "dummy": None if obs.dummy_seat is None else {
            "seat": obs.dummy_seat, "face_up": [c.name for c in obs.dummy_up],
            "columns": [{"up": None if up is None else up.name, "down": down}
                        for up, down in obs.dummy_columns]},
        "communications": [
            {"seat": c.seat, "card": c.card.name, "statement": c.statement, "played": c.played}
            for c in obs.communications
        ],
        "distress": obs.distress_direction,
        # public: how many communications each seat has made, whether statements are hidden (a dead
        # zone), the roles given out, the face-down missions of other seats (a hosted table's client
        # draws the same table from these as the local one does from the game)
        "comm_used": list(obs.comm_used),
        "dead_zone": obs.dead_zone,
        "roles": [[role, seat] for role, seat in obs.roles],
        "hidden_missions_of_others": obs.hidden_missions_of_others,
        "legal": [a.to_json() for a in obs.legal],
        "outcome": obs.outcome,
        "reason": obs.reason,
    }


def tricks_json(tricks: Any) -> list[dict[str, Any]]:
    """Tricks played (public: every card of a finished trick was played face up)."""
    return [{"number": t.number, "leader": t.leader, "winner": t.winner,
             "cards": [{"seat": s, "card": c.name} for s, c in t.plays]} for t in tricks]


def match_json(match: MatchState, dealer: int | None, mode: str | None) -> dict[str, Any]:
    """Hammer's match as every seat sees it (all public): the round, the dealer, the mission card and mode the
    dealer chose (None while choosing), the chips, every settled round and its tricks."""
    from crewkit.families.trick_taking.engine.scoring import chip_json

    return {
        "round": match.round,
        "dealer": dealer,
        "first_dealer": match.first_dealer,
        "mission": None if match.round_mission is None else match.round_mission.id,
        "mode": mode,
        "chips": [chip_json(c) for c in match.chips],
        "results": [r.to_json() for r in match.round_results],
        "round_tricks": [tricks_json(ts) for ts in match.round_tricks],
    }
