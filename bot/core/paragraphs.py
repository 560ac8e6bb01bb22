"""A definition's paragraphs, as every surface shows them (card, command line, web page)."""

from __future__ import annotations

import re

_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a definition, each on one line. A blank line in a term file reaches the text as a single
    line break (YAML's folded and plain styles, as the term files write definitions) or as an empty line (literal
    style, a quoted "\\n\\n", a form in Discord): either separates paragraphs. Where the text has empty lines, a
    single line break only wraps a line inside a paragraph."""
    text = text.strip()
    if not text:
        return []
    blocks = _BLANK_LINE.split(text) if _BLANK_LINE.search(text) else text.split("\n")
    return [" ".join(block.split()) for block in blocks if block.strip()]
