"""End-to-end fixtures: a fake Discord on loopback and the real GlossaryBot connected to it."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from pathlib import Path

import pytest

from bot.app.application import Application, utc_now
from bot.app.catalog import load_catalog
from bot.config import Settings
from bot.discord_app.client import GlossaryBot, use_endpoints
from tests.conftest import SHIPPED
from tests.fake_discord.server import TOKEN, FakeDiscord, Guild
from tests.helpers import eventually


@pytest.fixture
async def fake():
    server = await FakeDiscord().start()
    yield server
    await server.stop()
    assert server.mention_leaks == []  # every message the bot sent said allowed_mentions {"parse": []}
    assert server.refused == [] or server.refusals_expected  # nothing the bot sent was over Discord's limits


READS = {"SELECT", "WITH", "PRAGMA", "EXPLAIN"}  # what `Harness.rows` runs while a bot runs


class Harness:
    """Starts bots against the fake and closes them (and their database) at the end of the test."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, postgres_url: str | None = None):
        self.fake, self.tmp_path = fake, tmp_path
        self.db_path = tmp_path / "data" / "glosario.db"
        self.postgres_url = postgres_url  # the bots' database, instead of the SQLite file
        self._running: list[tuple[GlossaryBot, asyncio.Task]] = []

    def settings(self, **overrides) -> Settings:
        base = Settings(
            token=TOKEN,
            data_dir=SHIPPED,
            database_url=self.postgres_url or f"sqlite:///{self.db_path}",
            journal_file=self.tmp_path / "data" / "glosario.pending.jsonl",
            heartbeat_file=self.tmp_path / "data" / "heartbeat",
            cache_dir=self.tmp_path / "data" / "cache",
            api_base=self.fake.api_base,
            gateway_url=self.fake.gateway_url,
            questions=False,  # the question path's model loads only in the tests about it (tests/discord_app/
        )  # test_questions.py), which share one loaded model through `questions`
        return dataclasses.replace(base, **overrides)

    async def start(self, clock=None, questions=None, **overrides) -> GlossaryBot:
        """A bot on the fake; `questions`, an encoder: the question path on, with that (already loaded) model."""
        settings = self.settings(**overrides, **({"questions": True} if questions is not None else {}))
        app = await Application.open(settings, load_catalog(settings.data_dir), clock or utc_now)
        self.fake.clock = clock or utc_now  # Discord's time is the bot's (the messages' ids tell it)
        if questions is not None:
            from bot.app.questions.service import Questions

            app.__dict__["questions"] = Questions(app.catalog, settings.cache_dir, encoder=questions)
        use_endpoints(settings.api_base, settings.gateway_url)
        bot = GlossaryBot(app, guild_ready_timeout=0.05)
        task = asyncio.create_task(bot.start(TOKEN))
        await self.fake.wait_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        # (discord.py is ready once no server came for guild_ready_timeout: a busy fake's last may come after it)
        await eventually(lambda: all(bot.get_guild(g.id) for g in self.fake.guilds if bot.owns(g.id)))
        self._running.append((bot, task))
        return bot

    async def stop(self, bot: GlossaryBot) -> None:
        for entry in list(self._running):
            if entry[0] is bot:
                self._running.remove(entry)
                _, task = entry
                await bot.close()
                await asyncio.wait_for(task, 10)
                await bot.app.close()

    async def stop_all(self) -> None:
        for bot, _ in list(self._running):
            await self.stop(bot)

    async def joined(self, bot: GlossaryBot, guild: Guild) -> Guild:
        """The bot added to one more server (GUILD_CREATE), once the bot has it: a server it serves, unlike one the
        fake only lists (there, Discord would send interactions through a member's own install or none)."""
        await self.fake.add_bot(guild)
        await eventually(lambda: bot.get_guild(guild.id) is not None)
        return guild

    async def flushed(self, bot: GlossaryBot, within: float = 10) -> None:
        """Wait until every queued database write has been made."""
        await asyncio.wait_for(bot.app.writer.drain(), within)

    async def locked(self, how: str = "IMMEDIATE") -> sqlite3.Connection:
        """Another process's lock on the bots' SQLite file (`BEGIN how`), until the test rolls it back. Taken off the
        event loop: a write of a bot's, its transaction open across awaits on this same loop, commits first (taken
        on the loop, the lock waited for a commit it kept from running, and failed with "database is locked")."""
        other_process = sqlite3.connect(self.db_path, check_same_thread=False, isolation_level=None)
        await asyncio.to_thread(other_process.execute, f"BEGIN {how}")
        return other_process

    def rows(self, sql_text: str, *args) -> list[tuple]:
        """Read the database with a separate, plain connection (what an operator would see): sqlite3, or asyncpg
        on an event loop of its own when the bots run on PostgreSQL (`postgres_url`). While a bot runs, only reads:
        a change is `edit`'s."""
        if self._running and sql_text.lstrip().split(None, 1)[0].upper() not in READS:
            raise AssertionError(f"a change while a bot runs is made with `await harness.edit(...)`: {sql_text!r}")
        return self._statement(sql_text, *args)

    async def edit(self, sql_text: str, *args) -> list[tuple]:
        """Change the database as a hand edit or another process would, with a separate connection taken off the
        event loop (as `locked`): a bot's write, its transaction open across awaits on this same loop, commits
        first. (Made on the loop, the change waited for a commit it kept from running, and failed with "database
        is locked" after sqlite3's five seconds; on PostgreSQL it would wait for good.)"""
        return await asyncio.to_thread(self._statement, sql_text, *args)

    def _statement(self, sql_text: str, *args) -> list[tuple]:
        if self.postgres_url is None:
            with sqlite3.connect(self.db_path) as conn:
                return conn.execute(sql_text, args).fetchall()
        from bot.storage.postgres import to_postgres
        from tests.postgres import sql

        return sql(self.postgres_url, to_postgres(sql_text), *args)


@pytest.fixture
async def harness(fake, tmp_path):
    h = Harness(fake, tmp_path)
    yield h
    await h.stop_all()


@pytest.fixture
async def bot(harness):
    return await harness.start()
