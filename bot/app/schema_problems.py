"""A JSON document against the glossary's schema (bot/app/schemas/glossary.schema.json, checked by jsonschema):
each thing wrong as a sentence in Spanish and English, led by its place as a JSON pointer (RFC 6901)."""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

SCHEMA_FILE = "schemas/glossary.schema.json"
# What `found` words itself; any other keyword a later schema uses gets a plain sentence naming it.
DESCRIBED = frozenset({"type", "required", "additionalProperties", "minLength", "maxLength", "pattern", "uniqueItems"})
_TYPES = {
    "string": ("texto", "text"),
    "array": ("una lista", "a list"),
    "object": ("un objeto", "an object"),
    "null": ("null", "null"),
    "number": ("un número", "a number"),
    "integer": ("un número entero", "a whole number"),
    "boolean": ("true o false", "true or false"),
}
_HALVES = re.compile("[\ud800-\udfff]")
_PATTERN_HINTS = {
    "id": (
        "palabras sin espacios unidas por guiones, p. ej. servidor-de-parametros",
        "words without spaces joined by hyphens, e.g. parameter-server",
    ),
    "url": ("debe empezar por https:// (o http://)", "it must start with https:// (or http://)"),
}


@dataclass(frozen=True, slots=True)
class SchemaProblem:
    """One thing wrong: where (the document's keys and indexes down to it) and what, in Spanish and English."""

    path: tuple[str | int, ...]
    spanish: str
    english: str


@cache
def _validator() -> Any:
    import jsonschema  # imported only by the JSON import

    schema = json.loads(resources.files("bot.app").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    return validator(schema)


def pointer(path: tuple[str | int, ...]) -> str:
    """The JSON pointer of a place in the document ("" is the whole document)."""
    where = "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
    return _HALVES.sub(lambda half: f"\\u{ord(half.group()):04x}", where)  # (a key can hold half a UTF-16 pair)


def found(document: object) -> list[SchemaProblem]:
    """Everything in `document` that the schema refuses, in the order the validator finds it, each said once; then
    text no file can hold (JSON's "\\ud800" escape carries half a UTF-16 pair, which UTF-8 cannot write)."""
    problems: dict[tuple, SchemaProblem] = {}
    for error in _validator().iter_errors(document):
        path = tuple(error.absolute_path)
        spanish, english = _what(error.validator, error.validator_value, error.instance, error.schema, path)
        problems.setdefault((path, spanish), _said(path, spanish, english))
    for path, text in _texts(document):
        half = next((char for char in text if "\ud800" <= char <= "\udfff"), None)
        if half is not None:
            code = f"U+{ord(half):04X}"
            spanish = f"contiene {code}, media pareja de UTF-16 que no es ningún carácter: bórrala"
            problems.setdefault(
                (path, spanish),
                _said(path, spanish, f"contains {code}, half a UTF-16 pair and no character: delete it"),
            )
    return list(problems.values())


def _said(path: tuple[str | int, ...], spanish: str, english: str) -> SchemaProblem:
    where = pointer(path)
    subject = (where, where) if where else ("el documento", "the document")
    return SchemaProblem(path, f"{subject[0]} {spanish}", f"{subject[1]} {english}")


def _texts(document: object) -> list[tuple[tuple[str | int, ...], str]]:
    """Every string in the document (keys included, at the place of their object), with its path."""
    out, stack = [], [((), document)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            out.append((path, value))
        elif isinstance(value, dict):
            out += [(path, key) for key in value]
            stack += [((*path, key), item) for key, item in reversed(value.items())]
        elif isinstance(value, list):
            stack += [((*path, i), item) for i, item in reversed(list(enumerate(value)))]
    return out


def _what(keyword: str, rule: Any, value: Any, schema: dict, path: tuple) -> tuple[str, str]:
    """What is wrong with `value` by `keyword` of the schema, as a predicate: "debe ser texto, no una lista"."""
    if keyword == "type":
        wanted = [rule] if isinstance(rule, str) else list(rule)
        es = " o ".join(_TYPES.get(t, (t, t))[0] for t in wanted)
        en = " or ".join(_TYPES.get(t, (t, t))[1] for t in wanted)
        is_es, is_en = _kind(value)
        return f"debe ser {es}, no {is_es}", f"must be {en}, not {is_en}"
    if keyword == "required":
        missing = [_quoted(key) for key in rule if key not in value]
        if len(missing) == 1:
            return f"no tiene {missing[0]}, que es obligatorio", f"lacks {missing[0]}, which is required"
        names = ", ".join(missing)
        return f"no tiene {names}, que son obligatorios", f"lacks {names}, which are required"
    if keyword == "additionalProperties":
        known = sorted(schema.get("properties", {}))
        extra = [key for key in value if key not in known]
        hints = [difflib.get_close_matches(key, known, n=1) for key in extra]
        names = ", ".join(_quoted(key) for key in extra)
        if len(extra) == 1 and hints[0]:
            fix, fix_en = f"¿querías decir {_quoted(hints[0][0])}?", f"did you mean {_quoted(hints[0][0])}?"
        else:
            valid = ", ".join(_quoted(key) for key in known)
            fix, fix_en = f"las claves válidas son {valid}", f"the valid keys are {valid}"
        if len(extra) == 1:
            return f"tiene una clave desconocida, {names}: {fix}", f"has an unknown key, {names}: {fix_en}"
        return f"tiene claves desconocidas, {names}: {fix}", f"has unknown keys, {names}: {fix_en}"
    if keyword == "minLength":
        if rule == 1:
            return "está vacío: escribe un valor", "is empty: write a value"
        return f"tiene {len(value)} caracteres y necesita {rule}", f"has {len(value)} characters and needs {rule}"
    if keyword == "maxLength":
        return (
            f"tiene {len(value)} caracteres y se admiten {rule}: acórtalo",
            f"has {len(value)} characters and {rule} are allowed: shorten it",
        )
    if keyword == "pattern":
        hint = _PATTERN_HINTS.get(str(path[-1]) if path else "")
        es, en = hint or (f"no tiene la forma que pide el esquema ({rule})", f"does not match the schema ({rule})")
        return f"{_quoted(value)}: {es}", f"{_quoted(value)}: {en}"
    if keyword == "uniqueItems":
        return "tiene elementos repetidos: deja uno de cada", "has repeated items: keep one of each"
    return f"no cumple la regla «{keyword}» del esquema", f"breaks the schema's rule '{keyword}'"


def _kind(value: Any) -> tuple[str, str]:
    """What a JSON value is, in words (a bool is checked before int: in Python, True is 1)."""
    if isinstance(value, bool):
        return "true o false", "true or false"
    if isinstance(value, int | float):
        return "un número", "a number"
    if value is None:
        return "null", "null"
    kind = "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"
    return _TYPES[kind]


def _quoted(text: object, limit: int = 60) -> str:
    """A key or value as a JSON string: quotes, control characters and halves of UTF-16 pairs escaped (a terminal
    could not print them), long ones cut with "…"."""
    text = str(text)
    quoted = json.dumps(text if len(text) <= limit else text[:limit] + "…", ensure_ascii=False)
    return _HALVES.sub(lambda half: f"\\u{ord(half.group()):04x}", quoted)
