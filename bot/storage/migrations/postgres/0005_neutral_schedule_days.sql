-- the days of a daily schedule stored as neutral values (they were Spanish words), held to them
-- SQLite rebuilds the table to add a CHECK; PostgreSQL alters it in place.
ALTER TABLE guild_settings ALTER COLUMN daily_days SET DEFAULT 'every_day';
UPDATE guild_settings SET daily_days = CASE daily_days WHEN 'laborables' THEN 'weekdays' ELSE 'every_day' END;
ALTER TABLE guild_settings ADD CONSTRAINT daily_days_known CHECK (daily_days IN ('every_day', 'weekdays'));
