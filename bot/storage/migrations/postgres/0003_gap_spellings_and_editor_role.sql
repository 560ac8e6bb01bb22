-- the spellings behind each gap (for export stubs), the editor role per guild
CREATE TABLE miss_spellings (
    miss_id BIGINT NOT NULL REFERENCES misses (id) ON DELETE CASCADE,
    sample TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (miss_id, sample)
);
INSERT INTO miss_spellings (miss_id, sample, count) SELECT id, sample, count FROM misses;
ALTER TABLE guild_settings ADD COLUMN editor_role_id BIGINT;
