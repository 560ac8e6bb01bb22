-- feedback: each member's 👍/👎 on a term's card per server (guild 0: their own install), by the salted hash
-- of their id (`voter`, like a gap's askers), changeable, and what they said was missing (editors only)
CREATE TABLE feedback (
    guild_id BIGINT NOT NULL,
    term_id TEXT NOT NULL,
    voter TEXT NOT NULL,
    vote TEXT NOT NULL CHECK (vote IN ('helpful', 'unhelpful')),
    comment TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (guild_id, term_id, voter)
);
