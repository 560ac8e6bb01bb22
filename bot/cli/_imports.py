"""`import FILE`: term files in our format from TBX, SKOS, CSV or JSON."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from bot.cli._call import EXIT_FAIL, EXIT_OK, EXIT_USAGE, Call
from bot.cli._terminal import os_said
from bot.cli._words import Words
from bot.core.errors import GlossaryError
from bot.core.invisible import escape_invisible, printable


def import_terms(call: Call) -> int:
    """`import FILE [--category NAME] [--out DIR | --into DIR] [--lang L] [--map …] [--json] [--dry-run]
    [--replace]`: term files in our format from TBX, SKOS, CSV or JSON; every entry imported or refused with its
    reason, every field not kept counted, nothing overwritten unless asked; `--into DIR` merges into a glossary
    folder."""
    from bot.app.interchange.imports import DEFAULT_CATEGORY, clashes, report, write

    args, say = call.args, call.say
    base = _import_base(args, say) if args.into is not None else None
    if isinstance(base, int):
        return base
    args.lang = args.lang or (base.glossary.language if base else "es")
    args.out = args.into or args.out  # (what is written, and the folder the closing hint validates)
    imported = _read_import(args, say)
    if isinstance(imported, int):
        return imported
    summary = report(imported, args.category or DEFAULT_CATEGORY, base, args.lang)
    existing = [] if args.replace or args.dry_run else clashes(args.out, summary.files)
    if existing:
        print(say("import_exists", path=existing[0], count=len(existing)), file=sys.stderr)
        return EXIT_FAIL
    if summary.files and not args.dry_run:
        try:
            write(args.out, summary.files, summary.title, args.lang, summary.languages)
        except OSError as exc:  # (a file where the folder goes, no permission, a full disk)
            print(say("export_unwritable", path=args.out, error=os_said(exc, say)), file=sys.stderr)
            return EXIT_FAIL
    if args.json:  # (the file's own text in it: what a terminal would obey, escaped)
        print(escape_invisible(json.dumps(summary.to_json(say.lang), ensure_ascii=False)))  # one line: JSON Lines
    else:
        _import_summary(args, say, summary)
    return EXIT_OK if summary.imported and not summary.refused else EXIT_FAIL


def _import_base(args: argparse.Namespace, say: Words):
    """The folder `--into` names, or an exit code when it is no valid glossary (said as `validate` says it)."""
    from bot.app.interchange.merge import open_base

    if args.replace:
        print(say("import_into_replace"), file=sys.stderr)
        return EXIT_USAGE
    try:
        return open_base(args.into)
    except GlossaryError as exc:
        print(say("invalid_glossary", path=args.into, report=exc.report(lang=say.lang)), file=sys.stderr)
        return EXIT_FAIL


def _read_import(args: argparse.Namespace, say: Words):
    """The file's entries, or an exit code when it cannot be read at all (said on stderr)."""
    from bot.app.interchange.csv_in import decode, parse_map, read_csv
    from bot.app.interchange.formats import format_of, read

    fmt = args.format or format_of(args.file.name)
    if fmt is None:
        print(say("import_unknown_format", path=args.file), file=sys.stderr)
        return EXIT_USAGE
    try:
        mapping = parse_map(args.column_map or "")
    except ValueError as exc:
        print(say("import_bad_map", part=exc), file=sys.stderr)
        return EXIT_USAGE
    encoding = args.encoding if fmt == "csv" else "utf-8-sig"
    try:
        text, _ = decode(args.file.read_bytes(), encoding)
    except UnicodeDecodeError as exc:  # (a ValueError too: said apart, in the user's language)
        if fmt == "csv":  # (any encoding may be given for a CSV; the other formats are UTF-8 by their standards)
            said = say("import_not_csv_text", path=args.file, encoding=encoding or "UTF-8, Windows-1252", at=exc.start)
        else:
            said = say("import_not_text", path=args.file, at=exc.start)
        print(said, file=sys.stderr)
        return EXIT_FAIL
    except LookupError:
        print(say("import_unknown_encoding", encoding=encoding), file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(say("import_unreadable", path=args.file, error=os_said(exc, say)), file=sys.stderr)
        return EXIT_FAIL
    return read_csv(text, mapping) if fmt == "csv" else read(text, fmt, args.lang)


def _import_summary(args: argparse.Namespace, say: Words, summary) -> None:
    for refused in summary.refused:
        place = refused.where_in(say.lang)
        where = f"{place}: " if place else ""
        print(printable(f"{args.file}: {where}{refused.reason(say.lang)}"), file=sys.stderr)
    dropped = ", ".join(f"{name} ({count})" for name, count in sorted(summary.dropped.items()))
    read, imported = say.amount("read_n", summary.read), say.amount("imported_n", summary.imported)
    if summary.read or not summary.refused:  # (a file refused as a whole has no entries to count: its reason says it)
        refused = say.amount("refused_n", len(summary.refused))
        print(say("import_counts", read=read, imported=imported, refused=refused))
    if dropped:
        print(say("import_dropped", fields=dropped))
    if summary.cleaned:
        characters = ", ".join(f"{kind} ({count})" for kind, count in sorted(summary.cleaned.items()))
        print(say("import_cleaned", entries=summary.cleaned_entries, characters=characters))
    if not summary.imported:
        print(say("import_nothing", path=args.file), file=sys.stderr)
    elif args.dry_run:
        print(say("import_dry_run_done"))
    else:
        count, path = summary.terms, shlex.quote(str(args.out))  # the hint is a command to paste
        print(say.count("imported", count, count=count, path=path, skipped=len(summary.refused)))
