"""The pure core: glossary model, loading, normalisation, search and the daily pick.

Nothing here imports discord, aiosqlite or asyncio, reads the environment or the clock.
"""
