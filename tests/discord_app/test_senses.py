"""A term with several senses, end to end: /termino shows every sense on its card, numbered."""

from __future__ import annotations

from bot.discord_app.kit.i18n import t
from tests.core.test_senses import META, VALID


async def test_termino_of_a_term_with_two_senses_shows_both_on_its_card(fake, harness, tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "glossary.yaml").write_text(META, encoding="utf-8")
    (folder / "aprendizaje.yaml").write_text(VALID, encoding="utf-8")
    await harness.start(data_dir=folder)
    reply = await fake.response(await fake.command("termino", {"termino": "modelo"}))
    (embed,) = reply["data"]["embeds"]
    assert embed["title"] == "Modelo"
    assert embed["description"].split("\n\n")[:2] == [
        "**1.** Función aprendida de los datos.",
        "**2.** *Estadística* (pt) — Representación matemática de un sistema.",
    ]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields[t("es", "related")] == "Datos, Parámetro"  # every sense's related terms
    assert fields[t("es", "category")] == "Aprendizaje"
