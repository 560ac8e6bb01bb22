"""Settings: one frozen dataclass built from the environment, passed down. Nothing else reads os.environ."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

PROJECT_DATA = Path(__file__).resolve().parent.parent / "glossary_data"


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


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    data_dir: Path = PROJECT_DATA
    db_path: Path = Path("data") / "glosario.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "text"
    application_id: int | None = None
    api_base: str | None = None  # another Discord REST base (a proxy; the tests' fake Discord)
    gateway_url: str | None = None

    def __repr__(self) -> str:  # the token must never reach a log line
        return (
            f"Settings(token={'***' if self.token else None}, data_dir={self.data_dir}, db_path={self.db_path}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level}, log_format={self.log_format})"
        )

    __str__ = __repr__

    @property
    def cache_dir(self) -> Path:
        return self.db_path.parent / "cache"

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
        db = env.get("GLOSARIO_DB", "").strip()
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            data_dir=Path(data) if data else default_data_dir(),
            db_path=Path(db) if db else Path("data") / "glosario.db",
            dev_guild_id=int(guild) if guild else None,
            application_id=int(app_id) if app_id else None,
            log_level=level,
            log_format=log_format,
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
        )
