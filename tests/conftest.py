"""Shared fixtures: the shipped glossary and its index, fixture glossaries written to temp dirs."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from hypothesis import settings

from bot.app.files import load_glossary
from bot.core.model import Glossary
from bot.core.search import SearchIndex

# Property tests look for new counterexamples on every developer's run; CI replays the same examples every time
# (a counterexample found there is kept as an @example and fixed, not left to chance).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

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


@pytest.fixture(scope="session")
def postgres_cluster():
    """One throwaway PostgreSQL server per test process (see tests/postgres.py)."""
    from tests.postgres import HOW_TO_ENABLE, Cluster, binaries

    found = binaries()
    if found is None:
        if os.environ.get("GLOSARIO_REQUIRE_POSTGRES"):  # CI: a missing server fails, it is not skipped
            pytest.fail(HOW_TO_ENABLE)
        pytest.skip(HOW_TO_ENABLE)
    cluster = Cluster(found).start()
    yield cluster
    cluster.stop()


_databases = itertools.count(1)


@pytest.fixture
def postgres_url(postgres_cluster):
    """A fresh, empty PostgreSQL database for one test."""
    from tests.postgres import sql

    name = f"glosario_test_{os.getpid()}_{next(_databases)}"
    sql(postgres_cluster.url(), f'CREATE DATABASE "{name}"')
    yield postgres_cluster.url(name)
    sql(postgres_cluster.url(), f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request, tmp_path):
    """The same store tests on both backends: an open, migrated database (SQLite file, or PostgreSQL)."""
    from bot.storage import open_stores

    if request.param == "sqlite":
        stores = await open_stores(tmp_path / "g.db")
    else:
        stores = await open_stores(request.getfixturevalue("postgres_url"))
    yield stores.database
    await stores.close()
