"""Characters nobody sees. `first_refused` is what `validate` refuses in a term file (the loader's rule); `cleaned`
is what an import removes from a real file's text instead of refusing the entry: only characters whose removal
changes neither what a reader sees nor what the text says, each counted by kind."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

# Refused in a term file: zero-width characters, bidirectional marks and overrides (they change the order in which a
# text is shown), control characters; and U+FFFE, U+FFFF, which XML cannot carry at all (the TBX export would be
# unreadable). Zero-width joiners where they are part of a spelling are not among them (`_joins`).
_REFUSED = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufffe\uffff]"
)
# Escaped in a JSON or YAML string we write (`escape_invisible`): what JSON leaves raw (it escapes only what is below
# U+0020) but a terminal obeys (DEL and the C1 controls: U+009B is a whole "ESC ["), a YAML reader refuses (C1) or
# reads as a line break (U+0085, U+2028, U+2029), or a reader is misled by (marks that reorder or hide text).
_ESCAPED = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffe\uffff]")
# Shown as escapes in a terminal (`printable`): controls (C0, DEL, C1), line and paragraph separators, and the marks
# that reorder text. Not letters' own marks: a no-break space, ZWJ in an emoji, ZWNJ in Persian stay as they are.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# Removed by an import: a zero-width space (a place where a line may break), a word joiner and U+FEFF (a place where
# it may not), the invisible mathematical operators; and (`_joins`) a joiner where it joins nothing. None is shown,
# none changes what the text says, and `validate` refuses each: an import never changes a text it accepts. (A soft
# hyphen is neither: it shows where a line breaks, and the search reads it as the space between two parts.)
_REMOVED = frozenset("\u200b\u2060\ufeff\u2061\u2062\u2063\u2064")
ZWNJ, ZWJ = "\u200c", "\u200d"
_CLEANABLE = re.compile("[\u200b\u2060\ufeff\u2061-\u2064\u200c\u200d]")
# Scripts whose spelling uses ZWNJ and ZWJ: they part or join letters that would otherwise join (Arabic, Persian,
# Syriac, N'Ko, Mongolian) or choose between a conjunct and its parts (Devanagari to Sinhala, Tibetan, Myanmar, Khmer).
_JOINING = (
    (0x0600, 0x08FF),
    (0x0900, 0x0DFF),
    (0x0F00, 0x0FFF),
    (0x1000, 0x109F),
    (0x1780, 0x18AF),
    (0xA840, 0xA87F),
    (0xFB50, 0xFDFF),
    (0xFE70, 0xFEFF),
)
_EMOJI_BEFORE_ZWJ = frozenset("\ufe0f") | {chr(c) for c in range(0x1F3FB, 0x1F400)}  # VS-16, skin tones


def _in_joining_script(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _JOINING) and unicodedata.category(char)[0] in "LM"


def _joins(text: str, at: int) -> bool:
    """Whether the ZWNJ or ZWJ at `at` is part of the spelling: between two letters or marks of a script that uses
    it, or (ZWJ) inside an emoji sequence such as 👩‍💻. Anywhere else it changes nothing (Latin letters, a
    space, punctuation, either end) and is removed."""
    before, after = text[at - 1 : at], text[at + 1 : at + 2]
    if not before or not after:
        return False
    if _in_joining_script(before) and _in_joining_script(after):
        return True
    emoji_before = unicodedata.category(before) == "So" or before in _EMOJI_BEFORE_ZWJ
    return text[at] == ZWJ and emoji_before and unicodedata.category(after) == "So"


def first_refused(value: str) -> tuple[int, str] | None:
    """The first character nobody sees that a term file may not hold, as (its index, the character)."""
    found = _REFUSED.search(value)
    while found is not None:  # (nearly every text: one search, nothing found)
        if found.group() not in (ZWNJ, ZWJ) or not _joins(value, found.start()):
            return found.start(), found.group()
        found = _REFUSED.search(value, found.end())
    return None


def kind(char: str) -> str:
    """A character as people look it up: "U+200B ZERO WIDTH SPACE"."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}{' ' + name if name else ''}"


def has_cleanable(text: str) -> bool:
    """Whether `cleaned` may remove anything from `text` (one search: an import asks it of every entry at once)."""
    return _CLEANABLE.search(text) is not None


def cleaned(text: str, removed: Counter) -> str:
    """`text` without the characters nobody sees that carry nothing (each counted in `removed`, by `kind`)."""
    if not _CLEANABLE.search(text):  # nearly every text: no copy, no walk
        return text
    kept = []
    for at, char in enumerate(text):
        if char in _REMOVED or (char in (ZWNJ, ZWJ) and not _joins(text, at)):
            removed[kind(char)] += 1
        else:
            kept.append(char)
    return "".join(kept)


def escape_invisible(quoted: str) -> str:
    """A JSON text (or a YAML double-quoted string written as JSON writes it) with every character of `_ESCAPED` as
    a `\\uXXXX` escape: the same value once read, nothing for a terminal to obey or a YAML reader to refuse."""
    return _ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


ECHOED = 100  # characters of a member's text said back (a query, a name): one line, cut with "…"


def one_line(text: str, limit: int = ECHOED) -> str:
    """The text on one line (each run of spaces and line breaks one space), at most `limit` characters; a cut text
    ends in "…"."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


# Marks that turn around the text after them until its paragraph ends (embeddings, overrides, isolates and their
# ends): said back inside a sentence, a member's text would turn the rest of the sentence around too.
_TURNING = re.compile("[\u202a-\u202e\u2066-\u2069]")


def without_turns(text: str) -> str:
    """`text` without the marks that turn around what follows them (`_TURNING`); its letters as they are."""
    return _TURNING.sub("", text) if not text.isascii() else text


def printable(text: str) -> str:
    """Text for a terminal or a log: each character of `_UNPRINTABLE` (an escape sequence, a line break, a mark that
    turns text around) shown as its escape (`\\x1b`, `\\n`, `\\u202e`); everything else as it is."""
    if text.isprintable():
        return text
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
