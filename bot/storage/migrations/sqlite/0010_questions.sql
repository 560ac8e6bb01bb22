-- gaps asked as questions (a description, not a name) are marked; questions answered by meaning are counted
-- as their own lookup outcome
-- SQLite rebuilds `lookups` to widen its CHECK; PostgreSQL replaces the constraint.
ALTER TABLE misses ADD COLUMN question INTEGER NOT NULL DEFAULT 0;
CREATE TABLE lookups_10 (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('found', 'ambiguous', 'not_found', 'meaning')),
    term_id TEXT NOT NULL DEFAULT '',
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, day, outcome, term_id)
) WITHOUT ROWID;
INSERT INTO lookups_10 SELECT guild_id, day, outcome, term_id, count FROM lookups;
DROP TABLE lookups;
ALTER TABLE lookups_10 RENAME TO lookups;
