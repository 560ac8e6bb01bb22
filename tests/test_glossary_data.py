"""Meta-tests on the shipped glossary: valid, verbatim to the seed, enriched with true-looking facts."""

from pathlib import Path

from bot.core.search import Found

SEED = Path(__file__).resolve().parent / "fixtures" / "seed.txt"


def seed_terms() -> dict[str, str]:
    lines = [line for line in SEED.read_text(encoding="utf-8").splitlines() if line.strip()]
    title, subtitle, category, *rest = lines
    assert (title, subtitle) == ("Glosario IA", "El diccionario completo de la Inteligencia Artificial")
    # The section heading doubles as the first term: its definition follows it directly.
    pairs = {category: rest[0]}
    pairs.update(dict(zip(rest[1::2], rest[2::2], strict=True)))
    return pairs


def test_meta(shipped_glossary):
    assert shipped_glossary.title == "Glosario IA"
    assert shipped_glossary.subtitle == "El diccionario completo de la Inteligencia Artificial"
    assert shipped_glossary.language == "es"
    assert shipped_glossary.categories == ("Aprendizaje Automático Distribuido",)


def test_names_and_definitions_are_the_seed_word_for_word(shipped_glossary):
    expected = seed_terms()
    assert len(expected) == 17
    assert {t.term: t.definition for t in shipped_glossary} == expected


def test_every_term_is_enriched(shipped_glossary):
    for term in shipped_glossary:
        assert len(term.related) >= 2, term.term
        assert all(link.url.startswith("https://") for link in term.links)
    assert sum(1 for t in shipped_glossary if t.links) >= 10


def test_every_key_finds_its_own_term(shipped_glossary, shipped_index):
    for term in shipped_glossary:
        for key in term.spellings():
            result = shipped_index.lookup(key)
            assert isinstance(result, Found) and result.term.id == term.id, key


def test_the_wheel_carries_the_glossary(tmp_path):
    """`pip install .` (not editable) must answer lookups outside the checkout: the glossary is package data."""
    import shutil
    import subprocess
    import sys
    import zipfile

    from tests.conftest import ROOT

    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "bot", src / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "glossary_data", src / "glossary_data", ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("glosario_bot-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"bot/glossary_data/{p.name}" for p in (ROOT / "glossary_data").glob("*.yaml")}
    assert shipped and shipped <= names
    assert "bot/glossary_data/__init__.py" in names
    # Every module of the source tree is in the wheel (a package missing from pyproject's list breaks `pip install .`).
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "bot").rglob("*.py")}
    assert modules <= names, sorted(modules - names)
    # ...and every file a module reads at run time (the JSON schema, the web page's style and script, the
    # database migrations of each dialect).
    assets = {
        str(p.relative_to(ROOT))
        for folder in ("schemas", "web")
        for p in (ROOT / "bot" / "app" / "interchange" / folder).iterdir()
    }
    assert assets and assets <= names, sorted(assets - names)
    migrations = {str(p.relative_to(ROOT)) for p in (ROOT / "bot" / "storage" / "migrations").glob("*/*.sql")}
    assert {"sqlite", "postgres"} == {p.split("/")[3] for p in migrations}
    assert migrations <= names, sorted(migrations - names)
