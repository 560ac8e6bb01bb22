"""Errors raised by the core. Each says whose fault it is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in the term files: where, and what to do about it."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:  # line 0: about the file (or folder) as a whole
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


class GlossaryError(Exception):
    """The term files are invalid (the editor's fault). Carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line, p.message))
        super().__init__(self.report())

    def report(self, relative_to: str | None = None) -> str:
        """One `file:line: message` per problem; with `relative_to` (the glossary directory), file names are
        shown relative to it, as moderators in Discord should see them (not the server's own paths)."""
        if relative_to is None:
            return "\n".join(str(p) for p in self.problems)
        prefix = relative_to.rstrip("/\\") + "/"
        return "\n".join(
            str(Problem(p.file.removeprefix(prefix), p.line, p.message)) if p.file.startswith(prefix) else str(p)
            for p in self.problems
        )
