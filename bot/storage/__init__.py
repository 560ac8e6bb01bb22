"""SQLite storage through aiosqlite: connection and migrations, then one module per table group."""
