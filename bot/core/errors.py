"""Errors raised by the core. Each says whose fault it is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in the term files: where, and what to do about it."""

    file: str
    line: int
    message: str  # Spanish, the glossary's language
    english: str = ""  # the same, for an English command line

    def text(self, lang: str = "es", file: str | None = None) -> str:
        """`file:line: message` in that language (line 0: about the file or folder as a whole)."""
        message = self.english if lang == "en" and self.english else self.message
        file = self.file if file is None else file
        return f"{file}:{self.line}: {message}" if self.line else f"{file}: {message}"

    def __str__(self) -> str:
        return self.text()


class GlossaryError(Exception):
    """The term files are invalid (the editor's fault). Carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line, p.message))
        super().__init__(self.report())

    def report(self, relative_to: str | None = None, lang: str = "es") -> str:
        """One `file:line: message` per problem, in that language; with `relative_to` (the glossary directory),
        file names are shown relative to it, as moderators in Discord should see them (not the server's paths)."""
        prefix = relative_to.rstrip("/\\") + "/" if relative_to is not None else None
        return "\n".join(
            p.text(lang, p.file.removeprefix(prefix) if prefix and p.file.startswith(prefix) else None)
            for p in self.problems
        )
