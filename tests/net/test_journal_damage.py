"""A damaged table folder is never resumed silently: a journal cut short, deleted, replaced, changed, with a
malformed line or an impossible event, or a FIFO in place of a file, stops ``crewkit host --dir`` with exit 1 and
a message naming the file and line (never a traceback, never a hang); a whole journal and a torn last line
resume. Real ``crewkit host`` processes on a free loopback port; the table folder is made by one and copied."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from crewkit.net.journal import HEAD_FILE, chained_line, read_journal
from crewkit.net.table import LOG_FILE, TABLE_FILE, HostedTable, Refusal, TableConfig, TableError

pytestmark = pytest.mark.timeout(240)


def _host(folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "crewkit", "host", "--dir", str(folder), "--port", "0", "--bind", "127.0.0.1",
         "--delay", "0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _links(process: subprocess.Popen[str]) -> dict[str, list[str]]:
    """Each table's join links, read from the host's output up to its ``listening on`` line."""
    assert process.stdout is not None
    links: dict[str, list[str]] = {}
    table = ""
    for line in process.stdout:
        if line.startswith("listening on"):
            break
        if line.startswith("table "):
            table = line.split()[1]
            links[table] = []
        found = re.search(r"'(ws://127\.0\.0\.1:\d+/[^']+)'", line)
        if found:
            links[table].append(found.group(1))
    return links


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(30)


def _refused(folder: Path) -> str:
    """``crewkit host --dir folder`` must stop with exit 1 before listening; its standard error."""
    process = _host(folder)
    try:
        out, err = process.communicate(timeout=120)  # a host that hangs (a FIFO read) fails here
    finally:
        _kill(process)
    assert process.returncode == 1, (process.returncode, out, err)
    assert "listening on" not in out
    assert "Traceback" not in err and "internal error" not in err
    return err


class _Outbox:
    def post(self, message: dict[str, object]) -> None:
        pass


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A table folder with a game under way (names, passes, 8 actions; written by the table itself, no network),
    as a host killed then would leave it; and the table's id."""
    folder = tmp_path_factory.mktemp("played") / "tables"

    async def play() -> str:
        table = HostedTable.create(folder, TableConfig("crew", "planet-nine/10", 3, "damage",
                                                       ["human", "human", "fast"]), "fast")
        await table.join(0, _Outbox(), "Ann")
        await table.join(1, _Outbox(), "Bob")
        rng = random.Random(1)
        while table.applied < 8:
            if await table.bot_step():
                continue
            pending = table.window_pending()
            if pending:
                await table.pass_window(pending[0])
                continue
            seat = table.waiting_seats()[0]
            await table.act(seat, rng.choice(table.state_for(seat)["legal"]))
        assert not table.game.is_over()
        table.close()
        return table.id

    table = asyncio.run(play())
    assert len((folder / table / LOG_FILE).read_bytes().splitlines()) >= 10
    return folder, table


