"""The dependency direction of DESIGN.md: core imports nothing impure; discord_app → storage → core."""

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
FORBIDDEN_IN_CORE = {"discord", "aiosqlite", "asyncio", "bot.storage", "bot.discord_app", "bot.config", "datetime.now"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_is_pure():
    for path in sorted((BOT / "core").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for name in imports_of(path):
            assert not any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_IN_CORE), f"{path}: {name}"
        assert "os.environ" not in source and "getenv" not in source, path
        assert ".now(" not in source and "time.time(" not in source, f"{path} reads the clock"


def test_storage_does_not_import_discord():
    for path in sorted((BOT / "storage").rglob("*.py")):
        for name in imports_of(path):
            assert not name.startswith(("discord", "bot.discord_app")), f"{path}: {name}"


def test_only_config_reads_the_environment():
    for path in sorted(BOT.rglob("*.py")):
        if path.name != "config.py":
            assert "os.environ" not in path.read_text(encoding="utf-8"), path
