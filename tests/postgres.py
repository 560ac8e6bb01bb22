"""A throwaway PostgreSQL cluster for the tests: `initdb` and `pg_ctl` from the server binaries found on the
machine, in a temporary directory, on a free port on 127.0.0.1, as the unprivileged `postgres` user when the tests
run as root (PostgreSQL refuses to run as root). One cluster per test process; each test gets its own database.

Without the binaries the PostgreSQL tests are skipped, saying how to enable them; with GLOSARIO_REQUIRE_POSTGRES
set (CI does) a missing server is a failure instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HOW_TO_ENABLE = (
    "PostgreSQL's server binaries (initdb, pg_ctl) were not found: the tests on PostgreSQL need them. On Debian or "
    "Ubuntu: apt-get install postgresql (.ci/run does it)."
)


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="glosario-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.as_root:  # PostgreSQL will not run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}  # whatever locale the tests set
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")

    def start(self) -> Cluster:
        if self.as_root:
            shutil.chown(self.root, "postgres")
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"
        )
        self.resume()
        return self

    def halt(self) -> None:
        """Stop the server, keeping its data (a database outage): `resume` starts it again on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")

    @contextlib.contextmanager
    def down(self) -> Iterator[None]:
        """The server stopped for the block (started again however the block ends)."""
        self.halt()
        try:
            yield
        finally:
            self.resume()

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


def sql(url: str, statement: str, *args) -> list[tuple]:
    """One statement on a PostgreSQL database, with a connection and an event loop of its own (callers may be
    running a loop: a fixture, a test's helper, a benchmark); its rows."""
    import asyncpg

    async def run() -> list[tuple]:
        conn = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await conn.fetch(statement, *args)]
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()
