"""The two forms of a proposal: a member proposing a term (the server term's form, open to any member when the
server takes proposals), and an editor publishing one (the same form, filled in with the proposal)."""

from __future__ import annotations

import discord

from bot.app.community.server_terms import Refused, Saved
from bot.app.errors import DatabaseBusy
from bot.core.server_terms import TermFields
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.replies import reply
from bot.discord_app.kit.services import services
from bot.discord_app.proposals._told import tell_proposer
from bot.discord_app.server_terms.form import Draft, TermModal, answer_refused


class ProposalModal(TermModal):
    """The same form for any member (when the server takes proposals): it becomes a proposal for the editors."""

    PREFIX, TITLE = "glosario:propform", "prop_modal"
    PROPOSING = True

    async def refusal(self, interaction: discord.Interaction) -> str | None:
        return None if await services(interaction).app.proposals.enabled(interaction.guild_id or 0) else "prop_off"

    async def apply(self, interaction: discord.Interaction) -> None:
        bot, fields, guild_id = services(interaction), self.fields(), interaction.guild_id or 0
        locale = str(interaction.locale)
        try:
            result = await bot.app.proposals.propose(guild_id, interaction.user.id, locale, fields)
        except DatabaseBusy as exc:
            await self.not_saved(interaction, fields, exc)
            return
        if isinstance(result, Refused):
            bot.drafts.keep(guild_id, interaction.user.id, Draft(fields, self.again, proposing=True))
            await answer_refused(interaction, result, fields)
            return
        name = discord.utils.escape_markdown(fields.term.strip())
        await reply(interaction, t(interaction.locale, "prop_thanks", term=name))


class PublishModal(TermModal):
    """An editor publishing a member's proposal, as the editor leaves it; the proposer is told the outcome."""

    OFFERS_ALIAS = False

    def __init__(self, interaction: discord.Interaction, fields: TermFields, proposal_id: int) -> None:
        super().__init__(interaction, fields)
        self.proposal_id = proposal_id

    def again(self, interaction: discord.Interaction, fields: TermFields) -> TermModal:
        return PublishModal(interaction, fields, self.proposal_id)

    async def save(self, interaction: discord.Interaction, fields: TermFields) -> Saved | Refused | None:
        guild_id = interaction.guild_id or 0
        saved = await services(interaction).app.proposals.publish(
            guild_id, self.proposal_id, interaction.user.id, fields
        )
        if saved is None:  # decided meanwhile, or another server's: what the editor typed is given back
            await self.give_back(interaction, t(interaction.locale, "prop_gone"))
        return saved

    async def after_saved(self, interaction: discord.Interaction, saved: Saved) -> None:
        await tell_proposer(services(interaction), interaction.guild_id or 0, self.proposal_id)
