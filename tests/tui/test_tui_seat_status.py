"""A seat's status is the host's status for that seat (one function: ``HostedTable.status``), its own person
"you": "waiting for you and Bob". The host's console says the same words with every name."""

from __future__ import annotations

from pathlib import Path

from crewkit.net.table import HostedTable, TableConfig


async def test_the_host_words_each_seats_status_its_own_person_you(tmp_path: Path) -> None:
    config = TableConfig("crew", "planet-nine/01", 3, "status-1", ["human", "human", "fast"], {}, ["Ann", "Bob", "Cat"])
    table = HostedTable.create(tmp_path, config, "fast")
    try:
        while table.game.waiting() and table.seats[table.game.waiting()[0]].human is False:
            await table.bot_step()
        waiting = table.waiting_seats()
        assert waiting and all(table.seats[s].human for s in waiting)
        names = " and ".join(f"{table.seats[s].name} (disconnected)" for s in waiting)
        assert table.status() == f"waiting for {names}" or table.status().startswith(f"waiting for {names} ")
        own = waiting[0]
        mine = table.status(own)
        assert mine.startswith("waiting for you") and table.seats[own].name not in mine
        others = next(s for s in range(3) if s not in waiting)
        assert table.status(others) == table.status()  # a seat not waited for reads the host's words
        state = table.state_for(own)
        assert state["status"] == mine  # what the seat is sent is that very sentence
    finally:
        table.close()
