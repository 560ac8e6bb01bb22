"""Gap exports for editors (YAML stubs in the term-file format, CSV), shared by Discord and the command line."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from dataclasses import dataclass, field

from bot.app.spreadsheets import spreadsheet_safe
from bot.core.invisible import escape_invisible, printable
from bot.heap import collector_paused
from bot.storage.records import Gap, SuggestionChoice


@dataclass
class _Stub:
    term: str
    normalized: str
    count: int
    askers: int
    spellings: list[str] = field(default_factory=list)


def _group(gaps: list[Gap]) -> list[_Stub]:
    """Gaps that are typos of each other, as one stub each (most asked first; a gap joins the first stub it is a
    typo of: `group_typos`, linear in the number of gaps). numpy is imported here, on the first export."""
    from bot.core.typo_groups import group_typos

    with collector_paused():  # a million short strings and no cycles: collections would only cost time
        ordered = sorted(gaps, key=lambda g: (-g.count, g.id))
        leaders = group_typos([gap.normalized for gap in ordered])
        stubs: dict[int, _Stub] = {}
        for index, (gap, leader) in enumerate(zip(ordered, leaders, strict=True)):
            if leader == index:
                stubs[index] = _Stub(gap.sample, gap.normalized, gap.count, gap.askers)
            else:
                stub = stubs[leader]
                stub.count += gap.count
                stub.askers += gap.askers
                stub.spellings.append(gap.sample)
        return list(stubs.values())


def _q(text: str) -> str:
    """A YAML double-quoted string: JSON's escapes, and the characters a YAML reader refuses or reads as a line
    break escaped too (a member's query with U+009B made the whole file unreadable)."""
    return escape_invisible(json.encoder.encode_basestring(text))  # type: ignore[attr-defined]


# The stubs' own words, in the language of who asked for the file (the moderator's locale, or the command line's).
_STUB_WORDS = {
    "es": {
        "fill": "# Rellena cada 'definition', revisa nombres y alias, y mueve los términos a su archivo de categoría.",
        "then": "# Después: glosario-bot validate, y recarga el bot.",
        "picks": "# Propuestas de alias (la gente eligió este término entre las sugerencias):",
        "category": "Pendientes",
        "time": "vez",
        "times": "veces",
        "person": "persona",
        "people": "personas",
    },
    "en": {
        "fill": "# Fill in each 'definition', check names and aliases, and move the terms to their category's file.",
        "then": "# Then: glosario-bot validate, and reload the bot.",
        "picks": "# Alias proposals (people picked this term among the suggestions):",
        "category": "Pending",
        "time": "time",
        "times": "times",
        "person": "person",
        "people": "people",
    },
}


def gaps_yaml(gaps: list[Gap], picks: list[SuggestionChoice], *, title: str, lang: str = "es") -> str:
    """Ready-to-edit stubs: one term per group of gaps that are typos of each other, the gap's spelling (its most
    asked one, from `MissLog.export(most_asked=True)`) as the name, the other gaps' as aliases, `definition: ""`
    to fill. Alias proposals go in comments, so the file loads (once the definitions are written) as it is. The
    comments and the category are in `lang` ("es" or "en"), as is `title`."""
    words = _STUB_WORDS.get(lang, _STUB_WORDS["es"])

    def times(n: int) -> str:
        return f"{n} {words['time'] if n == 1 else words['times']}"

    def people(n: int) -> str:
        return f"{n} {words['person'] if n == 1 else words['people']}"

    stubs = _group(gaps)
    lines = [f"# {printable(' '.join(title.split()))}", words["fill"], words["then"]]  # (a server's name: one line)
    if picks:
        lines.append("#")
        lines.append(words["picks"])
        lines.extend(f"#   {pick.sample!r} → {pick.term_id} ({times(pick.times)})" for pick in picks)
    lines += [f"category: {words['category']}", "terms:" if stubs else "terms: []"]
    for stub in stubs:
        lines.append(f"  - term: {_q(stub.term)}  # {times(stub.count)}, {people(stub.askers)}")
        lines.append('    definition: ""')
        if stub.spellings:
            lines.append(f"    aliases: [{', '.join(_q(s) for s in dict.fromkeys(stub.spellings))}]")
    return "\n".join(lines) + "\n"


CSV_COLUMNS = (
    "id",
    "guild_id",
    "query",
    "kind",
    "count",
    "askers",
    "first_seen",
    "last_seen",
    "best_guess",
    "status",
    "resolved_term",
)


def gaps_csv(gaps: list[Gap]) -> str:
    """The gaps as CSV, one row each; text that would start a formula is neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for g in gaps:
        writer.writerow(
            spreadsheet_safe(cell)
            for cell in (
                g.id,
                g.guild_id,
                g.sample,
                g.kind,
                g.count,
                g.askers,
                g.first_seen,
                g.last_seen,
                g.best_guess or "",
                g.status,
                g.resolved_term or "",
            )
        )
    return out.getvalue()


def zipped(name: str, data: bytes) -> bytes:
    """One file in a zip archive (text shrinks a lot: an export over a size limit often fits zipped)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return out.getvalue()
