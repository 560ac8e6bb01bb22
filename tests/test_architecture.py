"""The dependency direction of DESIGN.md: core imports nothing impure; discord_app → storage → core; no import
cycle, even through imports made only for type checking; the Discord layer talks to the application only, by
feature; no lifecycle state spelt as a string outside its enum."""

import json
import re
import subprocess
import sys
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"


_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+(?:\s*,\s*[\w.]+)*))", re.MULTILINE)


def imports_of(path: Path) -> set[str]:
    """Module names imported by a file, read from its import lines.

    (Not with the ast module: CPython 3.11.7's ast.parse can fail with "AST constructor recursion depth
    mismatch" in a process where a RecursionError was caught before, as the loader's fuzz tests do.)"""
    names: set[str] = set()
    for frm, imports in _IMPORT.findall(path.read_text(encoding="utf-8")):
        names.update([frm] if frm else [n.strip() for n in imports.split(",")])
    return names


# What the core may import: computation only. No files, network, database, clock, environment, event loop,
# logging or garbage-collector switches (zoneinfo reads the time zone database, as `datetime` needs it).
CORE_MAY_IMPORT = {
    "__future__",
    "array",
    "bisect",
    "collections",
    "collections.abc",
    "dataclasses",
    "datetime",
    "difflib",
    "enum",
    "functools",
    "itertools",
    "hashlib",
    "re",
    "types",
    "typing",
    "unicodedata",
    "urllib.parse",
    "zoneinfo",
    "pathlib",
    "yaml",
    "rapidfuzz",
    "rapidfuzz.distance",
    "numpy",  # arithmetic on arrays (typo_groups), no I/O
    "Stemmer",  # PyStemmer: Snowball stemming of words (questions), computation only
}
# Calls that read the outside world, by the name they are called through.
CORE_MAY_NOT_CALL = {"open", "now", "today", "utcnow", "getenv", "read_text", "read_bytes", "iterdir", "Path"}

_CORE_USES = r"""
import ast, json, sys
from pathlib import Path

uses = {}
for path in sorted(Path(sys.argv[1]).rglob("*.py")):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imports, calls, names = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imports.add(node.module or "")
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            calls.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    uses[path.name] = {"imports": sorted(imports), "calls": sorted(calls), "names": sorted(names)}
print(json.dumps(uses))
"""


def test_core_is_pure():
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _CORE_USES, str(BOT / "core")], capture_output=True, text=True, check=True
    )
    uses = json.loads(done.stdout)
    assert "search.py" in uses and "loader.py" in uses  # really read
    for name, found in uses.items():
        for module in found["imports"]:
            assert module in CORE_MAY_IMPORT or module.startswith("bot.core"), f"core/{name} imports {module}"
        assert not set(found["calls"]) & CORE_MAY_NOT_CALL, (
            f"core/{name} calls {set(found['calls']) & CORE_MAY_NOT_CALL}"
        )
        pathlib_names = {n for n in found["names"] if n.startswith("pathlib.")}
        assert pathlib_names <= {"pathlib.PurePath"}, f"core/{name}: {pathlib_names} (paths as text only)"


def test_storage_does_not_import_discord():
    for path in sorted((BOT / "storage").rglob("*.py")):
        for name in imports_of(path):
            assert not name.startswith(("discord", "bot.discord_app")), f"{path}: {name}"


def test_only_config_reads_the_environment():
    for path in sorted(BOT.rglob("*.py")):
        if path.name != "config.py":
            assert "os.environ" not in path.read_text(encoding="utf-8"), path


# The import graph of bot/, read with the ast module in a fresh interpreter (see imports_of for why not here).
# Imports inside functions count; imports under `if TYPE_CHECKING:` only when asked (argv[2] == "typing").
_GRAPH = r"""
import ast, json, sys
from pathlib import Path

bot, typing_too = Path(sys.argv[1]), sys.argv[2:] == ["typing"]
graph = {}
for path in sorted(bot.rglob("*.py")):
    parts = path.relative_to(bot.parent).with_suffix("").parts
    module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    package = module if parts[-1] == "__init__" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()
    for node in ast.walk(tree):
        if not typing_too and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for n in ast.walk(node))
    names = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
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

# A module may import modules of its own rank or lower: the core is innermost, the command line outermost.
RANKS = {
    "bot": 0,
    "bot.core": 0,
    "bot.heap": 1,
    "bot.config": 1,
    "bot.storage": 1,
    "bot.app": 2,
    "bot.logs": 2,
    "bot.discord_app": 3,
    "bot.cli": 3,
    "bot.cli._run": 4,  # run and sync: the one module of the command line that talks to Discord
    "bot.__main__": 5,
}
# Two surfaces of the same rank that must not lean on each other: Discord's and the command line's.
APART = ({"bot.discord_app"}, {"bot.cli"})


def _rank_key(module: str) -> str:
    return max((key for key in RANKS if module == key or module.startswith(key + ".")), key=len)


def _graph(*, typing_too: bool = False, own_modules: bool = False) -> dict[str, set[str]]:
    command = [sys.executable, "-c", _GRAPH, str(BOT), *(["typing"] if typing_too else [])]
    raw = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    # `from bot.core import daily` names a module, `from bot.core.search import Found` a name in one: keep modules.
    # A package's __init__ importing its own modules is an edge only when asked (`own_modules`).
    return {
        m: {n for n in names if n in raw and n != m and (own_modules or not n.startswith(m + "."))}
        for m, names in raw.items()
    }


def _assert_no_cycle(graph: dict[str, set[str]]) -> None:
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


def test_the_import_graph_has_no_cycle_and_points_inwards():
    graph = _graph()
    assert "bot.core.search" in graph and "bot.cli" in graph  # the graph was really read
    for module, imported in graph.items():
        for name in imported:
            assert RANKS[_rank_key(name)] <= RANKS[_rank_key(module)], f"{module} imports {name}, an outer layer"
            for side, other in (APART, APART[::-1]):
                assert not (_rank_key(module) in side and _rank_key(name) in other), f"{module} imports {name}"
    _assert_no_cycle(graph)


def test_no_import_cycle_even_through_type_checking_imports():
    """Counted with type-only imports and with each package's __init__ importing its own modules: a module that
    reaches back to its package's __init__ (as bot.storage.copy once did, for a type) closes a real cycle."""
    graph = _graph(typing_too=True, own_modules=True)
    assert "bot.discord_app.kit.services" in graph and "bot.app.application" in graph  # really read
    assert "bot.storage.erasure" in graph["bot.storage"]  # the package's own modules are edges here
    _assert_no_cycle(graph)


