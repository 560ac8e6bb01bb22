"""The web page's own words, in the glossary's language: English for a glossary in English, Spanish otherwise (a
page says one language, and its `lang` is the glossary's). The script's sentences travel as data attributes of
the status line ({count}, {query} filled in by the script)."""

from __future__ import annotations

SITE_WORDS = {
    "es": {
        "skip": "Saltar al glosario",
        "search": "Buscar un término",
        "terms_1": "1 término",
        "terms": "{count} términos",
        "found": "{terms} para «{query}»",
        "none": "Ningún término coincide con «{query}».",
        "made": "Página generada con glosario-bot.",
        "english": "En inglés:",
        "senses": "Sentidos de {term}",
        "also": "También:",
        "links": "Enlaces sobre {term}",
        "definition_in": "Definición en",
        "note": "Nota:",
        "example": "Ejemplo:",
        "sources": "Fuentes",
        "related": "Relacionados:",
        "avoid": "Evita:",
        "tags": "Etiquetas:",
        "index": "Índice alfabético",
    },
    "en": {
        "skip": "Skip to the glossary",
        "search": "Search for a term",
        "terms_1": "1 term",
        "terms": "{count} terms",
        "found": "{terms} for “{query}”",
        "none": "No term matches “{query}”.",
        "made": "Page made with glosario-bot.",
        "english": "In English:",
        "senses": "Senses of {term}",
        "also": "Also:",
        "links": "Links about {term}",
        "definition_in": "Definition in",
        "note": "Note:",
        "example": "Example:",
        "sources": "Sources",
        "related": "Related:",
        "avoid": "Avoid:",
        "tags": "Tags:",
        "index": "Alphabetical index",
    },
}


def site_words(language: str) -> dict[str, str]:
    """The page's words for a glossary in `language` (a language tag: "en", "en-GB", "es"…)."""
    return SITE_WORDS["en" if language.lower().startswith("en") else "es"]
