"""Errors the application's callers handle: the Discord layer and the command line import them from here, not
from the stores behind the application."""

from bot.storage.errors import DatabaseBusy

__all__ = ["DatabaseBusy"]
