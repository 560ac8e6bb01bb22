-- who was forgotten on request (or with their server), and when: a write made before that, replayed later from a
-- journal, a log or another process's queue, is not written back. A member by the salted hash the other tables hold
-- (never the user id), a server by its id; nothing else (docs/privacy.md says how long, and why)
CREATE TABLE forgotten_members (hash TEXT PRIMARY KEY, at TEXT NOT NULL);
CREATE TABLE forgotten_guilds (id BIGINT PRIMARY KEY, at TEXT NOT NULL);
