"""The commands the documentation shows: the fenced blocks of README.md and docs/, each command split into its
environment and words, and why one that cannot run here is not run (the marker a block carries just above it:
`<!-- not run: REASON, … -->`)."""

from __future__ import annotations

import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))
SHELLS = {"bash", "shell", "console", "zsh", "shell-session", "sh-session", "terminal"}  # commands go in `sh`

# Why a command is not run here, and so what the docs test checks instead (tests/docs/checks.py).
REASONS = {
    "install": "installs packages: the suite runs inside that very install; checked: it is this checkout's, with "
    "the extra named",
    "suite": "is the test suite, or a part another test runs (ruff: tests/test_lint.py; the site's build: "
    "tests/docs/test_build.py); checked: that test runs exactly it",
    "container": "needs a container engine and builds or runs the image; checked: the compose file and service, "
    "the Dockerfile, and the bot's own arguments",
    "discord": "needs Discord (a token) or a running bot; checked: its arguments parse and its settings load",
    "postgres": "needs a PostgreSQL server at that address; checked: the arguments parse, the tools know the flags",
    "pictures": "rewrites the committed pictures; tests/docs/test_screenshots.py replays their interactions instead",
}

_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_MARKER = re.compile(r"^\s*<!--\s*not run:\s*(?P<reasons>[a-z, ]+?)\s*-->\s*$")
_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")


@dataclass(frozen=True)
class Command:
    env: dict[str, str]
    argv: tuple[str, ...]
    text: str  # as written, for the shell and for messages

    def starts(self, *words: str) -> bool:
        return self.argv[: len(words)] == words

    @property
    def bot_arguments(self) -> list[str] | None:
        """The arguments given to the bot's command line (`glosario-bot …`, `python -m bot …`), else None."""
        if self.starts("glosario-bot"):
            return list(self.argv[1:])
        if self.starts("python", "-m", "bot"):
            return list(self.argv[3:])
        return None


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    language: str
    body: str
    reasons: frozenset[str]  # the marker's; empty when the block has none

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def commands(self) -> list[Command]:
        return commands(self.body)


def blocks(page: Path) -> list[Block]:
    """Every fenced block of a page, in order, with the marker on the line just above it (blank lines aside)."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        above = text[: match.start()].rstrip().rsplit("\n", 1)[-1]
        marker = _MARKER.match(above)
        reasons = frozenset(r.strip() for r in marker["reasons"].split(",")) if marker else frozenset()
        body = textwrap.dedent(match["body"])
        language = match["info"].strip().split(" ")[0].lstrip("{.")
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, language, body, reasons))
    return found


def commands(body: str) -> list[Command]:
    """The commands of an `sh` block: one a line (a trailing backslash goes on), `&&` between several."""
    found = []
    for line in body.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split, lexer.commenters = True, "#"
        words = list(lexer)
        text = line.split(" #", 1)[0].strip()
        parts: list[list[str]] = [[]]
        for word in words:
            parts.append([]) if word == "&&" else parts[-1].append(word)
        pieces = [p.strip() for p in text.split("&&")] if len(parts) > 1 else [text]
        for part, piece in zip(parts, pieces, strict=True):
            if part:
                found.append(_command(part, piece))
    return found


def _command(words: list[str], text: str) -> Command:
    env = {}
    while words and _ASSIGNMENT.match(words[0]):
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    return Command(env, tuple(words), text)


def reason_not_to_run(command: Command) -> str | None:
    """Why this command cannot run in the docs test (a key of REASONS), or None: run it."""
    argv = command.argv
    if command.starts("pip", "install"):
        return "install"
    if command.starts("python", "-m", "pytest") or command.starts("python", "-m", "ruff"):
        return "suite"
    if command.starts("mkdocs", "build"):
        return "suite"
    if argv[0] in ("docker", "podman") or command.starts("python", "-m", "tests.fake_discord.container_e2e"):
        return "container"
    if command.starts("python", "-m", "tests.docs.screenshots"):
        return "pictures"
    if argv[0] in ("pg_dump", "pg_restore") or any(re.match(r"postgres(ql)?(\+asyncpg)?://", a) for a in argv):
        return "postgres"
    arguments = command.bot_arguments
    if arguments is not None and (not arguments or arguments[0] in ("run", "sync", "health")):
        return "discord"
    return None


def inline_commands(page: Path) -> list[str]:
    """The commands written in running text (code spans) that run the bot or a module of this repository, fenced
    blocks left out."""
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    spans = (m[2].strip() for m in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text))
    return [span for span in spans if span.startswith(("glosario-bot ", "python -m "))]
