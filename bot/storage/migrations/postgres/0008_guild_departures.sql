-- the servers the bot was removed from, and when: their data is removed after a grace period, unless the bot
-- is added back before it ends
CREATE TABLE guild_departures (guild_id BIGINT PRIMARY KEY, left_at TEXT NOT NULL);
