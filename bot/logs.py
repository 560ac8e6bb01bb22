"""Logging to stdout, one line per event with level and logger; optional JSON; secrets redacted."""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime

# The gateway shard a log line is about: the server's shard while an interaction is handled, otherwise the shards
# the process runs ("0-3/8"; "all" when it runs every shard).
current_shard: ContextVar[str | None] = ContextVar("current_shard", default=None)


class ShardFilter(logging.Filter):
    def __init__(self, process_shards: str) -> None:
        super().__init__()
        self.process_shards = process_shards

    def filter(self, record: logging.LogRecord) -> bool:
        record.shard = current_shard.get() or self.process_shards
        return True


class RedactFilter(logging.Filter):
    """Last line of defence: a secret that reaches a log record is replaced before it is written."""

    def __init__(self, secrets: list[str]):
        super().__init__()
        self._secrets = [s for s in secrets if s and len(s) >= 8]

    def filter(self, record: logging.LogRecord) -> bool:
        if self._secrets:
            message = record.getMessage()
            if any(s in message for s in self._secrets):
                for secret in self._secrets:
                    message = message.replace(secret, "[redacted]")
                record.msg, record.args = message, None
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "shard": getattr(record, "shard", None),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def setup_logging(level: str, fmt: str, secrets: list[str], shards: str = "all") -> None:
    handler = logging.StreamHandler(sys.stdout)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s [shard %(shard)s] %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(secrets))
    handler.addFilter(ShardFilter(shards))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord.gateway").setLevel(max(logging.INFO, logging.getLevelName(level)))
