"""English names and descriptions for the slash commands, through discord.py's translator."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_app.kit.i18n import COMMANDS_EN


class GlossaryTranslator(app_commands.Translator):
    """Spanish is written in the code; en-US and en-GB get the English of COMMANDS_EN."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if locale in (discord.Locale.american_english, discord.Locale.british_english):
            return COMMANDS_EN.get(string.message)
        return None
