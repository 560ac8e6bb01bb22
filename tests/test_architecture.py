"""The dependency direction of DESIGN.md: core imports nothing impure; discord_app → storage → core."""

import re
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
FORBIDDEN_IN_CORE = {"discord", "aiosqlite", "asyncio", "bot.storage", "bot.discord_app", "bot.config", "datetime.now"}


_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+(?:\s*,\s*[\w.]+)*))", re.MULTILINE)


def imports_of(path: Path) -> set[str]:
    """Module names imported by a file, read from its import lines.

    (Not with the ast module: CPython 3.11.7's ast.parse can fail with "AST constructor recursion depth
    mismatch" in a process where a RecursionError was caught before, as the loader's fuzz tests do.)"""
    names: set[str] = set()
    for frm, imports in _IMPORT.findall(path.read_text(encoding="utf-8")):
        names.update([frm] if frm else [n.strip() for n in imports.split(",")])
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
