"""GlossaryBot: services injected in __init__, setup_hook loads the cogs and syncs commands on purpose."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import pkgutil
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import discord
import yarl
from discord import app_commands
from discord.ext import commands, tasks

from bot import heap
from bot.catalog import Catalog, load_catalog
from bot.config import Settings
from bot.core.errors import GlossaryError
from bot.core.mentions import MentionFinder
from bot.core.model import Glossary, GlossaryDiff, Term, diff
from bot.core.normalize import valid_text
from bot.core.search import Found, SearchIndex
from bot.core.status import GapStatus
from bot.discord_app import cogs
from bot.discord_app.embeds import term_embed
from bot.discord_app.i18n import language, t
from bot.discord_app.ratelimit import GapBudget, RateLimit
from bot.discord_app.translator import GlossaryTranslator
from bot.discord_app.views import NO_MENTIONS, related_view
from bot.health import HEARTBEAT_EVERY, clear_heartbeat, heartbeat_path, write_heartbeat
from bot.storage.daily import DailyStore, GuildRoles
from bot.storage.db import AppliedWrites, Database, DatabaseBusy, file_identity
from bot.storage.gaps import Miss, MissLog, UsageLog, asker_hash, gap_key
from bot.storage.writer import WriteQueue

log = logging.getLogger(__name__)
LOOKUP_FLUSH_SECONDS = 1.0  # the most a SIGKILL can take of the lookup counters (stated in the README)
COOLDOWN_USES, COOLDOWN_SECONDS = 6, 20.0  # per member, over every interaction that does work or posts
GAP_BUDGET, GAP_BUDGET_SECONDS = 20, 3600.0  # new gaps one member may log per hour
UNANSWERED_AFTER = 2.5  # seconds: Discord gives an interaction 3


class CatalogHolder:
    """The glossary in service. A reload swaps in a whole new Catalog; readers never see half of one.

    It also keeps the rendered cards (embed + buttons) of recently shown terms: they are built once per
    term and language, reused for every reply, and dropped when the catalog changes.
    """

    MAX_CARDS = 2048

    def __init__(self, catalog: Catalog):
        self._current = catalog
        self._mentions: MentionFinder | None = None
        self._cards: OrderedDict[tuple[str, str], tuple[discord.Embed, discord.ui.View | None]] = OrderedDict()

    @property
    def current(self) -> Catalog:
        return self._current

    @current.setter
    def current(self, catalog: Catalog) -> None:
        self._current = catalog
        self._cards = OrderedDict()
        self._mentions = None

    @property
    def mentions(self) -> MentionFinder:
        """The "Explicar términos" matcher of the current glossary, built on first use."""
        finder = self._mentions
        if finder is None or finder.glossary is not self._current.glossary:
            finder = self._mentions = MentionFinder(self._current.glossary)
        return finder

    def card(self, term: Term, locale: object) -> tuple[discord.Embed, discord.ui.View | None]:
        """The term's embed and "see also" buttons (shared objects: never modify them)."""
        key = (term.id, language(locale))
        cards = self._cards
        found = cards.get(key)
        if found is None:
            glossary = self._current.glossary
            found = cards[key] = (term_embed(term, glossary, locale), related_view(term, glossary))
            if len(cards) > self.MAX_CARDS:
                cards.popitem(last=False)
        else:
            cards.move_to_end(key)
        return found

    @property
    def glossary(self) -> Glossary:
        return self.current.glossary

    @property
    def index(self) -> SearchIndex:
        return self.current.index


@dataclass
class Services:
    settings: Settings
    catalog: CatalogHolder
    db: Database
    misses: MissLog
    usage: UsageLog
    writer: WriteQueue
    salt: str
    daily: DailyStore
    roles: GuildRoles
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    @classmethod
    async def create(cls, settings: Settings, catalog: Catalog, db: Database) -> Services:
        misses, usage = MissLog(db), UsageLog(db)
        applied = AppliedWrites(db)
        await applied.prune()
        writer = WriteQueue(
            {
                "miss": misses.record_many,
                "pick": misses.record_picks,
                "lookup": usage.record_many,
                "unlogged": misses.record_unlogged,
            },
            settings.db_path.with_name(settings.db_path.name + ".pending.jsonl"),
            commit=db.conn.commit,
            rollback=db.conn.rollback,
            applied=applied,
            rejected=settings.db_path.with_name(settings.db_path.name + ".rejected.jsonl"),
        )
        return cls(
            settings, CatalogHolder(catalog), db, misses, usage, writer, await db.salt(), DailyStore(db), GuildRoles(db)
        )


