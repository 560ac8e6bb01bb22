"""What the command line prints for terms and lookups, and the glossary it loads (shared by its commands)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from bot.app.files import load_glossary
from bot.app.interchange.entries import language_matches
from bot.cli._words import Words
from bot.core.errors import GlossaryError
from bot.core.invisible import escape_invisible, one_line, printable
from bot.core.model import Glossary, Sense, Term
from bot.core.paragraphs import paragraphs
from bot.core.search import Ambiguous, Found, LookupResult, NotFound
from bot.core.status import Outcome
from bot.storage.errors import os_reason


def load_or_report(data_dir: Path, say: Words) -> Glossary | None:
    if not Path(data_dir).is_dir():
        print(say("no_glossary_dir", path=Path(data_dir).resolve()), file=sys.stderr)
        return None
    try:
        return load_glossary(data_dir)
    except GlossaryError as exc:
        print(say("invalid_glossary", path=data_dir, report=exc.report(lang=say.lang)), file=sys.stderr)
        return None


def lookup_json(query: str, result: LookupResult) -> dict:
    """The machine-readable form of one lookup (one line of `lookup --json`)."""
    if isinstance(result, Found):
        found = {"query": query, "status": Outcome.FOUND, "term": result.term.to_dict(), "suggestions": []}
        return found | ({"avoided": result.avoided} if result.avoided else {})  # the query named a form to avoid
    if isinstance(result, Ambiguous):
        suggestions = [{"id": s.term.id, "term": s.term.term, "score": s.score} for s in result.candidates]
        return {"query": query, "status": Outcome.AMBIGUOUS, "term": None, "suggestions": suggestions}
    return {"query": query, "status": Outcome.NOT_FOUND, "term": None, "suggestions": []}


def json_line(value: object) -> str:
    """One JSON value on one line, non-ASCII letters as they are, and every character a terminal could obey as an
    escape (`\\u009b`): the same data for a program, nothing for a terminal to act on."""
    return escape_invisible(json.dumps(value, ensure_ascii=False))


def shown(query: str) -> str:
    """A query said back as /termino says it: one line, at most ECHOED characters (bot/core/invisible.py), printable."""
    return printable(one_line(query))


def format_lookup(query: str, result: LookupResult, glossary: Glossary, say: Words) -> str:
    """The terminal form of one lookup."""
    if isinstance(result, Found) and result.avoided:
        said = say("avoided_form", form=result.avoided, term=result.term.term)
        return said + "\n\n" + format_term(result.term, glossary, say)
    if isinstance(result, Found):
        return format_term(result.term, glossary, say)
    missing = say("not_in_glossary", query=shown(query))
    if isinstance(result, Ambiguous):
        return f"{missing} {say('did_you_mean', names=', '.join(s.term.term for s in result.candidates))}\n"
    assert isinstance(result, NotFound)
    return missing + "\n"


def format_term(term: Term, glossary: Glossary, say: Words) -> str:
    if term.senses:
        return _format_senses(term, glossary, say)
    definition = "\n\n".join(_wrap(paragraph) for paragraph in paragraphs(term.definition))
    lines = [term.term + (f" ({term.en})" if term.en else ""), "", definition, ""]
    lines.append(f"{say('category')}: {term.category}")
    if term.aliases:
        lines.append(f"{say('also')}: {', '.join(term.aliases)}")
    lines.extend(_related_line(term.related, glossary, say))
    lines.extend(f"{say('link')}: {link.title} <{link.url}>" for link in term.links)
    lines.extend(_terminology_lines(term, getattr(glossary, "language", ""), say))
    return "\n".join(lines) + "\n"


def _format_senses(term: Term, glossary: Glossary, say: Words) -> str:
    """A name with several senses: each numbered, with what is its own (category, related terms, language, note,
    example, sources), then what the name's senses share (aliases, links, forms to avoid, tags)."""
    language = getattr(glossary, "language", "")
    lines = [term.term + (f" ({term.en})" if term.en else "")]
    for number, sense in enumerate(term.all_senses(), start=1):
        text = "\n\n".join(_wrap(paragraph) for paragraph in paragraphs(sense.definition))
        lines += ["", f"{number}." + text[1:], ""]  # the number takes the indent's first column
        lines.append(f"  {say('category')}: {sense.category}")
        lines.extend("  " + line for line in _related_line(sense.related, glossary, say))
        lines.extend("  " + line for line in _language_lines(sense, language, say) + _said_lines(sense, say))
    lines.append("")
    if term.aliases:
        lines.append(f"{say('also')}: {', '.join(term.aliases)}")
    lines.extend(f"{say('link')}: {link.title} <{link.url}>" for link in term.links)
    lines.extend(_avoid_lines(term, say) + _tag_lines(term, say))
    return "\n".join(lines).rstrip("\n") + "\n"


