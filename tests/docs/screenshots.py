"""Takes the documentation's pictures of real cards: `python -m tests.docs.screenshots`.

Plays every scene of tests/docs/scenes.py against the real bot on the fake Discord, writes what each answer shows
to docs/screenshots/<scene>.json, draws it as Discord would (tests/docs/cards.py) and takes it with headless
Chromium into docs/screenshots/<scene>.png. Needs what the page tests need (Debian's chromium and
chromium-driver) and Debian's fonts-noto-color-emoji for the emoji on the buttons. The test suite replays the
scenes and compares the answers with the JSON files (tests/docs/test_screenshots.py), so run this again when the
bot's answers change on purpose."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

from tests.docs import cards
from tests.docs.scenes import NOW, PICTURES, SCENES, answers
from tests.helpers import headless_chromium


def load_encoder(cache: Path):
    """The question path's sentence model, loaded once (it takes a few seconds)."""
    from bot.app.questions.sentence_model import SentenceModel

    model = SentenceModel(cache)
    model.load()
    return model


def write_answers(found: dict[str, dict], folder: Path) -> None:
    for scene in SCENES:
        record = {"invoked": scene.invoked, "answer": found[scene.name]}
        text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
        (folder / f"{scene.name}.json").write_text(text, encoding="utf-8")


def browser():
    return headless_chromium(
        (700, 1200), "--force-device-scale-factor=1", packages="chromium chromium-driver fonts-noto-color-emoji"
    )


def take(folder: Path, scratch: Path) -> None:
    """Draw every scene's answer from its JSON file and take the picture of it."""
    from selenium.webdriver.common.by import By

    driver = browser()
    try:
        for scene in SCENES:
            record = json.loads((folder / f"{scene.name}.json").read_text(encoding="utf-8"))
            drawn = scratch / f"{scene.name}.html"
            drawn.write_text(cards.page(record["invoked"], record["answer"], NOW), encoding="utf-8")
            driver.get(drawn.as_uri())
            png = driver.find_element(By.ID, "shot").screenshot_as_png
            (folder / f"{scene.name}.png").write_bytes(png)
            print(f"{scene.name}.png: {len(png) // 1024} KB")
    finally:
        driver.quit()


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        scratch_path = Path(scratch)
        encoder = load_encoder(scratch_path / "model")
        found = asyncio.run(answers(scratch_path / "bot", encoder))
        PICTURES.mkdir(parents=True, exist_ok=True)
        write_answers(found, PICTURES)
        take(PICTURES, scratch_path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
