-- how the weekly digest went, for `resumen estado`: when it was last posted, and its last problem (a code and its
-- parameters, as the daily post's) and when
ALTER TABLE guild_settings ADD COLUMN digest_posted_at TEXT;
ALTER TABLE guild_settings ADD COLUMN digest_error TEXT;
ALTER TABLE guild_settings ADD COLUMN digest_error_at TEXT;
