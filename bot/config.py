"""Settings: one frozen dataclass built from the environment, passed down. Nothing else reads os.environ."""

from __future__ import annotations

import contextlib
import glob
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bot.core.problems import SaidError, Sentence, said
from bot.core.shards import ShardPlan, ShardPlanError, parse_shards

PROJECT_DATA = Path(__file__).resolve().parent.parent / "glossary_data"
LOCAL_FILES = Path("data")  # with PostgreSQL: where the journal, heartbeat and cache go unless given


class SettingsError(SaidError, ValueError):
    """A setting has a value we cannot use (the operator's fault): a sentence of the problems' catalogues, said in
    Spanish (str) or in the reader's language (`text`)."""


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
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+asyncpg")  # (the last as SQLAlchemy users write it)
_MASK = "***"


def _refused(text: str, why: Sentence) -> SettingsError:
    """GLOSARIO_DB refused: what is wrong, what it may be, and the value with its password masked."""
    return SettingsError(said("database_refused", why=why, shown=mask_password(text)))


def mask_password(text: str) -> str:
    """Any database setting, whatever its shape (even one that does not parse), without its password: everything
    between the user name and the last '@' is masked, so is a 'port' that is not a number, and a `password=`
    parameter."""
    found = re.match(r"([A-Za-z][A-Za-z0-9+.-]*://)(.*)", text, re.DOTALL)
    if found is None:  # a plain path, or a URL mistyped: from its first ':' to its last '@' may be a password
        at = text.rfind("@")
        return re.sub(r":.*", ":" + _MASK, text[:at], count=1, flags=re.DOTALL) + text[at:] if at >= 0 else text
    scheme, rest = found.groups()
    at = rest.rfind("@")
    if at >= 0:
        user, colon, _ = rest[:at].partition(":")
        rest = f"{user}{':' + _MASK if colon else ''}{rest[at:]}"
    else:  # no user part: a ':' in the authority that is not a port may be a password given without '@'
        end = min((i for i in (rest.find(c) for c in "/?") if i >= 0), default=len(rest))
        host, colon, port = rest[:end].partition(":")
        if colon and not port.isdigit():
            rest = f"{host}:{_MASK}{rest[end:]}"
    rest = re.sub(r"(?i)(password=)[^&]*", rf"\g<1>{_MASK}", rest)
    return scheme + rest


@dataclass(frozen=True)
class DatabaseUrl:
    """GLOSARIO_DB, parsed once: a SQLite file (`sqlite_path`) or a PostgreSQL server (`url`, what asyncpg
    takes). Shown (str, repr, `masked`) it never carries the password."""

    url: str = field(repr=False)  # PostgreSQL: postgresql://…; SQLite: the value as given
    sqlite_path: Path | None = None
    masked: str = ""

    @property
    def is_postgres(self) -> bool:
        return self.sqlite_path is None

    def scrub(self, text: str) -> str:
        """A message (a driver's error text) with this URL's password masked wherever it appears."""
        secrets = set()
        with contextlib.suppress(ValueError):
            password = urlsplit(self.url).password
            secrets = {password, unquote(password)} if password else set()
        secrets.update(re.findall(r"(?i)password=([^&]+)", self.url))
        for secret in sorted(secrets, key=len, reverse=True):
            text = text.replace(secret, _MASK)
        return text

    def __str__(self) -> str:
        return self.masked

    __repr__ = __str__

    @classmethod
    def parse(cls, value: str) -> DatabaseUrl:
        """`sqlite:///relative/path`, `sqlite:////absolute/path`, a plain path, or `postgresql://…` (also
        `postgres://` and `postgresql+asyncpg://`). Raises SettingsError, saying why, password masked."""
        text = value.strip()
        scheme, sep, rest = text.partition("://")
        if not sep:
            if ("@" in text and ":" in text) or re.match(r"(?i)(postgres|sqlite)[a-z+]*:", text):
                raise _refused(text, said("database_mistyped_url"))
            return cls(text, Path(text), text)
        kind = scheme.lower()
        if kind == "sqlite":
            if rest.startswith("/") and len(rest) > 1:
                return cls(text, Path(rest[1:]), text)
            raise _refused(text, said("database_no_path"))
        if kind not in POSTGRES_SCHEMES:
            if kind.startswith("postgres") and "+" in kind:
                raise _refused(text, said("database_other_driver", driver=kind.partition("+")[2]))
            raise _refused(text, said("database_unknown_kind", scheme=scheme))
        url = "postgresql://" + rest
        problem = _postgres_problem(url)
        if problem is not None:
            raise _refused(text, problem)
        return cls(url, None, mask_password(url))


