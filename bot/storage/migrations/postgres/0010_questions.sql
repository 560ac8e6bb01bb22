-- gaps asked as questions (a description, not a name) are marked; questions answered by meaning are counted
-- as their own lookup outcome
-- SQLite rebuilds `lookups` to widen its CHECK; PostgreSQL replaces the constraint.
ALTER TABLE misses ADD COLUMN question INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lookups DROP CONSTRAINT lookups_outcome_check;
ALTER TABLE lookups ADD CONSTRAINT lookups_outcome_check CHECK (outcome IN ('found', 'ambiguous', 'not_found', 'meaning'));
