"""/glosario olvidarme: a member asks the bot to forget them (privately, confirmed with a button only they can press).
And a server that removes the bot is forgotten once the grace period is over, unless it adds the bot back. The
work is the application's (bot.app.privacy.erasure), the same action as the command line's forget-user and
forget-guild."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app.background import each_tick_outlives_errors, outliving_errors
from bot.app.privacy.erasure import CHECK_DEPARTURES_EVERY, Erased
from bot.discord_app.kit.buttons import render_only
from bot.discord_app.kit.groups import GLOSARIO, AttachedCog
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.persistent import Persistent
from bot.discord_app.kit.services import services

if TYPE_CHECKING:
    from bot.app.privacy.erasure import Erasure

log = logging.getLogger(__name__)
# How a member reads each table's count (a table not named here is shown by its own name).
REMOVED = {
    "proposals": "forget_proposals",
    "miss_askers": "forget_gaps",
    "pick_askers": "forget_picks",
    "feedback": "forget_feedback",
}
KEPT = {
    "server_terms": "forget_terms",
    "server_term_versions": "forget_versions",
    "server_aliases": "forget_aliases",
    "proposals": "forget_decisions",
}


def summary(erased: Erased, locale: object, *, done: bool) -> str:
    """What was (or, before the confirmation, would be) removed, and what stays as "un miembro", counted."""

    def lines(counts: dict[str, int], names: dict[str, str]) -> list[str]:
        return [
            t(locale, "forget_line", what=t(locale, names[table]) if table in names else table, count=count)
            for table, count in counts.items()
            if count
        ]

    removed = lines(erased.removed, REMOVED)
    if erased.journaled:
        removed.append(t(locale, "forget_line", what=t(locale, "forget_pending"), count=erased.journaled))
    kept = lines(erased.anonymised, KEPT)
    nothing = t(locale, "forget_nothing")
    return "\n".join(
        [
            t(locale, "forget_removed") if done else t(locale, "forget_to_remove"),
            *(removed or [nothing]),
            t(locale, "forget_kept") if done else t(locale, "forget_to_keep"),
            *(kept or [nothing]),
        ]
    )


class ForgetButton(
    Persistent,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"glosario:forget:(?P<user>\d{1,20}):(?P<sig>[0-9a-f]{12})",
):
    """The confirmation: the member to forget and the bot's signature over it, in the custom_id. Only that member
    may press it (checked here, on the server side); a forged one is refused."""

    def __init__(self, user_id: int, sig: str, label: str = "…") -> None:
        custom_id = f"glosario:forget:{user_id}:{sig}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=custom_id))
        self.user_id, self.sig = user_id, sig

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["user"]), match["sig"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if not await services(interaction).guard.within_rate_limit(interaction):
            return False
        if not services(interaction).app.erasure.signed(self.user_id, self.sig):
            refusal = "forget_invalid"
        elif interaction.user.id != self.user_id:
            refusal = "forget_not_yours"
        else:
            return True
        log.info(
            "forget button for user %s pressed by user %s: refused (%s)", self.user_id, interaction.user.id, refusal
        )
        await interaction.response.send_message(t(interaction.locale, refusal), ephemeral=True)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # (the queue and the journals may take a moment)
        bot = services(interaction)
        erased = await bot.app.erasure.forget_member(self.user_id)
        bot.forms.forget(self.user_id)  # (what the Discord layer holds of them: open forms, refused forms' fields)
        bot.drafts.forget(self.user_id)
        text = t(interaction.locale, "forget_done", summary=summary(erased, interaction.locale, done=True))
        await interaction.edit_original_response(content=text, view=None)


async def forget_me(interaction: discord.Interaction) -> None:
    """/glosario olvidarme: what the bot keeps about the member, and the button that removes it."""
    await interaction.response.defer(ephemeral=True, thinking=True)  # (counting reads every table and journal)
    erasure, loc, user_id = services(interaction).app.erasure, interaction.locale, interaction.user.id
    planned = await erasure.forget_member(user_id, dry_run=True)
    button = ForgetButton(user_id, erasure.sign(user_id), t(loc, "forget_button"))
    await interaction.followup.send(
        t(loc, "forget_prompt", summary=summary(planned, loc, done=False)),
        view=render_only([button]),
        ephemeral=True,
    )


class ErasureCog(AttachedCog):
    PARENT = GLOSARIO
    PERSISTENT = (ForgetButton,)

    def __init__(self, bot: commands.Bot, erasure: Erasure) -> None:
        command = app_commands.Command(
            name="olvidarme",
            description="Borra lo que el bot guarda de ti, en todos sus servidores",
            callback=forget_me,
        )
        super().__init__(bot, command)
        self.erasure = erasure
        # (each tick outlives any error: a database down for a while must not stop the forgetting for good)
        self.departures = tasks.loop(seconds=CHECK_DEPARTURES_EVERY)(
            each_tick_outlives_errors("forgetting the servers that removed the bot")(self.tick)
        )
        self.departures.before_loop(self.bot.wait_until_ready)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.departures.start()

    async def cog_unload(self) -> None:
        self.departures.cancel()
        await super().cog_unload()

    async def tick(self) -> None:
        """Forget this process's servers whose grace period is over (the app's clock says when), and what is kept
        only for a while."""
        await self.erasure.forget_departed(
            services(self.bot).owns, lambda guild_id: self.bot.get_guild(guild_id) is not None
        )
        await self.erasure.prune()

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await outliving_errors(f"noting the bot's removal from guild {guild.id}", lambda: self.erasure.left(guild.id))

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await outliving_errors(f"noting the bot's return to guild {guild.id}", lambda: self.erasure.returned(guild.id))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ErasureCog(bot, services(bot).app.erasure))