def _postgres_problem(url: str) -> Sentence | None:
    """Why a PostgreSQL URL cannot be read as one (so asyncpg is never handed something it misreads), or None."""
    if "#" in url:
        return said("database_raw_hash")
    if re.search(r"%(?![0-9A-Fa-f]{2})", url):
        return said("database_bad_percent")
    try:
        netloc = urlsplit(url).netloc
    except ValueError:
        return said("database_host_unreadable")
    if "@" not in netloc and "@" in url:
        return said("database_raw_slash")
    for spec in netloc.rpartition("@")[2].split(","):  # (libpq allows several hosts)
        host, port = spec, ""
        if spec.startswith("["):
            host, bracket, port = spec[1:].partition("]")
            if not bracket or (port and not port.startswith(":")):
                return said("database_bad_ipv6")
            port = port[1:]
        elif ":" in spec:
            host, _, port = spec.partition(":")
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            return said("database_bad_port")
        if "[" in host or "]" in host:
            return said("database_bad_ipv6")
    return None


def database_path(url: str) -> Path:
    """The SQLite file a database setting names: `sqlite:///relative/path`, `sqlite:////absolute/path`, or a plain
    path. Raises SettingsError for anything else."""
    parsed = DatabaseUrl.parse(url)
    if parsed.sqlite_path is None:
        raise _refused(url, said("database_not_a_file"))
    return parsed.sqlite_path


def without_password(url: str | DatabaseUrl) -> str:
    """A database URL fit for a log line, a health report or an error message."""
    return url.masked if isinstance(url, DatabaseUrl) else mask_password(url)


def is_postgres(url: str) -> bool:
    """Whether a database setting names a PostgreSQL server (a URL that parses as one)."""
    try:
        return DatabaseUrl.parse(url).is_postgres
    except SettingsError:
        return False


def _site_url(value: str | None) -> str | None:
    """GLOSARIO_SITE_URL: an http(s) address, or nothing."""
    if value is not None:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise SettingsError(said("site_url_invalid", value=value))
    return value


def _rate(value: str) -> float:
    """GLOSARIO_DAILY_POSTS_PER_SECOND: a positive number."""
    try:
        rate = float(value)
    except ValueError:
        rate = 0.0
    if not rate > 0 or rate == float("inf"):
        raise SettingsError(said("daily_rate_invalid", value=value))
    return rate


def _shards(value: str | None) -> ShardPlan | None:
    """GLOSARIO_SHARDS: `0-3/8` (shards 0 to 3 of 8), `1/2`; nothing = every shard, as many as Discord says."""
    if value is None:
        return None
    try:
        return parse_shards(value)
    except ShardPlanError as exc:
        raise SettingsError(said("shards_invalid", problem=exc.sentence)) from None


def _rejected_beside(journal: Path) -> Path:
    name = journal.name.removesuffix(".pending.jsonl").removesuffix(".jsonl")
    return journal.with_name(name + ".rejected.jsonl")


def _days(value: str) -> int:
    """GLOSARIO_FORGET_GUILD_AFTER_DAYS: a whole number of days, 0 or more."""
    if not (value.isascii() and value.isdigit()):
        raise SettingsError(said("forget_days_invalid", value=value))
    return int(value)


def _number(env: Mapping[str, str], name: str, what: str) -> int | None:
    """An id setting: digits, or nothing (`what`: the code of the words for what it must be)."""
    value = env.get(name, "").strip()
    if value and not value.isdigit():
        raise SettingsError(said("setting_not_a_number", name=name, what=said(what), value=value))
    return int(value) if value else None


