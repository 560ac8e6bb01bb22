"""/glosario olvidarme, and forgetting the servers that removed the bot."""

from bot.discord_app.erasure._cog import ErasureCog, ForgetButton, setup

__all__ = ["ErasureCog", "ForgetButton", "setup"]
