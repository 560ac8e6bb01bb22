"""Liveness for Docker's HEALTHCHECK: the running bot writes a heartbeat; `glosario-bot health` reads it."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from bot.config import DatabaseUrl
from bot.storage.db import file_identity, probe
from bot.storage.journal import write_atomically

HEARTBEAT_EVERY = timedelta(seconds=30)
HEARTBEAT_MAX_AGE = timedelta(seconds=90)


def write_heartbeat(
    path: Path, now: datetime, database: str | None = None, shards: dict[int, bool] | None = None
) -> None:
    """Record that the bot is running right now, which database file it has open, and which of its gateway shards
    are connected (atomic: temp file + rename). Lines: the time, the file's identity, the shards as JSON."""
    shard_line = json.dumps({str(k): v for k, v in sorted(shards.items())}) if shards else None
    write_atomically(path, [now.isoformat(), database or "", *([shard_line] if shard_line else [])])


def clear_heartbeat(path: Path) -> None:
    path.unlink(missing_ok=True)


@dataclass(frozen=True)
class Health:
    """What `glosario-bot health` found: healthy or not, and why (a key of the command line's words, with the
    values its sentence names), so that the command line says it in the operator's language."""

    healthy: bool
    reason: str
    details: dict = field(default_factory=dict)


def check(path: Path, db_path: Path | DatabaseUrl, now: datetime) -> Health:
    """Healthy when the heartbeat at `path` says the bot was connected to Discord recently, and the database it
    has open is the one at its path and opens (`db_path` may be a PostgreSQL URL: then it must answer)."""
    try:
        stamp, database, shards = [*path.read_text(encoding="utf-8").strip().split("\n"), "", ""][:3]
        beat = datetime.fromisoformat(stamp)
        states = {int(k): bool(v) for k, v in json.loads(shards).items()} if shards else {}
    except FileNotFoundError:
        return Health(False, "health_no_heartbeat", {"path": path})
    except (OSError, ValueError) as exc:
        return Health(False, "health_unreadable", {"path": path, "error": exc})
    seconds = int((now - beat).total_seconds())
    if now - beat > HEARTBEAT_MAX_AGE:
        return Health(False, "health_stale", {"seconds": seconds, "limit": HEARTBEAT_MAX_AGE.seconds})
    down = sorted(shard for shard, up in states.items() if not up)
    if down:
        return Health(False, "health_shards_down", {"down": ", ".join(map(str, down)), "count": len(states)})
    if isinstance(db_path, DatabaseUrl):  # PostgreSQL
        from bot.storage.postgres import probe as postgres_probe  # (asyncpg only for PostgreSQL)

        problem = asyncio.run(postgres_probe(db_path))
        db_path = db_path.masked
    elif database and file_identity(db_path) != database:
        return Health(False, "health_db_replaced", {"db": db_path})
    else:
        problem = probe(db_path)
    if problem is not None:
        return Health(False, "health_db_broken", {"db": db_path, "error": problem})
    shard_list = ", ".join(map(str, sorted(states))) or "-"
    return Health(True, "health_ok", {"seconds": seconds, "db": db_path, "shards": shard_list})
