"""Gap exports for editors (YAML stubs in the term-file format, CSV), shared by Discord and the command line."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from dataclasses import dataclass, field

from bot.core.search import typo_distance
from bot.heap import collector_paused
from bot.storage.records import Miss


@dataclass
class _Stub:
    term: str
    normalized: str
    count: int
    askers: int
    spellings: list[str] = field(default_factory=list)


_MAX_CANDIDATES = 32


def _group(gaps: list[Miss]) -> list[_Stub]:
    """Gaps that are typos of each other, as one stub each (most asked first; a gap joins the first stub it is a
    typo of). Linear, not gap × stub: a gap is compared only with the stubs that share a one-deletion variant of
    its compact form (every pair one typo apart does, and many two apart), at most _MAX_CANDIDATES of them."""
    with collector_paused():  # a million short strings and no cycles: collections would only cost time
        return _group_typos(gaps)


def _group_typos(gaps: list[Miss]) -> list[_Stub]:
    stubs: list[_Stub] = []
    first_owner: dict[str, int] = {}  # variant → the first stub that has it (set operations, not a Python loop)
    more_owners: dict[str, list[int]] = {}  # the few variants several stubs share
    for gap in sorted(gaps, key=lambda g: (-g.count, g.id)):
        packed = gap.normalized.replace(" ", "")
        variants = {packed, *[packed[:i] + packed[i + 1 :] for i in range(len(packed))]} if len(packed) > 3 else set()
        shared = variants & first_owner.keys()
        home = None
        if shared:
            found = {first_owner[v] for v in shared}
            found.update(i for v in shared for i in more_owners.get(v, ()))
            candidates = sorted(found)[:_MAX_CANDIDATES]
            home = next((i for i in candidates if typo_distance(gap.normalized, stubs[i].normalized) is not None), None)
        if home is None:
            number = len(stubs)
            first_owner.update(dict.fromkeys(variants - shared, number))
            for variant in shared:  # the earliest stubs are the ones a gap joins: later ones need not be kept
                owners = more_owners.setdefault(variant, [])
                if len(owners) < _MAX_CANDIDATES:
                    owners.append(number)
            stubs.append(_Stub(gap.sample, gap.normalized, gap.count, gap.askers))
        else:
            stub = stubs[home]
            stub.count += gap.count
            stub.askers += gap.askers
            stub.spellings.append(gap.sample)
    return stubs


# A YAML double-quoted scalar: JSON's string encoding (JSON strings are valid YAML), called directly.
_q = json.encoder.encode_basestring  # type: ignore[attr-defined]


def gaps_yaml(gaps: list[Miss], picks: list[tuple[str, str, int]], *, title: str) -> str:
    """Ready-to-edit stubs: one term per group of gaps that are typos of each other, the gap's spelling (its most
    asked one, from `MissLog.export(most_asked=True)`) as the name, the other gaps' as aliases, `definition: ""`
    to fill. Alias proposals go in comments, so the file loads (once the definitions are written) as it is."""
    stubs = _group(gaps)
    lines = [
        f"# {title}",
        "# Rellena cada 'definition', revisa nombres y alias, y mueve los términos a su archivo de categoría.",
        "# Después: glosario-bot validate, y recarga el bot.",
    ]
    if picks:
        lines.append("#")
        lines.append("# Propuestas de alias (la gente eligió este término entre las sugerencias):")
        lines.extend(
            f"#   {sample!r} → {term_id} ({times} {'vez' if times == 1 else 'veces'})"
            for sample, term_id, times in picks
        )
    lines += ["category: Pendientes", "terms:" if stubs else "terms: []"]
    for stub in stubs:
        lines.append(f"  - term: {_q(stub.term)}  # {stub.count} veces, {stub.askers} personas")
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


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A cell a spreadsheet will not run: text starting like a formula gets a leading apostrophe (OWASP's advice
    for CSV injection); numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_plain(value: str) -> str:
    """Undo `spreadsheet_safe`: a cell read back from a file it wrote."""
    return value[1:] if value.startswith("'") and value[1:].startswith(FORMULA_STARTS) else value


def gaps_csv(gaps: list[Miss]) -> str:
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
