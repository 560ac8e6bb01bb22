"""A fake Discord on 127.0.0.1: the gateway websocket and the REST routes the bot uses.

The real discord.py client connects to it (through DISCORD_API_BASE / DISCORD_GATEWAY_URL, or
`use_endpoints`). Tests drive it: send interactions, then read what the bot answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.fake_discord.form_body import invalid_form_body, message_problem

TOKEN = "fake-token-" + "x" * 40
APP_ID = 900000000000000001
BOT_ID = 900000000000000002
ALL_PERMISSIONS = str((1 << 50) - 1)
MANAGE_GUILD, MANAGE_MESSAGES, SEND_MESSAGES, VIEW_CHANNEL, EMBED_LINKS = 1 << 5, 1 << 13, 1 << 11, 1 << 10, 1 << 14
ATTACH_FILES, READ_MESSAGE_HISTORY = 1 << 15, 1 << 16
MEMBER_PERMISSIONS = str(VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | (1 << 31))  # + use application commands
# @everyone's, the bot's only role (Read Message History is among what Discord gives @everyone in a new server)
EVERYONE_PERMISSIONS = str(int(MEMBER_PERMISSIONS) | ATTACH_FILES | READ_MESSAGE_HISTORY)

ATTACHMENT_LIMIT = 8 * 1024 * 1024  # what an interaction's "attachment_size_limit" says (a server with no boost)
NONCE_WINDOW = 180.0  # seconds (of the fake's clock) an enforced nonce is remembered: "the past few minutes"
MESSAGE_CONTENT = 1 << 15  # the privileged gateway intent that shows others' messages' text to the bot
DISCORD_EPOCH = 1_420_070_400_000  # ms: a message id's time is counted from here (its top 42 bits)
_ids = itertools.count(1_000_000_000_000_000_000)


def snowflake() -> str:
    return str(next(_ids))


# Where a member acts, and through which install of the app (Discord's `context` and
# `authorizing_integration_owners`: "0" the server install, "1" the member's own).
SERVER, USER_IN_SERVER, DM, GROUP_DM = "server", "user-in-server", "dm", "group-dm"
# A server that installed the app's commands without its bot user (the install link's scope `applications.commands`
# alone): Discord sends the server install's interaction (its `guild_id` as owner "0") from a server the bot is not in.
COMMANDS_ONLY = "commands-only"


def _as_user_install(payload: dict, via: str, user_id: int) -> None:
    """Turn a server-install interaction into what Discord sends through the member's own install: owned by the
    user, with only the permissions a user app gets; outside a server, a `user` and a DM or group-DM channel."""
    payload["authorizing_integration_owners"] = {"1": str(user_id)}
    payload["app_permissions"] = str(1 << 14 | 1 << 15)  # embed links, attach files: what replies may carry
    if via == USER_IN_SERVER:
        payload["guild"] = {"id": payload["guild_id"], "locale": "es-ES", "features": []}
        return
    payload.pop("guild_id")
    payload["user"] = payload.pop("member")["user"]
    payload["context"] = 1 if via == DM else 2
    channel_id = str(snowflake())
    channel = {"id": channel_id, "type": 1 if via == DM else 3, "recipients": [payload["user"]]}
    if via == GROUP_DM:
        channel.update(name="grupo", owner_id=str(user_id), recipients=[payload["user"], user_payload(333, "bea")])
    payload["channel"], payload["channel_id"] = channel, channel_id


def user_payload(user_id: int | str, name: str = "ana", bot: bool = False) -> dict:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name, "avatar": None, "bot": bot}


@dataclass(frozen=True)
class ChannelRef:
    """A channel passed as a slash-command option."""

    id: int


@dataclass(frozen=True)
class RoleRef:
    """A role passed as a slash-command option."""

    id: int
    name: str = "Editores"


@dataclass
class Guild:
    id: int
    name: str = "Equipo ML"
    channel_ids: list[int] = field(default_factory=lambda: [int(snowflake()), int(snowflake())])
    # channel id → permission overwrites, e.g. deny Send Messages to @everyone (the bot's only role)
    overwrites: dict[int, list[dict]] = field(default_factory=dict)
    locale: str = "es-ES"  # the server's preferred locale ("Server Primary Language"; en-US is Discord's default)

    @property
    def editor_role_id(self) -> int:
        return self.id + 1  # a plain role, "Editores", with no special permissions

    @staticmethod
    def role(role_id: int, name: str) -> dict:
        return {
            "id": str(role_id),
            "name": name,
            "permissions": "0",
            "position": 1,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }

    def deny_everyone(self, channel_id: int, permissions: int) -> None:
        self.overwrites[channel_id] = [{"id": str(self.id), "type": 0, "allow": "0", "deny": str(permissions)}]

    def bot_permissions(self, channel_id: int) -> int:
        """What the bot (with only @everyone) may do in a channel: the role's permissions, less what the channel's
        overwrite for @everyone denies, plus what it allows."""
        permissions = int(EVERYONE_PERMISSIONS)
        for overwrite in self.overwrites.get(channel_id, []):
            if overwrite["id"] == str(self.id):
                permissions = (permissions & ~int(overwrite["deny"])) | int(overwrite["allow"])
        return permissions

    def channel(self, channel_id: int) -> dict:
        i = self.channel_ids.index(channel_id)
        return {
            "id": str(channel_id),
            "type": 0,
            "name": f"general-{i}",
            "position": i,
            "guild_id": str(self.id),
            "permission_overwrites": self.overwrites.get(channel_id, []),
        }

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": "1",
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "features": [],
            "roles": [
                {
                    "id": str(self.id),
                    "name": "@everyone",
                    "permissions": EVERYONE_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
                self.role(self.editor_role_id, "Editores"),
            ],
            "channels": [self.channel(c) for c in self.channel_ids],
            "emojis": [],
            "stickers": [],
            "members": [
                {
                    "user": user_payload(BOT_ID, "Glosario IA", bot=True),
                    "roles": [],
                    "joined_at": "2026-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                }
            ],
            "voice_states": [],
            "presences": [],
            "threads": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "member_count": 3,
            "large": False,
            "unavailable": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
            "system_channel_flags": 0,
        }


class FakeDiscord:
    def __init__(self, guilds: list[Guild] | None = None, token: str = TOKEN) -> None:
        self.token = token
        self.guilds = guilds or [Guild(id=int(snowflake()))]
        self.requests: list[tuple[str, str, Any]] = []  # (method, path, json body; a GET's query)
        self.commands: dict[str, list[dict]] = {}  # "global" or guild id → registered commands
        self.responses: dict[str, list[dict]] = {}  # interaction id → callback bodies and follow-ups
        self.mention_leaks: list[dict] = []  # messages sent without allowed_mentions {"parse": []}: could ping
        self.channel_messages: dict[str, list[dict]] = {}  # channel id → the bot's posts there (not its replies)
        # channel id → what else its history shows: members' messages, the bot's replies to commands used there
        self.channel_others: dict[str, list[dict]] = {}
        # Discord's clock: a message made now gets an id (and timestamp) of this time; tests share the bot's
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        self._last_message_id = 0
        self._interactions: dict[str, dict] = {}  # interaction id → the interaction as sent
        self._tokens: dict[str, str] = {}  # interaction token → interaction id
        self.member_roles: dict[int, list[int]] = {}  # user id → role ids they have
        self.sent_messages: dict[str, dict] = {}  # interaction id → the message its reply created
        self.callback_delay = 0.0
        self.attachment_limit = ATTACHMENT_LIMIT  # what interactions say a file may weigh, and what is refused past it
        self.late_answers = 0.0  # seconds the bot waits for Discord's answer to a callback the member already sees
        self.callback_errors: list[int] = []  # statuses the next interaction callbacks get instead (500, 429…)
        self.failed_callbacks: list[tuple[str, int]] = []
        self.refused: list[tuple[list[str], str]] = []  # messages refused for breaking Discord's limits
        self.refusals_expected = False  # a test that makes the bot break them on purpose says so (else: a failure)
        # statuses the next channel posts get instead; (status, page): with that page as its body, not JSON
        self.channel_errors: list[int | tuple[int, str]] = []
        # the next channel posts whose connection is closed before any answer, the message not made (the client
        # sees aiohttp's ServerDisconnectedError, which is no OSError)
        self.channel_disconnects = 0
        # the same for reads of a channel's messages (GET /channels/{id}/messages): statuses, closed connections
        self.history_errors: list[int] = []
        self.history_disconnects = 0
        self.dm_channels: dict[str, int] = {}  # direct-message channel id → the member it reaches
        self.dms_closed: set[int] = set()  # members who do not take direct messages from the bot
        self._nonces: dict[tuple[str, str], tuple[float, dict]] = {}  # (channel, nonce) → when, the message
        self.deduplicated = 0  # message creates answered with the message an earlier one made (same nonce)
        self.callbacks_started = 0
        self.identified = 0
        self.intents: int | None = None  # what the bot's last IDENTIFY asked for
        self.resumed = 0
        self._shard_ws: dict[int, web.WebSocketResponse] = {}  # shard id → its gateway connection
        self.shard_count = 1  # as the bots identified (several processes may split one count)
        self.recommended_shards = 1  # what GET /gateway/bot recommends
        self.shard_identifies: list[tuple[int, int]] = []  # (shard id, count) of every IDENTIFY
        # Discord's global rate limit (requests a second, per bot; interactions are exempt): None = unlimited
        self.global_limit: int | None = None
        self.global_hits: deque[float] = deque()
        self.rate_limited = 0  # 429s served for the global limit
        self.busiest_second = 0  # the most requests counted against the limit in any one second
        self._seq = 0
        self._ready = asyncio.Event()
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle --------------------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)  # Discord's own limit is per file (below)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for ws in list(self._shard_ws.values()):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def wait_ready(self, timeout: float = 10) -> None:
        await asyncio.wait_for(self._ready.wait(), timeout)

    # -- gateway ----------------------------------------------------------------------------------
    @property
    def _ws(self) -> web.WebSocketResponse | None:  # the connection of shard 0 (a bot that does not shard)
        return self._shard_ws.get(0)

    def shard_for(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    async def _send(self, op: int, d: Any, t: str | None = None, *, shard: int = 0) -> None:
        ws = self._shard_ws.get(shard)
        assert ws is not None, f"shard {shard} is not connected"
        payload: dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
        if op == 0:
            self._seq += 1
            payload["s"] = self._seq
        await ws.send_str(json.dumps(payload))

    def _all_shards_up(self) -> bool:
        return all(i in self._shard_ws for i in range(self.shard_count))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        shard_id: int | None = None
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 30000}, "s": None, "t": None}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data["op"]
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                if data["d"]["token"] != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                shard_id, count = data["d"].get("shard") or [0, 1]
                await self._identify(ws, data["d"], shard_id, count)
            elif op == 6:
                shard_id = shard_id or 0
                self._shard_ws[shard_id] = ws
                self.resumed += 1
                await self._send(0, {}, "RESUMED", shard=shard_id)
                if self._all_shards_up():
                    self._ready.set()
        if shard_id is not None and self._shard_ws.get(shard_id) is ws:
            del self._shard_ws[shard_id]
            self._ready.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, identify: dict, shard_id: int, count: int) -> None:
        self.identified += 1
        self.intents = identify.get("intents")
        self.shard_count = count
        self.shard_identifies.append((shard_id, count))
        self._shard_ws[shard_id] = ws
        mine = [g for g in self.guilds if self.shard_for(g.id) == shard_id]
        ready = {
            "v": 10,
            "user": user_payload(BOT_ID, "Glosario IA", bot=True),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
            "session_id": f"session-{self.identified}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0},
            "shard": [shard_id, count],
        }
        await self._send(0, ready, "READY", shard=shard_id)
        for guild in mine:
            await self._send(0, guild.payload(), "GUILD_CREATE", shard=shard_id)
        if self._all_shards_up():
            self._ready.set()

    async def delete_channel(self, guild: Guild, channel_id: int) -> None:
        """Someone deleted a channel: tell the bot through the gateway."""
        payload = guild.channel(channel_id)
        guild.channel_ids.remove(channel_id)
        await self._send(0, payload, "CHANNEL_DELETE", shard=self.shard_for(guild.id))

    async def remove_bot(self, guild: Guild) -> None:
        """The server removes the bot (kicked, or the server deleted): GUILD_DELETE without `unavailable`."""
        self.guilds.remove(guild)
        await self._send(0, {"id": str(guild.id)}, "GUILD_DELETE", shard=self.shard_for(guild.id))

    async def add_bot(self, guild: Guild) -> None:
        """The bot is added to a server: GUILD_CREATE as Discord sends it for a join (no `unavailable` key)."""
        self.guilds.append(guild)
        payload = {k: v for k, v in guild.payload().items() if k != "unavailable"}
        await self._send(0, payload, "GUILD_CREATE", shard=self.shard_for(guild.id))

    async def drop_gateway(self) -> None:
        """Close the gateway connection the way a network blip would; the bot must come back."""
        self._ready.clear()
        for ws in list(self._shard_ws.values()):
            await ws.close(code=4000, message=b"Unknown error")

    # -- interactions -----------------------------------------------------------------------------
    def _interaction(
        self,
        kind: int,
        data: dict,
        *,
        guild: Guild | None,
        user_id: int,
        locale: str,
        permissions: str,
        message: dict | None = None,
        via: str = SERVER,
    ) -> dict:
        """An interaction as Discord sends it. `via` is where and through which install the member acts: SERVER
        (the bot's server, the server install), USER_IN_SERVER (a server the bot is not in, through the member's
        own install of the app), DM (the member's DM with the app), GROUP_DM (a group DM, user install) or
        COMMANDS_ONLY (a server the bot is not in that installed the app's commands alone)."""
        guild = guild or self.guilds[0]
        payload = {
            "id": snowflake(),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "token": f"itok-{snowflake()}",
            "version": 1,
            "locale": locale,
            "guild_locale": guild.locale,
            "guild_id": str(guild.id),
            "channel_id": str(guild.channel_ids[0]),
            "channel": {
                "id": str(guild.channel_ids[0]),
                "type": 0,
                "name": "general-0",
                "guild_id": str(guild.id),
                "position": 0,
                "permission_overwrites": [],
            },
            "member": {
                "user": user_payload(user_id),
                "roles": [str(r) for r in self.member_roles.get(user_id, [])],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": permissions,
            },
            "app_permissions": ALL_PERMISSIONS,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": self.attachment_limit,
        }
        if message is not None:
            payload["message"] = message
        if via == COMMANDS_ONLY:
            assert guild not in self.guilds, "a server the bot is in has its bot user"
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
        elif via != SERVER:
            _as_user_install(payload, via, user_id)
        return payload

    async def _dispatch(self, payload: dict) -> str:
        self._tokens[payload["token"]] = payload["id"]
        self._interactions[payload["id"]] = payload
        await self.wait_ready()
        await self._send(0, payload, "INTERACTION_CREATE", shard=self.shard_for(int(payload.get("guild_id") or 0)))
        return payload["id"]

    async def command(
        self,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        guild: Guild | None = None,
        user_id: int = 111,
        locale: str = "es-ES",
        permissions: str = MEMBER_PERMISSIONS,
        via: str = SERVER,
    ) -> str:
        """Invoke a slash command ("termino", or "glosario-admin diario configurar") as a member; returns the id."""
        guild = guild or self.guilds[0]
        top, *path = name.split()
        registered = self.find_command(top)
        opts: list[dict] = []
        resolved: dict[str, dict[str, dict]] = {}
        for key, value in (options or {}).items():
            if isinstance(value, ChannelRef):
                resolved.setdefault("channels", {})[str(value.id)] = {
                    **guild.channel(value.id),
                    "permissions": ALL_PERMISSIONS,
                }
                opts.append({"name": key, "type": 7, "value": str(value.id)})
            elif isinstance(value, RoleRef):
                resolved.setdefault("roles", {})[str(value.id)] = guild.role(value.id, value.name)
                opts.append({"name": key, "type": 8, "value": str(value.id)})
            else:
                opts.append({"name": key, "type": _option_type(value), "value": value})
        for depth, part in reversed(list(enumerate(path))):  # wrap in subcommand (1) and group (2) levels
            opts = [{"name": part, "type": 1 if depth == len(path) - 1 else 2, "options": opts}]
        data = {"id": registered["id"], "name": top, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(
            self._interaction(2, data, guild=guild, user_id=user_id, locale=locale, permissions=permissions, via=via)
        )

    async def message_command(
        self,
        name: str,
        content: str,
        *,
        user_id: int = 111,
        locale: str = "es-ES",
        guild: Guild | None = None,
        via: str = SERVER,
    ) -> str:
        """Use a message context-menu command on a message with this content (written by someone else)."""
        guild = guild or self.guilds[0]
        registered = self.find_command(name)
        target = {
            "id": snowflake(),
            "channel_id": str(guild.channel_ids[0]),
            "type": 0,
            "content": content,
            "author": user_payload(222, "beto"),
            "attachments": [],
            "embeds": [],
            "components": [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": "2026-12-02T09:00:00+00:00",
            "edited_timestamp": None,
            "flags": 0,
        }
        data = {
            "id": registered["id"],
            "name": name,
            "type": 3,
            "target_id": target["id"],
            "resolved": {"messages": {target["id"]: target}},
        }
        return await self._dispatch(
            self._interaction(
                2, data, guild=guild, user_id=user_id, locale=locale, permissions=MEMBER_PERMISSIONS, via=via
            )
        )

    async def autocomplete(self, name: str, option: str, value: str, **kw: Any) -> str:
        """Type into an option with autocomplete ("termino", or "glosario-admin diario configurar")."""
        top, *path = name.split()
        registered = self.find_command(top)
        opts: list[dict] = [{"name": option, "type": 3, "value": value, "focused": True}]
        for depth, part in reversed(list(enumerate(path))):
            opts = [{"name": part, "type": 1 if depth == len(path) - 1 else 2, "options": opts}]
        data = {"id": registered["id"], "name": top, "type": 1, "options": opts}
        return await self._dispatch(
            self._interaction(
                4,
                data,
                guild=kw.get("guild"),
                user_id=kw.get("user_id", 111),
                locale=kw.get("locale", "es-ES"),
                permissions=kw.get("permissions", MEMBER_PERMISSIONS),
                via=kw.get("via", SERVER),
            )
        )

    async def click(
        self,
        message: dict,
        custom_id: str,
        *,
        user_id: int = 111,
        locale: str = "es-ES",
        guild: Guild | None = None,
        permissions: str = MEMBER_PERMISSIONS,
        values: list[str] | None = None,
        via: str = SERVER,
    ) -> str:
        """Press a button of a message the bot sent (or, with `values`, choose in one of its select menus)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        return await self._dispatch(
            self._interaction(
                3, data, guild=guild, user_id=user_id, locale=locale, permissions=permissions, message=message, via=via
            )
        )

    async def submit_modal(
        self,
        modal: dict,
        values: dict[str, str],
        *,
        message: dict | None = None,
        user_id: int = 111,
        permissions: str = MEMBER_PERMISSIONS,
        guild: Guild | None = None,
        locale: str = "es-ES",
        via: str = SERVER,
    ) -> str:
        """Fill in and submit a modal the bot opened (`modal` is the callback's data); values by input label."""
        rows = []
        for row in modal["components"]:
            inputs = [
                {"type": 4, "custom_id": c["custom_id"], "value": values.get(c["label"], "")} for c in row["components"]
            ]
            rows.append({"type": 1, "components": inputs})
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._dispatch(
            self._interaction(
                5, data, guild=guild, user_id=user_id, locale=locale, permissions=permissions, message=message, via=via
            )
        )

    def message_of(self, interaction_id: str) -> dict:
        """The message the bot's reply to this interaction created (to press its buttons)."""
        return self.sent_messages[interaction_id]

    def find_command(self, name: str) -> dict:
        for cmds in self.commands.values():
            for cmd in cmds:
                if cmd["name"] == name:
                    return cmd
        raise AssertionError(f"command {name!r} was never registered; have {list(self.commands)}")

    async def response(self, interaction_id: str, index: int = 0, timeout: float = 10) -> dict:
        """The index-th thing the bot sent for this interaction (callback first, then follow-ups)."""

        async def arrived() -> dict:
            async with self._changed:
                await self._changed.wait_for(lambda: len(self.responses.get(interaction_id, [])) > index)
                return self.responses[interaction_id][index]

        return await asyncio.wait_for(arrived(), timeout)

    async def answer(self, interaction_id: str, timeout: float = 10) -> dict:
        """The message the member finally reads for this interaction: the callback's, or after a deferral (types 5
        and 6, "thinking…") the first follow-up or edit that replaces it."""
        first = await self.response(interaction_id, 0, timeout)
        if first.get("type") not in (5, 6):
            return first.get("data") or {}
        return {k: v for k, v in (await self.response(interaction_id, 1, timeout)).items() if k != "webhook"}

    async def wait_for(self, predicate, timeout: float = 10) -> None:
        """Wait until predicate() holds (checked whenever the fake receives a request)."""

        async def holds() -> None:
            async with self._changed:
                await self._changed.wait_for(predicate)

        await asyncio.wait_for(holds(), timeout)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # -- REST -------------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body = None
        if request.content_type.startswith("multipart/"):  # a reply with attachments
            body, files = {}, {}
            async for part in await request.multipart():
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files[part.filename] = await part.read()
            body["_files"] = files
            if any(len(data) > self.attachment_limit for data in files.values()):
                return _json({"message": "Request entity too large", "code": 40005}, status=413)
        elif request.can_read_body:
            text = await request.text()
            if request.content_type == "application/json" and text:
                body = json.loads(text)
        query = dict(request.query)
        self.requests.append((request.method, path, query if request.method == "GET" else body))
        auth = request.headers.get("Authorization", "")
        parts = path.strip("/").split("/")
        if parts[0] in ("users", "oauth2", "applications", "channels") and auth != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        if parts[0] not in ("interactions", "webhooks") and (limited := self._over_global_limit()) is not None:
            return limited
        if self.channel_disconnects and parts[0] == "channels" and parts[-1] == "messages" and request.method == "POST":
            self.channel_disconnects -= 1
            if request.transport is not None:
                request.transport.close()  # (what is answered below never arrives)
            return _json({"message": "never sent", "code": 0}, status=500)
        if self.history_disconnects and parts[0] == "channels" and parts[-1] == "messages" and request.method == "GET":
            self.history_disconnects -= 1
            if request.transport is not None:
                request.transport.close()
            return _json({"message": "never read", "code": 0}, status=500)
        try:
            return await self._route(request.method, parts, body, query)
        finally:
            await self._notify()

    def _over_global_limit(self) -> web.Response | None:
        """A 429 as Discord sends it for the global limit (with `global` and Retry-After), or None."""
        now = time.monotonic()
        hits = self.global_hits
        while hits and now - hits[0] >= 1.0:
            hits.popleft()
        if self.global_limit is not None and len(hits) >= self.global_limit:
            self.rate_limited += 1
            retry = round(max(0.001, 1.0 - (now - hits[0])), 3)
            body = {"message": "You are being rate limited.", "retry_after": retry, "global": True}
            headers = {"Content-Type": "application/json", "X-RateLimit-Global": "true", "Retry-After": str(retry)}
            headers.update({"X-RateLimit-Scope": "global", "Via": "1.1 google"})  # (discord.py: no Via = a ban)
            return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
        hits.append(now)
        self.busiest_second = max(self.busiest_second, len(hits))
        return None

    async def _route(self, method: str, parts: list[str], body: Any, query: dict[str, str]) -> web.Response:
        problem = message_problem(body if isinstance(body, dict) else {})
        if problem is not None:  # what Discord answers to a message over its limits: 400, nothing sent
            self.refused.append((parts, problem))
            return _json(invalid_form_body(problem, body), status=400)
        if parts == ["users", "@me"]:
            return _json(user_payload(BOT_ID, "Glosario IA", bot=True))
        if parts == ["gateway", "bot"]:
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return _json({"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": limit})
        if parts == ["oauth2", "applications", "@me"]:
            return _json(
                {
                    "id": str(APP_ID),
                    "name": "Glosario IA",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": user_payload(1, "owner"),
                    "team": None,
                    "verify_key": "00",
                    "flags": 0,
                    "summary": "",
                }
            )
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            scope = parts[3] if len(parts) == 5 else "global"
            registered = [
                {"description": "", **cmd, "id": snowflake(), "application_id": str(APP_ID), "version": snowflake()}
                for cmd in body  # Discord answers "" as the description of context menus
            ]
            self.commands[scope] = registered
            return _json(registered)
        if parts[0] == "interactions" and parts[-1] == "callback":
            interaction_id = parts[1]
            if self.callback_errors:  # an unlucky moment: Discord fails the reply (a 429 here has no Via header)
                status = self.callback_errors.pop(0)
                self.failed_callbacks.append((interaction_id, status))
                retry = {"retry_after": 0.01, "global": False} if status == 429 else {}
                return _json({"message": f"fake failure {status}", "code": 0, **retry}, status=status)
            if self.callback_delay:  # a slow Discord: the reply is recorded only if the bot waits for it
                self.callbacks_started += 1
                await self._notify()
                await asyncio.sleep(self.callback_delay)
            self.responses.setdefault(interaction_id, []).append(body)
            if self.late_answers:  # the member sees the reply (a form) before the bot hears that it went through
                await self._notify()
                await asyncio.sleep(self.late_answers)
            data = body.get("data") or {}
            if body["type"] in (4, 7):
                self._check_mentions(data)
            message = bot_message(data, "0", flags=data.get("flags") or 0)
            reply: dict[str, Any] = {
                "interaction": {
                    "id": interaction_id,
                    "type": 2,
                    "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
                }
            }
            if body["type"] == 4 and not (data.get("flags") or 0) & 64:
                self._shown_in_channel(interaction_id, message)
            if body["type"] in (4, 7):
                reply["resource"] = {"type": body["type"], "message": message}
                reply["interaction"]["response_message_id"] = message["id"]
                self.sent_messages[interaction_id] = message
            return _json(reply)
        if parts[0] == "webhooks":  # follow-ups (POST) and edits of the original (PATCH …/@original)
            interaction_id = self._tokens.get(parts[2], "")
            self.responses.setdefault(interaction_id, []).append({"webhook": method, **(body or {})})
            if method in ("POST", "PATCH") and isinstance(body, dict):
                self._check_mentions(body)
            return _json(bot_message(body or {}, "0"))
        if parts == ["users", "@me", "channels"] and method == "POST":  # open a direct-message channel
            user_id = int(body["recipient_id"])
            channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None) or snowflake()
            self.dm_channels[channel_id] = user_id
            return _json(
                {"id": channel_id, "type": 1, "last_message_id": None, "recipients": [user_payload(user_id, "m")]}
            )
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            if self.dm_channels.get(parts[1]) in self.dms_closed:
                return _json({"message": "Cannot send messages to this user", "code": 50007}, status=403)
            if self.channel_errors:
                status = self.channel_errors.pop(0)
                if isinstance(status, tuple):  # (status, page): an error page, as Cloudflare sends, not JSON
                    status, page = status
                    return web.Response(text=page, status=status, content_type="text/html")
                return _json({"message": f"fake failure {status}", "code": 0}, status=status)
            if (refusal := self._missing_permission(parts[1], body)) is not None:
                return refusal
            if isinstance(body, dict) and len(str(body.get("nonce") or "")) > 25:  # Discord's limit for a nonce
                problem = f"nonce: {len(str(body['nonce']))} > 25"
                self.refused.append((parts, problem))
                return _json(invalid_form_body(problem, body), status=400)
            if (earlier := self._same_nonce(parts[1], body)) is not None:
                return _json(earlier)
            msg = {**bot_message(body, parts[1]), "id": self._message_id(), "timestamp": self.clock().isoformat()}
            if isinstance(body, dict) and body.get("nonce") is not None:
                msg["nonce"] = body["nonce"]  # (the create's answer says it; the message as kept does not)
            if isinstance(body, dict):
                self._check_mentions(body)
            if isinstance(body, dict) and body.get("enforce_nonce") and body.get("nonce") is not None:
                self._nonces[(parts[1], str(body["nonce"]))] = (self.clock().timestamp(), msg)
            files = body.get("_files") if isinstance(body, dict) else None  # attachments, by file name
            self.channel_messages.setdefault(parts[1], []).append({**msg, "_files": files} if files else msg)
            return _json(msg)
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and method == "GET":
            return self._history(parts[1], query)
        return _json({"message": f"fake Discord has no route {method} /{'/'.join(parts)}", "code": 0}, status=404)

    def _message_id(self) -> str:
        """A new message's id as Discord makes it: the time it is made (the fake's clock) in its top bits, so that
        reading a channel's messages `before` or `after` a time means what it means on Discord; always increasing."""
        made = int(self.clock().timestamp() * 1000) - DISCORD_EPOCH
        self._last_message_id = max(made << 22, self._last_message_id + 1)
        return str(self._last_message_id)

    def member_says(self, channel_id: int, content: str, user_id: int = 111) -> dict:
        """A member's message in a channel, now (the bot asks for no message events: only a read of the channel's
        messages shows it)."""
        message = {
            **bot_message({"content": content}, str(channel_id)),
            "id": self._message_id(),
            "timestamp": self.clock().isoformat(),
            "author": user_payload(user_id),
        }
        self.channel_others.setdefault(str(channel_id), []).append(message)
        return message

    def _shown_in_channel(self, interaction_id: str, message: dict) -> None:
        """A reply everyone sees to a command used in a server's channel is a message of that channel, the bot its
        author, of type 20 (a slash command's) or 23 (a context menu's), with the interaction's metadata."""
        interaction = self._interactions.get(interaction_id) or {}
        channel_id = interaction.get("channel_id")
        if interaction.get("type") != 2 or not interaction.get("guild_id") or channel_id is None:
            return
        user = (interaction.get("member") or {}).get("user") or interaction.get("user")
        message.update(
            id=self._message_id(),
            channel_id=channel_id,
            timestamp=self.clock().isoformat(),
            type=20 if interaction["data"].get("type", 1) == 1 else 23,
            interaction_metadata={
                "id": interaction_id,
                "type": 2,
                "user": user,
                "authorizing_integration_owners": interaction.get("authorizing_integration_owners", {}),
            },
        )
        self.channel_others.setdefault(channel_id, []).append(message)

    def _history(self, channel_id: str, query: dict[str, str]) -> web.Response:
        """GET /channels/{id}/messages as Discord answers it: 403 without View Channel, no messages without Read
        Message History; at most `limit` (1 to 100, 50 by default) of those `before`, `after` or `around` a message
        id (one of them at most; none: the latest), newest first. A message's nonce is not kept, and the text of
        others' messages is empty unless the bot asked for the message content intent (it does not)."""
        if self.history_errors:
            status = self.history_errors.pop(0)
            code, text = (50001, "Missing Access") if status == 403 else (0, f"fake failure {status}")
            return _json({"message": text, "code": code}, status=status)
        guild = next((g for g in self.guilds if int(channel_id) in g.channel_ids), None)
        permissions = guild.bot_permissions(int(channel_id)) if guild else int(ALL_PERMISSIONS)
        if not permissions & VIEW_CHANNEL:
            return _json({"message": "Missing Access", "code": 50001}, status=403)
        limit = int(query.get("limit", 50))
        anchors = [key for key in ("before", "after", "around") if key in query]
        if not 1 <= limit <= 100 or len(anchors) > 1:
            return _json({"message": "Invalid Form Body", "code": 50035, "errors": "limit, before, after, around"}, 400)
        if not permissions & READ_MESSAGE_HISTORY:
            return _json([])
        kept = [*self.channel_messages.get(channel_id, []), *self.channel_others.get(channel_id, [])]
        kept.sort(key=lambda m: int(m["id"]))
        anchor = int(query[anchors[0]]) if anchors else None
        if "before" in query:
            picked = [m for m in kept if int(m["id"]) < anchor][-limit:]
        elif "after" in query:
            picked = [m for m in kept if int(m["id"]) > anchor][:limit]
        elif "around" in query:
            earlier = [m for m in kept if int(m["id"]) < anchor][-(limit // 2) :] if limit > 1 else []
            picked = earlier + [m for m in kept if int(m["id"]) >= anchor][: limit - len(earlier)]
        else:
            picked = kept[-limit:]
        content = bool((self.intents or 0) & MESSAGE_CONTENT)
        return _json([_as_read(m, content=content) for m in reversed(picked)])

    def _missing_permission(self, channel_id: str, body: Any) -> web.Response | None:
        """Discord's 403 for a post in a server's channel the bot may not see or write in, or attach files to."""
        guild = next((g for g in self.guilds if int(channel_id) in g.channel_ids), None)
        if guild is None:
            return None
        permissions = guild.bot_permissions(int(channel_id))
        if not permissions & VIEW_CHANNEL:
            return _json({"message": "Missing Access", "code": 50001}, status=403)
        files = isinstance(body, dict) and body.get("_files")
        if not permissions & SEND_MESSAGES or (files and not permissions & ATTACH_FILES):
            return _json({"message": "Missing Permissions", "code": 50013}, status=403)
        return None

    def _check_mentions(self, body: dict) -> None:
        """A message with text may ping unless it says `allowed_mentions: {"parse": []}` (Discord's default parses
        every mention in the content): such a message is recorded, and the tests' fixture fails on it."""
        if (body.get("content") or body.get("embeds")) and body.get("allowed_mentions") != {"parse": []}:
            self.mention_leaks.append(body)

    def _same_nonce(self, channel_id: str, body: Any) -> dict | None:
        """The message an earlier create with this enforced nonce made in this channel within NONCE_WINDOW (what
        Discord answers instead of creating a second one), or None."""
        if not isinstance(body, dict) or not body.get("enforce_nonce") or body.get("nonce") is None:
            return None
        earlier = self._nonces.get((channel_id, str(body["nonce"])))
        if earlier is None or self.clock().timestamp() - earlier[0] > NONCE_WINDOW:
            return None
        self.deduplicated += 1
        return earlier[1]


def message_of(reply_data: dict) -> dict:
    """The message object Discord attaches to a component interaction on a reply with this data."""
    return bot_message(reply_data, "1")


def bot_message(body: dict, channel_id: str, *, flags: int = 0) -> dict:
    """A message object as Discord returns it, for something the bot sent (content, embeds, components)."""
    return {
        "id": snowflake(),
        "channel_id": channel_id,
        "type": 0,
        "content": body.get("content") or "",
        "author": user_payload(BOT_ID, "Glosario IA", bot=True),
        "attachments": [],
        "embeds": body.get("embeds") or [],
        "components": body.get("components") or [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": "2026-12-02T10:00:00+00:00",
        "edited_timestamp": None,
        "flags": flags | (body.get("flags") or 0),
    }


def _as_read(message: dict, *, content: bool) -> dict:
    """A message as a read of its channel returns it: no nonce, no attachments' bytes (the fake's own record), and
    without the message content intent (`content`) no text, embeds, attachments or components of someone else's."""
    read = {k: v for k, v in message.items() if k not in ("nonce", "_files")}
    if not content and read["author"]["id"] != str(BOT_ID):
        read.update(content="", embeds=[], attachments=[], components=[])
    return read


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body only when Content-Type is exactly application/json (no charset)
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


@contextlib.asynccontextmanager
async def running(guilds: list[Guild] | None = None):
    fake = await FakeDiscord(guilds).start()
    try:
        yield fake
    finally:
        await fake.stop()
