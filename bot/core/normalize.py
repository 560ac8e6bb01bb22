"""The one text normalisation used both to index glossary keys and to read queries."""

from __future__ import annotations

import re
import unicodedata

# Accents are dropped, but ñ stays distinct from n ("año" is not "ano"): keep a combining tilde after n.
_MARKS = re.compile(r"[\u0300-\u0302\u0304-\u036f]|(?<!n)\u0303")
# Everything that is not a letter or a digit separates words: spaces, - _ . and punctuation alike.
_SEPARATORS = re.compile(r"[\W_]+")


def normalize(text: str) -> str:
    """Fold case and accents (keeping ñ) and turn every run of separators into one space."""
    if text.isascii():  # most keys and queries: no accents to fold, and lower() is casefold() here
        return _SEPARATORS.sub(" ", text.lower()).strip()
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    folded = _MARKS.sub("", folded).replace("n\u0303", "ñ")
    return _SEPARATORS.sub(" ", folded).strip()


def compact(normalized: str) -> str:
    """The form without separators, so that "all reduce" and "allreduce" meet."""
    return normalized.replace(" ", "")


def sorted_compact(normalized: str) -> str:
    """Words sorted, then joined: word order stops mattering ("tensorflow distributed")."""
    return "".join(sorted(normalized.split()))


def slug(text: str) -> str:
    """A stable identifier for a term: its normalised name with hyphens (≤ 72 characters, to fit custom ids)."""
    return normalize(text).replace(" ", "-")[:72].strip("-")
