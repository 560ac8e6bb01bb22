-- a daily post's claim is a lease, held until `claimed_until` (a claim its process never finished is taken
-- over then); claims left by a crash before this version ran out when they were made
ALTER TABLE daily_posts ADD COLUMN claimed_until TEXT;
UPDATE daily_posts SET claimed_until = at WHERE status = 'posting';
