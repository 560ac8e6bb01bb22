"""UI strings in one place: Spanish (default) and English, chosen by the user's Discord locale."""

from __future__ import annotations

from typing import Any

STRINGS: dict[str, dict[str, str]] = {
    "es": {
        "english": "Inglés",
        "category": "Categoría",
        "aliases": "También se busca como",
        "related": "Ver también",
        "links": "Enlaces",
        "not_found": "**{query}** todavía no está en el glosario. Se lo he apuntado a los editores para que lo añadan.",
        "did_you_mean": "No encuentro **{query}** tal cual. ¿Quisiste decir…?",
        "cooldown": "Vas muy rápido: espera {seconds} s y vuelve a preguntar.",
        "term_gone": "Ese término ya no está en el glosario.",
        "error": "Algo ha fallado al responder. Ya está registrado; prueba de nuevo en un momento.",
        "empty_query": "Escribe el término que quieres consultar, por ejemplo `/termino horovod`.",
        "restarting": "Me estoy reiniciando: vuelve a preguntar en unos segundos.",
    },
    "en": {
        "english": "English",
        "category": "Category",
        "aliases": "Also searched as",
        "related": "See also",
        "links": "Links",
        "not_found": "**{query}** is not in the glossary yet. I have let the editors know so they can add it.",
        "did_you_mean": "I cannot find **{query}** as written. Did you mean…?",
        "cooldown": "You are going fast: wait {seconds} s and ask again.",
        "term_gone": "That term is no longer in the glossary.",
        "error": "Something went wrong while answering. It has been logged; try again in a moment.",
        "empty_query": "Type the term you want to look up, for example `/term horovod`.",
        "restarting": "I am restarting: ask again in a few seconds.",
    },
}


def language(locale: object) -> str:
    """'en' for English Discord locales (en-US, en-GB), 'es' for everything else."""
    return "en" if str(getattr(locale, "value", locale) or "").startswith("en") else "es"


def t(locale: object, key: str, **values: Any) -> str:
    return STRINGS[language(locale)][key].format(**values)
