"""A seat's status line says what the host's status says, its own name as "you": "waiting for you and Bob"."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from crewkit.tui.remote import HostSeat


def _seat(seat: int, status: str) -> HostSeat:
    client: Any = SimpleNamespace(seat=seat)
    host_seat = HostSeat(client)
    host_seat.state = {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Annabel"}], "status": status}
    return host_seat


def test_the_own_name_is_you_in_whom_the_table_waits_for() -> None:
    assert _seat(0, "waiting for Ann and Bob to communicate or pass").status() == \
        "waiting for you and Bob to communicate or pass"
    assert _seat(1, "waiting for Ann and Bob to communicate or pass").status() == \
        "waiting for Ann and you to communicate or pass"
    assert _seat(0, "waiting for Annabel (disconnected)").status() == "waiting for Annabel (disconnected)"
    assert _seat(2, "waiting for Bob (for seat 2)").status() == "waiting for Bob (for you)"
    assert _seat(0, "The crew won: the task was done in trick 1").status() == \
        "The crew won: the task was done in trick 1"
