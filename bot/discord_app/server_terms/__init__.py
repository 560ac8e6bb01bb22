"""A server's own terms in Discord, top to bottom: the commands (`_cog.py`: /glosario-admin termino nuevo |
editar | retirar | historial), then the form and what a save answers (`form.py`: the card when saved; every
problem, what was typed and a "Fix" button when refused). The work is the
application's (bot.app.community.server_terms)."""

from bot.discord_app.server_terms._cog import ServerTermsCog, setup
from bot.discord_app.server_terms.form import AliasInsteadButton, Draft, Drafts, FixButton, TermModal

__all__ = ["AliasInsteadButton", "Draft", "Drafts", "FixButton", "ServerTermsCog", "TermModal", "setup"]
