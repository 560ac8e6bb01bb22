"""What a term's card says, as text: one computation for the card that is sent and for the check that it fits.

The Discord layer renders a `CardText` (labels from its catalogue, the attribution with its mention and date);
validation measures the same `CardText` with room for those labels (`CARD_FRAME`, `ATTRIBUTION`: tests hold
every language's labels and attribution within them), so a card that passed the check is never cut."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from bot.core.model import Sense, Term
from bot.core.paragraphs import paragraphs

EMBED_TOTAL = 6000  # Discord: characters across a message's embeds
# Room for what the Discord layer adds: the field names in any language and the term of the day's heading.
CARD_FRAME = 200
# Room for a server term's attribution value ("añadido por <@id> el <t:…:D>") in any language.
ATTRIBUTION = 120


class CardText(NamedTuple):
    """A card's text (immutable). A named tuple rather than a frozen dataclass: a new card is made on most
    replies, and a frozen dataclass's constructor cost nearly three times as much (each field set through
    `object.__setattr__`). Its size is `length()`, not `len()` (the number of its parts)."""

    title: str
    description: str
    fields: tuple[tuple[str, str, bool], ...]  # (label key, value, inline)
    footer: str
    attributed: bool = False  # a server term's card ends with who added it

    def length(self) -> int:
        """The card's size as Discord counts it, with room for the labels and the attribution."""
        text = len(self.title) + len(self.description) + len(self.footer) + sum(len(v) for _, v, _ in self.fields)
        return CARD_FRAME + text + (ATTRIBUTION if self.attributed else 0)


def footer(title: str, subtitle: str) -> str:
    return f"{title} — {subtitle}" if subtitle else title


def card_text(
    term: Term, related_names: Sequence[str] | Mapping[str, str], footer_text: str, *, attributed: bool = False
) -> CardText:
    """The card of `term`: its text, fields in order, related terms by name (`related_names`: the names, or each
    related id's name, which lets a term with several senses show what each sense relates to)."""
    # (A dict, as every caller passes, is told apart without the ABC's slower check.)
    names = related_names if type(related_names) is dict or isinstance(related_names, Mapping) else None
    listed = names.values() if names is not None else related_names
    fields: list[tuple[str, str, bool]] = (
        [("english", term.en, True), ("category", term.category, True)]
        if term.en
        else [("category", term.category, True)]
    )
    if term.aliases:
        fields.append(("aliases", ", ".join(term.aliases), False))
    if listed:
        fields.append(("related", ", ".join(listed), False))
    if term.links:
        fields.append(("links", "\n".join(f"[{k.title}]({k.url})" for k in term.links), True))
    fields.extend(_terminology_fields(term))
    description = _definition(term.definition) if not term.senses else _senses(term, names)
    return CardText(term.term, description, tuple(fields), footer_text, attributed)


def _definition(definition: str) -> str:
    # One blank line between paragraphs: Discord shows a single line break as a mere new line. A definition on one
    # line (most are) is one paragraph: `paragraphs` would only join its words again.
    if _spaced(definition):
        return definition  # (as most are: checking costs less than joining its words again)
    return " ".join(definition.split()) if "\n" not in definition else "\n\n".join(paragraphs(definition))


def _spaced(text: str) -> bool:
    """Whether `text` is its words joined by single spaces (`" ".join(text.split()) == text`): every whitespace
    character but the space is unprintable, and the space is not doubled, leading nor trailing."""
    return text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " "


def _senses(term: Term, names: Mapping[str, str] | None) -> str:
    """Several senses, numbered, one blank line between them; a sense after the first says its category and
    its related terms where they are not the first sense's (the card's fields show the first's)."""
    first = term.first_sense()
    blocks = [f"**1.** {_definition(first.definition)}"]
    for number, sense in enumerate(term.senses, start=2):
        blocks.append(f"**{number}.** {_sense_heading(sense, first)}{_definition(sense.definition)}")
        related = [names[i] for i in sense.related if i in names] if names is not None else []
        if related and sense.related != first.related:
            blocks.append("→ " + ", ".join(related))
        if sense.note:
            blocks.append(sense.note)
        if sense.example:  # as a quote, as Discord shows one: the card's labels are the first sense's
            blocks.append("> " + " ".join(sense.example.split()))
        if sense.sources:
            blocks.append("\n".join(_cited(sense.sources)))
    return "\n\n".join(blocks)


def _sense_heading(sense: Sense, first: Sense) -> str:
    """What a later sense says before its definition: its category (in italics) when not the first's, and the
    language of its definition when it is not the glossary's."""
    said = []
    if sense.category != first.category:
        said.append(f"*{sense.category}*")
    if sense.definition_language:
        said.append(f"({sense.definition_language})")
    return " ".join(said) + " — " if said else ""


def _terminology_fields(term: Term) -> list[tuple[str, str, bool]]:
    """What an imported entry carries beside its definition: the language of a definition that is not the
    glossary's, forms to avoid, a note, an example, sources and tags (each only when present)."""
    fields: list[tuple[str, str, bool]] = []
    if term.definition_language:
        fields.append(("card_definition_language", term.definition_language, True))
    if term.deprecated:
        fields.append(("card_avoid", ", ".join(term.deprecated), False))
    if term.note:
        fields.append(("card_note", term.note, False))
    if term.example:
        fields.append(("card_example", term.example, False))
    if term.sources:
        fields.append(("card_sources", "\n".join(_cited(term.sources)), False))
    if term.tags:
        fields.append(("card_tags", ", ".join(term.tags), True))
    return fields


def _cited(sources) -> list[str]:
    return [f"[{s.text}]({s.url})" if s.url else s.text for s in sources]


def neutral_markup(text: str) -> str:
    """Member-written text shown on a card: no masked link (`[texto](https://…)` hiding its target) can form.
    Brackets are escaped, and backslashes first, so that no escape can be undone; what is shown reads the same
    and a URL shows its own target."""
    if "[" not in text and "]" not in text:
        return text
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