# bot/app: what every feature uses sits at the top (bot/app/__init__.py says what each is); the rest is a package
# per feature. application.py is the composition root: the one top module that builds the features.
APP_TOP = {
    "application", "background", "catalog", "errors", "files", "glossary", "health", "limits", "recent", "spreadsheets",
}  # fmt: skip
APP_FEATURES = {
    "community", "daily", "feedback", "insights", "interchange", "lookup", "privacy", "questions", "review",
}  # fmt: skip


def _feature_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["bot", "app"] and parts[2] in APP_FEATURES else None


def test_the_application_is_arranged_by_feature():
    app = BOT / "app"
    assert {p.stem for p in app.glob("*.py")} == APP_TOP | {"__init__"}
    packages = {p.name for p in app.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert packages == APP_FEATURES
    for name in sorted(APP_FEATURES):
        init = (app / name / "__init__.py").read_text(encoding="utf-8")
        assert init.startswith('"""') and len(init.splitlines()) >= 2, f"bot/app/{name}/__init__.py says nothing"
        assert "import" not in init.split('"""', 2)[2], f"bot/app/{name}/__init__.py imports (keep it a map)"
    overview = (app / "__init__.py").read_text(encoding="utf-8")
    assert all(f"{name}/" in overview for name in APP_FEATURES)  # the top's map names every room


def test_the_top_of_the_application_imports_no_feature_and_features_form_no_cycle():
    graph = _graph(typing_too=True)
    assert "bot.app.questions.service" in graph  # really read
    leaning = [
        f"{module} imports {name}"
        for module, names in graph.items()
        if module.startswith("bot.app.") and _feature_of(module) is None and module != "bot.app.application"
        for name in names
        if _feature_of(name) is not None
    ]
    assert leaning == []
    features: dict[str, set[str]] = {name: set() for name in APP_FEATURES}
    for module, names in graph.items():
        if (feature := _feature_of(module)) is not None:
            features[feature] |= {f for n in names if (f := _feature_of(n)) not in (None, feature)}
    _assert_no_cycle(features)


def test_the_question_path_is_started_by_the_application_not_by_discord():
    client = (BOT / "discord_app" / "client.py").read_text(encoding="utf-8")
    assert "question" not in client.replace("(with the question path on", "")
    graph = _graph(typing_too=True)
    discord_side = {m for m in graph if m.startswith("bot.discord_app")}
    starters = [m for m in discord_side if ".prepare()" in _source(m) and "questions" in _source(m)]
    assert starters == []


def _source(module: str) -> str:
    path = BOT.parent / (module.replace(".", "/") + ".py")
    return (path if path.exists() else path.with_suffix("") / "__init__.py").read_text(encoding="utf-8")


_LONG_FUNCTIONS = r"""
import ast, json, sys
from pathlib import Path

long = []
for path in sorted(Path(sys.argv[1]).rglob("*.py")):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 50:
            long.append(f"{path}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)")
print(json.dumps(long))
"""


def test_no_function_is_longer_than_50_lines():
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _LONG_FUNCTIONS, str(BOT)], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_the_discord_client_is_wiring_only():
    assert len((BOT / "discord_app" / "client.py").read_text(encoding="utf-8").splitlines()) < 150


def test_the_bot_starts_without_the_plotting_and_array_libraries():
    import subprocess
    import sys

    libraries = ("PIL", "matplotlib", "numpy", "asyncpg")
    code = f"import sys, bot.cli._run, bot.cli; print([m in sys.modules for m in {libraries!r}])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[False, False, False, False]"  # the first chart, (none), gaps export, PostgreSQL


def test_the_discord_layer_reads_through_one_guild_scoped_view():
    """A server's own terms are loaded by `Lookups.for_guild`: no Discord handler calls `prepare` itself (a
    handler that forgot it would answer without the server's terms)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "bot" / "discord_app"
    calls = [
        f"{path.relative_to(root)}:{n}"
        for path in root.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b(server_)?terms\.prepare\(", line)
    ]
    assert calls == []


def test_the_discord_layer_talks_to_the_application_only():
    """No store, record or storage error is imported by the Discord layer, not even for a type: what it needs
    of them, the application gives (bot.app.errors, the records its actions return)."""
    graph = _graph(typing_too=True)
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
    graph = _graph(typing_too=True)
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
