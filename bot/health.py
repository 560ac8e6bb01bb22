"""Liveness for Docker's HEALTHCHECK: the running bot writes a heartbeat; `glosario-bot health` reads it."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

HEARTBEAT_EVERY = timedelta(seconds=30)
HEARTBEAT_MAX_AGE = timedelta(seconds=90)


def heartbeat_path(db_path: Path) -> Path:
    return db_path.with_name("heartbeat")


def file_identity(path: Path) -> str | None:
    """Which file is at `path` (device and inode): a database replaced or moved under the bot shows up here."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}"


def write_heartbeat(path: Path, now: datetime, database: str | None = None) -> None:
    """Record that the bot is connected to Discord right now, and which database file it has open
    (atomic: temp file + rename). The first line is the time, the second the file's identity."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".heartbeat-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(now.isoformat() + (f"\n{database}" if database else ""))
    os.replace(tmp, path)


def clear_heartbeat(path: Path) -> None:
    path.unlink(missing_ok=True)


def check(db_path: Path, now: datetime) -> tuple[bool, str]:
    """(healthy, reason): connected to Discord recently, and the database opens."""
    path = heartbeat_path(db_path)
    try:
        stamp, _, database = path.read_text(encoding="utf-8").strip().partition("\n")
        beat = datetime.fromisoformat(stamp)
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is not running or has not connected to Discord yet"
    except (OSError, ValueError) as exc:
        return False, f"unreadable heartbeat {path}: {exc}"
    age = now - beat
    if age > HEARTBEAT_MAX_AGE:
        return (
            False,
            f"last connected to Discord {int(age.total_seconds())} s ago (limit {HEARTBEAT_MAX_AGE.seconds} s)",
        )
    if database and file_identity(db_path) != database:
        return (
            False,
            f"database {db_path} is not the file the bot has open (replaced, moved or deleted while it runs): "
            "what the bot writes now goes nowhere; restart it",
        )
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=2)) as conn:
            conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error as exc:
        return False, f"database {db_path} does not open: {exc}"
    return True, f"connected to Discord {int(age.total_seconds())} s ago; database {db_path} opens"
