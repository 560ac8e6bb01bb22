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


def write_heartbeat(path: Path, now: datetime) -> None:
    """Record that the bot is connected to Discord right now (atomic: temp file + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".heartbeat-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(now.isoformat())
    os.replace(tmp, path)


def clear_heartbeat(path: Path) -> None:
    path.unlink(missing_ok=True)


def check(db_path: Path, now: datetime) -> tuple[bool, str]:
    """(healthy, reason): connected to Discord recently, and the database opens."""
    path = heartbeat_path(db_path)
    try:
        beat = datetime.fromisoformat(path.read_text(encoding="utf-8").strip())
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
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=2)) as conn:
            conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error as exc:
        return False, f"database {db_path} does not open: {exc}"
    return True, f"connected to Discord {int(age.total_seconds())} s ago; database {db_path} opens"