def _one_of(env: Mapping[str, str], name: str, allowed: tuple[str, ...], default: str, *, upper: bool = False) -> str:
    """A setting with a few possible values."""
    value = env.get(name, "").strip()
    value = (value.upper() if upper else value.lower()) or default
    if value not in allowed:
        some = ", ".join(allowed[:-1])
        raise SettingsError(said("setting_not_one_of", name=name, some=some, last=allowed[-1], value=value))
    return value


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    data_dir: Path = PROJECT_DATA
    database_url: str = DEFAULT_DATABASE  # GLOSARIO_DB: a URL (sqlite:///data/glosario.db) or a plain path
    cache_dir: Path | None = None  # GLOSARIO_CACHE_DIR; by default "cache" next to the database
    heartbeat_file: Path | None = None  # GLOSARIO_HEARTBEAT; by default "heartbeat" next to the database
    journal_file: Path | None = None  # GLOSARIO_JOURNAL; by default the database's name + ".pending.jsonl"
    journal_fallback: Path | None = None  # GLOSARIO_JOURNAL_FALLBACK: a folder on another disk, for a full disk
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "text"
    application_id: int | None = None
    api_base: str | None = None  # another Discord REST base (a proxy; the tests' fake Discord)
    site_url: str | None = None  # GLOSARIO_SITE_URL: where `glosario-bot site` is published; cards link to it
    shards: ShardPlan | None = None  # GLOSARIO_SHARDS: which shards of how many; None = all, Discord's count
    daily_posts_per_second: float = 40.0  # GLOSARIO_DAILY_POSTS_PER_SECOND: under Discord's global 50/s
    forget_guild_after_days: int = 30  # GLOSARIO_FORGET_GUILD_AFTER_DAYS: a server that removed the bot is forgotten
    questions: bool = True  # GLOSARIO_QUESTIONS: answer questions by meaning (its model loads after start)
    gateway_url: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "_db_url", DatabaseUrl.parse(self.database_url))  # (refused here if unusable)
        # With PostgreSQL the local files (journal, heartbeat, cache) go to data/.
        db = self._local_base
        # one heartbeat and one journal per process: processes splitting the shards may share a data directory
        process = "" if self.shards is None else self.shards.label().replace("/", "-of-")
        defaults = {
            "cache_dir": db.parent / "cache",
            "heartbeat_file": db.with_name(f"heartbeat-{process}" if process else "heartbeat"),
            "journal_file": db.with_name(
                f"{db.name}.{process}.pending.jsonl" if process else f"{db.name}.pending.jsonl"
            ),
        }
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)

    def __repr__(self) -> str:  # the token must never reach a log line
        return (
            f"Settings(token={'***' if self.token else None}, data_dir={self.data_dir}, "
            f"database_url={self.db_url.masked}, dev_guild_id={self.dev_guild_id}, "
            f"log_level={self.log_level}, log_format={self.log_format})"
        )

    __str__ = __repr__

    @property
    def db_url(self) -> DatabaseUrl:
        """GLOSARIO_DB, parsed (shown, it never carries the password)."""
        return self._db_url  # type: ignore[attr-defined]

    @property
    def postgres(self) -> bool:
        return self.db_url.is_postgres

    @property
    def db_path(self) -> Path:
        """The SQLite file (not for PostgreSQL: see `database`)."""
        return database_path(self.database_url)

    @property
    def database(self) -> Path | DatabaseUrl:
        """What `open_stores` takes: the SQLite file (its absolute path, as messages name it), or the PostgreSQL
        URL."""
        return self.db_url if self.postgres else self.db_path.resolve()

    @property
    def _local_base(self) -> Path:
        return LOCAL_FILES / "glosario" if self.postgres else self.db_path

    @property
    def fallback_journal(self) -> Path | None:
        """Where the journal goes when its own disk is full: the same name in GLOSARIO_JOURNAL_FALLBACK."""
        return self.journal_fallback / self.journal_file.name if self.journal_fallback and self.journal_file else None

    def other_journals(self) -> list[Path]:
        """Journals this process replays besides its own: those left next to the database by any other layout
        of processes (one process, or the shards split another way), and its fallback's. Claimed one process
        at a time (bot.storage.writer), so replaying another's is safe."""
        db, found = self._local_base, set()
        for folder in (db.parent, self.journal_fallback) if self.journal_fallback else (db.parent,):
            found.add(folder / f"{db.name}.pending.jsonl")
            found.update(folder.glob(f"{glob.escape(db.name)}.*.pending.jsonl"))
        if self.fallback_journal is not None:
            found.add(self.fallback_journal)
        found.discard(self.journal_file)
        return sorted(found)

    @property
    def log_journal(self) -> Path:
        """Where `glosario-bot replay-log` keeps what the database cannot take yet: a journal of its own next to the
        database's (every start replays it, as another layout's)."""
        db = self._local_base
        return db.with_name(f"{db.name}.log.pending.jsonl")

    @property
    def rejected_file(self) -> Path:
        """Writes the database refused for their data, kept with the reason (next to the journal)."""
        return _rejected_beside(self.journal_file or self.db_path.with_name(self.db_path.name + ".pending.jsonl"))

    def journal_files(self) -> list[Path]:
        """Every file that may hold write records the database does not have: the journals of every layout of
        processes (this one's, the others', the fallback's) and, beside each, the writes refused for their data."""
        journals = [self.journal_file, *self.other_journals()]
        return sorted({*journals, *map(_rejected_beside, journals), self.rejected_file})

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        guild = _number(env, "GLOSARIO_DEV_GUILD", "a_server_id")
        app_id = _number(env, "DISCORD_APPLICATION_ID", "an_application_id")
        level = _one_of(env, "LOG_LEVEL", ("DEBUG", "INFO", "WARNING", "ERROR"), "INFO", upper=True)
        log_format = _one_of(env, "LOG_FORMAT", ("text", "json"), "text")
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
            journal_fallback=path("GLOSARIO_JOURNAL_FALLBACK"),
            dev_guild_id=guild,
            application_id=app_id,
            log_level=level,
            log_format=log_format,
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            site_url=_site_url(env.get("GLOSARIO_SITE_URL", "").strip() or None),
            shards=_shards(env.get("GLOSARIO_SHARDS", "").strip() or None),
            daily_posts_per_second=_rate(env.get("GLOSARIO_DAILY_POSTS_PER_SECOND", "").strip() or "40"),
            forget_guild_after_days=_days(env.get("GLOSARIO_FORGET_GUILD_AFTER_DAYS", "").strip() or "30"),
            questions=_one_of(env, "GLOSARIO_QUESTIONS", ("on", "off"), "on") == "on",
        )
