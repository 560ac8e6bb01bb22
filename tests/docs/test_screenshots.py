"""The pictures of real cards in docs/screenshots/ are still what the bot answers, and the members' page names every
command the bot registers, in Spanish and in English.

The pictures are drawn from JSON files of what each answer shows (`python -m tests.docs.screenshots`); here the
same interactions are sent to the real bot on the fake Discord again and its answers compared with those files,
answer for answer, not pixel for pixel."""

from __future__ import annotations

import json
import re

import pytest

from tests.docs.scenes import PICTURES, SCENES, answers, served
from tests.docs.screenshots import load_encoder

MEMBERS = PICTURES.parent / "members.md"
RETAKE = "the bot answers differently now: take the pictures again with `python -m tests.docs.screenshots`"


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    return load_encoder(tmp_path_factory.mktemp("model"))


async def test_the_pictures_show_what_the_bot_answers(tmp_path, encoder):
    found = await answers(tmp_path, encoder)
    for scene in SCENES:
        recorded = json.loads((PICTURES / f"{scene.name}.json").read_text(encoding="utf-8"))
        assert recorded["invoked"] == scene.invoked, f"{scene.name}: {RETAKE}"
        assert found[scene.name] == recorded["answer"], f"{scene.name}: {RETAKE}"
    assert found["termino-horovod"]["embeds"][0]["title"] == "Horovod"  # the scenes still show what they say
    assert "¿Quisiste decir" in found["quisiste-decir"]["content"] and found["quisiste-decir"]["ephemeral"]
    assert "Horovod" in found["pregunta"]["content"]
    assert found["pendientes"]["embeds"][0]["description"].count("\n") == 4  # five gaps


def test_every_picture_is_drawn_from_an_answer_small_and_shown():
    names = {scene.name for scene in SCENES}
    assert {p.stem for p in PICTURES.glob("*.png")} == names == {p.stem for p in PICTURES.glob("*.json")}
    pages = "".join(p.read_text(encoding="utf-8") for p in PICTURES.parent.rglob("*.md"))
    for name in names:
        png = (PICTURES / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) < 100_000, name
        assert f"screenshots/{name}.png" in pages, f"{name}.png is shown on no page"


async def test_the_members_page_names_every_command_in_both_languages(tmp_path, encoder):
    async with served(tmp_path, encoder) as (fake, _, _):
        registered = fake.commands["global"]
    page = MEMBERS.read_text(encoding="utf-8")
    spans = [m[1] for m in re.finditer(r"`([^`\n]+)`", page)]
    missing = []
    for spanish, english, options in commands(registered):
        if options is None:  # a context menu: named in italics
            missing += [name for name in (spanish, english) if f"*{name}*" not in page]
            continue
        for path, names in ((spanish, options[0]), (english, options[1])):
            written = [s for s in spans if s == path or s.startswith(path + " ")]
            if not any(all(f"{n}:" in s for n in names) for s in written):
                missing.append(f"{path} with {names}")
    assert missing == []
    assert len(list(commands(registered))) >= 25


def commands(registered: list[dict]):
    """Every command as (Spanish path, English path, (Spanish options, English options)); options None for a
    context menu."""
    for command in registered:
        if command.get("type", 1) != 1:
            yield command["name"], _english(command), None
        else:
            yield from _paths(command, "/", "/")


def _paths(item: dict, spanish: str, english: str):
    here, there = spanish + item["name"], english + _english(item)
    nested = [o for o in item.get("options", []) if o["type"] in (1, 2)]  # subcommands and their groups
    for option in nested:
        yield from _paths(option, here + " ", there + " ")
    if not nested:
        leaf = item.get("options", [])
        yield here, there, ([o["name"] for o in leaf], [_english(o) for o in leaf])


def _english(item: dict) -> str:
    return (item.get("name_localizations") or {}).get("en-US", item["name"])
