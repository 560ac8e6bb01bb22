"""A server's own terms through the application (no Discord): a real SQLite file, the shipped glossary."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.app.application import Application
from bot.app.catalog import load_catalog
from bot.app.community.server_terms import Refused, Saved
from bot.app.lookup.lookups import Asker
from bot.config import Settings
from bot.core.search import Found, NotFound
from bot.core.server_terms import TermFields
from bot.core.status import GapStatus, ProposalStatus
from tests.conftest import SHIPPED
from tests.helpers import eventually

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
GUILD, OTHER = 7, 8
NEBULA = TermFields(
    term="Clúster Nebula",
    definition="El clúster de GPUs del equipo, con 64 A100, donde se lanzan los entrenamientos distribuidos.",
    en="Nebula cluster",
    aliases="nebula, el clúster",
    related="Horovod",
)


async def open_app(tmp_path) -> Application:
    settings = Settings(data_dir=SHIPPED, database_url=f"sqlite:///{tmp_path / 'g.db'}", questions=False)
    app = await Application.open(settings, load_catalog(SHIPPED), clock=lambda: NOW)
    await app.start()
    return app


@pytest.fixture
async def app(tmp_path):
    application = await open_app(tmp_path)
    yield application
    assert await application.close() == []


async def ask(app: Application, guild_id: int, query: str):
    await app.server_terms.prepare(guild_id)
    return app.lookups.lookup(Asker(guild_id, 1), query)


async def test_a_defined_term_answers_at_once_in_its_server_only_and_resolves_its_gap(app):
    assert isinstance((await ask(app, GUILD, "nebula")).result, NotFound)  # asked before it existed: a gap
    await asyncio.wait_for(app.writer.drain(), 10)
    saved = await app.server_terms.save(GUILD, 42, NEBULA)
    assert isinstance(saved, Saved) and saved.resolved == 1
    answer = await ask(app, GUILD, "nebula")
    assert isinstance(answer.result, Found) and answer.result.term.term == "Clúster Nebula"
    assert answer.is_server_term(answer.result.term) and answer.result.term.related == ("horovod",)
    assert isinstance((await ask(app, GUILD, "cluster nebla")).result, Found)  # typos forgiven as usual
    assert isinstance((await ask(app, OTHER, "nebula")).result, NotFound)  # another server never sees it
    assert [c.id for c in app.lookups.complete("nebu", GUILD)][:1] == [answer.result.term.id]
    assert (await app.review.page(GUILD, GapStatus.OPEN, "count", 0)).total == 0


async def test_bad_fields_and_taken_names_are_refused_with_every_problem(app):
    refused = await app.server_terms.save(GUILD, 42, TermFields(term="Horovod", definition="Otra cosa."))
    assert isinstance(refused, Refused) and refused.taken_by.id == "horovod"
    empty = await app.server_terms.save(GUILD, 42, TermFields(term="Algo", definition="  ", related="No existe"))
    assert isinstance(empty, Refused) and "'definition' está vacío" in empty.problems[0].message
    long = await app.server_terms.save(GUILD, 42, TermFields(term="Largo", definition="x" * 5000))
    assert isinstance(long, Refused) and "Discord admite 4096" in long.problems[0].message
    unknown = await app.server_terms.save(GUILD, 42, TermFields(term="Algo", definition="Algo.", related="No existe"))
    assert isinstance(unknown, Refused) and "«No existe»" in unknown.problems[0].message
    assert await app.stores.server_terms.terms(GUILD) == []  # nothing refused was stored


async def test_edit_keeps_every_version_and_retire_stops_the_answers(app):
    saved = await app.server_terms.save(GUILD, 42, NEBULA)
    edited = TermFields(**{**NEBULA.to_dict(), "definition": "El clúster de GPUs del equipo (128 A100)."})
    assert isinstance(await app.server_terms.save(GUILD, 43, edited, previous_id=saved.term.id), Saved)
    assert "128 A100" in (await ask(app, GUILD, "nebula")).result.term.definition
    assert await app.server_terms.retire(GUILD, 44, saved.term.id) is True
    assert isinstance((await ask(app, GUILD, "nebula")).result, NotFound)
    history = await app.server_terms.history(GUILD, saved.term.id)
    assert [(v.action, v.by_user) for v in history] == [("created", 42), ("edited", 43), ("retired", 44)]
    assert await app.server_terms.retire(GUILD, 44, saved.term.id) is False  # already retired


async def test_a_read_of_a_servers_terms_that_ends_after_an_edit_never_replaces_the_edited_terms(app):
    """A read of the terms begun before an edit (or before the server's terms were forgotten: a member erased) and
    ended after it is never kept: the server keeps the edited terms, and with them its newer question index
    (bot/app/questions/servers.py, where an older overlay is answered by name)."""
    saved = await app.server_terms.save(GUILD, 42, NEBULA)
    store, held, release = app.server_terms.store, asyncio.Event(), asyncio.Event()

    class Slow:  # the real store; a read of the terms returns what it read only when released
        def __getattr__(self, name):
            return getattr(store, name)

        async def terms(self, guild_id):
            rows = await store.terms(guild_id)
            if not held.is_set():
                held.set()
                await release.wait()
            return rows

    app.server_terms.store = Slow()
    app.server_terms.forget_cached(GUILD)
    before = asyncio.create_task(app.server_terms.prepare(GUILD))  # reads the terms as they are…
    await held.wait()
    # An edit checked before that read began (a lookup that began it would make the edit's check await it) is
    # written, and the terms read again, as `save` does: (its write, then forget_cached and prepare)
    edited = TermFields(**{**NEBULA.to_dict(), "definition": "El clúster de GPUs del equipo (128 A100)."})
    await store.save(GUILD, saved.term.id, edited.to_dict(), 43, "2026-12-03T10:00:00", previous_id=saved.term.id)
    app.server_terms.forget_cached(GUILD)
    assert "128 A100" in (await app.server_terms.prepare(GUILD)).glossary.terms[0].definition
    release.set()  # …and ends after the edit
    kept = app.server_terms.cached(GUILD)
    assert await before is kept and "128 A100" in kept.glossary.terms[0].definition  # (its reply: the newer one)
    assert "128 A100" in (await ask(app, GUILD, "nebula")).result.term.definition
    held.clear()
    release.clear()
    app.server_terms.forget_cached(GUILD)
    before = asyncio.create_task(app.server_terms.prepare(GUILD))
    await held.wait()
    app.server_terms.forget_cached(GUILD)  # (a member erased meanwhile: their name leaves the cards)
    release.set()
    assert (await before).version < (await app.server_terms.prepare(GUILD)).version  # read again, not kept


async def test_a_restart_keeps_the_servers_terms(tmp_path):
    first = await open_app(tmp_path)
    await first.server_terms.save(GUILD, 42, NEBULA)
    assert await first.close() == []
    again = await open_app(tmp_path)
    try:
        assert isinstance((await ask(again, GUILD, "el clúster")).result, Found)
    finally:
        await again.close()


async def test_the_term_of_the_day_includes_the_servers_terms_only_when_it_chose_so(tmp_path):
    from datetime import timedelta

    from bot.core.daily import Schedule

    clock = {"now": NOW}
    settings = Settings(data_dir=SHIPPED, database_url=f"sqlite:///{tmp_path / 'g.db'}", questions=False)
    app = await Application.open(settings, load_catalog(SHIPPED), clock=lambda: clock["now"])
    try:
        saved = await app.server_terms.save(GUILD, 42, NEBULA)
        picked = {}
        for include in (False, True):
            await app.daily.configure(GUILD, 5, Schedule(9, 0), server_terms=include)
            seen = set()
            for n in range(18):  # a whole cycle: 17 published terms, and the server's own
                clock["now"] = NOW + timedelta(days=n + (100 if include else 0))
                seen.add((await app.daily.todays_term(GUILD)).term.id)
            picked[include] = seen
        assert saved.term.id not in picked[False] and saved.term.id in picked[True]
    finally:
        await app.close()


async def test_names_alike_in_their_first_72_characters_never_overwrite_each_other(app):
    stem = "Clúster de entrenamiento distribuido del equipo de visión por computador con nodos "
    first = await app.server_terms.save(GUILD, 42, TermFields(term=stem + "A100", definition="El de las A100."))
    second = await app.server_terms.save(GUILD, 43, TermFields(term=stem + "H100", definition="El de las H100."))
    assert isinstance(first, Saved) and isinstance(second, Saved)
    assert first.term.id != second.term.id and len(second.term.id) <= 72
    view = await app.server_terms.prepare(GUILD)
    assert {view.glossary.get(first.term.id).definition, view.glossary.get(second.term.id).definition} == {
        "El de las A100.",
        "El de las H100.",
    }
    edited = await app.server_terms.save(
        GUILD, 42, TermFields(term=stem + "A100", definition="Ahora con más nodos."), previous_id=first.term.id
    )
    assert edited.term.id == first.term.id  # an edit keeps its id
    assert (await app.server_terms.prepare(GUILD)).glossary.get(second.term.id).definition == "El de las H100."


async def test_the_store_never_overwrites_another_term_in_service(app):
    store = app.server_terms.store
    assert await store.save(GUILD, "nebula", {"term": "Nebula", "definition": "Uno."}, 1, "t", previous_id=None)
    assert not await store.save(GUILD, "nebula", {"term": "Nébula", "definition": "Otro."}, 2, "t", previous_id=None)
    assert (await store.get(GUILD, "nebula")).fields["definition"] == "Uno."
    assert [v.action for v in await store.versions(GUILD, "nebula")] == ["created"]


async def test_editors_deciding_one_proposal_at_once_decide_it_once(app):
    """Two editors publish the same proposal (one renames it) while a third rejects it: one decision is made,
    and the terms in service are what it says."""
    pid = (await app.proposals.propose(GUILD, 555, "es-ES", NEBULA)).proposal.id
    renamed = TermFields("Clúster Nebula II", "El clúster nuevo del equipo.")
    decisions = await asyncio.gather(
        app.proposals.publish(GUILD, pid, 900, NEBULA),
        app.proposals.publish(GUILD, pid, 901, renamed),
        app.proposals.reject(GUILD, pid, 902, "Ya existe."),
    )
    made = [d for d in decisions if isinstance(d, Saved) or (d is not None and not isinstance(d, (Saved, Refused)))]
    assert len(made) == 1, decisions
    row = await app.proposals.store.get(GUILD, pid)
    in_service = [term.term for term in app.lookups.terms(GUILD) if app.lookups.overlay(GUILD).glossary.get(term.id)]
    if isinstance(made[0], Saved):
        assert row.status == ProposalStatus.PUBLISHED and in_service == [made[0].term.term]
    else:
        assert row.status == ProposalStatus.REJECTED and in_service == []


async def test_keystrokes_while_a_servers_terms_are_read_wait_for_that_read_rather_than_read_them_again(app):
    """Autocomplete keystrokes come faster than a big server's terms are read: those typed meanwhile find them in
    memory once the first keystroke's read is done (one read of the terms in service, one of the retired ones)."""
    other = TermFields("Clúster Orion", "El clúster de CPUs del equipo, donde se preparan los datos de entrenamiento.")
    assert isinstance(await app.server_terms.save(GUILD, 42, NEBULA), Saved)
    assert isinstance(await app.server_terms.save(GUILD, 42, other), Saved)
    assert await app.server_terms.retire(GUILD, 42, "cluster-orion")
    reads: list[str] = []
    reader = app.server_terms.store.db.reader
    await reader.set_trace_callback(lambda sql: reads.append(sql) if "FROM server_terms" in sql else None)
    typed = await asyncio.gather(*(app.server_terms.names(GUILD, q, retired=True) for q in ("c", "cl", "clu")))
    await reader.set_trace_callback(None)
    assert typed == [[("cluster-nebula", "Clúster Nebula"), ("cluster-orion", "Clúster Orion")]] * 3
    assert len(reads) == 2


async def test_a_term_retired_between_a_keystrokes_two_reads_is_offered_once(app):
    """`historial` offers the terms in service (the overlay, in memory) and the retired ones (read on first use):
    a term retired after the keystroke took the first and before the second was read is in both, and is offered
    once (Discord's choices of one keystroke: one term each)."""
    other = TermFields("Clúster Orion", "El clúster de CPUs del equipo, donde se preparan los datos de entrenamiento.")
    assert isinstance(await app.server_terms.save(GUILD, 42, NEBULA), Saved)
    assert isinstance(await app.server_terms.save(GUILD, 42, other), Saved)
    await app.server_terms.prepare(GUILD)  # (both in service, in memory; the retired ones not read yet)
    store, reading, release = app.server_terms.store, asyncio.Event(), asyncio.Event()

    class Slow:  # the real store; the read of the retired terms waits its turn (a busy database) before it runs
        def __getattr__(self, name):
            return getattr(store, name)

        async def terms(self, guild_id, **kw):
            if kw.get("retired"):
                reading.set()
                await release.wait()
            return await store.terms(guild_id, **kw)

    app.server_terms.store = Slow()
    typed = asyncio.create_task(app.server_terms.names(GUILD, "clu", retired=True))
    await reading.wait()  # (the keystroke has the terms in service, with Orion)
    assert await app.server_terms.retire(GUILD, 42, "cluster-orion")  # an editor retires it meanwhile
    release.set()
    assert await typed == [("cluster-nebula", "Clúster Nebula"), ("cluster-orion", "Clúster Orion")]
    assert await app.server_terms.names(GUILD, "clu", retired=True) == await typed  # (read again: the same)


async def test_lookups_while_a_servers_terms_are_read_wait_for_that_read_unless_the_terms_changed_since(app):
    """Many lookups of a server whose terms are not in memory yet (a big server's are read, checked and indexed for
    a while): one read, the others await it. A lookup that comes after the terms changed does not take that read's
    older terms: it reads them again, and that read is the one kept."""
    assert isinstance(await app.server_terms.save(GUILD, 42, NEBULA), Saved)
    store, reads, release = app.server_terms.store, [], asyncio.Event()

    class Counted:  # the real store; each read of the terms counted, and held until released
        def __getattr__(self, name):
            return getattr(store, name)

        async def terms(self, guild_id, **kw):
            reads.append(guild_id)
            rows = await store.terms(guild_id, **kw)
            await release.wait()
            return rows

    app.server_terms.store = Counted()
    app.server_terms.forget_cached(GUILD)
    first = [asyncio.create_task(app.lookups.for_guild(GUILD)) for _ in range(5)]
    await eventually(lambda: reads == [GUILD])
    later = [asyncio.create_task(app.lookups.for_guild(GUILD)) for _ in range(3)]  # (while it is read)
    first[0].cancel()  # (the one that began it gives up: the read goes on for the others)
    release.set()
    overlays = [(await task).overlay for task in first[1:] + later]
    assert reads == [GUILD] and all(overlay is app.server_terms.cached(GUILD) for overlay in overlays)

    release.clear()
    app.server_terms.forget_cached(GUILD)
    before = [asyncio.create_task(app.server_terms.prepare(GUILD)) for _ in range(3)]
    await eventually(lambda: len(reads) == 2)
    edited = TermFields(**{**NEBULA.to_dict(), "definition": "El clúster de GPUs del equipo (128 A100)."})
    await app.stores.server_terms.save(
        GUILD, "cluster-nebula", edited.to_dict(), 43, "2026-12-03T10:00:00", previous_id="cluster-nebula"
    )
    app.server_terms.forget_cached(GUILD)  # (what an edit does, once written)
    after = asyncio.create_task(app.server_terms.prepare(GUILD))
    await eventually(lambda: len(reads) == 3)  # read again, not taken from the read under way
    release.set()
    assert {"128 A100" in (await task).glossary.terms[0].definition for task in before} == {False}  # (their reply)
    assert "128 A100" in (await after).glossary.terms[0].definition
    assert app.server_terms.cached(GUILD) is await after and len(reads) == 3
