"""Liveness: the heartbeat `glosario-bot health` reads, and following other processes' reloads."""

from bot.discord_app.operation._cog import OperationCog, setup

__all__ = ["OperationCog", "setup"]
