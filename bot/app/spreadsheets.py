"""Cells for spreadsheets: text that a spreadsheet would run as a formula is neutralised on the way out (every CSV
the bot writes: gap exports, feedback, glossary exports) and restored on the way in (CSV imports)."""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A cell a spreadsheet will not run: text starting like a formula gets a leading apostrophe (OWASP's advice
    for CSV injection); numbers stay numbers. Text that starts with apostrophes and then a formula gets one too,
    so that `spreadsheet_plain` gives back exactly what was written."""
    if isinstance(value, str) and value.lstrip("'").startswith(FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_plain(value: str) -> str:
    """Undo `spreadsheet_safe`: a cell read back from a file it wrote."""
    return value[1:] if value.startswith("'") and value.lstrip("'").startswith(FORMULA_STARTS) else value
