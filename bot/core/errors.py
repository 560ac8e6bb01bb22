"""Errors raised by the core. Each says whose fault it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.invisible import printable
from bot.core.problems import CATALOGUES, Sentence, render


@dataclass(frozen=True, slots=True, init=False)
class Problem:
    """One thing wrong in the term files: where, and what to do about it, as a code of the problems' catalogues
    (bot/core/problems.py) with its parameters; `message` and `english` are its sentence in Spanish and English."""

    file: str
    line: int
    code: str
    params: Mapping[str, object]

    def __init__(self, file: str, line: int, code: str, params: Mapping[str, object] | None = None) -> None:
        if not isinstance(params, Mapping | None):
            raise TypeError(f"Problem takes a code and its parameters (a mapping), not {type(params).__name__}")
        if code not in CATALOGUES["es"]:
            raise KeyError(f"{code!r} is no code of the problems' catalogues (bot/core/problems_es.py)")
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "params", dict(params or {}))

    def __hash__(self) -> int:  # (the parameters are a dict: a problem hashes as what it says)
        return hash((self.file, self.line, self.message))

    @property
    def sentence(self) -> Sentence:
        return Sentence(self.code, self.params)

    @property
    def message(self) -> str:
        """In Spanish, the glossary's language."""
        return render(self.code, self.params, "es")

    @property
    def english(self) -> str:
        """The same, for an English command line."""
        return render(self.code, self.params, "en")

    def text(self, lang: str = "es", file: str | None = None) -> str:
        """`file:line: message` in that language (line 0: about the file or folder as a whole)."""
        message = render(self.code, self.params, lang)
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
        return "\n".join(  # (a file's own text said back, a key or a value, is shown printable: one line each)
            printable(p.text(lang, p.file.removeprefix(prefix) if prefix and p.file.startswith(prefix) else None))
            for p in self.problems
        )
