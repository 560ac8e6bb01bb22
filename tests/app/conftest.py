"""The application on a real SQLite file in a temporary folder, serving the shipped glossary, its clock fixed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.app.application import Application
from bot.app.catalog import load_catalog
from bot.config import Settings
from tests.conftest import SHIPPED

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)


@pytest.fixture
async def app(tmp_path):
    settings = Settings(data_dir=SHIPPED, database_url=f"sqlite:///{tmp_path / 'g.db'}", questions=False)
    application = await Application.open(settings, load_catalog(SHIPPED), clock=lambda: NOW)
    await application.start()
    yield application
    assert await application.close() == []
