-- a server's own terms (the fields as typed, JSON), every version of each (who, when, what), whether the
-- term of the day may show them, the spellings a server accepted as aliases of published terms, and the
-- members' proposals (with who proposed, for telling them the outcome), and the moderators' weekly digest
CREATE TABLE server_terms (
    guild_id INTEGER NOT NULL,
    term_id TEXT NOT NULL,
    fields TEXT NOT NULL,
    author_id INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_by INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    retired_at TEXT,
    PRIMARY KEY (guild_id, term_id)
) WITHOUT ROWID;
CREATE TABLE server_term_versions (
    guild_id INTEGER NOT NULL,
    term_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('created', 'edited', 'retired')),
    fields TEXT NOT NULL,
    by_user INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (guild_id, term_id, version)
) WITHOUT ROWID;
ALTER TABLE guild_settings ADD COLUMN daily_server_terms INTEGER NOT NULL DEFAULT 0;
CREATE TABLE server_aliases (
    guild_id INTEGER NOT NULL,
    normalized TEXT NOT NULL,
    spelling TEXT NOT NULL,
    term_id TEXT NOT NULL,
    by_user INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (guild_id, normalized)
) WITHOUT ROWID;
CREATE TABLE proposals (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    locale TEXT NOT NULL,
    fields TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
    reason TEXT,
    decided_by INTEGER,
    decided_at TEXT,
    created_at TEXT NOT NULL,
    notified INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX proposals_by_guild ON proposals (guild_id, status);
CREATE INDEX proposals_to_tell ON proposals (user_id) WHERE status != 'pending' AND notified = 0;
ALTER TABLE guild_settings ADD COLUMN proposals_enabled INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN digest_channel_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN digest_weekday INTEGER;
ALTER TABLE guild_settings ADD COLUMN digest_last TEXT;
