"""Errors the application's callers handle, and how long their writes may wait: the Discord layer and the command
line import them from here, not from the stores behind the application."""

from bot.storage.errors import DatabaseBusy, reply_may_wait

__all__ = ["DatabaseBusy", "reply_may_wait"]
