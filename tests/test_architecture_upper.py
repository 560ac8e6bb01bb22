"""The upper floors' rules (beside test_architecture.py's layers): no import cycle even through imports made only
for type checking; the Discord layer talks to the application only; features do not import the client; and no
lifecycle state is spelt as a string outside its enum."""

import json
import subprocess
import sys
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"

# Every import of every module of bot/, those under `if TYPE_CHECKING:` and inside functions included. Read with
# the ast module in a fresh interpreter (see test_architecture.imports_of for why not in this one).
_ALL_IMPORTS = r"""
import ast, json, sys
from pathlib import Path

bot = Path(sys.argv[1])
graph = {}
for path in sorted(bot.rglob("*.py")):
    parts = path.relative_to(bot.parent).with_suffix("").parts
    module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    package = module if parts[-1] == "__init__" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    graph[module] = sorted(n for n in names if n == "bot" or n.startswith("bot."))
print(json.dumps(graph))
"""


def _graph() -> dict[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", _ALL_IMPORTS, str(BOT)], capture_output=True, text=True, check=True)
    raw = json.loads(done.stdout)
    # `from bot.core import daily` names a module, `from bot.core.search import Found` a name in one: keep modules.
    # A package's own __init__ re-exporting its private modules is not a cycle with them.
    return {m: {n for n in names if n in raw and n != m and not n.startswith(m + ".")} for m, names in raw.items()}


def test_no_import_cycle_even_through_type_checking_imports():
    graph = _graph()
    assert "bot.discord_app.kit.services" in graph and "bot.app.application" in graph  # really read
    state: dict[str, int] = {}  # 1: being visited, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for name in sorted(graph[module]):
            assert state.get(name) != 1, "import cycle: " + " → ".join([*path, module, name])
            if name not in state:
                visit(name, [*path, module])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])


def test_the_discord_layer_talks_to_the_application_only():
    """No store, record or storage error is imported by the Discord layer, not even for a type: what it needs
    of them, the application gives (bot.app.errors, the records its actions return)."""
    graph = _graph()
    found = [
        f"{module} imports {name}"
        for module, names in graph.items()
        if module.startswith("bot.discord_app")
        for name in names
        if name.startswith("bot.storage")
    ]
    assert found == []


def test_features_do_not_import_the_client():
    """Handlers are typed against kit.services' protocols; only the client knows the features (it loads them)."""
    graph = _graph()
    found = [m for m, names in graph.items() if m.startswith("bot.discord_app.") and "bot.discord_app.client" in names]
    assert found == []
    features = [
        m for m in graph if m.count(".") == 2 and m.startswith("bot.discord_app.") and m != "bot.discord_app.client"
    ]
    assert len(features) >= 10  # the feature packages (and kit) were read


def test_each_feature_is_a_package_with_setup():
    """A feature is a package: its commands, views and forms together, loaded through its setup()."""
    root = BOT / "discord_app"
    loose = sorted(p.name for p in root.glob("*.py") if p.name not in ("__init__.py", "client.py"))
    assert loose == []  # nothing arranged by kind beside the features
    for package in sorted(p for p in root.iterdir() if (p / "__init__.py").exists() and p.name != "kit"):
        text = (package / "__init__.py").read_text(encoding="utf-8")
        assert "setup" in text, f"{package.name} has no setup()"


# The values of the lifecycle enums (bot/core/status.py). A state is spelt as a string when such a value is compared
# with something, or passed or defaulted as a status: then the enum must be used instead. (The same words elsewhere
# are not states: a cache's name, a log line, the catalogues that translate them for people.)
LIFECYCLE = {"open", "resolved", "ignored", "pending", "published", "rejected", "posting", "posted", "failed", "all"}

_STRINGS = r"""
import ast, json, sys
from pathlib import Path

bot, values = Path(sys.argv[1]), set(json.loads(sys.argv[2]))


def spelt(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in values


found = []
for path in sorted(bot.rglob("*.py")):
    if path.relative_to(bot).as_posix() == "core/status.py":
        continue
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        states = []
        if isinstance(node, ast.Compare):
            states = [n for n in (node.left, *node.comparators) if spelt(n)]
            groups = [n for n in node.comparators if isinstance(n, (ast.Tuple, ast.List, ast.Set))]
            states += [e for n in groups for e in n.elts if spelt(e)]
        elif isinstance(node, ast.keyword) and node.arg and ("status" in node.arg or node.arg == "state"):
            states = [node.value] if spelt(node.value) else []
        elif isinstance(node, ast.arguments):
            named = [*node.posonlyargs, *node.args][-len(node.defaults):] if node.defaults else []
            pairs = [*zip(named, node.defaults), *zip(node.kwonlyargs, node.kw_defaults)]
            states = [d for a, d in pairs if d is not None and "status" in a.arg and spelt(d)]
        found += [[path.relative_to(bot).as_posix(), n.lineno, n.value] for n in states]
print(json.dumps(found))
"""


def test_no_lifecycle_state_is_spelt_as_a_string_outside_its_enum():
    done = subprocess.run(
        [sys.executable, "-c", _STRINGS, str(BOT), json.dumps(sorted(LIFECYCLE))],
        capture_output=True,
        text=True,
        check=True,
    )
    found = [f"{path}:{line} {value!r}" for path, line, value in json.loads(done.stdout)]
    assert found == []
