"""One private answer, whether the interaction was answered yet or deferred ("thinking…"): the reply, or the follow-up
that replaces the deferral; and what a member typed in a form, given back whole."""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO

import discord

from bot.discord_app.kit.embeds import COLOUR, LIMITS, shorten
from bot.discord_app.kit.i18n import t

MISSING = discord.utils.MISSING
WHOLE_IN_EMBED = 5500  # characters of labels and values an embed of the typed fields shows whole (Discord: 6000)


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """A private answer: the interaction's reply, or the follow-up after its deferral."""
    extra = {"embed": embed or MISSING, "view": view or MISSING, "files": list(files) or MISSING}
    if interaction.response.is_done():
        await interaction.followup.send(content or MISSING, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(content, ephemeral=True, **extra)


def typed_back(locale: object, fields: Sequence[tuple[str, str]]) -> tuple[discord.Embed, list[discord.File]]:
    """What a member typed in a form (label, value), to give it back: each field in an embed and, when the embed
    cannot show all of it whole, the whole of it in a text file too (nothing typed is lost)."""
    embed = discord.Embed(title=t(locale, "form_typed"), colour=COLOUR)
    filled = [(label, value) for label, value in fields if value]
    for label, value in filled:
        embed.add_field(
            name=shorten(label, LIMITS["field_name"]), value=shorten(value, LIMITS["field_value"]), inline=False
        )
    if not filled:
        embed.description = "—"
    size = sum(len(label) + len(value) for label, value in filled)
    if size <= WHOLE_IN_EMBED and all(len(value) <= LIMITS["field_value"] for _, value in filled):
        return embed, []
    text = "\n\n".join(f"{label}:\n{value}" for label, value in filled) + "\n"
    while len(embed) > 6000:  # (long labels too: the file has it all)
        embed.remove_field(-1)
    return embed, [discord.File(BytesIO(text.encode("utf-8")), filename=t(locale, "file_form"))]
