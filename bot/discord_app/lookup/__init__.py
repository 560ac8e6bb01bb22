"""/termino, top to bottom: the command and its autocomplete (`_cog.py`), the suggestions when no name matches
with confidence (`suggestions.py`), and questions in a member's own words (`meaning.py`)."""

from bot.discord_app.lookup._cog import LookupCog, setup
from bot.discord_app.lookup.suggestions import PickButton, SignedButton, UnsignedPickButton, suggestions_view

__all__ = ["LookupCog", "PickButton", "SignedButton", "UnsignedPickButton", "setup", "suggestions_view"]
