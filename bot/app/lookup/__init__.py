"""Looking terms up (lookups.py): the guild-scoped view every surface reads through (`for_guild`), and what a
lookup leaves behind after the reply: counts per term, gaps, the alias suggestions members pick. turns.py: many
lookups at once take turns on the event loop, one per pass."""
