"""A second real Spanish CSV glossary, written by others (tests/fixtures/real, see PROVENANCE.md there): Civio's
"¿Dónde van mis impuestos?" default municipal budget glossary (civio/presupuesto, EUPL 1.1). Its headers are not
GlossarIA's: `#Título,Descripción` (Civio's own loader skips rows that begin with "#"), comma, UTF-8 without
BOM, LF, no newline after the last row, quoted cells with commas and HTML lists (`<ul><li>…`) in the definitions.

Every row is imported or refused with a reason, the counts add up, the definitions come in word for word (checked
against Python's own csv reader and, for three entries, by hand), and `validate` accepts what `import` wrote."""

from __future__ import annotations

import csv
import json

import pytest

from bot.app.files import load_glossary
from bot.cli import main
from tests.app.test_real_glossaries import REAL, adds_up, held, run_import

CIVIO = "civio-presupuesto-glosario-es.csv"


def rows_of_the_file() -> list[dict[str, str]]:
    """The file read by the standard library, apart from the importer: {"#Título": …, "Descripción": …} a row."""
    with open(REAL / CIVIO, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_the_file_is_what_provenance_says():
    data = (REAL / CIVIO).read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf") and b"\r" not in data and not data.endswith(b"\n")
    assert data.partition(b"\n")[0].decode("utf-8") == "#Título,Descripción"
    assert len(rows_of_the_file()) == 20


def test_every_row_is_imported_or_refused_and_validate_accepts_what_import_wrote(tmp_path, capsys):
    code, summary = run_import(tmp_path, capsys, CIVIO)
    adds_up(summary)
    assert (summary["read"], summary["imported"], summary["refused"]) == (20, 20, [])
    assert summary["dropped"] == {}  # two columns, both kept: nothing left behind
    assert code == 0
    glossary = load_glossary(tmp_path / "out")
    assert sum(1 + len(term.senses) for term in glossary) == 20
    assert main(["validate", "--data", str(tmp_path / "out")]) == 0
    assert "OK: 20 términos" in capsys.readouterr().out


def test_titulo_and_descripcion_are_the_name_and_the_definition_word_for_word(tmp_path, capsys):
    run_import(tmp_path, capsys, CIVIO)
    glossary = load_glossary(tmp_path / "out")
    imported = {t.term: t.definition for t in glossary}
    expected = {row["#Título"].strip(): row["Descripción"].strip() for row in rows_of_the_file()}
    assert imported == expected
    assert not any(t.en or t.aliases for t in glossary)  # no "(English)" in these names: nothing split off


def test_three_entries_checked_by_hand_against_the_file(tmp_path, capsys):
    run_import(tmp_path, capsys, CIVIO)
    glossary = load_glossary(tmp_path / "out")
    by_name = {t.term: t for t in glossary}
    assert by_name["Deuda viva"].definition == (
        "La deuda viva es la totalidad de la deuda pendiente de pagar que tiene el Ayuntamiento procedente de "
        "préstamos a largo plazo con entidades financieras y avales, es decir, es el capital pendiente de amortizar "
        "más los intereses generados."
    )
    assert by_name["Periodo medio de pago"].definition == (
        "El indicador Periodo medio de pago (PMP) mide el plazo que transcurre desde la entrega de los bienes o la "
        "prestación de los servicios a cargo del proveedor y el pago material de la operación. Según la normativa "
        "vigente este periodo no puede superar los 30 días."
    )
    # a quoted name with commas in it, and a definition that is an HTML list, both kept as the file has them
    assert "Impuesto sobre construcciones, instalaciones y obras" in by_name
    assert by_name["Cómo se clasifica el presupuesto de gasto"].definition == (
        "Los gastos del presupuesto se clasifican de acuerdo a tres clasificaciones diferentes:<ul><li>Orgánica: "
        "que informa de quien realiza el gasto.</li><li>Por programas, que informa sobre en qué se gasta, es decir, "
        "la finalidad del gasto.</li><li>Económica, que informa sobre cómo se gasta, sobre la naturaleza económica "
        "del gasto.</li></ul>"
    )


def test_a_dry_run_reads_the_same_and_writes_nothing(tmp_path, capsys):
    code = main(["import", str(REAL / CIVIO), "--out", str(tmp_path / "dry"), "--json", "--dry-run"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and (summary["read"], summary["imported"]) == (20, 20)
    assert not (tmp_path / "dry").exists()


def without_source_id(terms: dict[str, tuple]) -> dict[str, tuple]:
    return {name: fields[:11] + fields[12:] for name, fields in terms.items()}  # held()'s 12th field: source_id


@pytest.mark.parametrize("fmt", ["csv", "json", "tbx", "skos"])
def test_import_export_import_of_the_civio_glossary_loses_nothing(tmp_path, capsys, fmt):
    """The HTML in the definitions goes through XML (TBX, SKOS) and back unchanged. This file has no ids, so the
    TBX and SKOS exports give each entry one of their own (its term id; an IRI), read back as its source id:
    that one field is left out of the comparison for those two formats."""
    run_import(tmp_path, capsys, CIVIO)
    first = load_glossary(tmp_path / "out")
    exported = tmp_path / "again"
    assert main(["export", "--data", str(tmp_path / "out"), "--format", fmt, "--out", str(exported)]) == 0
    capsys.readouterr()
    assert main(["import", str(exported), "--format", fmt, "--out", str(tmp_path / "back")]) == 0
    back = load_glossary(tmp_path / "back")
    if fmt in ("tbx", "skos"):
        assert all(t.source_id.endswith(t.id) for t in back)
        assert without_source_id(held(back)) == without_source_id(held(first))
    else:
        assert held(back) == held(first)
