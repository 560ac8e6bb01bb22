"""A JSON document against the glossary's schema (schemas/glossary.schema.json, checked by jsonschema):
each thing wrong as a sentence of the problems' catalogues, led by its place as a JSON pointer (RFC 6901)."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from bot.core.problems import Joined, Said, SaidInBoth, Sentence, said

SCHEMA_FILE = "schemas/glossary.schema.json"
# What `found` words itself; any other keyword a later schema uses gets a plain sentence naming it.
DESCRIBED = frozenset({"type", "required", "additionalProperties", "minLength", "maxLength", "pattern", "uniqueItems"})
# JSON's types, as the problems' catalogues name them.
_TYPES = {
    "string": "json_string",
    "array": "json_array",
    "object": "json_object",
    "null": "json_null",
    "number": "json_number",
    "integer": "json_integer",
    "boolean": "json_boolean",
}
_HALVES = re.compile("[\ud800-\udfff]")
_PATTERN_HINTS = {"id": "schema_id_pattern", "url": "url_scheme"}


@dataclass(frozen=True, slots=True)
class SchemaProblem(SaidInBoth):
    """One thing wrong: where (the document's keys and indexes down to it) and what, led by that place."""

    path: tuple[str | int, ...]
    said: Said


@cache
def _validator() -> Any:
    import jsonschema  # imported only by the JSON import

    schema = json.loads(resources.files("bot.app.interchange").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
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
    accepted = _quick_check()
    for error in () if accepted is not None and accepted(document) else _validator().iter_errors(document):
        path = tuple(error.absolute_path)
        what = _what(error.validator, error.validator_value, error.instance, error.schema, path)
        problems.setdefault((path, what.text("es")), _at(path, what))
    for path, text in _texts(document) if _has_half(document) else ():
        half = _HALVES.search(text)
        if half is not None:
            what = said("schema_half_pair", char=f"U+{ord(half.group()):04X}")
            problems.setdefault((path, what.text("es")), _at(path, what))
    return list(problems.values())


def _has_half(document: object) -> bool:
    """Whether any text of the document (a key or a value) holds half a UTF-16 pair: one search over the document
    written out, before the walk that says where."""
    try:
        written = json.dumps(document, ensure_ascii=False)
    except (TypeError, ValueError):  # not what json.loads gives: walk it to be sure
        return True
    return _HALVES.search(written) is not None


# The keywords `_quick_check` knows, and those that only describe (no document fails by them).
_QUICK_KEYWORDS = frozenset(
    {"type", "properties", "additionalProperties", "required", "items", "minLength", "maxLength", "pattern"}
    | {"uniqueItems"}
)
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$comment"})
_EXACT_TYPES = {"string": str, "array": list, "object": dict, "null": type(None)}


@cache
def _quick_check() -> Callable[[object], bool] | None:
    """A test that passes a document only when the schema accepts it, without jsonschema (which takes seconds over
    10,000 entries, and is still what names every problem: a document this test does not pass is checked by it).
    None when the schema uses a keyword the test does not know."""
    schema = json.loads(resources.files("bot.app.interchange").joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
    return _accepts(schema)


def _accepts(schema: object) -> Callable[[object], bool] | None:
    """`schema` (a subschema) as a test; applicability as jsonschema's (a string rule applies to strings only…),
    types exact, a list's items unique only when all are distinct texts."""
    if not isinstance(schema, dict) or not set(schema) <= _QUICK_KEYWORDS | _ANNOTATIONS:
        return None
    kinds = None
    if "type" in schema:
        names = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        if not isinstance(names, list) or any(name not in _EXACT_TYPES for name in names):
            return None
        kinds = frozenset(_EXACT_TYPES[name] for name in names)
    properties = {key: _accepts(sub) for key, sub in schema.get("properties", {}).items()}
    items = _accepts(schema["items"]) if "items" in schema else None
    closed = schema.get("additionalProperties", True)
    if None in properties.values() or ("items" in schema and items is None) or closed not in (True, False):
        return None
    closed = closed is False
    required = tuple(schema.get("required", ()))
    shortest, longest = schema.get("minLength", 0), schema.get("maxLength")
    search = re.compile(schema["pattern"]).search if "pattern" in schema else None
    unique = schema.get("uniqueItems", False) is True

    def accepts(value: object) -> bool:
        if kinds is not None and type(value) not in kinds:
            return False
        if isinstance(value, str):
            if len(value) < shortest or (longest is not None and len(value) > longest):
                return False
            return search is None or search(value) is not None
        if isinstance(value, dict):
            for key in required:
                if key not in value:
                    return False
            for key, item in value.items():
                test = properties.get(key)
                if test is None:
                    if closed:
                        return False
                elif not test(item):
                    return False
            return True
        if isinstance(value, list):
            distinct = not unique or (all(type(item) is str for item in value) and len(set(value)) == len(value))
            return distinct and (items is None or all(items(item) for item in value))
        return True

    return accepts


def _at(path: tuple[str | int, ...], what: Sentence) -> SchemaProblem:
    return SchemaProblem(path, said("schema_at", where=pointer(path) or said("the_document"), what=what))


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


def _what(keyword: str, rule: Any, value: Any, schema: dict, path: tuple) -> Sentence:
    """What is wrong with `value` by `keyword` of the schema, as a predicate: "debe ser texto, no una lista"."""
    if keyword == "type":
        wanted = [_type(t) for t in ([rule] if isinstance(rule, str) else rule)]
        return said("schema_type", wanted=Joined(wanted, said("or")), found=_kind(value))
    if keyword == "required":
        missing = [_quoted(key) for key in rule if key not in value]
        code = "schema_required" if len(missing) == 1 else "schema_required_many"
        return said(code, names=", ".join(missing))
    if keyword == "additionalProperties":
        return _unknown_keys(sorted(schema.get("properties", {})), value)
    if keyword == "minLength":
        if rule == 1:
            return said("schema_empty")
        return said("schema_too_short", length=len(value), rule=rule)
    if keyword == "maxLength":
        return said("schema_too_long", length=len(value), rule=rule)
    if keyword == "pattern":
        hint = _PATTERN_HINTS.get(str(path[-1]) if path else "")
        words = said(hint) if hint else said("schema_other_pattern", rule=rule)
        return said("schema_pattern", value=_quoted(value), hint=words)
    if keyword == "uniqueItems":
        return said("schema_repeated_items")
    return said("schema_other_rule", keyword=keyword)


def _unknown_keys(known: list[str], value: dict) -> Sentence:
    """The keys of `value` the schema does not know, with the one meant when a single key is a typo of it."""
    extra = [key for key in value if key not in known]
    hints = [difflib.get_close_matches(key, known, n=1) for key in extra]
    if len(extra) == 1 and hints[0]:
        fix = said("schema_did_you_mean", hint=_quoted(hints[0][0]))
    else:
        fix = said("valid_keys", keys=", ".join(_quoted(key) for key in known))
    code = "schema_unknown_key" if len(extra) == 1 else "schema_unknown_keys"
    return said(code, names=", ".join(_quoted(key) for key in extra), fix=fix)


def _type(name: str) -> Sentence | str:
    """A JSON type in words (a type the catalogues do not name, by its name)."""
    return said(_TYPES[name]) if name in _TYPES else name


def _kind(value: Any) -> Sentence:
    """What a JSON value is, in words (a bool is checked before int: in Python, True is 1)."""
    if isinstance(value, bool):
        return said("json_boolean")
    if isinstance(value, int | float):
        return said("json_number")
    if value is None:
        return said("json_null")
    return said(_TYPES["string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"])


def _quoted(text: object, limit: int = 60) -> str:
    """A key or value as a JSON string: quotes, control characters and halves of UTF-16 pairs escaped (a terminal
    could not print them), long ones cut with "…"."""
    text = str(text)
    quoted = json.dumps(text if len(text) <= limit else text[:limit] + "…", ensure_ascii=False)
    return _HALVES.sub(lambda half: f"\\u{ord(half.group()):04x}", quoted)
