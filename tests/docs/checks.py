"""What the docs test checks of a command it cannot run here, by reason (tests/docs/blocks.py: REASONS): as much as
can be checked without a container engine, Discord or a PostgreSQL server. Each check returns the problems it
found, as sentences; none means the command is as right as can be told here."""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import yaml

from bot.cli._commands import argument_parser, subcommand
from bot.cli._words import Words
from bot.config import Settings, SettingsError
from tests.docs.blocks import ROOT, Command

# The parts of the suite a page may show, and the file that runs each exactly.
SUITE = {
    ("python", "-m", "pytest"): (".ci/run", "pip install -e '.[test]' && python -m pytest"),
    ("python", "-m", "ruff", "check", "."): ("tests/test_lint.py", '["check", "."]'),
    ("python", "-m", "ruff", "format", "--check", "."): ("tests/test_lint.py", '["format", "--check", "."]'),
    ("mkdocs", "build", "--strict", "--site-dir", "site"): ("tests/docs/test_build.py", '"build", "--strict"'),
}


def bot_arguments_problems(arguments: list[str]) -> list[str]:
    """Whether the bot's command line takes these arguments (parsed, not run)."""
    parser = argument_parser(Words("es"))
    with contextlib.redirect_stderr(io.StringIO()) as said, contextlib.suppress(SystemExit):
        args = parser.parse_args(arguments)
        refusal = subcommand(args.command).refuse(args)
        return [f"refused: {refusal}"] if refusal else []
    return [f"the command line refuses {arguments}: {said.getvalue().strip()}"]


def settings_problems(env: dict[str, str]) -> list[str]:
    if not env:
        return []
    try:
        Settings.from_env(env)
    except SettingsError as exc:
        return [f"settings {env} refused: {exc.text('en')}"]
    return []


def check_install(command: Command) -> list[str]:
    spec = command.argv[-1]
    match = re.fullmatch(r"\.(?:\[(?P<extras>[a-z,]+)\])?", spec)
    if command.argv[2:-1] != ("-e",) or match is None:
        return [f"only `pip install -e .[extras]` of this checkout is known here, not {command.text!r}"]
    installed = [d for d in importlib.metadata.distributions(name="glosario-bot") if d.read_text("direct_url.json")]
    if not installed:  # (the egg-info an editable install leaves in the checkout has no direct_url.json)
        return ["glosario-bot is not installed by pip"]
    dist = installed[0]
    origin = json.loads(dist.read_text("direct_url.json"))
    problems = []
    if not origin.get("dir_info", {}).get("editable") or Path(origin["url"].removeprefix("file://")) != ROOT:
        problems.append(f"glosario-bot is not installed editable from {ROOT}: {origin}")
    for extra in (match["extras"] or "").split(",") if match["extras"] else []:
        wanted = [r for r in dist.requires or [] if f'extra == "{extra}"' in r]
        if not wanted:
            problems.append(f"pyproject.toml has no extra {extra!r}")
        for requirement in wanted:
            name = re.match(r"[A-Za-z0-9._-]+", requirement)[0]
            try:
                importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                problems.append(f"{name} (extra {extra!r}) is not installed")
    return problems


def check_suite(command: Command) -> list[str]:
    known = SUITE.get(command.argv)
    if known is None:
        return [f"{command.text!r} is no part of the suite that a test runs (known: {sorted(SUITE)})"]
    path, fingerprint = known
    if fingerprint not in (ROOT / path).read_text(encoding="utf-8"):
        return [f"{path} no longer runs {command.text!r}"]
    return []


def check_container(command: Command) -> list[str]:
    argv = list(command.argv)
    if argv[:3] == ["python", "-m", "tests.fake_discord.container_e2e"]:
        found = importlib.util.find_spec("tests.fake_discord.container_e2e") is not None
        return [] if found else ["tests/fake_discord/container_e2e.py is gone"]
    if argv[1:2] == ["build"]:
        ok = argv[-1] == "." and (ROOT / "Dockerfile").is_file()
        return [] if ok else [f"{command.text!r} does not build this repository's Dockerfile"]
    if argv[1:2] != ["compose"]:
        return [f"no check for {command.text!r}"]
    rest = argv[2:]
    file = "compose.yaml"
    if rest[:1] == ["-f"]:
        file, rest = rest[1], rest[2:]
    services = yaml.safe_load((ROOT / file).read_text(encoding="utf-8"))["services"]
    return _compose_problems(file, services, rest)


def _compose_problems(file: str, services: dict, rest: list[str]) -> list[str]:
    action, options = rest[0], rest[1:]
    if action in ("up", "logs"):
        return [] if set(options) <= {"-d", "-f", "--build"} else [f"unknown options {options}"]
    if action == "kill":
        ok = options[:1] == ["-s"] and options[2] in services
        return [] if ok else [f"{file} has no service {options[2:]}"]
    if action == "run":
        flags = [o for o in options if o.startswith("--")]
        service, *arguments = [o for o in options if not o.startswith("--")]
        if service not in services or flags != ["--rm"]:
            return [f"{file}: no service {service!r}, or options other than --rm"]
        return bot_arguments_problems(arguments)
    return [f"no check for docker compose {action}"]


def check_discord(command: Command) -> list[str]:
    arguments = command.bot_arguments or []
    return bot_arguments_problems(arguments or ["run"]) + settings_problems(command.env)


def check_postgres(command: Command) -> list[str]:
    arguments = command.bot_arguments
    if arguments is not None:
        return bot_arguments_problems(arguments) + settings_problems(command.env)
    tool = shutil.which(command.argv[0])
    if tool is None:
        return []  # PostgreSQL's client tools are not installed here: nothing more to check
    said = subprocess.run([tool, "--help"], capture_output=True, text=True, check=False).stdout
    flags = [a.split("=")[0] if a.startswith("--") else a[:2] for a in command.argv[1:] if a.startswith("-")]
    return [f"{command.argv[0]} --help does not mention {flag}" for flag in flags if f" {flag}" not in said]


def check_pictures(command: Command) -> list[str]:
    return [] if importlib.util.find_spec("tests.docs.screenshots") else ["tests/docs/screenshots.py is gone"]


CHECKS = {
    "install": check_install,
    "suite": check_suite,
    "container": check_container,
    "discord": check_discord,
    "postgres": check_postgres,
    "pictures": check_pictures,
}
