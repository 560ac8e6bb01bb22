"""Settings: one frozen dataclass built from the environment, passed down. Nothing else reads os.environ."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from bot.core.shards import ShardPlan, ShardPlanError, parse_shards

PROJECT_DATA = Path(__file__).resolve().parent.parent / "glossary_data"
LOCAL_FILES = Path("data")  # with PostgreSQL: where the journal, heartbeat and cache go unless given


class SettingsError(ValueError):
    """A setting has a value we cannot use (the operator's fault); in Spanish and in English."""

    def __init__(self, message: str, english: str) -> None:
        super().__init__(message)
        self.english = english

    def text(self, lang: str = "es") -> str:
        return self.english if lang == "en" else str(self)


def default_data_dir() -> Path:
    """The glossary shipped with the package (`bot.glossary_data`: the repository's glossary_data/ in a checkout
    or an editable install, a copy inside the wheel otherwise)."""
    try:
        shipped = Path(str(resources.files("bot.glossary_data")))
    except (ModuleNotFoundError, TypeError):  # running from a checkout that was never installed
        shipped = PROJECT_DATA
    return shipped if shipped.is_dir() else PROJECT_DATA


def locale_language(env: Mapping[str, str] | None = None) -> str:
    """The command line's language: 'en' when the locale (LC_ALL, then LC_MESSAGES, then LANG) is English,
    'es' otherwise (Spanish is the default)."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value:
            return "en" if value.lower().startswith("en") else "es"
    return "es"


DEFAULT_DATABASE = "sqlite:///data/glosario.db"


def database_path(url: str) -> Path:
    """The SQLite file a database setting names: `sqlite:///relative/path`, `sqlite:////absolute/path`, or a plain
    path. Raises SettingsError for anything else."""
    text = url.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        return Path(text)
    if scheme.lower() == "sqlite" and rest.startswith("/") and len(rest) > 1:
        return Path(rest[1:])
    raise SettingsError(
        f"GLOSARIO_DB debe ser una URL sqlite:///ruta/glosario.db, postgresql://usuario@servidor/base o una ruta, "
        f"no '{text}'",
        f"GLOSARIO_DB must be a sqlite:///path/glosario.db or postgresql://user@host/database URL, or a path, "
        f"not '{text}'",
    )


def without_password(url: str) -> str:
    """A database URL fit for a log line, a health report or an error message."""
    parts = urlsplit(url)
    return url.replace(f":{parts.password}@", ":***@", 1) if parts.password else url


def is_postgres(url: str) -> bool:
    """Whether a database setting names a PostgreSQL server (postgresql://user:password@host:port/database)."""
    return url.strip().lower().startswith(("postgresql://", "postgres://"))


def _site_url(value: str | None) -> str | None:
    """GLOSARIO_SITE_URL: an http(s) address, or nothing."""
    if value is not None:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise SettingsError(
                f"GLOSARIO_SITE_URL debe ser la dirección http(s) de la página del glosario, no '{value}'",
                f"GLOSARIO_SITE_URL must be the glossary page's http(s) address, not '{value}'",
            )
    return value


def _rate(value: str) -> float:
    """GLOSARIO_DAILY_POSTS_PER_SECOND: a positive number."""
    try:
        rate = float(value)
    except ValueError:
        rate = 0.0
    if not rate > 0 or rate == float("inf"):
        raise SettingsError(
            f"GLOSARIO_DAILY_POSTS_PER_SECOND debe ser un número positivo, no '{value}'",
            f"GLOSARIO_DAILY_POSTS_PER_SECOND must be a positive number, not '{value}'",
        )
    return rate


def _shards(value: str | None) -> ShardPlan | None:
    """GLOSARIO_SHARDS: `0-3/8` (shards 0 to 3 of 8), `1/2`; nothing = every shard, as many as Discord says."""
    if value is None:
        return None
    try:
        return parse_shards(value)
    except ShardPlanError as exc:
        raise SettingsError(
            f"GLOSARIO_SHARDS: {exc} (por ejemplo 0-3/8: los shards 0 a 3 de 8)",
            f"GLOSARIO_SHARDS: {exc} (for example 0-3/8: shards 0 to 3 of 8)",
        ) from None


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    data_dir: Path = PROJECT_DATA
    database_url: str = DEFAULT_DATABASE  # GLOSARIO_DB: a URL (sqlite:///data/glosario.db) or a plain path
    cache_dir: Path | None = None  # GLOSARIO_CACHE_DIR; by default "cache" next to the database
    heartbeat_file: Path | None = None  # GLOSARIO_HEARTBEAT; by default "heartbeat" next to the database
    journal_file: Path | None = None  # GLOSARIO_JOURNAL; by default the database's name + ".pending.jsonl"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "text"
    application_id: int | None = None
    api_base: str | None = None  # another Discord REST base (a proxy; the tests' fake Discord)
    site_url: str | None = None  # GLOSARIO_SITE_URL: where `glosario-bot site` is published; cards link to it
    shards: ShardPlan | None = None  # GLOSARIO_SHARDS: which shards of how many; None = all, Discord's count
    daily_posts_per_second: float = 40.0  # GLOSARIO_DAILY_POSTS_PER_SECOND: under Discord's global 50/s
    gateway_url: str | None = None

    def __post_init__(self) -> None:
        # (db_path also checks the URL) With PostgreSQL the local files (journal, heartbeat, cache) go to data/.
        db = LOCAL_FILES / "glosario" if self.postgres else self.db_path
        defaults = {
            "cache_dir": db.parent / "cache",
            # one heartbeat per process: processes splitting the shards may share a data directory
            "heartbeat_file": db.with_name(
                "heartbeat" if self.shards is None else "heartbeat-" + self.shards.label().replace("/", "-of-")
            ),
            "journal_file": db.with_name(db.name + ".pending.jsonl"),
        }
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)

    def __repr__(self) -> str:  # the token must never reach a log line
        return (
            f"Settings(token={'***' if self.token else None}, data_dir={self.data_dir}, "
            f"database_url={without_password(self.database_url)}, dev_guild_id={self.dev_guild_id}, "
            f"log_level={self.log_level}, log_format={self.log_format})"
        )

    __str__ = __repr__

    @property
    def postgres(self) -> bool:
        return is_postgres(self.database_url)

    @property
    def db_path(self) -> Path:
        """The SQLite file (not for PostgreSQL: see `database`)."""
        return database_path(self.database_url)

    @property
    def database(self) -> Path | str:
        """What `open_stores` takes: the SQLite file (its absolute path, as messages name it), or the PostgreSQL
        URL."""
        return self.database_url.strip() if self.postgres else self.db_path.resolve()

    @property
    def rejected_file(self) -> Path:
        """Writes the database refused for their data, kept with the reason (next to the journal)."""
        journal = self.journal_file or self.db_path.with_name(self.db_path.name + ".pending.jsonl")
        name = journal.name.removesuffix(".pending.jsonl").removesuffix(".jsonl")
        return journal.with_name(name + ".rejected.jsonl")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        guild = env.get("GLOSARIO_DEV_GUILD", "").strip()
        app_id = env.get("DISCORD_APPLICATION_ID", "").strip()
        if app_id and not app_id.isdigit():
            raise SettingsError(
                f"DISCORD_APPLICATION_ID debe ser el id numérico de la aplicación, no '{app_id}'",
                f"DISCORD_APPLICATION_ID must be the application's numeric id, not '{app_id}'",
            )
        if guild and not guild.isdigit():
            raise SettingsError(
                f"GLOSARIO_DEV_GUILD debe ser el id numérico de un servidor, no '{guild}'",
                f"GLOSARIO_DEV_GUILD must be a server's numeric id, not '{guild}'",
            )
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(
                f"LOG_LEVEL debe ser DEBUG, INFO, WARNING o ERROR, no '{level}'",
                f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not '{level}'",
            )
        log_format = env.get("LOG_FORMAT", "text").strip().lower() or "text"
        if log_format not in ("text", "json"):
            raise SettingsError(
                f"LOG_FORMAT debe ser text o json, no '{log_format}'",
                f"LOG_FORMAT must be text or json, not '{log_format}'",
            )
        data = env.get("GLOSARIO_DATA", "").strip()

        def path(name: str) -> Path | None:
            value = env.get(name, "").strip()
            return Path(value) if value else None

        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            data_dir=Path(data) if data else default_data_dir(),
            database_url=env.get("GLOSARIO_DB", "").strip() or DEFAULT_DATABASE,
            cache_dir=path("GLOSARIO_CACHE_DIR"),
            heartbeat_file=path("GLOSARIO_HEARTBEAT"),
            journal_file=path("GLOSARIO_JOURNAL"),
            dev_guild_id=int(guild) if guild else None,
            application_id=int(app_id) if app_id else None,
            log_level=level,
            log_format=log_format,
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            site_url=_site_url(env.get("GLOSARIO_SITE_URL", "").strip() or None),
            shards=_shards(env.get("GLOSARIO_SHARDS", "").strip() or None),
            daily_posts_per_second=_rate(env.get("GLOSARIO_DAILY_POSTS_PER_SECOND", "").strip() or "40"),
        )
