"""Helpers shared by several test modules (no fixtures: those are in conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest


class NoDatabase:
    """A unit of work with nothing behind it, for the write queue's own tests: every transaction "commits", and
    an OSError (a full disk) is what is worth retrying (anything else stands for a refusal of the content)."""

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield

    def refuses_content(self, error: BaseException) -> bool:
        return not isinstance(error, OSError)


async def eventually(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until `predicate()` holds (for state the bot changes without telling the fake Discord); fails after
    `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"still not true after {timeout} s")
        await asyncio.sleep(0.01)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """`glosario-bot ARGV` in this process: its exit code, what it printed and what it said on stderr."""
    from bot.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


NEEDS_ROOT = (
    "a full disk is a 1 MB tmpfs mounted for the test, which needs root (CI runs as root: there it runs, and a "
    "mount that fails is a failure, GLOSARIO_REQUIRE_SMALL_DISK)"
)


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "1m") -> Iterator[Path]:
    """A real disk of `size` at `folder`, empty, for the block."""
    problem = NEEDS_ROOT if os.geteuid() != 0 else None
    if problem is None:
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
        problem = f"cannot mount a {size} tmpfs: {done.stderr.decode().strip()}" if done.returncode else None
    if problem is not None:
        if os.environ.get("GLOSARIO_REQUIRE_SMALL_DISK"):
            pytest.fail(problem)
        pytest.skip(problem)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Take every byte left on the disk (a log, another program); the file to remove to give them back."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as fh:
        while True:
            fh.write(b"\0" * 4096)
    return filler


def headless_chromium(size: tuple[int, int], *arguments: str, packages: str = "chromium chromium-driver"):
    """Debian's Chromium, headless, through chromedriver (selenium), at `size`; exits saying what to install when
    it is missing (for the benchmarks and the screenshots: the page tests skip instead, tests/site/conftest.py)."""
    import shutil
    import sys

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        sys.exit(f"Chromium and chromedriver are needed: apt-get install {packages}")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", *arguments):
        options.add_argument(argument)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))
