"""`glosario-bot replay-log`: the writes a stop could keep nowhere but its log (a full disk with no room left for
the journal, no fallback), written back to the database, each once. What the database cannot take yet waits in a
journal of its own, which the next start of the bot replays."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli._call import EXIT_FAIL, EXIT_OK, Call
from bot.core.invisible import printable
from bot.storage.errors import StorageError, os_reason

if TYPE_CHECKING:
    from bot.storage.writer import WriteQueue


def _log_lines(files: list[Path]) -> list[str]:
    """The lines of the logs named (standard input for none, or for "-")."""
    if not files:
        return sys.stdin.read().splitlines()
    lines: list[str] = []
    for path in files:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8", errors="replace")
        lines += text.splitlines()
    return lines


async def replay_log(call: Call) -> int:
    """`replay-log [LOG ...]`: each write record a log kept as the last resort, written to the database once (its
    id is claimed with it); what the database cannot take now is journaled for the next start."""
    from bot.app.application import write_handlers
    from bot.storage import open_stores
    from bot.storage.journal import append_lines, journal_line, records_in_log
    from bot.storage.writer import WriteQueue

    settings, say = call.settings, call.say
    try:
        records, unreadable = records_in_log(_log_lines(call.args.logs))
    except OSError as exc:  # (no such file, a folder, no permission: the path, and why in the reader's language)
        path = printable(str(exc.filename if exc.filename is not None else "-"))
        print(say("replay_unreadable_file", path=path, error=os_reason(exc).text(say.lang)), file=sys.stderr)
        return EXIT_FAIL
    print(say("replay_found", count=len(records)))
    if unreadable:
        print(say("replay_unreadable", count=unreadable))
    if not records:
        return EXIT_FAIL if unreadable else EXIT_OK
    journal = settings.log_journal
    try:
        append_lines(journal, [journal_line(record) for record in records])  # kept, whatever happens next
        stores = await open_stores(settings.database)
    except (OSError, StorageError) as exc:
        print(say("replay_failed", error=exc, journal=journal), file=sys.stderr)
        return EXIT_FAIL
    try:
        queue = WriteQueue(
            write_handlers(stores),
            journal,
            unit=stores.unit,
            applied=stores.applied,
            forgotten=stores.erasure,  # (what was made before its member or server was forgotten stays out)
            rejected=settings.rejected_file,
            reserve=0,
        )
        written = await queue.replay_journal()
        await queue.close()
    finally:
        await stores.close()
    _say_outcome(call, queue, len(records), written)
    return EXIT_FAIL if queue.journaled or queue.rejected or unreadable else EXIT_OK


def _say_outcome(call: Call, queue: WriteQueue, found: int, written: int) -> None:
    """What became of the records the logs held: written, there already, left out (their member or server was
    forgotten since), waiting in the journal, refused for their content."""
    say = call.say
    already = found - written - queue.journaled - queue.rejected - queue.skipped_forgotten
    print(say("replay_written", count=written))
    print(say("replay_already", count=already))
    if queue.skipped_forgotten:
        print(say("replay_forgotten", count=queue.skipped_forgotten))
    if queue.journaled:
        print(say("replay_waiting", count=queue.journaled, journal=call.settings.log_journal))
    if queue.rejected:
        print(say("replay_refused", count=queue.rejected, path=call.settings.rejected_file))
