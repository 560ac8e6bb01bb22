"""The term of the day: /termino-del-dia, /glosario-admin diario …, and the scheduler that posts it."""

from bot.discord_app.daily._cog import DailyCog, daily_card, setup

__all__ = ["DailyCog", "daily_card", "setup"]
