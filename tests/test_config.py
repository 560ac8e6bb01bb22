"""Settings from the environment: the database as a URL, and the paths derived from it unless given."""

from pathlib import Path

import pytest

from bot.config import Settings, SettingsError


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ("sqlite:///data/g.db", Path("data/g.db")),
        ("sqlite:////var/lib/glosario/g.db", Path("/var/lib/glosario/g.db")),
        ("/srv/g.db", Path("/srv/g.db")),  # a plain path, as before
        ("", Path("data/glosario.db")),
    ],
)
def test_the_database_is_a_url_or_a_path(value, path):
    assert Settings.from_env({"GLOSARIO_DB": value}).db_path == path


@pytest.mark.parametrize("value", ["mysql://h/db", "sqlite://"])
def test_a_database_this_version_cannot_use_is_refused_in_both_languages(value):
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"GLOSARIO_DB": value})
    assert "GLOSARIO_DB" in str(refused.value) and "GLOSARIO_DB" in refused.value.text("en")
    assert str(refused.value) != refused.value.text("en")


def test_a_postgresql_url_selects_postgresql_and_the_local_files_go_to_data():
    settings = Settings.from_env({"GLOSARIO_DB": "postgresql://bot:secreto@db:5432/glosario"})
    assert settings.postgres and settings.database == "postgresql://bot:secreto@db:5432/glosario"
    assert settings.journal_file == Path("data/glosario.pending.jsonl")
    assert settings.heartbeat_file == Path("data/heartbeat") and settings.cache_dir == Path("data/cache")
    assert "secreto" not in repr(settings)


def test_the_web_page_address_is_an_http_url_or_refused():
    assert (
        Settings.from_env({"GLOSARIO_SITE_URL": " https://glosario.example/ "}).site_url == "https://glosario.example/"
    )
    assert Settings.from_env({}).site_url is None
    for bad in ("glosario.example", "javascript:alert(1)", "ftp://x/"):
        with pytest.raises(SettingsError) as refused:
            Settings.from_env({"GLOSARIO_SITE_URL": bad})
        assert "GLOSARIO_SITE_URL" in refused.value.text("en")


def test_the_pace_of_scheduled_posts_is_a_positive_number():
    assert Settings.from_env({}).daily_posts_per_second == 40
    assert Settings.from_env({"GLOSARIO_DAILY_POSTS_PER_SECOND": "120"}).daily_posts_per_second == 120
    for bad in ("0", "-3", "rápido", "inf", "nan"):
        with pytest.raises(SettingsError, match="GLOSARIO_DAILY_POSTS_PER_SECOND"):
            Settings.from_env({"GLOSARIO_DAILY_POSTS_PER_SECOND": bad})


def test_the_shards_setting_is_read_or_refused_in_both_languages():
    settings = Settings.from_env({"GLOSARIO_SHARDS": "0-3/8"})
    assert settings.shards is not None and settings.shards.ids == (0, 1, 2, 3) and settings.shards.count == 8
    assert settings.heartbeat_file.name == "heartbeat-0-3-of-8"  # one per process sharing a data folder
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"GLOSARIO_SHARDS": "8/8"})
    assert "0 to 7" in refused.value.text("en")
