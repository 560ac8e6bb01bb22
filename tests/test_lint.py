"""The tool chain of pyproject.toml holds: ruff lint and ruff format leave the tree as it is."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    proc = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
