"""Gaps in Discord: what members asked that the glossary could not answer, as its moderators see and settle
them. Read top to bottom: the commands (`_cog.py`: /glosario-admin pendientes, exportar), then the list and what
its menus do (`_list.py`: ignore, reopen, resolve with a published term, accept an alias members chose, and
*Definir*, which opens the server term's form for that gap and resolves that gap with the term saved). The work
is the application's (bot.app.review.gaps)."""

from discord.ext import commands

from bot.discord_app.gaps._cog import GapsCog
from bot.discord_app.gaps._list import (
    ORDER_CHOICES,
    STATUS_CHOICES,
    ActSelect,
    DefineModal,
    ListState,
    PageButton,
    ResolveModal,
    gap_label,
    gap_lines,
    render,
)

__all__ = [
    "ORDER_CHOICES",
    "STATUS_CHOICES",
    "ActSelect",
    "DefineModal",
    "ListState",
    "PageButton",
    "ResolveModal",
    "gap_label",
    "gap_lines",
    "render",
]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GapsCog(bot))
