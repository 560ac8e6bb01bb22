-- the weekly digest's claim of a week is a lease, as the daily post's (0007): `digest_last` is the week claimed or
-- done, held until `digest_claimed_until` while it is being posted (a claim its process never finished is taken
-- over then); NULL: that week is done (posted, or gone without). A week claimed before this version cannot be told
-- from one posted: it stays done, never posted twice
ALTER TABLE guild_settings ADD COLUMN digest_claimed_until TEXT;
