"""The commands on the published glossary: lookup, search, ask, validate, list, export, site. They read the term
files only (a server's own terms, asked for with --guild, come from the database: _database.py)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path

from bot.app.files import load_glossary
from bot.cli._call import EXIT_FAIL, EXIT_OK, Call
from bot.cli._terminal import answer_lines, format_lookup, json_line, load_or_report, lookup_json, os_said, write_out
from bot.core.errors import GlossaryError
from bot.core.mentions import first_sentence
from bot.core.model import Glossary
from bot.core.search import Found, SearchIndex


def _on_the_glossary(handler: Callable[[Call, Glossary], int]) -> Callable[[Call], int]:
    """A command on the published glossary: run with it loaded, or exit status 1 once the reason is said."""

    @functools.wraps(handler)
    def run(call: Call) -> int:
        glossary = load_or_report(call.data_dir, call.say)
        return EXIT_FAIL if glossary is None else handler(call, glossary)

    return run


@_on_the_glossary
def lookup(call: Call, glossary: Glossary) -> int:
    """`lookup QUERY… [--json]`: each query answered as /termino answers it; 0 only if every one was found."""
    index = SearchIndex(glossary)
    results = [(q, index.lookup(q)) for q in call.args.queries]
    for query, result in results:
        print(
            json_line(lookup_json(query, result))
            if call.args.json
            else format_lookup(query, result, glossary, call.say)
        )
    return EXIT_OK if all(isinstance(r, Found) for _, r in results) else EXIT_FAIL


@_on_the_glossary
def search(call: Call, glossary: Glossary) -> int:
    """`search WORDS… [--json]`: the terms whose names or definitions hold the words, best first."""
    hits = SearchIndex(glossary).search(" ".join(call.args.text))
    if call.args.json:  # JSON Lines, like `lookup --json`: one object a line, for streaming and jq
        for h in hits:
            print(json_line({"id": h.term.id, "term": h.term.term, "score": h.score}))
    elif not hits:
        print(call.say("no_hits"))
    for hit in [] if call.args.json else hits:
        print(f"{hit.term.term:<40} {first_sentence(hit.term.definition)}")
    return EXIT_OK if hits else EXIT_FAIL


def ask(call: Call):
    """`ask QUESTION [--json] [--guild ID]`: the glossary term that fits a question in one's own words
    (bot/app/questions/service.py). Exit status 0 for a confident answer, 1 otherwise."""
    if call.args.guild:  # with that server's own terms: from the database
        from bot.cli._database import ask_guild

        return ask_guild(call)
    return _ask(call)


@_on_the_glossary
def _ask(call: Call, glossary: Glossary) -> int:
    from bot.app.catalog import Catalog, CatalogHolder, build_index
    from bot.app.questions.service import Questions, Verdict

    questions = Questions(CatalogHolder(Catalog(glossary, build_index(glossary), "")), call.settings.cache_dir)
    answer = questions.ask_now(" ".join(call.args.text))
    for line in answer_lines(answer, glossary, call.say, call.args.json):
        print(line)
    return EXIT_OK if answer.verdict is Verdict.CONFIDENT else EXIT_FAIL


def validate(call: Call) -> int:
    """`validate [DIR]`: every problem of the term files at once, or how many terms and categories they hold."""
    say, directory = call.say, call.args.directory or call.data_dir
    try:
        glossary = load_glossary(directory)
    except GlossaryError as exc:
        print(exc.report(lang=say.lang))
        print(say.count("problems", len(exc.problems), count=len(exc.problems), path=directory), file=sys.stderr)
        return EXIT_FAIL
    terms, categories = say.amount("terms_n", len(glossary)), say.amount("categories_n", len(glossary.categories))
    print(say("valid", terms=terms, categories=categories, path=directory))
    return EXIT_OK


@_on_the_glossary
def listing(call: Call, glossary: Glossary) -> int:
    """`list`: every term by category, with its English name."""
    for category in glossary.categories:
        print(f"{category}")
        for term in sorted((t for t in glossary if category in t.categories()), key=lambda t: t.term.casefold()):
            print(f"  {term.term}" + (f" — {term.en}" if term.en else ""))
    return EXIT_OK


def export(call: Call):
    """`export --format F [--out FILE [--replace]] [--guild ID]`: the published glossary (or a server's own terms)
    in a terminology standard, a spreadsheet or JSON. A file that exists is replaced only when asked, as `import`
    does."""
    out = call.args.out
    if out is not None and not call.args.replace and _is_file(out):
        print(call.say("export_exists", path=out), file=sys.stderr)
        return EXIT_FAIL
    if call.args.guild:  # a server's own terms: from the database
        from bot.cli._database import export_guild

        return export_guild(call)
    return _export(call)


def _is_file(path: Path) -> bool:
    """Whether `path` is a file (or a link to one); a folder, a device (/dev/stdout) or a path the system refuses
    (its writer then says why) is not one an export would replace."""
    try:
        return path.is_file()
    except OSError:
        return False


@_on_the_glossary
def _export(call: Call, glossary: Glossary) -> int:
    from bot.app.interchange.formats import DEFAULT_BASE, export

    args = call.args
    text = export(glossary, args.format, base=args.base or DEFAULT_BASE)
    if args.out is None:
        sys.stdout.write(text)
        return EXIT_OK
    if not write_out(args.out, text, call.say):
        return EXIT_FAIL
    print(call.say.count("exported", len(glossary), count=len(glossary), path=args.out), file=sys.stderr)
    return EXIT_OK


@_on_the_glossary
def site(call: Call, glossary: Glossary) -> int:
    """`site OUTDIR`: the glossary as one self-contained web page."""
    from bot.app.interchange.site import write_site

    try:
        path = write_site(glossary, call.args.outdir)
    except OSError as exc:
        print(call.say("site_unwritable", path=call.args.outdir, error=os_said(exc, call.say)), file=sys.stderr)
        return EXIT_FAIL
    print(call.say.count("site_written", len(glossary), count=len(glossary), path=path))
    return EXIT_OK
