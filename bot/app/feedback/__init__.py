"""Feedback on a card (votes.py): a member's 👍/👎 and what they said was missing, and what editors read of it
(the least helpful terms, the latest comments, the digest's line, the exports)."""
