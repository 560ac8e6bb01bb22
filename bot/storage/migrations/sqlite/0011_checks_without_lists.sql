-- the CHECKs of the tables written after every reply (gaps, lookup counts) as comparisons joined by OR: for an IN
-- list of more than two values SQLite builds a temporary table each time the statement runs (some 35 K
-- instructions a gap), for comparisons nothing. The values allowed are the same (an enum of bot.core.status each).
-- SQLite rebuilds a table to change a CHECK. The gaps' askers and spellings are rebuilt with the gaps, pointing at
-- the new table: dropping the old one then deletes none of theirs (ON DELETE CASCADE, with foreign keys on), and
-- renaming the new one makes their REFERENCES name `misses` again. PostgreSQL changes nothing.
CREATE TABLE misses_11 (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    normalized TEXT NOT NULL,
    query_hash TEXT NOT NULL,
    sample TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'lookup' CHECK (kind = 'lookup' OR kind = 'search'),
    count INTEGER NOT NULL DEFAULT 0,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    best_guess TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status = 'open' OR status = 'resolved' OR status = 'ignored'),
    resolved_term TEXT,
    question INTEGER NOT NULL DEFAULT 0,
    UNIQUE (guild_id, normalized)
);
INSERT INTO misses_11
    (id, guild_id, normalized, query_hash, sample, kind, count, first_seen, last_seen, best_guess, status,
     resolved_term, question)
SELECT id, guild_id, normalized, query_hash, sample, kind, count, first_seen, last_seen, best_guess, status,
       resolved_term, question
FROM misses;
CREATE TABLE miss_askers_11 (
    miss_id INTEGER NOT NULL REFERENCES misses_11 (id) ON DELETE CASCADE,
    asker TEXT NOT NULL,
    PRIMARY KEY (miss_id, asker)
) WITHOUT ROWID;
INSERT INTO miss_askers_11 (miss_id, asker) SELECT miss_id, asker FROM miss_askers;
CREATE TABLE miss_spellings_11 (
    miss_id INTEGER NOT NULL REFERENCES misses_11 (id) ON DELETE CASCADE,
    sample TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (miss_id, sample)
) WITHOUT ROWID;
INSERT INTO miss_spellings_11 (miss_id, sample, count) SELECT miss_id, sample, count FROM miss_spellings;
DROP TABLE miss_spellings;
DROP TABLE miss_askers;
DROP TABLE misses;
ALTER TABLE misses_11 RENAME TO misses;
ALTER TABLE miss_askers_11 RENAME TO miss_askers;
ALTER TABLE miss_spellings_11 RENAME TO miss_spellings;
CREATE INDEX misses_by_hash ON misses (guild_id, query_hash);
CREATE TABLE lookups_11 (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    outcome TEXT NOT NULL
        CHECK (outcome = 'found' OR outcome = 'ambiguous' OR outcome = 'not_found' OR outcome = 'meaning'),
    term_id TEXT NOT NULL DEFAULT '',
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, day, outcome, term_id)
) WITHOUT ROWID;
INSERT INTO lookups_11 (guild_id, day, outcome, term_id, count) SELECT guild_id, day, outcome, term_id, count FROM lookups;
DROP TABLE lookups;
ALTER TABLE lookups_11 RENAME TO lookups;
