-- ids of the writes already applied (journal replays count nothing twice), the people behind each alias
-- proposal (counted once each, like gap askers), gaps not logged because a member was over budget
CREATE TABLE applied_writes (id TEXT PRIMARY KEY, day TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE pick_askers (
    guild_id INTEGER NOT NULL,
    normalized TEXT NOT NULL,
    term_id TEXT NOT NULL,
    asker TEXT NOT NULL,
    PRIMARY KEY (guild_id, normalized, term_id, asker)
) WITHOUT ROWID;
CREATE TABLE unlogged_misses (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, day)
) WITHOUT ROWID;
