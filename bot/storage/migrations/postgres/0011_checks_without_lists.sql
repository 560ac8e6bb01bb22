-- the CHECKs of the tables written after every reply, on SQLite, as comparisons joined by OR (SQLite builds a
-- temporary table for an IN list of more than two values each time a statement runs): PostgreSQL keeps its lists,
-- which cost it nothing. The file keeps the numbers of both dialects alike; asyncpg refuses a file without a
-- statement, hence the one that does nothing.
SELECT 1;