@pytest.fixture
def copy(played: tuple[Path, str], tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the played folder: (the folder for --dir, the table's folder)."""
    folder, table = played
    shutil.copytree(folder, tmp_path / "tables")
    return tmp_path / "tables", tmp_path / "tables" / table


def _lines(table: Path) -> list[bytes]:
    return (table / LOG_FILE).read_bytes().splitlines(keepends=True)


def test_a_whole_journal_resumes_with_every_event(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    written = len(_lines(table))
    process = _host(folder)
    try:
        assert list(_links(process)) == [table.name]
    finally:
        _kill(process)
    assert len(_lines(table)) == written


def test_the_last_five_lines_cut_off_are_told_not_rewound(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    lines = _lines(table)
    (table / LOG_FILE).write_bytes(b"".join(lines[:-5]))
    err = _refused(folder)
    log = table / LOG_FILE
    assert f"{log}: the journal ends at line {len(lines) - 5}" in err
    assert "its last 5 lines are missing" in err and str(table / HEAD_FILE) in err
    assert "move the folder" in err  # what to do
    assert len(_lines(table)) == len(lines) - 5  # nothing changed


def test_lines_cut_in_the_middle_of_a_line_are_told(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    raw = (table / LOG_FILE).read_bytes()
    (table / LOG_FILE).write_bytes(raw[: len(raw) - len(_lines(table)[-1]) - 7])  # a torn line, one lost whole
    err = _refused(folder)
    assert "its last 2 lines are missing" in err


def test_a_deleted_journal_is_told_not_restarted(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    (table / LOG_FILE).unlink()
    err = _refused(folder)
    assert f"{table / LOG_FILE}: the table's journal is missing" in err


def test_a_deleted_journal_and_head_are_told(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    (table / LOG_FILE).unlink()
    (table / HEAD_FILE).unlink()
    assert "the table's journal is missing" in _refused(folder)
    (table / LOG_FILE).touch()  # an empty journal put in its place
    assert f"{table / HEAD_FILE}: the table's journal's head file is missing" in _refused(folder)


def test_an_emptied_journal_is_told(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    (table / LOG_FILE).write_bytes(b"")
    assert f"{table / LOG_FILE}: the journal ends at line 0" in _refused(folder)


def test_a_line_of_invalid_utf8_is_positioned(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    lines = _lines(table)
    lines[2] = b'{"event":"pass","seat":0,"name":"\xff\xfe"}\n'
    (table / LOG_FILE).write_bytes(b"".join(lines))
    assert f"{table / LOG_FILE}:3: not UTF-8 text" in _refused(folder)


def test_a_line_of_bad_json_is_positioned(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    lines = _lines(table)
    lines[4] = b'{"event": "act", \n'
    (table / LOG_FILE).write_bytes(b"".join(lines))
    assert f"{table / LOG_FILE}:5: not a JSON line" in _refused(folder)


def test_an_unchained_line_put_in_is_positioned(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    with open(table / LOG_FILE, "ab") as fh:
        fh.write(b'{"event":"control","seat":99,"bot":true}\n')
    n = len(_lines(table))
    assert f"{table / LOG_FILE}:{n}: sequence number None where {n} was expected" in _refused(folder)


@pytest.mark.parametrize("event, said", [
    ({"event": "control", "seat": 99, "bot": True}, "a seat is a number from 0 to 2, found 99"),
    ({"event": "control", "seat": 0, "bot": "yes"}, "\"bot\" is true or false, found 'yes'"),
    ({"event": "control", "seat": 2, "bot": True}, "seat 2 is a bot's"),
    ({"event": "pass", "seat": -1}, "a seat is a number from 0 to 2, found -1"),
    ({"event": "name", "seat": 0, "name": ""}, "a name is 1 to 40 characters"),
    ({"event": "name", "seat": 0, "name": "x" * 41}, "a name is 1 to 40 characters"),
    ({"event": "act", "action": {"seat": 7, "type": "play"}}, "a seat is a number from 0 to 2, found 7"),
    ({"event": "act", "action": [1]}, "an action is a JSON object"),
    ({"event": "dance"}, "unknown event 'dance'"),
], ids=["seat-99", "bot-not-bool", "bot-seat", "seat-negative", "empty-name", "long-name", "act-seat-7", "act-list", "unknown"])
def test_an_impossible_event_in_a_chained_line_is_positioned(copy: tuple[Path, Path], event: dict[str, object],
                                                             said: str) -> None:
    folder, table = copy
    journal = read_journal((table / LOG_FILE).read_bytes(), table / LOG_FILE, _genesis(table))
    n = len(journal.events) + 1
    line, _ = chained_line(journal.hashes[-1], n, event)  # a line the chain accepts: the event itself is checked
    with open(table / LOG_FILE, "ab") as fh:
        fh.write(line)
    err = _refused(folder)
    assert f"{table / LOG_FILE}:{n}: cannot replay this event: {said}" in err


def _genesis(table: Path) -> str:
    from crewkit.net.journal import genesis

    return genesis(json.loads((table / TABLE_FILE).read_text())["id"])


@pytest.mark.parametrize("name", [LOG_FILE, TABLE_FILE, HEAD_FILE])
def test_a_fifo_in_place_of_a_file_is_refused_without_hanging(copy: tuple[Path, Path], name: str) -> None:
    folder, table = copy
    (table / name).unlink()
    os.mkfifo(table / name)
    assert f"{table / name}: not a regular file (a FIFO)" in _refused(folder)


def test_a_changed_line_or_another_tables_journal_is_told(copy: tuple[Path, Path], tmp_path: Path) -> None:
    folder, table = copy
    lines = _lines(table)
    changed = re.sub(rb'"seat":(\d)', lambda m: b'"seat":%d' % ((int(m.group(1)) + 1) % 3), lines[3])
    assert changed != lines[3]
    (table / LOG_FILE).write_bytes(b"".join([*lines[:3], changed, *lines[4:]]))
    with pytest.raises(TableError, match=rf"{re.escape(str(table / LOG_FILE))}:4: the line's hash does not follow"):
        HostedTable.resume(table)
    # the journal of another table (same game, same events) in its place: its chain starts elsewhere
    other = tmp_path / "other"
    shutil.copytree(table, other)
    data = json.loads((other / TABLE_FILE).read_text())
    (other / TABLE_FILE).write_text(json.dumps({**data, "id": "another"}))
    (table / LOG_FILE).write_bytes(b"".join(lines))
    shutil.copy(table / LOG_FILE, other / LOG_FILE)
    with pytest.raises(TableError, match=r":1: the line's hash does not follow"):
        HostedTable.resume(other)


def test_an_older_copy_of_the_journal_with_lines_after_it_is_told(copy: tuple[Path, Path]) -> None:
    """Lines cut and as many written in their place by another run: the line the head committed differs."""
    folder, table = copy
    lines = _lines(table)
    journal = read_journal(b"".join(lines[:-2]), table / LOG_FILE, _genesis(table))
    digest, extra = journal.hashes[-1], []
    for seq in (len(lines) - 1, len(lines)):
        line, digest = chained_line(digest, seq, {"event": "name", "seat": 0, "name": f"Ann{seq}"})
        extra.append(line)
    (table / LOG_FILE).write_bytes(b"".join([*lines[:-2], *extra]))
    assert f"{table / LOG_FILE}:{len(lines)}: not the line that was committed there" in _refused(folder)


def test_a_torn_last_line_is_still_dropped(copy: tuple[Path, Path]) -> None:
    folder, table = copy
    written = (table / LOG_FILE).read_bytes()
    with open(table / LOG_FILE, "ab") as fh:
        fh.write(b'{"seq":99,"event":"act","action":{"seat":0,"ty')
    process = _host(folder)
    try:
        assert list(_links(process)) == [table.name]
    finally:
        _kill(process)
    assert (table / LOG_FILE).read_bytes() == written


def test_a_journal_of_an_earlier_crewkit_is_upgraded_and_said_so(copy: tuple[Path, Path]) -> None:
    """A table written before the chain (no sequence numbers, hashes or head file) resumes, chained from then
    on, and the host says that lines lost before cannot be told."""
    folder, table = copy
    events = [json.loads(line) for line in _lines(table)]
    for event in events:
        del event["seq"], event["hash"]
    (table / LOG_FILE).write_bytes(b"".join(json.dumps(e).encode() + b"\n" for e in events))
    (table / HEAD_FILE).unlink()
    data = json.loads((table / TABLE_FILE).read_text())
    del data["journal"]
    (table / TABLE_FILE).write_text(json.dumps(data))
    process = _host(folder)
    try:
        assert list(_links(process)) == [table.name]
    finally:
        _kill(process)
    assert process.stderr is not None
    err = process.stderr.read()
    assert f"{table / LOG_FILE}: written by an earlier crewkit" in err and "cannot be told" in err
    assert json.loads((table / TABLE_FILE).read_text())["journal"] == "chained/1"
    upgraded = _lines(table)
    assert [json.loads(line)["seq"] for line in upgraded] == list(range(1, len(events) + 1))
    (table / LOG_FILE).write_bytes(b"".join(upgraded[:-5]))  # from now on a cut is told
    assert "its last 5 lines are missing" in _refused(folder)


@pytest.mark.parametrize("line, said", [
    (b"[" * 100_000 + b"\n", ":3: not a JSON line"),
    (b'{"seq": 3, "event": "pass", "seat": 1' + b"9" * 5000 + b'}\n', ":3: not a JSON line"),
    (b"\n", ":3: not a JSON line"),
    (b'[1, 2]\n', ":3: an event is a JSON object, found list"),
], ids=["deep", "5000-digits", "empty", "list"])
def test_odd_lines_are_positioned(copy: tuple[Path, Path], line: bytes, said: str) -> None:
    folder, table = copy
    lines = _lines(table)
    (table / LOG_FILE).write_bytes(b"".join([*lines[:2], line, *lines[3:]]))
    with pytest.raises(TableError, match=re.escape(f"{table / LOG_FILE}{said}")):
        HostedTable.resume(table)


@pytest.mark.parametrize("damage, said", [
    ("[" * 100_000, "cannot read the table"),
    ('{"format": "crewkit-table/1", "id": "x", "config": [], "codes": [], "bot": "fast"}', "cannot read the table"),
    ('{"format": "crewkit-table/1", "id": "x", "config": {"ruleset": "crew", "mission": "planet-nine/01", '
     '"players": 99, "seed": "s", "seats": ["human"]}, "codes": [null], "bot": "fast", "journal": "chained/1"}',
     "the table's game cannot be opened"),
    ('{"format": "crewkit-table/1", "id": "x", "config": {"ruleset": "crew", "mission": "planet-nine/01", '
     '"players": 3, "seed": "s", "seats": ["human", "fast", "fast"]}, "codes": ["c", null, null], "bot": "fast",'
     ' "journal": "chained/9"}', "journal format 'chained/9'"),
], ids=["deep", "config-list", "players-99", "journal-format"])
def test_a_damaged_table_file_is_told(copy: tuple[Path, Path], damage: str, said: str) -> None:
    folder, table = copy
    (table / TABLE_FILE).write_text(damage)
    with pytest.raises(TableError, match=re.escape(f"{table / TABLE_FILE}: ") + ".*" + re.escape(said)):
        HostedTable.resume(table)


async def test_a_journal_the_host_wrote_resumes_with_every_kind_of_event(tmp_path: Path) -> None:
    """Names (32 characters, the longest; a name taken already is refused and writes nothing), a seat handed to its
    bot and back, an action: written by the table, read back whole."""
    table = HostedTable.create(tmp_path, TableConfig("crew", "planet-nine/01", 3, "names", ["human"] * 3), "fast")
    name = "N" * 32
    await table.join(0, _Outbox(), name)
    with pytest.raises(Refusal, match="is taken"):
        await table.join(1, _Outbox(), name.lower())
    await table.join(1, _Outbox(), "M" * 32)
    await table.set_bot(2, True)
    await table.set_bot(2, False)
    seat = table.waiting_seats()[0]
    await table.act(seat, table.state_for(seat)["legal"][0])
    table.close()
    again = HostedTable.resume(table.folder)
    assert [s.name for s in again.seats[:2]] == [name, "M" * 32]
    assert again.applied == 1 and len(_lines(table.folder)) == 5
    again.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
@pytest.mark.parametrize("name", [LOG_FILE, HEAD_FILE])
def test_a_journal_the_host_cannot_write_is_told(copy: tuple[Path, Path], name: str) -> None:
    folder, table = copy
    (table / name).chmod(0o400)
    assert f"{table / name}: cannot open it to write" in _refused(folder)


def test_a_head_that_cannot_be_opened_to_write_is_told(copy: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from crewkit.net import journal

    folder, table = copy
    real_open = journal.os.open

    def refusing(path: object, flags: int, *args: int) -> int:
        if flags & os.O_RDWR:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(journal.os, "open", refusing)
    with pytest.raises(TableError, match=re.escape(f"{table / HEAD_FILE}: cannot open it to write: Permission denied")):
        HostedTable.resume(table)
