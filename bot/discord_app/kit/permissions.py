"""Who may do what, checked on the server side for every command, button, menu and modal (Discord's
`default_permissions` is only a hint to clients); and what the bot may do in a channel it posts in on a schedule."""

from __future__ import annotations

import discord

from bot.discord_app.kit.buttons import served_guild
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.replies import reply
from bot.discord_app.kit.services import Services, services


async def is_moderator(bot: Services, interaction: discord.Interaction) -> bool:
    """Manage Messages, or the editor role this server chose (from memory once read: asked at every interaction),
    in a server the bot serves (a moderator of a server the bot is not in moderates nothing of the bot's).
    default_permissions is only Discord's hint."""
    if interaction.guild is None or not served_guild(interaction):
        return False
    if interaction.permissions.manage_messages or interaction.permissions.manage_guild:
        return True
    role_id = await bot.app.roles.editor_role(interaction.guild.id)
    roles = getattr(interaction.user, "roles", [])
    return role_id is not None and any(role.id == role_id for role in roles)


async def moderator_or_denied(interaction: discord.Interaction) -> bool:
    """True for a moderator; anyone else gets the short private refusal (outside the bot's servers: that this is
    done in one of them)."""
    if await is_moderator(services(interaction), interaction):
        return True
    await deny(interaction, "admin_denied" if served_guild(interaction) else "needs_server")
    return False


async def manages_server(interaction: discord.Interaction) -> bool:
    """Manage Server (the term of the day, the editor role); anyone else gets the short private refusal."""
    if interaction.permissions.manage_guild:
        return True
    await deny(interaction, "admin_denied_guild")
    return False


async def deny(interaction: discord.Interaction, key: str = "admin_denied") -> None:
    await reply(interaction, t(interaction.locale, key))


# What a scheduled post needs in its channel (discord.py's names → their names in the catalogue)
POSTING = {
    "view_channel": "perm_view_channel",
    "send_messages": "perm_send_messages",
    "embed_links": "perm_embed_links",
}
POSTING_WITH_FILES = {**POSTING, "attach_files": "perm_attach_files"}


def missing_permissions(channel: discord.abc.GuildChannel, required: dict[str, str] = POSTING) -> tuple[str, ...]:
    """The permissions of `required` the bot lacks in `channel` (discord.py's names)."""
    me = channel.guild.me
    perms = channel.permissions_for(me) if me is not None else None
    return tuple(attr for attr in required if perms is None or not getattr(perms, attr))


def permission_names(permissions: tuple[str, ...], locale: object) -> str:
    """Permissions (discord.py's names) as Discord shows them, in the reader's language."""
    names = POSTING_WITH_FILES
    return ", ".join(t(locale, names[p]) for p in permissions if p in names)
