"""Members' proposals in Discord, top to bottom: a member proposes a term with the server term's form
(`_forms.py`, `ProposalModal`, offered by /glosario buscar when nothing matches); editors list them
(`_cog.py`: /glosario-admin propuestas) and publish (`PublishModal`) or reject one (`_list.py`); the proposer
is told the outcome by direct message, or privately after their next command (`_told.py`). The work is the
application's (bot.app.community.proposals)."""

from discord.ext import commands

from bot.discord_app.proposals._cog import ProposalsCog
from bot.discord_app.proposals._forms import ProposalModal, PublishModal
from bot.discord_app.proposals._list import ProposalSelect, RejectModal, proposals_embed, proposals_view
from bot.discord_app.proposals._told import outcome, tell_on_next_command, tell_proposer

__all__ = [
    "ProposalModal",
    "ProposalSelect",
    "PublishModal",
    "RejectModal",
    "outcome",
    "proposals_embed",
    "proposals_view",
    "tell_on_next_command",
    "tell_proposer",
]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ProposalsCog(bot))
