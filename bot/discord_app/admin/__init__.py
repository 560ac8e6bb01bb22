"""/glosario-admin: the group every moderators' tool lives in, and the tools of no other feature."""

from bot.discord_app.admin._cog import AdminCog, reload_embed, setup, stats_embed

__all__ = ["AdminCog", "reload_embed", "setup", "stats_embed"]