def _related_line(ids: tuple[str, ...], glossary: Glossary, say: Words) -> list[str]:
    names = [found.term for found in map(glossary.get, ids) if found]
    return [f"{say('related')}: {', '.join(names)}"] if names else []


def _terminology_lines(term: Term, language: str, say: Words) -> list[str]:
    """What the Discord card shows beside (bot/core/card.py): the definition's language when it is not the
    glossary's, forms to avoid, note, example, sources, tags; each only when the term has it."""
    first = term.first_sense()
    lines = _language_lines(first, language, say) + _avoid_lines(term, say)
    return lines + _said_lines(first, say) + _tag_lines(term, say)


def _language_lines(sense: Sense, language: str, say: Words) -> list[str]:
    if sense.definition_language and not (language and language_matches(sense.definition_language, language)):
        return [f"{say('term_definition_language')}: {sense.definition_language}"]
    return []


def _said_lines(sense: Sense, say: Words) -> list[str]:
    """A sense's note, example and sources."""
    said = (("term_note", sense.note), ("term_example", sense.example))
    lines = [f"{say(key)}: {text}" for key, text in said if text]
    return lines + [f"{say('term_source')}: {s.text}" + (f" <{s.url}>" if s.url else "") for s in sense.sources]


def _avoid_lines(term: Term, say: Words) -> list[str]:
    return [f"{say('term_avoid')}: {', '.join(term.deprecated)}"] if term.deprecated else []


def _tag_lines(term: Term, say: Words) -> list[str]:
    return [f"{say('term_tags')}: {', '.join(term.tags)}"] if term.tags else []


def _wrap(text: str, width: int = 100) -> str:
    return textwrap.fill(text, width=width, initial_indent="  ", subsequent_indent="  ")


def answer_lines(answer, glossary, say: Words, as_json: bool) -> list[str]:
    """What `ask` prints for an Answer (bot/core/questions.py): JSON Lines, best first, the first line's
    `confident` being the verdict and its `probability` the stated probability that it is right (no line without
    candidates); or one sentence and the best term's card.
    `glossary` names related terms (a Glossary, or a Layered one with a server's own terms)."""

    from bot.core.questions import Verdict

    confident = answer.verdict is Verdict.CONFIDENT
    if as_json:
        rows = [
            {"term": c.term.term, "id": c.term.id, "score": c.score, "confident": confident and not n}
            for n, c in enumerate(answer.candidates)
        ]
        if rows:  # the stated (calibrated) probability that the best is the right answer
            rows[0]["probability"] = round(answer.probability, 3)
        return [json_line(row) for row in rows]
    if confident:
        term = answer.candidates[0].term
        return [say("ask_confident", term=term.term), "", format_term(term, glossary, say).rstrip("\n")]
    if answer.verdict is Verdict.UNSURE:
        return [say("ask_unsure", names=", ".join(c.term.term for c in answer.candidates))]
    return [say("ask_nothing")]


def write_out(path: Path, text: str, say) -> bool:
    """Write an export's file, whole or not at all; False, said on stderr, when it cannot be written (a folder, no
    such folder, a full disk: what the system says, after the path)."""
    from bot.app.files import write_whole

    try:
        write_whole(path, text)
    except OSError as exc:
        print(say("export_unwritable", path=path, error=os_said(exc, say)), file=sys.stderr)
        return False
    return True


def os_said(exc: OSError, say: Words) -> str:
    """Why the system refused, in the user's language for the common reasons (else the system's own words)."""
    return os_reason(exc).text(say.lang)
