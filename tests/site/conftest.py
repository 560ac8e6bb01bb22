"""A real browser for the page tests: Debian's Chromium, headless, driven through chromedriver (selenium)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("GLOSARIO_TEST_ARTIFACTS") or ROOT / "test-artifacts")
HOW_TO_ENABLE = (
    "Chromium and chromedriver are not installed: the page tests need a real browser. On Debian or Ubuntu: "
    "apt-get install chromium chromium-driver (.ci/run does it)."
)


def _find(*names: str) -> str | None:
    return next((found for name in names if (found := shutil.which(name))), None)


@pytest.fixture(scope="module")
def browser():
    browser_path = _find("chromium", "chromium-browser", "google-chrome")
    driver_path = _find("chromedriver")
    if browser_path is None or driver_path is None:
        if os.environ.get("GLOSARIO_REQUIRE_BROWSER"):  # CI: a missing browser fails, it is not skipped
            pytest.fail(HOW_TO_ENABLE)
        pytest.skip(HOW_TO_ENABLE)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser_path
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=es"):
        options.add_argument(argument)
    options.add_argument("--window-size=1280,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
