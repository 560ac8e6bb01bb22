-- the days of a daily schedule stored as neutral values (they were Spanish words), held to them
-- SQLite rebuilds the table to add a CHECK; PostgreSQL alters it in place.
CREATE TABLE guild_settings_5 (
    guild_id INTEGER PRIMARY KEY,
    daily_enabled INTEGER NOT NULL DEFAULT 0,
    daily_channel_id INTEGER,
    daily_hour INTEGER,
    daily_minute INTEGER,
    daily_tz TEXT NOT NULL DEFAULT 'UTC',
    daily_days TEXT NOT NULL DEFAULT 'every_day'
        CHECK (daily_days IN ('every_day', 'weekdays')),
    daily_error TEXT,
    daily_error_at TEXT,
    editor_role_id INTEGER
);
INSERT INTO guild_settings_5
SELECT guild_id, daily_enabled, daily_channel_id, daily_hour, daily_minute, daily_tz,
       CASE daily_days WHEN 'laborables' THEN 'weekdays' ELSE 'every_day' END,
       daily_error, daily_error_at, editor_role_id
FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_5 RENAME TO guild_settings;
