"""Shared fixtures: the shipped glossary and its index, fixture glossaries written to temp dirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app.files import load_glossary
from bot.core.model import Glossary
from bot.core.search import SearchIndex

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "glossary_data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(autouse=True)
def _spanish_locale(monkeypatch):
    """The command line speaks the locale's language: the tests read Spanish unless they say otherwise."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")


@pytest.fixture(scope="session")
def shipped_glossary() -> Glossary:
    return load_glossary(SHIPPED)


@pytest.fixture(scope="session")
def shipped_index(shipped_glossary) -> SearchIndex:
    return SearchIndex(shipped_glossary)
