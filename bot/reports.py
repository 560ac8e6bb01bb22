"""Gap exports for editors (YAML stubs in the term-file format, CSV), shared by Discord and the command line."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

from bot.core.normalize import compact
from bot.core.search import typo_distance
from bot.storage.gaps import Miss


@dataclass
class _Stub:
    term: str
    normalized: str
    count: int
    askers: int
    spellings: list[str] = field(default_factory=list)


_MAX_CANDIDATES = 32


def _variants(packed: str) -> set[str]:
    """The text and every form of it with one character left out; none for ≤ 3 characters (never a typo)."""
    if len(packed) <= 3:
        return set()
    return {packed, *(packed[:i] + packed[i + 1 :] for i in range(len(packed)))}


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def gaps_yaml(
    gaps: list[Miss], spellings: dict[int, list[tuple[str, int]]], picks: list[tuple[str, str, int]], *, title: str
) -> str:
    """Ready-to-edit stubs: one term per group of gaps that are typos of each other, the most asked spelling as
    the name, the other spellings as aliases, `definition: ""` to fill. Alias proposals go in comments, so the
    file loads (once the definitions are written) as it is."""
    stubs: list[_Stub] = []
    # Linear, not gap × stub: a gap is compared only with the stubs that share a one-deletion variant of its
    # compact form (every pair one typo apart does, and many two apart), at most _MAX_CANDIDATES of them.
    by_variant: dict[str, list[int]] = {}
    for gap in sorted(gaps, key=lambda g: (-g.count, g.id)):
        seen = [s for s, _ in spellings.get(gap.id, [])] or [gap.sample]
        variants = _variants(compact(gap.normalized))
        candidates = sorted({i for v in variants for i in by_variant.get(v, ())})[:_MAX_CANDIDATES]
        home = next(
            (stubs[i] for i in candidates if typo_distance(gap.normalized, stubs[i].normalized) is not None), None
        )
        if home is None:
            for variant in variants:
                by_variant.setdefault(variant, []).append(len(stubs))
            stubs.append(_Stub(seen[0], gap.normalized, gap.count, gap.askers))
        else:
            home.count += gap.count
            home.askers += gap.askers
            home.spellings.append(seen[0])
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


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A cell a spreadsheet will not run: text starting like a formula gets a leading apostrophe (OWASP's advice
    for CSV injection); numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


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
