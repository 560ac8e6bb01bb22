"""/termino, top to bottom: the command and its autocomplete (`_cog.py`), the suggestions when no name matches
with confidence (`suggestions.py`), and questions in a member's own words (`meaning.py`)."""

from bot.discord_app.lookup._cog import LookupCog, answer_by_name, setup
from bot.discord_app.lookup.suggestions import (
    SignedButton,
    SuggestionButton,
    UnsignedSuggestionButton,
    suggestions_view,
)

__all__ = [
    "LookupCog",
    "SignedButton",
    "SuggestionButton",
    "UnsignedSuggestionButton",
    "answer_by_name",
    "setup",
    "suggestions_view",
]
