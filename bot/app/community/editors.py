"""Each server's editor role (`/glosario-admin rol-editor`): its members may use the review commands. Asked at
every interaction of a member without Manage Messages (each keystroke of the editors' autocomplete, each click of
a moderator's button), so it is kept in memory for the most recently asked servers, for a short while: another
process sharing the database may change it, and this one then sees the change within `ttl` seconds."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial

from bot.app.community.reads import SharedReads
from bot.app.recent import keep_recent
from bot.storage.interfaces import RoleStore


class EditorRoles:
    MAX_SERVERS = 4096  # servers whose editor role stays in memory (the least recently asked are dropped)
    TTL = 45.0  # seconds a role read from the database is trusted (docs/members.md, docs/operators/scale.md)

    def __init__(self, store: RoleStore, *, ttl: float = TTL, now: Callable[[], float] = time.monotonic) -> None:
        self.store, self.ttl, self.now = store, ttl, now
        self._kept: OrderedDict[int, tuple[int | None, float]] = OrderedDict()  # by server: the role, read when
        self._changes = 0  # changes made by this process: a read begun before one is used for its caller only
        self._reads: SharedReads[int, int, int | None] = SharedReads(
            lambda changes: changes == self._changes, "the editor role"
        )

    async def editor_role(self, guild_id: int) -> int | None:
        """The server's editor role (None: none set), from memory when read less than `ttl` seconds ago. Raises
        what the database raises (nothing is kept then)."""
        found = self._kept.get(guild_id)
        if found is not None and self.now() - found[1] < self.ttl:
            self._kept.move_to_end(guild_id)
            return found[0]
        return await self._reads.read(guild_id, self._changes, partial(self._read, guild_id, self._changes))

    async def _read(self, guild_id: int, changes: int) -> int | None:
        began = self.now()  # (its time to live counts from before the read: never trusted longer than `ttl`)
        role = await self.store.editor_role(guild_id)
        if changes == self._changes:
            keep_recent(self._kept, guild_id, (role, began), self.MAX_SERVERS)
        return role

    async def set_editor_role(self, guild_id: int, role_id: int | None) -> None:
        """Members with `role_id` may use the review commands from now on (in this process at once)."""
        try:
            await self.store.set_editor_role(guild_id, role_id)
        finally:  # (even if the write failed: whatever it left is read again)
            self.forget(guild_id)

    def forget(self, guild_id: int) -> None:
        """Drop the server's role from memory (changed, or the server forgotten): read again on next use."""
        self._changes += 1
        self._kept.pop(guild_id, None)
