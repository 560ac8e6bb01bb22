"""Limits on stored things are the database's to enforce: bursts from several processes at once never get past
them (two connections to one database stand for two processes)."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import open_stores


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    return tmp_path / "g.db" if request.param == "sqlite" else request.getfixturevalue("postgres_url")


async def test_a_burst_of_proposals_from_two_processes_stores_at_most_the_limit(url):
    first = await open_stores(url)
    second = await open_stores(url)
    try:

        async def propose(n: int) -> int | None:
            stores = (first, second)[n % 2]
            return await stores.proposals.add(1, 42, "es-ES", {"term": f"Propuesta {n}"}, "2026-12-03", limit=5)

        ids = await asyncio.gather(*(propose(n) for n in range(20)))
        assert sum(i is not None for i in ids) == 5
        assert len(await first.proposals.pending(1, user_id=42)) == 5
        # Another member, and the same member in another server, have limits of their own.
        assert await first.proposals.add(1, 43, "es-ES", {"term": "Otra"}, "2026-12-03", limit=5) is not None
        assert await second.proposals.add(2, 42, "es-ES", {"term": "Otra"}, "2026-12-03", limit=5) is not None
        assert await first.proposals.enabled(1)  # the row that serialises them changes no setting
    finally:
        await second.close()
        await first.close()
