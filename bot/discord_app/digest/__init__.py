"""The weekly digest for moderators (/glosario-admin resumen …) and the answer-rate chart it shows."""

from bot.discord_app.digest._cog import DigestCog, digest_embed, setup

__all__ = ["DigestCog", "digest_embed", "setup"]
