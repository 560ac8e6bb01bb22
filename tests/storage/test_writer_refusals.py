"""What the write queue drops and what it keeps: only a record the database refuses for its content is set aside
(and written whole to the log); an error of the connection, the pool, the protocol or the driver's state is the
database being unavailable, never the record's fault: the record is retried, journaled, and goes in once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.storage import open_stores
from bot.storage.db import SqlAppliedWrites
from bot.storage.records import GapRecord
from bot.storage.writer import REFUSED, WriteQueue

CONTENT, UNAVAILABLE = "content", "unavailable"

ON_POSTGRESQL = [  # what asyncpg raises (real instances of its classes), and what it means for the record
    (asyncpg.UniqueViolationError("duplicate key value violates unique constraint"), CONTENT),
    (asyncpg.NotNullViolationError('null value in column "sample"'), CONTENT),
    (asyncpg.InvalidTextRepresentationError("invalid input syntax for type integer"), CONTENT),
    (asyncpg.NumericValueOutOfRangeError("integer out of range"), CONTENT),
    (asyncpg.exceptions._base.DataError("invalid input for query argument $1: 'x' (an int is required)"), CONTENT),
    (asyncpg.InternalClientError("cannot switch to state 15; another operation (2) is in progress"), UNAVAILABLE),
    (asyncpg.InternalClientError("not connected"), UNAVAILABLE),
    (asyncpg.InterfaceError("cannot call Transaction.__aexit__(): the underlying connection is closed"), UNAVAILABLE),
    (asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"), UNAVAILABLE),
    (asyncpg.AdminShutdownError("terminating connection due to administrator command"), UNAVAILABLE),
    (asyncpg.CannotConnectNowError("the database system is shutting down"), UNAVAILABLE),
    (asyncpg.TooManyConnectionsError("sorry, too many clients already"), UNAVAILABLE),
    (asyncpg.ProtocolViolationError("unexpected message"), UNAVAILABLE),
    (asyncpg.UndefinedTableError('relation "misses" does not exist'), UNAVAILABLE),  # the operator's to fix
    (ConnectionError("unexpected connection_lost() call"), UNAVAILABLE),
    (ConnectionRefusedError(111, "Connect call failed"), UNAVAILABLE),
    (TimeoutError(), UNAVAILABLE),
]
ON_SQLITE = [
    (sqlite3.IntegrityError("NOT NULL constraint failed: misses.sample"), CONTENT),
    (sqlite3.InterfaceError("Error binding parameter 1: type 'dict' is not supported"), CONTENT),
    (OverflowError("Python int too large to convert to SQLite INTEGER"), CONTENT),
    (sqlite3.OperationalError("database is locked"), UNAVAILABLE),
    (sqlite3.OperationalError("database or disk is full"), UNAVAILABLE),
    (sqlite3.ProgrammingError("Cannot operate on a closed database."), UNAVAILABLE),
    (sqlite3.DatabaseError("database disk image is malformed"), UNAVAILABLE),
    (ValueError("no active connection"), UNAVAILABLE),  # (aiosqlite, closed under the queue)
    (OSError(28, "No space left on device"), UNAVAILABLE),
]


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def _one_record_meets(database, error: BaseException, tmp_path: Path, caplog) -> tuple[list, list, list]:
    """One record written while the database raises `error`: (journaled, set aside, whole in the log)."""

    async def raising(records):
        raise error

    journal = tmp_path / "g.pending.jsonl"
    queue = WriteQueue({GapRecord: raising}, journal, unit=database, attempts=2, first_delay=0.01, linger=0)
    await queue.start()
    queue.submit(GapRecord(1, "laguna", "laguna", "a", None, "lookup", "2026-12-03T10:00:00"))
    await queue.close(grace=5)
    logged = [json.loads(r.getMessage().split(REFUSED, 1)[1]) for r in caplog.records if REFUSED in r.getMessage()]
    return lines(journal), lines(journal.with_name(journal.name + ".rejected")), logged


@pytest.mark.parametrize(
    ("error", "meaning"), ON_POSTGRESQL, ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else v
)
async def test_on_postgresql_only_a_refusal_of_the_content_drops_a_record(
    postgres_url, tmp_path, caplog, error, meaning
):
    stores = await open_stores(postgres_url)
    try:
        journaled, rejected, logged = await _one_record_meets(stores.database, error, tmp_path, caplog)
    finally:
        await stores.close()
    _assert_means(meaning, journaled, rejected, logged)


@pytest.mark.parametrize(
    ("error", "meaning"), ON_SQLITE, ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else v
)
async def test_on_sqlite_only_a_refusal_of_the_content_drops_a_record(tmp_path, caplog, error, meaning):
    stores = await open_stores(tmp_path / "g.db")
    try:
        journaled, rejected, logged = await _one_record_meets(stores.database, error, tmp_path, caplog)
    finally:
        await stores.close()
    _assert_means(meaning, journaled, rejected, logged)


def _assert_means(meaning: str, journaled: list, rejected: list, logged: list) -> None:
    if meaning == UNAVAILABLE:  # kept for the next start, never set aside
        assert [r["sample"] for r in journaled] == ["laguna"] and rejected == [] and logged == []
    else:  # set aside with the reason, and whole in the log as one JSON line
        assert journaled == [] and [r["sample"] for r in rejected] == ["laguna"]
        assert [{k: v for k, v in r.items() if k != "rejected_because"} for r in rejected] == logged


async def test_a_driver_state_error_mid_batch_keeps_every_record_and_each_goes_in_once(
    postgres_url, tmp_path, monkeypatch
):
    """What stopping PostgreSQL under traffic did: the driver's connection was left mid-operation, and the next
    statement on it said so (asyncpg's InternalClientError). Raised here by the driver itself, for a while."""
    stores = await open_stores(postgres_url)
    journal = tmp_path / "g.pending.jsonl"

    def queue() -> WriteQueue:
        handlers = {GapRecord: stores.gaps.record_gaps}
        applied = SqlAppliedWrites(stores.database)
        return WriteQueue(
            handlers, journal, unit=stores.database, applied=applied, attempts=2, first_delay=0.01, linger=0
        )

    real = asyncpg.connection.Connection.executemany

    async def mid_operation(self, *args, **kwargs):
        raise asyncpg.InternalClientError("cannot switch to state 15; another operation (2) is in progress")

    writing = queue()
    await writing.start()
    try:
        monkeypatch.setattr(asyncpg.connection.Connection, "executemany", mid_operation)
        for n in range(20):
            writing.submit(GapRecord(1, f"laguna {n}", f"laguna {n}", "a", None, "lookup", "2026-12-03T10:00:00"))
        await writing.drain()
        monkeypatch.setattr(asyncpg.connection.Connection, "executemany", real)
        for n in range(20, 25):  # the database works again: these go in, and so do the ones kept in memory
            writing.submit(GapRecord(1, f"laguna {n}", f"laguna {n}", "a", None, "lookup", "2026-12-03T10:00:00"))
        await writing.close()
        replaying = queue()  # the next start replays the journal
        await replaying.start()
        await replaying.close()
        gaps = await stores.gaps.gaps()
    finally:
        await stores.close()
    assert sorted(g.sample for g in gaps) == sorted(f"laguna {n}" for n in range(25))
    assert all(g.count == 1 for g in gaps)  # each once
    assert not journal.with_name(journal.name + ".rejected").exists() and not journal.exists()
