"""Feedback on cards: the "¿Te ha servido? 👍 👎" row under every card, the "¿Qué faltaba?" form after a 👎, and
what editors see of it (the least helpful terms, the latest comments, "Editar" beside a server term)."""

from bot.discord_app.feedback._cog import FeedbackCog, setup
from bot.discord_app.feedback._rows import (
    CommentForm,
    EditTermButton,
    VoteButton,
    comment_lines,
    edit_buttons,
    least_helpful_lines,
    vote_row,
)

__all__ = [
    "CommentForm",
    "EditTermButton",
    "FeedbackCog",
    "VoteButton",
    "comment_lines",
    "edit_buttons",
    "least_helpful_lines",
    "setup",
    "vote_row",
]
