"""The storage interface: one small typed Protocol per store, and the unit of work that owns transactions.

The application layer and the write queue depend on these, never on a database library. SQLite (the modules db, gaps and
daily of this package) is the one implementation today; another backend implements the same Protocols, and
`bot.storage.open_stores` picks one by the database URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import date
from typing import Protocol

from bot.core.daily import DailyEntry, Schedule
from bot.core.status import GapOrder, GapStatus, ProposalStatus
from bot.storage.forgotten import Forgotten
from bot.storage.records import (
    AliasSuggestion,
    Claim,
    CommentRecord,
    DailyOutcome,
    DailyPost,
    DailySettings,
    DigestSettings,
    Erased,
    FeedbackRow,
    Gap,
    GapRecord,
    LatestComments,
    LookupCountsRecord,
    LookupRecord,
    ProposalRow,
    RecentFeedback,
    ServerAlias,
    ServerTermRow,
    ServerTermVersion,
    SuggestionChoice,
    SuggestionChoiceRecord,
    TermVotes,
    UnloggedRecord,
    VoteRecord,
)


class UnitOfWork(Protocol):
    """Owns transactions: the write methods of the stores below run inside `transaction()` (which commits when
    the block ends, or rolls back on an exception), or commit on their own when called outside one."""

    def transaction(self) -> AbstractAsyncContextManager[None]: ...

    def refuses_content(self, error: BaseException) -> bool:
        """True only when the database refused a record for what it holds (a constraint, a type): retrying it
        cannot help. Any other error (the disk, a lock, the connection, the driver's state) is worth retrying."""
        ...


class MetaStore(Protocol):
    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    async def salt(self) -> str: ...

    async def existing_salt(self) -> str | None:
        """The salt if one was made (reads only)."""
        ...


class AppliedLog(Protocol):
    """Which write-queue record ids the database holds (marked in the batch's own transaction)."""

    async def mark(self, ids: list[str]) -> set[str]: ...  # the ids it claimed (not held before)

    async def applied(self, ids: list[str]) -> set[str]: ...

    async def release(self, ids: list[str]) -> None:
        """Give back ids this transaction claimed for records it did not write after all (their member or server was
        forgotten since): a later replay of them says so again, rather than that they are in the database."""
        ...

    async def prune(self) -> None: ...


class ForgottenList(Protocol):
    """Who was forgotten, and when: what the write queue reads in each batch's transaction (bot.storage.forgotten)."""

    async def forgotten(self, hashes: Sequence[str], guild_ids: Sequence[int]) -> Forgotten: ...


class GapStore(Protocol):
    async def record_gaps(self, records: Sequence[GapRecord]) -> None: ...

    async def record_picks(self, records: Sequence[SuggestionChoiceRecord]) -> None: ...

    async def record_unlogged(self, records: Sequence[UnloggedRecord]) -> None: ...

    async def unlogged(self, *, guild_id: int | None = None) -> int: ...

    async def get(self, gap_id: int, *, guild_id: int | None = None) -> Gap | None: ...

    async def count(self, *, guild_id: int | None = None, status: GapStatus | None = ...) -> int: ...

    async def gaps(
        self,
        *,
        guild_id: int | None = None,
        status: GapStatus | None = ...,  # None: every status
        order: GapOrder = ...,
        limit: int = 100,
        offset: int = 0,
        ids: list[int] | None = None,
    ) -> list[Gap]: ...

    async def set_status(
        self, ids: list[int], status: GapStatus, *, guild_id: int | None = None, term_id: str | None = None
    ) -> int: ...

    async def resolve_asked_as(self, guild_id: int, normalized: str, term_id: str) -> int: ...

    async def open_after(self, after_id: int, limit: int, *, guild_id: int | None = None) -> list[Gap]: ...

    async def export(
        self,
        *,
        guild_id: int | None,
        status: GapStatus | None = ...,
        most_asked: bool = False,
        limit: int | None = None,
    ) -> list[Gap]: ...

    async def picks(self, *, guild_id: int | None = None, limit: int = 100) -> list[SuggestionChoice]: ...

    async def proposals(self, guild_id: int, limit: int = 10) -> list[AliasSuggestion]:
        """A server's alias suggestions, the most picked first."""
        ...

    async def most_asked_spelling(self, guild_id: int, gap_id: int) -> str | None:
        """How a gap of this server was asked most often (None for another server's or an unknown gap)."""
        ...

    async def new_since(self, guild_id: int, since: str) -> int:
        """How many of a server's gaps were first asked at or after `since` (ISO time)."""
        ...

    async def drop_proposals(self, guild_id: int, normalized: str) -> None: ...


class UsageStore(Protocol):
    async def record_lookups(self, records: Sequence[LookupRecord]) -> None: ...

    async def record_lookup_counts(self, records: Sequence[LookupCountsRecord]) -> None:
        """Add the counts of a flush window (each record one server's), as `record_lookups` adds single ones."""
        ...

    async def outcomes(self, *, guild_id: int | None = None, since: str | None = None) -> dict[str, int]: ...

    async def term_counts(self, *, guild_id: int | None = None) -> dict[str, int]: ...

    async def daily_outcomes(self, guild_id: int, since: str) -> list[DailyOutcome]:
        """The lookups of each day and outcome from `since` (YYYY-MM-DD) on."""
        ...


class DailyStore(Protocol):
    async def settings(self, guild_id: int) -> DailySettings | None: ...

    async def enabled(self) -> list[DailySettings]: ...

    async def configure(
        self,
        guild_id: int,
        channel_id: int,
        schedule: Schedule,
        *,
        server_terms: bool = False,
        language: str | None = None,
    ) -> None: ...

    async def disable(self, guild_id: int) -> bool: ...

    async def history(self, guild_id: int, before: date | None = None) -> list[DailyEntry]: ...

    async def record_pick(self, guild_id: int, entry: DailyEntry) -> DailyEntry: ...

    async def last_post(self, guild_id: int) -> DailyPost | None: ...

    async def claim(self, guild_id: int, day: date, channel_id: int, at: str, until: str) -> Claim | None:
        """Reserve (guild, day) from `at` until `until` (ISO times in UTC): once per server and local date, across
        restarts and processes. A claim whose `until` has passed (its process died) is taken over, and the Claim
        says until when it held; a live one, or a post made or failed, is not (None)."""
        ...

    async def posted(self, guild_id: int, day: date, message_id: int) -> None: ...

    async def retry_failed(self, guild_id: int, day: date) -> None:
        """Free (guild, day) for another try if its post failed."""
        ...

    async def failed(self, guild_id: int, day: date, detail: str, at: str, *, retry: bool) -> None: ...


class RoleStore(Protocol):
    async def editor_role(self, guild_id: int) -> int | None: ...

    async def set_editor_role(self, guild_id: int, role_id: int | None) -> None: ...


class ServerTermStore(Protocol):
    """A server's own terms, with every version kept."""

    async def terms(self, guild_id: int, *, retired: bool = False) -> list[ServerTermRow]:
        """The server's terms in service, oldest first (with `retired`, the retired ones too)."""
        ...

    async def get(self, guild_id: int, term_id: str) -> ServerTermRow | None: ...

    async def save(
        self, guild_id: int, term_id: str, fields: dict[str, str], by_user: int, at: str, *, previous_id: str | None
    ) -> bool:
        """Create a term (`previous_id` None) or replace one (renamed when its id changes), keeping a version.
        False, with nothing written, when `term_id` is another term in service."""
        ...

    async def retire(self, guild_id: int, term_id: str, by_user: int, at: str) -> bool: ...

    async def versions(self, guild_id: int, term_id: str) -> list[ServerTermVersion]: ...

    async def aliases(self, guild_id: int) -> list[ServerAlias]:
        """The aliases a server accepted for published terms."""
        ...

    async def add_alias(
        self, guild_id: int, normalized: str, spelling: str, term_id: str, by_user: int, at: str
    ) -> None: ...


class ProposalStore(Protocol):
    """Members' proposed terms, and whether a server takes them."""

    async def enabled(self, guild_id: int) -> bool: ...

    async def set_enabled(self, guild_id: int, enabled: bool) -> None: ...

    async def add(
        self, guild_id: int, user_id: int, locale: str, fields: dict[str, str], at: str, *, limit: int
    ) -> int | None: ...

    async def pending(self, guild_id: int, *, user_id: int | None = None) -> list[ProposalRow]: ...

    async def get(self, guild_id: int, proposal_id: int) -> ProposalRow | None: ...

    async def decide(
        self, guild_id: int, proposal_id: int, status: ProposalStatus, by_user: int, at: str, reason: str | None = None
    ) -> bool:
        """Mark a pending proposal published or rejected; False when it was not pending (decided already)."""
        ...

    async def untold(self, user_id: int) -> list[ProposalRow]:
        """A member's decided proposals they have not been told about yet."""
        ...

    async def told(self, ids: list[int]) -> None: ...

    async def waiting_to_be_told(self) -> set[int]:
        """Members with decided proposals not told yet."""
        ...


class DigestStore(Protocol):
    """Where and when each server wants the moderators' weekly digest, and which week it last had."""

    async def configure(
        self, guild_id: int, channel_id: int, weekday: int, language: str | None = None, since: str | None = None
    ) -> None:
        """Set the digest up; `since` (when it is turned on) is kept only if it was off: changing where, when or in
        which language keeps the first. A week whose digest failed is owed again (its problem is forgotten):
        setting it up again is how a moderator fixes what it failed on; a week claimed and still being posted is
        not freed (another look would post it twice)."""
        ...

    async def disable(self, guild_id: int) -> bool: ...

    async def settings(self, guild_id: int) -> DigestSettings | None: ...

    async def enabled(self) -> list[DigestSettings]: ...

    async def claim(self, guild_id: int, week: str, at: str, until: str) -> Claim | None:
        """Reserve `week`'s digest from `at` until `until` (ISO times in UTC): once per server and week, across
        restarts and processes. A claim whose `until` has passed (its process died, or a failure freed it) is taken
        over, and the Claim says until when it held; a live one, or a week posted or gone without, is not (None)."""
        ...

    async def posted(self, guild_id: int, week: str, at: str) -> None:
        """`week`'s digest went out at `at` (its problem, if it had one, is over)."""
        ...

    async def failed(self, guild_id: int, week: str, until: str, detail: str, at: str, *, retry: bool) -> None:
        """The claim of `week` held until `until` could not post it: `retry` frees the week for the next look,
        otherwise it goes without; `detail` is kept as its problem. A claim taken over since is left alone."""
        ...


class ErasureStore(Protocol):
    """Forgetting a member or a server on request, and the servers the bot was removed from."""

    async def forget_member(self, user_id: int, asker: str | None, *, at: str, dry_run: bool) -> Erased:
        """Remove the rows that are the member's own (by id, or by `asker`: their salted hash), anonymise their id
        on rows that stay, and note `asker` in the forgotten list as forgotten `at`; in a dry run, count them only."""
        ...

    async def forget_server(self, guild_id: int, *, at: str, dry_run: bool) -> Erased:
        """Remove every row of a server, in every table, and note it in the forgotten list as forgotten `at`; in a
        dry run, count them only."""
        ...

    async def forgotten(self, hashes: Sequence[str], guild_ids: Sequence[int]) -> Forgotten: ...

    async def left(self, guild_id: int, at: str) -> None: ...

    async def returned(self, guild_id: int) -> bool: ...

    async def guilds(self) -> set[int]:
        """Every server some table holds rows of."""
        ...

    async def departed(self, before: str) -> list[int]:
        """The servers the bot left at or before `before` (ISO time)."""
        ...


class FeedbackStore(Protocol):
    """Members' 👍/👎 on term cards, one per member (salted hash), term and server, and what they said was missing."""

    async def record_votes(self, records: Sequence[VoteRecord]) -> None: ...

    async def record_comments(self, records: Sequence[CommentRecord]) -> None: ...

    async def tally(self, guild_id: int, *, min_votes: int = 1) -> list[TermVotes]:
        """The votes on each term of a server with at least `min_votes` of them."""
        ...

    async def comments(self, guild_id: int, *, limit: int = 5) -> LatestComments:
        """A server's latest comments, newest first, and how many there are in all."""
        ...

    async def since(self, guild_id: int, since: str) -> RecentFeedback:
        """Votes and comments given or changed at or after `since` (ISO time)."""
        ...

    async def export(self, *, guild_id: int | None = None) -> list[FeedbackRow]: ...
