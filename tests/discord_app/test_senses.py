"""A term with several senses, end to end: /termino shows every sense on its card, numbered, with a button for
every sense's related terms; /glosario lista finds it under each sense's category."""

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


async def start(harness, tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "glossary.yaml").write_text(META, encoding="utf-8")
    (folder / "aprendizaje.yaml").write_text(VALID, encoding="utf-8")
    return await harness.start(data_dir=folder)


async def test_the_cards_buttons_open_every_senses_related_terms(fake, harness, tmp_path):
    await start(harness, tmp_path)
    reply = await fake.response(await fake.command("termino", {"termino": "modelo"}))
    first_row = reply["data"]["components"][0]["components"]
    assert [button["label"] for button in first_row] == ["Datos", "Parámetro"]  # Parámetro: the second sense's


async def test_the_list_finds_a_term_under_each_senses_category_and_names_it_once_in_all(fake, harness, tmp_path):
    await start(harness, tmp_path)
    everything = (await fake.response(await fake.command("glosario lista")))["data"]["embeds"][0]
    assert everything["title"] == "Glosario · 3 términos"
    assert everything["description"].count("• Modelo") == 1
    choices = (await fake.response(await fake.autocomplete("glosario lista", "categoria", "est")))["data"]["choices"]
    assert choices == [{"name": "Estadística", "value": "Estadística"}]
    one = (await fake.response(await fake.command("glosario lista", {"categoria": "Estadística"})))["data"]
    assert one["embeds"][0]["title"] == "Estadística · 1 términos"
    assert one["embeds"][0]["description"] == "__Estadística__\n• Modelo — *Model*"


async def test_a_category_asked_for_names_a_term_once_when_its_senses_spell_that_category_two_ways(
    fake, harness, tmp_path
):
    """ "Aprendizaje" and "aprendizaje" are one category to /glosario lista (it compares them normalised): a term with
    a sense in each was listed under both, twice on one page, and its menu offered two options with one value, which
    Discord refuses (SELECT_COMPONENT_OPTION_VALUE_DUPLICATED): the member got an apology instead of the list."""
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "glossary.yaml").write_text(META, encoding="utf-8")
    (folder / "aprendizaje.yaml").write_text(VALID.replace("category: Estadística", "category: aprendizaje"), "utf-8")
    await harness.start(data_dir=folder)
    listing = (await fake.response(await fake.command("glosario lista", {"categoria": "Aprendizaje"})))["data"]
    (embed,) = listing["embeds"]
    assert embed["title"] == "Aprendizaje · 3 términos" and embed["description"].count("• Modelo") == 1
    (menu,) = listing["components"][1]["components"]
    assert [option["value"] for option in menu["options"]] == ["datos", "modelo", "parametro"]
