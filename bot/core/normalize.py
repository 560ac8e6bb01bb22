"""The one text normalisation used both to index glossary keys and to read queries."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# Accents are dropped, but ñ stays distinct from n ("año" is not "ano"): keep a combining tilde after n.
_MARKS = re.compile(r"[\u0300-\u0302\u0304-\u036f]|(?<!n)\u0303")
# Halves of UTF-16 surrogate pairs: JSON's "\ud800" escape can carry one alone, and UTF-8 cannot encode it.
_LONE_SURROGATES = re.compile("[\ud800-\udfff]")
# Everything that is not a letter or a digit separates words: spaces, - _ . and punctuation alike.
_SEPARATORS = re.compile(r"[\W_]+")


def valid_text(text: str) -> str:
    """Text that any encoder accepts: each lone surrogate becomes U+FFFD (the replacement character)."""
    if text.isascii() or not _LONE_SURROGATES.search(text):
        return text
    return _LONE_SURROGATES.sub("\ufffd", text)


def normalize(text: str) -> str:
    """Fold case and accents (keeping ñ) and turn every run of separators into one space."""
    if text.isascii():  # most keys and queries: no accents to fold, and lower() is casefold() here
        lowered = text.lower()
        if lowered.replace(" ", "").isalnum() and "  " not in lowered and lowered[0] != " " and lowered[-1] != " ":
            return lowered  # (letters and digits between single spaces: nothing to replace)
        return _SEPARATORS.sub(" ", lowered).strip()
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    folded = _MARKS.sub("", folded).replace("n\u0303", "ñ")
    return _SEPARATORS.sub(" ", folded).strip()


def compact(normalized: str) -> str:
    """The form without separators, so that "all reduce" and "allreduce" meet."""
    return normalized.replace(" ", "")


def sorted_compact(normalized: str) -> str:
    """Words sorted, then joined: word order stops mattering ("tensorflow distributed")."""
    return "".join(sorted(normalized.split()))


SLUG_LENGTH = 72  # ids fit in a button's custom_id with its prefix


def slug(text: str) -> str:
    """A stable identifier for a term: its normalised name with hyphens (≤ 72 characters, to fit custom ids)."""
    return normalize(text).replace(" ", "-")[:SLUG_LENGTH].strip("-")


def unused_id(prefix: str, base: str, taken: set[str]) -> str:
    """`prefix` + the first of `numbered_slugs(base)` that is not in `taken`, added to it: an id, anchor or address
    that collides with none made before it."""
    found = next(each for candidate in numbered_slugs(base) if (each := prefix + candidate) not in taken)
    taken.add(found)
    return found


def numbered_slugs(base: str) -> Iterator[str]:
    """`base`, then `base-2`, `base-3`…, each within the slug length: the candidates for an id that must not
    collide with another (two names alike in their first 72 characters)."""
    yield base
    n = 2
    while True:
        suffix = f"-{n}"
        yield base[: SLUG_LENGTH - len(suffix)].rstrip("-") + suffix
        n += 1
