"""/glosario buscar | lista | aleatorio | pregunta | ayuda, and the message menu "Explicar términos"."""

from bot.discord_app.discover._cog import DiscoverCog, setup

__all__ = ["DiscoverCog", "setup"]
