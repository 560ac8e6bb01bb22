-- gaps, spellings picked from suggestions, lookup counts, key/value metadata
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE misses (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    normalized TEXT NOT NULL,
    query_hash TEXT NOT NULL,
    sample TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'lookup' CHECK (kind IN ('lookup', 'search')),
    count INTEGER NOT NULL DEFAULT 0,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    best_guess TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'ignored')),
    resolved_term TEXT,
    UNIQUE (guild_id, normalized)
);
CREATE INDEX misses_by_hash ON misses (guild_id, query_hash);
CREATE TABLE miss_askers (
    miss_id INTEGER NOT NULL REFERENCES misses (id) ON DELETE CASCADE,
    asker TEXT NOT NULL,
    PRIMARY KEY (miss_id, asker)
) WITHOUT ROWID;
CREATE TABLE picks (
    guild_id INTEGER NOT NULL,
    normalized TEXT NOT NULL,
    sample TEXT NOT NULL,
    term_id TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    last_seen TEXT NOT NULL,
    PRIMARY KEY (guild_id, normalized, term_id)
) WITHOUT ROWID;
CREATE TABLE lookups (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('found', 'ambiguous', 'not_found')),
    term_id TEXT NOT NULL DEFAULT '',
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, day, outcome, term_id)
) WITHOUT ROWID;
