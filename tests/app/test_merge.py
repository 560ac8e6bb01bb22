"""`glosario-bot import FILE --into DIR`: the entries a glossary folder already has are named as collisions (with
both places) and not written; the rest are added in new term files, nothing of the folder is written over, and
`validate` accepts the folder afterwards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.app.files import load_glossary
from bot.cli import main

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
VISION = """category: Visión por Computador
terms:
  - term: Red convolucional
    definition: Una red que aplica filtros.
    en: Convolutional network
    aliases: [CNN]
"""
IMPORTED = """term,definition,english,aliases,category,related
Red Convolucional,Otra definición.,,,Visión por Computador,
Red neuronal convolucional,Otra más.,Convolutional Network,,Visión por Computador,
Mapa de activación,Lo que sale de un filtro.,,C.N.N,,
Transformador de visión,Divide la imagen en parches.,Vision transformer,ViT,Visión por Computador,Red convolucional
Atención,Pesa las partes de la entrada.,Attention,,Arquitecturas,Transformador de visión
"""


@pytest.fixture
def folder(tmp_path) -> Path:
    folder = tmp_path / "glosario"
    folder.mkdir()
    (folder / "glossary.yaml").write_text("title: Mi glosario\nsubtitle: S\nlanguage: es\n", encoding="utf-8")
    (folder / "vision-por-computador.yaml").write_text(VISION, encoding="utf-8")
    return folder


def import_into(tmp_path, capsys, folder: Path, *options: str) -> tuple[int, str, str]:
    source = tmp_path / "nuevos.csv"
    source.write_text(IMPORTED, encoding="utf-8")
    code = main(["import", str(source), "--into", str(folder), *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_import_into_a_folder_names_the_collisions_with_both_places_and_adds_the_rest(tmp_path, capsys, folder):
    before = (folder / "vision-por-computador.yaml").read_bytes()
    code, out, _ = import_into(tmp_path, capsys, folder, "--json")
    summary = json.loads(out)
    assert code == 1  # something was left out, as in any import
    assert (summary["read"], summary["imported"]) == (5, 2)
    place = f"{folder / 'vision-por-computador.yaml'}:3"
    collisions = {(r["entry"], r["where"], r["existing"]) for r in summary["refused"]}
    assert collisions == {
        ("Red Convolucional", "línea 2", place),  # its name, once case is folded
        ("Red neuronal convolucional", "línea 3", place),  # its English name
        ("Mapa de activación", "línea 4", place),  # its alias, once spacing and dots are folded
    }
    assert all(place in r["reason"] and "ya está en el glosario" in r["reason"] for r in summary["refused"])
    assert (folder / "vision-por-computador.yaml").read_bytes() == before  # never written over
    assert sorted(p.name for p in folder.iterdir()) == [
        "arquitecturas.yaml",
        "glossary.yaml",
        "vision-por-computador-2.yaml",  # the category has a file already: a new one beside it
        "vision-por-computador.yaml",
    ]
    assert main(["validate", str(folder)]) == 0
    glossary = load_glossary(folder)
    assert {t.term for t in glossary} == {"Atención", "Red convolucional", "Transformador de visión"}
    vit = next(t for t in glossary if t.term == "Transformador de visión")
    assert vit.category == "Visión por Computador" and [glossary.get(i).term for i in vit.related] == [
        "Red convolucional"  # a term of the folder: kept
    ]


def test_the_closing_hint_of_an_import_into_a_folder_validates_that_folder(tmp_path, capsys, folder):
    folder = folder.rename(tmp_path / "mi glosario")
    code, out, err = import_into(tmp_path, capsys, folder)
    assert code == 1 and err.count("ya está en el glosario") == 3
    assert (
        "línea 2: el nombre 'Red Convolucional' ya está en el glosario: es el nombre de 'Red convolucional' "
        f"({folder / 'vision-por-computador.yaml'}:3); no se ha añadido" in err
    )
    assert out.rstrip().endswith(f"glosario-bot validate '{folder}'")  # quoted: a command to paste as it is
    assert main(["validate", str(folder)]) == 0


def test_a_dry_run_into_a_folder_names_the_collisions_and_writes_nothing(tmp_path, capsys, folder):
    code, out, _ = import_into(tmp_path, capsys, folder, "--dry-run", "--json")
    assert code == 1 and len(json.loads(out)["refused"]) == 3
    assert sorted(p.name for p in folder.iterdir()) == ["glossary.yaml", "vision-por-computador.yaml"]


@pytest.mark.parametrize(
    ("options", "said"),
    [(("--out", "x"), "--out"), (("--replace",), "--replace")],
    ids=["out", "replace"],
)
def test_into_goes_with_neither_out_nor_replace(tmp_path, capsys, folder, options, said):
    try:
        code, _, err = import_into(tmp_path, capsys, folder, *options)
    except SystemExit as exc:  # argparse: --into and --out are exclusive
        code, err = exc.code, capsys.readouterr().err
    assert code == 2 and said in err
    assert sorted(p.name for p in folder.iterdir()) == ["glossary.yaml", "vision-por-computador.yaml"]


def test_nothing_is_merged_into_a_folder_that_is_no_valid_glossary(tmp_path, capsys, folder):
    (folder / "vision-por-computador.yaml").write_text(VISION.replace("definition:", "defintion:"), encoding="utf-8")
    code, out, err = import_into(tmp_path, capsys, folder)
    assert code == 1 and "defintion" in err and out == ""
    assert sorted(p.name for p in folder.iterdir()) == ["glossary.yaml", "vision-por-computador.yaml"]
    code, _, err = import_into(tmp_path, capsys, tmp_path / "no-existe")
    assert code == 1 and not (tmp_path / "no-existe").exists()


def test_an_import_into_a_folder_takes_its_language_unless_told(tmp_path, capsys):
    folder = tmp_path / "english"
    shutil.copytree(REAL.parent.parent.parent / "glossary_data", folder)
    meta = folder / "glossary.yaml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("language: es", "language: en"), encoding="utf-8")
    code = main(["import", str(REAL / "lisa-tbx-basic-sample.tbx"), "--into", str(folder), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 1 and summary["imported"] == 3  # the file's English entries, as with --lang en
    assert main(["validate", str(folder)]) == 0
