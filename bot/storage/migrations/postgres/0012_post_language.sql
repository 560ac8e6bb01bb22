-- the language of each scheduled post ('es', 'en'), chosen when a moderator sets it up; NULL (a setting made
-- before this version) keeps following the server's preferred locale
ALTER TABLE guild_settings ADD COLUMN daily_language TEXT CHECK (daily_language IN ('es', 'en'));
ALTER TABLE guild_settings ADD COLUMN digest_language TEXT CHECK (digest_language IN ('es', 'en'));
