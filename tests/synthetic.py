"""Deterministic synthetic glossaries (1k–100k terms) in the real term-file format, for benchmarks."""

from __future__ import annotations

import random
from pathlib import Path

_SYLLABLES = [
    "ka",
    "ro",
    "mi",
    "den",
    "tra",
    "sel",
    "po",
    "lin",
    "ver",
    "ax",
    "qu",
    "zen",
    "bor",
    "fi",
    "lu",
    "mes",
    "tor",
    "ga",
    "ni",
    "ple",
    "cor",
    "dal",
    "fen",
    "gri",
    "hu",
    "jas",
    "kel",
    "mon",
    "nor",
    "pan",
    "ris",
    "sul",
    "tam",
    "uri",
    "vel",
    "wes",
    "yon",
    "zu",
    "bra",
    "cli",
]
TERMS_PER_FILE = 1000


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))


def generate(directory: Path, n_terms: int, seed: int = 7) -> list[str]:
    """Write glossary.yaml plus one file per 1,000 terms; return the term names in order."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "glossary.yaml").write_text("title: Sintético\nsubtitle: Benchmark\nlanguage: es\n")
    vocab = sorted({_word(rng) for _ in range(max(500, n_terms // 4))})
    prose = sorted({_word(rng) for _ in range(2000)})
    used: set[str] = set()
    names: list[str] = []

    def unique(candidate: str) -> bool:
        key, packed = candidate.lower(), candidate.lower().replace(" ", "")
        if key in used or packed in used:
            return False
        used.update((key, packed))
        return True

    lines: list[str] = []
    for i in range(n_terms):
        while True:
            name = " ".join(rng.choice(vocab) for _ in range(rng.choice((1, 2, 2, 3)))).capitalize()
            if unique(name):
                break
        names.append(name)
        if i % TERMS_PER_FILE == 0:
            lines = [f"category: Categoría {i // TERMS_PER_FILE:03d}", "terms:"]
        lines.append(f"  - term: {name}")
        lines.append(f"    definition: {' '.join(rng.choice(prose) for _ in range(25)).capitalize()}.")
        if rng.random() < 0.6:
            en = f"{rng.choice(vocab)} {rng.choice(vocab)} en"
            if unique(en):
                lines.append(f"    en: {en}")
        if rng.random() < 0.3:
            alias = f"{name} {rng.choice(vocab)}"
            if unique(alias):
                lines.append(f"    aliases: [{alias}]")
        if i >= 2:
            lines.append(f"    related: [{names[rng.randrange(i)]}, {names[rng.randrange(i)]}]")
        if rng.random() < 0.2:
            lines.append(f"    links: [{{title: Docs, url: 'https://example.org/t/{i}'}}]")
        if i % TERMS_PER_FILE == TERMS_PER_FILE - 1 or i == n_terms - 1:
            (directory / f"cat_{i // TERMS_PER_FILE:03d}.yaml").write_text("\n".join(lines) + "\n")
    return names