@dataclass(frozen=True)
class ReloadReport:
    catalog: Catalog
    changes: GlossaryDiff
    resolved: tuple[tuple[Miss, str], ...]  # (gap, the term that now answers it)


def _replies_in_flight() -> set[asyncio.Task]:
    """Interaction handlers discord.py is still running (commands and buttons), by the names it gives them."""
    current = asyncio.current_task()
    prefixes = ("CommandTree-invoker", "discord-ui-dynamic-item", "discord-ui-view-dispatch")
    return {t for t in asyncio.all_tasks() if t is not current and not t.done() and t.get_name().startswith(prefixes)}


def _make_valid(value: dict | list) -> None:
    """Make every string of a JSON value encodable, in place (lone surrogates replaced); ASCII costs nothing."""
    pairs = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in pairs:
        if isinstance(item, str):
            if not item.isascii():
                value[key] = valid_text(item)  # a value replaced, no key added: the iteration is unaffected
        elif isinstance(item, dict | list):
            _make_valid(item)


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return interaction.command.qualified_name
    return str((interaction.data or {}).get("custom_id", interaction.type))


def use_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py at another REST base / gateway (a proxy, or the fake Discord of the tests)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class GlossaryBot(commands.Bot):
    def __init__(self, services: Services, *, guild_ready_timeout: float = 2.0, auto_sync: bool = True) -> None:
        # The bot has no voice: discord.py's warnings about voice libraries would alarm operators for nothing.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # nothing else: no message content, no members
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=NO_MENTIONS,
            guild_ready_timeout=guild_ready_timeout,
        )
        self.services = services
        self.tree.on_error = self.on_tree_error
        self.tree.interaction_check = self._accepting_work
        self.closing = False
        self.auto_sync = auto_sync
        self.synced: str | None = None  # "global", "guild" or None, for logs and tests
        self.background_tasks: set[asyncio.Task] = set()  # referenced so they are not garbage-collected
        self.shutdown_problems: list[str] = []  # what a stop could not do (the process then exits non-zero)
        self._lookup_counts: Counter[tuple[int, str, str, str]] = Counter()
        self.rate = RateLimit(COOLDOWN_USES, COOLDOWN_SECONDS)
        self.gap_budget = GapBudget(GAP_BUDGET, GAP_BUDGET_SECONDS)
        # Text from Discord is made valid once, where it enters: what members typed (the interaction's data).
        parsers = self._connection.parsers
        parse_interaction = parsers["INTERACTION_CREATE"]

        def parse_valid_interaction(data: dict) -> None:
            if isinstance(data.get("data"), dict):
                _make_valid(data["data"])
            parse_interaction(data)

        parsers["INTERACTION_CREATE"] = parse_valid_interaction

    async def setup_hook(self) -> None:
        await self.tree.set_translator(GlossaryTranslator())
        # Every module under cogs/ with a setup() is a cog: a new one needs no line here. Each cog registers its
        # own persistent buttons and menus as it loads.
        for module in pkgutil.iter_modules(cogs.__path__):
            await self.load_extension(f"{cogs.__name__}.{module.name}")
        await self.services.writer.start()
        self._flush_lookup_counts_loop.start()
        self._heartbeat_loop.start()
        if self.auto_sync:  # `glosario-bot sync` publishes by itself, once
            await self.sync_commands(guild_id=self.services.settings.dev_guild_id)

    # -- command sync ----------------------------------------------------------------------------
    def commands_hash(self) -> str:
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    async def sync_commands(
        self, *, guild_id: int | None = None, force: bool = False
    ) -> list[app_commands.AppCommand] | None:
        """Publish the slash commands: to a guild every time (instant there), globally only when the definitions
        changed since the last sync (or when forced). Returns what Discord registered; None when nothing was sent
        or Discord refused (logged: the bot keeps running with the commands Discord already has)."""
        try:
            if guild_id:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                self.synced = "guild"
                log.info("commands synced to guild %s", guild_id)
                return synced
            digest = self.commands_hash()
            if not force and await self.services.db.get_meta("commands_hash") == digest:
                log.info("command definitions unchanged since the last sync: not syncing")
                return None
            synced = await self.tree.sync()
            await self.services.db.set_meta("commands_hash", digest)
            self.synced = "global"
            log.info("commands synced globally")
            return synced
        except discord.HTTPException:
            log.exception("command sync failed; the bot keeps running with the commands Discord already has")
            return None

    # -- writes after replies --------------------------------------------------------------------
    def _guild(self, interaction: discord.Interaction) -> int:
        return interaction.guild_id or 0

    def record_lookup(self, interaction: discord.Interaction, outcome: str, term_id: str | None) -> None:
        """Count a lookup in memory; the counts reach the database every few seconds and at shutdown."""
        day = self.services.clock().date().isoformat()
        self._lookup_counts[(self._guild(interaction), day, outcome, term_id or "")] += 1

    def flush_lookup_counts(self) -> None:
        counts, self._lookup_counts = self._lookup_counts, Counter()
        for (guild_id, day, outcome, term_id), count in counts.items():
            self.services.writer.submit(
                "lookup", guild_id=guild_id, day=day, outcome=outcome, term_id=term_id, count=count
            )

    @tasks.loop(seconds=LOOKUP_FLUSH_SECONDS)
    async def _flush_lookup_counts_loop(self) -> None:
        self.flush_lookup_counts()

    async def close(self) -> None:
        # Every step is tried whatever the others did: a read-only data directory must not keep us running.
        steps = (
            ("stop the lookup counter loop", self._flush_lookup_counts_loop.cancel),
            ("stop the heartbeat loop", self._heartbeat_loop.cancel),
            ("remove the heartbeat file", lambda: clear_heartbeat(heartbeat_path(self.services.settings.db_path))),
            ("queue the lookup counters", self.flush_lookup_counts),  # the writer is drained by its owner
        )
        for what, step in steps:
            try:
                step()
            except Exception as exc:
                self.shutdown_problems.append(f"could not {what}: {exc}")
                log.error("shutdown: could not %s: %s", what, exc)
        await super().close()

    # -- operation: heartbeat, graceful shutdown, reload -----------------------------------------
    def _beat(self) -> None:
        try:
            db = self.services.db
            write_heartbeat(heartbeat_path(db.path), self.services.clock(), db.identity)
            if file_identity(db.path) != db.identity:
                log.error("the database %s is no longer the file the bot opened: restart the bot", db.path)
        except OSError:
            log.warning("could not write the heartbeat file", exc_info=True)

    @tasks.loop(seconds=HEARTBEAT_EVERY.total_seconds())
    async def _heartbeat_loop(self) -> None:
        if self.is_ready() and not self.is_closed() and self.ws is not None and self.ws.open:
            self._beat()

    async def on_ready(self) -> None:
        log.info("connected to Discord as %s in %d server(s)", self.user, len(self.guilds))
        self._beat()

    async def on_connect(self) -> None:
        self._beat()

    async def on_resumed(self) -> None:
        self._beat()

    def dispatch(self, event_name: str, /, *args: object, **kwargs: object) -> None:
        """Every button, menu and modal gets an answer: one that nothing handled (a forged or unknown custom_id,
        or a list whose buttons died with a restart) gets a short private note before Discord's 3 s are up.
        (Watched here rather than in an `on_interaction` listener, which would cost a task for every command.)"""
        if event_name == "interaction":
            interaction = args[0]
            if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
                task = asyncio.get_running_loop().create_task(self._answer_if_unanswered(interaction))
                self.background_tasks.add(task)
                task.add_done_callback(self.background_tasks.discard)
        super().dispatch(event_name, *args, **kwargs)

    async def _answer_if_unanswered(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(UNANSWERED_AFTER)
        if interaction.response.is_done() or self.is_closed():
            return
        log.info(
            "nothing answered %s from user %s: telling them",
            (interaction.data or {}).get("custom_id"),
            interaction.user.id,
        )
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(
                t(interaction.locale, "stale_interaction"), ephemeral=True, allowed_mentions=NO_MENTIONS
            )

    async def _accepting_work(self, interaction: discord.Interaction) -> bool:
        """Every command and context menu: not while stopping, and within the member's rate limit.
        Autocomplete is answered from memory on every keystroke and is never limited."""
        if interaction.type is discord.InteractionType.autocomplete:
            return not self.closing
        if self.closing:
            await interaction.response.send_message(
                t(interaction.locale, "restarting"), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return False
        return await self.within_rate_limit(interaction)

    async def within_rate_limit(self, interaction: discord.Interaction) -> bool:
        """One limit for every interaction that does work or posts (commands, term buttons, menus): over it,
        one polite private note and nothing else."""
        wait = self.rate.retry_after(interaction.user.id)
        if not wait:
            return True
        log.info("rate limit: user %s waits %.0f s", interaction.user.id, wait)
        await interaction.response.send_message(
            t(interaction.locale, "cooldown", seconds=max(1, round(wait))), ephemeral=True, allowed_mentions=NO_MENTIONS
        )
        return False

    async def shutdown(self, grace: float = 6.0) -> None:
        """Stop taking new work, let replies in flight finish (up to `grace` seconds), then disconnect."""
        if self.closing:
            return
        self.closing = True  # from here on, new commands get a short "restarting" reply
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while in_flight := _replies_in_flight():  # including the "restarting" replies that arrive meanwhile
            remaining = deadline - loop.time()
            if remaining <= 0:
                log.warning("%d repl(ies) still running after %.0f s: closing anyway", len(in_flight), grace)
                break
            log.info("waiting for %d repl(ies) in flight", len(in_flight))
            await asyncio.wait(in_flight, timeout=remaining)
        try:
            await self.close()
        except Exception as exc:  # the process must still end: the runner reports what went wrong
            self.shutdown_problems.append(f"could not disconnect cleanly: {exc}")
            log.exception("shutdown: closing the connection to Discord failed")

    async def reload_glossary(self) -> ReloadReport | GlossaryError:
        """Load the glossary again, off the event loop; swap it in only if it is valid, then mark the open
        gaps that the new glossary answers as resolved (with their term)."""
        settings = self.services.settings
        old = self.services.catalog.current
        try:
            catalog = await asyncio.to_thread(load_catalog, settings.data_dir, settings.cache_dir)
        except GlossaryError as exc:
            log.error(
                "glossary reload failed; still serving the previous one (%d terms):\n%s",
                len(old.glossary),
                exc.report(),
            )
            return exc
        self.services.catalog.current = catalog
        changes = diff(old.glossary, catalog.glossary)
        del old
        heap.settle()  # the new glossary out of the collector's way, the old one back in it to be freed
        resolved: list[tuple[Miss, str]] = []
        by_term: dict[str, list[int]] = {}
        misses = self.services.misses
        for gap in await misses.gaps(status=GapStatus.OPEN, limit=1_000_000):
            result = catalog.index.lookup(gap.sample)
            if isinstance(result, Found):
                by_term.setdefault(result.term.id, []).append(gap.id)
                resolved.append((gap, result.term.id))
        for term_id, ids in by_term.items():  # one update per term, not one per gap
            await misses.set_status(ids, GapStatus.RESOLVED, term_id=term_id)
        log.info(
            "glossary reloaded: %d terms (+%d -%d ~%d), %d gap(s) now answered",
            len(catalog.glossary),
            len(changes.added),
            len(changes.removed),
            len(changes.changed),
            len(resolved),
        )
        return ReloadReport(catalog, changes, tuple(resolved))

    def record_miss(self, interaction: discord.Interaction, query: str, best_guess: str | None, kind: str) -> None:
        """Log a gap (before the reply is sent: what was asked is a gap whether or not the answer got through).
        A member over the hourly budget of new gaps is answered as usual, but the gap is only counted."""
        now = self.services.clock()
        key = gap_key(query)
        if not self.gap_budget.allow(interaction.user.id, key.normalized):
            log.info("gap budget: user %s is over %d new gaps an hour; not logging it", interaction.user.id, GAP_BUDGET)
            self.services.writer.submit("unlogged", guild_id=self._guild(interaction), day=now.date().isoformat())
            return
        self.services.writer.submit(
            "miss",
            guild_id=self._guild(interaction),
            sample=key.sample,
            normalized=key.normalized,
            asker=asker_hash(self.services.salt, interaction.user.id),
            best_guess=best_guess,
            kind=kind,
            at=now.isoformat(timespec="seconds"),
        )

    def record_pick(self, interaction: discord.Interaction, qhash: str, term_id: str) -> None:
        """A member chose this suggestion for the query behind `qhash`: counted once per person."""
        self.services.writer.submit(
            "pick",
            guild_id=self._guild(interaction),
            qhash=qhash,
            term_id=term_id,
            asker=asker_hash(self.services.salt, interaction.user.id),
            at=self.services.clock().isoformat(timespec="seconds"),
        )

    # -- errors -----------------------------------------------------------------------------------
    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            # A refusal (permission, rate limit, stopping) was already answered politely: it is not an error.
            log.info(
                "refused %s for user %s",
                interaction.command and interaction.command.qualified_name,
                interaction.user.id,
            )
            return
        await self.on_interaction_error(interaction, getattr(error, "original", error))

    async def on_interaction_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Anything a command, button, menu or modal did not handle. Exception text is never shown to users: a
        short apology for them, the traceback for the log; a database busy elsewhere is a note, not an error."""
        if isinstance(error, DatabaseBusy):
            log.warning("database busy for user %s: %s", interaction.user.id, error)
            message = t(interaction.locale, "db_busy")
        else:
            log.error("interaction %s failed", _what(interaction), exc_info=error)
            message = t(interaction.locale, "error")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True, allowed_mentions=NO_MENTIONS)
            else:
                await interaction.response.send_message(message, ephemeral=True, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            log.warning("could not tell the user about the error", exc_info=True)
