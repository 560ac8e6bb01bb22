"""Sentences about what is wrong (term files, imports, settings, the database), said by code: code carries a
`Sentence` (a code and its parameters) and each surface renders it in its reader's language from one catalogue per
language (bot/core/problems_es.py and problems_en.py: the same codes, with the same placeholders).

A parameter may itself be a `Sentence` or a `Joined` (several values and the words between them), rendered in the
same language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.core import problems_en, problems_es

CATALOGUES: dict[str, Mapping[str, str]] = {"es": problems_es.TEXT, "en": problems_en.TEXT}


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of the catalogues: its code and the values of its placeholders."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: str = "es") -> str:
        """The sentence in `lang` ("en" for English, Spanish otherwise)."""
        return render(self.code, self.params, lang)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Joined:
    """Several values said one after another, `separator` between them (text, or a Sentence such as "o"/"or")."""

    items: Sequence[object]
    separator: object = ", "

    def text(self, lang: str = "es") -> str:
        return _said(self.separator, lang).join(_said(item, lang) for item in self.items)

    def __str__(self) -> str:
        return self.text()


Said = Sentence | Joined


class SaidInBoth:
    """For a value that holds what it says as `said`: that in Spanish and in English."""

    __slots__ = ()
    said: Said

    @property
    def spanish(self) -> str:
        return self.said.text("es")

    @property
    def english(self) -> str:
        return self.said.text("en")


class SaidError(Exception):
    """An error said as a sentence of the catalogues (or several, `Joined`): in Spanish as str, in the reader's
    language by `text`."""

    def __init__(self, sentence: Said) -> None:
        super().__init__(sentence.text("es"))
        self.sentence = sentence

    @property
    def english(self) -> str:
        return self.sentence.text("en")

    def text(self, lang: str = "es") -> str:
        return self.sentence.text(lang)


def said(code: str, /, **params: object) -> Sentence:
    """`Sentence(code, params)`, with the parameters as keywords."""
    return Sentence(code, params)


def render(code: str, params: Mapping[str, object], lang: str = "es") -> str:
    """The sentence `code` of the catalogue of `lang`, its placeholders filled (sentences in them rendered too)."""
    catalogue = CATALOGUES["en" if lang == "en" else "es"]
    return catalogue[code].format_map({name: _said(value, lang) for name, value in params.items()})


def _said(value: object, lang: str) -> object:
    return value.text(lang) if isinstance(value, Sentence | Joined) else value
