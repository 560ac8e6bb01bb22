"""The lookup counters: added up in memory, handed to the write queue as one record per server at each flush, and
counted in the database exactly as they were made (a real SQLite file, the shipped glossary)."""

from __future__ import annotations

import asyncio

from bot.app.lookup.lookups import Asker


async def test_a_flush_queues_one_record_per_server_and_every_lookup_is_counted_once(app):
    asked = {7: ["horovod", "horovod", "computación cuántica", "ray"], 8: ["horovod", "xyzzy inexistente"]}
    for guild, queries in asked.items():
        for n, query in enumerate(queries):
            app.lookups.lookup(Asker(guild, 100 + n), query)
    waiting = app.writer.pending  # (the gaps, queued before each reply; no await since: no periodic flush either)
    app.lookups.flush()
    assert app.writer.pending - waiting == 2  # one record per server, whatever the number of terms
    app.lookups.flush()
    assert app.writer.pending - waiting == 2  # nothing counted since: nothing queued
    await asyncio.wait_for(app.writer.drain(), 10)
    usage = app.stores.usage
    assert await usage.outcomes(guild_id=7) == {"found": 3, "not_found": 1}
    assert await usage.term_counts(guild_id=7) == {"horovod": 2, "ray": 1}
    assert await usage.outcomes(guild_id=8) == {"found": 1, "not_found": 1}
    app.lookups.lookup(Asker(7, 1), "horovod")
    app.lookups.flush()
    await asyncio.wait_for(app.writer.drain(), 10)
    assert await usage.term_counts(guild_id=7) == {"horovod": 3, "ray": 1}  # added to the day's counts
