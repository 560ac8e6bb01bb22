"""Rows the current code would never write (kept by an older version, edited by hand with sqlite3, restored from a
backup, copied from another database), read all the same: the stores repair or leave out what they cannot use of
one row, so that it never costs the other rows, and say so in the log once per row and problem (naming the table
and the row by its ids, never quoting what it holds)."""

from __future__ import annotations

import json
import logging
from datetime import date

from bot.core.normalize import valid_text

log = logging.getLogger(__name__)

_SAID_AT_MOST = 10_000  # rows told about, remembered so that each is said once (then the memory starts again)
_said: set[tuple[str, str, str]] = set()
_QUOTED = 80  # characters of a text id in the log


def odd_row(table: str, problem: str, **ids: object) -> None:
    """Say once that a row of `table` (named by `ids`: guild=1, term="malo"; none: some row) could not be read as it
    is."""
    row = row_ids(**ids)
    key = (table, row, problem)
    if key in _said:
        return
    if len(_said) >= _SAID_AT_MOST:
        _said.clear()
    _said.add(key)
    log.warning("database table %s%s: %s", table, f", {row}" if row else "", problem)


def row_ids(**ids: object) -> str:
    """A row as the log names it: "guild 1, term 'malo'" (a text id quoted with its escapes, and cut: it is kept
    as typed somewhere)."""
    return ", ".join(f"{name} {value if isinstance(value, int) else _quoted(value)}" for name, value in ids.items())


def _quoted(value: object) -> str:
    quoted = repr(value)
    return quoted if len(quoted) <= _QUOTED else quoted[: _QUOTED - 1] + "…"


def stored_fields(stored: object, table: str, **ids: object) -> dict[str, str]:
    """A row's fields as this version keeps them (a JSON object of texts, bot.core.server_terms.TermFields): what is
    not that is left out, and said once. Not JSON, or not an object: no fields at all (a server term is then set
    aside as not passing the checks, and a proposal shows empty, both still there for the editors to fix)."""
    try:
        data = json.loads(stored)  # type: ignore[arg-type]
    except (TypeError, ValueError):  # (ValueError: not JSON, or not UTF-8; TypeError: not text at all)
        data = None
    if not isinstance(data, dict):
        odd_row(table, "its fields are not a JSON object: read as empty", **ids)
        return {}
    fields = {name: valid_text(value) for name, value in data.items() if isinstance(value, str)}
    if len(fields) != len(data):
        left_out = ", ".join(sorted(_quoted(name) for name in data if name not in fields))
        odd_row(table, f"fields that are not text left out ({left_out})", **ids)
    return fields


def stored_date(stored: object, table: str, **ids: object) -> date | None:
    """A day kept as YYYY-MM-DD; None (said once) for anything else."""
    try:
        return date.fromisoformat(stored)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        odd_row(table, "its day is not a date (YYYY-MM-DD): left out", **ids)
        return None
