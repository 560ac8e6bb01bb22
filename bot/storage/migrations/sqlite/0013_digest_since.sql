-- when the weekly digest was turned on (ISO time, UTC): a week whose day came before it is not owed a late digest;
-- NULL (turned on before this version) owes every week
ALTER TABLE guild_settings ADD COLUMN digest_since TEXT;
