"""The schema's tables and their columns, read by the copy between databases (copy.py) and by erasure
(erasure.py), which finds the columns that hold a person's or a server's id by their names; and each table's key,
by which the copy names a row the destination refuses."""

from __future__ import annotations

# Every table of the schema with its columns, parents before children (a test holds this to the migrations).
TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "misses": ("id", "guild_id", "normalized", "query_hash", "sample", "kind", "count", "first_seen", "last_seen",
               "best_guess", "status", "resolved_term", "question"),
    "miss_askers": ("miss_id", "asker"),
    "miss_spellings": ("miss_id", "sample", "count"),
    "picks": ("guild_id", "normalized", "sample", "term_id", "count", "last_seen"),
    "pick_askers": ("guild_id", "normalized", "term_id", "asker"),
    "lookups": ("guild_id", "day", "outcome", "term_id", "count"),
    "unlogged_misses": ("guild_id", "day", "count"),
    "applied_writes": ("id", "day"),
    "guild_settings": ("guild_id", "daily_enabled", "daily_channel_id", "daily_hour", "daily_minute", "daily_tz",
                       "daily_days", "daily_error", "daily_error_at", "editor_role_id", "daily_server_terms",
                       "proposals_enabled", "digest_channel_id", "digest_weekday", "digest_last",
                       "daily_language", "digest_language", "digest_since", "digest_posted_at", "digest_error",
                       "digest_error_at", "digest_claimed_until"),
    "daily_picks": ("guild_id", "day", "term_id", "cycle"),
    "daily_posts": ("guild_id", "day", "channel_id", "status", "message_id", "detail", "at", "claimed_until"),
    "server_terms": ("guild_id", "term_id", "fields", "author_id", "created_at", "updated_by", "updated_at",
                     "retired_at"),
    "server_term_versions": ("guild_id", "term_id", "version", "action", "fields", "by_user", "at"),
    "server_aliases": ("guild_id", "normalized", "spelling", "term_id", "by_user", "at"),
    "proposals": ("id", "guild_id", "user_id", "locale", "fields", "status", "reason", "decided_by", "decided_at",
                  "created_at", "notified"),
    "guild_departures": ("guild_id", "left_at"),
    "feedback": ("guild_id", "term_id", "voter", "vote", "comment", "at"),
    "forgotten_members": ("hash", "at"),
    "forgotten_guilds": ("id", "at"),
}  # fmt: skip

# Each table's primary key (a test holds this to the migrations too).
KEYS: dict[str, tuple[str, ...]] = {
    "meta": ("key",),
    "misses": ("id",),
    "miss_askers": ("miss_id", "asker"),
    "miss_spellings": ("miss_id", "sample"),
    "picks": ("guild_id", "normalized", "term_id"),
    "pick_askers": ("guild_id", "normalized", "term_id", "asker"),
    "lookups": ("guild_id", "day", "outcome", "term_id"),
    "unlogged_misses": ("guild_id", "day"),
    "applied_writes": ("id",),
    "guild_settings": ("guild_id",),
    "daily_picks": ("guild_id", "day"),
    "daily_posts": ("guild_id", "day"),
    "server_terms": ("guild_id", "term_id"),
    "server_term_versions": ("guild_id", "term_id", "version"),
    "server_aliases": ("guild_id", "normalized"),
    "proposals": ("id",),
    "guild_departures": ("guild_id",),
    "feedback": ("guild_id", "term_id", "voter"),
    "forgotten_members": ("hash",),
    "forgotten_guilds": ("id",),
}
