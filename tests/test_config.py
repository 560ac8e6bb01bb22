"""Settings from the environment: the database as a URL, and the paths derived from it unless given."""

import logging
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import DatabaseUrl, Settings, SettingsError


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
    assert settings.postgres and settings.database.url == "postgresql://bot:secreto@db:5432/glosario"
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


def test_a_server_that_removed_the_bot_is_forgotten_after_a_whole_number_of_days():
    assert Settings.from_env({}).forget_guild_after_days == 30
    assert Settings.from_env({"GLOSARIO_FORGET_GUILD_AFTER_DAYS": "0"}).forget_guild_after_days == 0
    for bad in ("-1", "2.5", "un mes"):
        with pytest.raises(SettingsError, match="GLOSARIO_FORGET_GUILD_AFTER_DAYS") as info:
            Settings.from_env({"GLOSARIO_FORGET_GUILD_AFTER_DAYS": bad})
        assert "whole number of days" in info.value.text("en")


def test_the_shards_setting_is_read_or_refused_in_both_languages():
    settings = Settings.from_env({"GLOSARIO_SHARDS": "0-3/8"})
    assert settings.shards is not None and settings.shards.ids == (0, 1, 2, 3) and settings.shards.count == 8
    assert settings.heartbeat_file.name == "heartbeat-0-3-of-8"  # one per process sharing a data folder
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"GLOSARIO_SHARDS": "8/8"})
    assert "0 to 7" in refused.value.text("en")
    assert "del 0 al 7" in refused.value.text("es") and "numbered" not in refused.value.text("es")


def test_each_process_has_its_own_journal_and_replays_those_other_layouts_left(tmp_path):
    one = Settings.from_env({"GLOSARIO_DB": str(tmp_path / "g.db")})
    first = Settings.from_env({"GLOSARIO_DB": str(tmp_path / "g.db"), "GLOSARIO_SHARDS": "0/2"})
    second = Settings.from_env({"GLOSARIO_DB": str(tmp_path / "g.db"), "GLOSARIO_SHARDS": "1/2"})
    assert one.journal_file == tmp_path / "g.db.pending.jsonl"  # one process: the name it always had
    assert first.journal_file == tmp_path / "g.db.0-of-2.pending.jsonl"
    assert second.journal_file == tmp_path / "g.db.1-of-2.pending.jsonl"
    assert first.rejected_file != second.rejected_file
    for left in ("g.db.pending.jsonl", "g.db.0-2-of-4.pending.jsonl", "g.db.1-of-2.pending.jsonl"):
        (tmp_path / left).write_text("")
    assert [p.name for p in first.other_journals()] == [
        "g.db.0-2-of-4.pending.jsonl",
        "g.db.1-of-2.pending.jsonl",
        "g.db.pending.jsonl",
    ]
    fallback = Settings.from_env(
        {"GLOSARIO_DB": str(tmp_path / "g.db"), "GLOSARIO_SHARDS": "1/2", "GLOSARIO_JOURNAL_FALLBACK": "/spare"}
    )
    assert fallback.fallback_journal == Path("/spare/g.db.1-of-2.pending.jsonl")
    assert fallback.fallback_journal in fallback.other_journals()


@pytest.mark.parametrize("scheme", ["postgresql", "postgres", "postgresql+asyncpg", "POSTGRESQL"])
def test_the_postgresql_schemes_people_write_are_accepted(scheme):
    settings = Settings.from_env({"GLOSARIO_DB": f"{scheme}://bot:Wr0ngPass@db:5432/glosario"})
    assert settings.postgres and settings.database.url == "postgresql://bot:Wr0ngPass@db:5432/glosario"
    assert "Wr0ng" not in repr(settings) and "Wr0ng" not in str(settings.database)


# Every password holds "Wr0ng": no message, log line or traceback may ever show it.
HOSTILE = [
    "postgresql://bot:Wr0ng#1@127.0.0.1:9/glosario",  # a raw '#': everything after it reads as a fragment
    "postgresql://bot:Wr0ng#1/glosario",  # ... and without a host: 'Wr0ng' would read as the port
    "postgresql://bot:p@Wr0ng@127.0.0.1:9/glosario",  # '@' in the password
    "postgresql://bot:Wr0ng%zz@127.0.0.1:9/glosario",  # a '%' that encodes nothing
    "postgresql://bot:Wr0ng%@127.0.0.1:9/glosario",
    "postgresql://bot:Wr0ng/x@127.0.0.1:9/glosario",  # a raw '/' before the '@'
    "postgresql://bot:Wr0ng?x@127.0.0.1:9/glosario",
    "postgresql://bot:Wr0ng@/glosario",  # no host (libpq's local socket)
    "postgresql://bot:Wr0ng@[::1]:9/glosario",  # IPv6
    "postgresql://bot:Wr0ng@[::1:9/glosario",  # IPv6 without its ']'
    "postgresql://bot:Wr0ng@127.0.0.1:99999/glosario",  # ports out of range
    "postgresql://bot:Wr0ng@127.0.0.1:0/glosario",
    "postgresql://bot:Wr0ng@127.0.0.1:-1/glosario",
    "postgresql://bot:Wr0ng@127.0.0.1:cinco/glosario",
    "postgresql://127.0.0.1:9/glosario?user=bot&password=Wr0ng",  # the password as a parameter
    "postgresql+asyncpg://bot:Wr0ng@127.0.0.1:9/glosario",  # SQLAlchemy's spelling
    "postgresql+psycopg2://bot:Wr0ng@127.0.0.1:9/glosario",  # another driver: refused by name
    "mysql://bot:Wr0ng@127.0.0.1/glosario",
    "postgresql:/bot:Wr0ng@127.0.0.1/glosario",  # one slash short
    "bot:Wr0ng@127.0.0.1/glosario",  # no scheme at all
]


@pytest.mark.parametrize("url", HOSTILE)
def test_no_database_url_ever_shows_its_password(url, monkeypatch, capsys, caplog, tmp_path):
    try:
        parsed = DatabaseUrl.parse(url)
    except SettingsError as exc:  # refused in one paragraph, in both languages, the password masked
        assert "GLOSARIO_DB" in str(exc) and "***" in str(exc) + exc.text("en")
        assert "Wr0ng" not in str(exc) + exc.text("en")
        assert "\n" not in str(exc)
    else:
        assert parsed.is_postgres and "Wr0ng" not in parsed.masked + repr(parsed) + str(parsed)
        assert "Wr0ng" in parsed.url  # (what asyncpg is given)
    caplog.set_level(logging.DEBUG)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSARIO_DB", url)
    monkeypatch.setenv("GLOSARIO_HEARTBEAT", str(tmp_path / "heartbeat"))
    (tmp_path / "heartbeat").write_text("2999-01-01T00:00:00+00:00\n\n")
    for command in (["migrate"], ["misses"], ["health"], ["migrate-data", "--from", url, "--to", "x.db"]):
        code = main(command)
        out, err = capsys.readouterr()
        assert code != 0
        shown = out + err + caplog.text
        assert "Wr0ng" not in shown, (command, shown)
        assert "Traceback" not in shown
        caplog.clear()
