"""Every command the documentation shows is run, or checked as far as it can be here and marked with why not.

A fenced block says its language; commands go in `sh` blocks. Each page's commands run in order in a temporary
folder of their own, where the bot would have left its database (`data/glosario.db`, empty and migrated), with
`glosario-bot …` in-process like tests/test_cli.py and anything else through bash, offline; each must succeed.
A block holding a command that cannot run here (Docker, Discord, PostgreSQL, the suite itself) carries
`<!-- not run: REASON -->` just above it, and that command is checked instead (tests/docs/checks.py)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import shlex
import shutil
import subprocess
import sys

import pytest

from bot.cli import main
from tests.docs.blocks import (
    PAGES,
    REASONS,
    ROOT,
    SHELLS,
    Block,
    Command,
    blocks,
    inline_commands,
    reason_not_to_run,
)
from tests.docs.checks import CHECKS, bot_arguments_problems

ALL_BLOCKS = [block for page in PAGES for block in blocks(page)]
SH_BLOCKS = [block for block in ALL_BLOCKS if block.language == "sh"]


def page_id(page) -> str:
    return str(page.relative_to(ROOT))


def test_the_documentation_shows_commands_to_test():
    assert len(PAGES) >= 10 and (ROOT / "README.md") in PAGES
    assert sum(len(block.commands()) for block in SH_BLOCKS) >= 40


def test_every_block_says_its_language_and_commands_are_in_sh_blocks():
    unlabelled = [block.where for block in ALL_BLOCKS if not block.language]
    assert unlabelled == [], "a fenced block says its language (sh for commands, text, yaml…)"
    shells = [f"{block.where} ({block.language})" for block in ALL_BLOCKS if block.language in SHELLS]
    assert shells == [], "commands go in `sh` blocks: the docs test runs those"
    stray = [block.where for block in ALL_BLOCKS if block.reasons and block.language != "sh"]
    assert stray == [], "a `not run` marker stands above an sh block"


@pytest.mark.parametrize("block", SH_BLOCKS, ids=lambda b: b.where)
def test_every_block_that_cannot_run_says_why_and_is_checked(block: Block):
    unknown = block.reasons - set(REASONS)
    assert not unknown, f"{block.where}: unknown reasons {unknown}; known: {sorted(REASONS)}"
    needed = {reason_not_to_run(command) for command in block.commands()} - {None}
    assert block.reasons == needed, (
        f"{block.where}: the marker says not run for {sorted(block.reasons) or 'nothing'}, its commands need "
        f"{sorted(needed) or 'nothing'}: write `<!-- not run: {', '.join(sorted(needed))} -->` above it"
        if needed
        else f"{block.where}: every command of this block runs here: remove its marker"
    )
    for command in block.commands():
        reason = reason_not_to_run(command)
        if reason is not None:
            assert CHECKS[reason](command) == [], f"{block.where}: {command.text}"


def runnable(page) -> list[tuple[Block, Command]]:
    return [(b, c) for b in SH_BLOCKS if b.page == page for c in b.commands() if reason_not_to_run(c) is None]


@pytest.mark.parametrize("page", [page for page in PAGES if runnable(page)], ids=page_id)
def test_the_commands_of_each_page_run(page, tmp_path, monkeypatch, capsys, question_cache):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSARIO_CACHE_DIR", str(question_cache))  # the sentence model, compiled once
    assert main(["migrate"]) == 0  # the folder the bot runs in: its database is there
    for block, command in runnable(page):
        code, said = run(command, monkeypatch, capsys)
        assert code == 0, f"{block.where}: `{command.text}` exited {code}:\n{said}"


def run(command: Command, monkeypatch, capsys) -> tuple[int, str]:
    """Run one command where the page's reader would: the bot's in-process, the rest through bash."""
    arguments = command.bot_arguments
    if arguments is None:
        if command.argv[0] == "sqlite3" and shutil.which("sqlite3") is None:
            if os.environ.get("CI"):
                pytest.fail("SQLite's shell (sqlite3) is missing: .ci/run installs it")
            pytest.skip("SQLite's shell (sqlite3) is not installed: apt-get install sqlite3")
        path = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
        proc = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", command.text],
            env={**os.environ, "PATH": path},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return proc.returncode, proc.stdout + proc.stderr
    with monkeypatch.context() as scoped:
        for name, value in command.env.items():
            scoped.setenv(name, value)
        with contextlib.redirect_stderr(io.StringIO()) as usage:
            try:
                code = main(arguments)
            except SystemExit as exit_:  # a usage error: argparse exits
                code = exit_.code
    out, err = capsys.readouterr()
    return code, out + err + usage.getvalue()


@pytest.fixture(scope="session")
def question_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_commands_in_running_text_parse(page):
    problems = []
    for span in inline_commands(page):
        if span.startswith("python -m ") and not span.startswith("python -m bot "):
            module = span.split()[2]  # a module of this repository (a benchmark, a tool of the tests)
            problems += [] if importlib.util.find_spec(module) else [f"{span!r}: no module {module}"]
            continue
        words = shlex.split(span)[1 if span.startswith("glosario-bot ") else 3 :]
        synopsis = any(mark in span for mark in "[|…<") or any(w.isupper() or w.rstrip("…").isupper() for w in words)
        if synopsis or len(words) <= 1:  # a synopsis, or a subcommand named in a sentence: it exists
            problems += [] if known_subcommand(words) else [f"{span!r}: no such subcommand"]
        else:
            problems += [f"{span!r}: {p}" for p in bot_arguments_problems(words)]
    assert problems == []


def known_subcommand(words: list[str]) -> bool:
    """A synopsis (`forget-user USER_ID [--yes]`): its subcommand exists."""
    from bot.cli._commands import COMMANDS

    names = {name for command in COMMANDS for name in (command.name, *command.aliases)}
    first = next((w for w in words if not w.startswith("-")), "…")
    return first in names or first.isupper() or first == "…"
