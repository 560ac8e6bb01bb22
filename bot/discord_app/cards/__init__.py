"""Term cards as replies: the card (its embed from the card cache, bot.discord_app.kit.cards) and the buttons
under it: "see also" a related term, "open" a term privately, and the feedback row (bot.discord_app.feedback)."""

from discord.ext import commands

from bot.discord_app.cards._buttons import OpenButton, TermButton, card_view, related_view, show_term

__all__ = ["OpenButton", "TermButton", "card_view", "related_view", "show_term"]

# Buttons on every card, answered by custom_id even after a restart.
PERSISTENT = (TermButton, OpenButton)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*PERSISTENT)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*PERSISTENT)
