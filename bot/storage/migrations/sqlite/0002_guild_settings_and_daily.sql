-- per-guild settings, term of the day (the pick of each date, and each post, claimed before sending)
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    daily_enabled INTEGER NOT NULL DEFAULT 0,
    daily_channel_id INTEGER,
    daily_hour INTEGER,
    daily_minute INTEGER,
    daily_tz TEXT NOT NULL DEFAULT 'UTC',
    daily_days TEXT NOT NULL DEFAULT 'todos',
    daily_error TEXT,
    daily_error_at TEXT
);
CREATE TABLE daily_picks (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    term_id TEXT NOT NULL,
    cycle INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day)
) WITHOUT ROWID;
CREATE TABLE daily_posts (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('posting', 'posted', 'failed')),
    message_id INTEGER,
    detail TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (guild_id, day)
) WITHOUT ROWID;
