"""Try the Docker image against the fake Discord.

    docker build -t glosario-bot .          (or: podman build -t glosario-bot .)
    python -m tests.fake_discord.container_e2e --image glosario-bot [--postgres]

Runs the image's default command (the bot) on the host network with the engine at hand (docker, else podman),
asks /termino twice, checks `health` inside the container, sends SIGTERM, and checks the exit code, the logged
gap and `health` again. With --postgres the bot runs on a throwaway PostgreSQL (tests/postgres.py) instead of
its SQLite file. Without --image, the workplace's own tool (../shared/tools/container-check.sh, which builds
without a Docker daemon) is used when it is there. Exit 0 when every check passed, 1 when one failed, 2 when
there is nothing to run (no engine, no image). Not part of the test suite: CI has no container runtime.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.fake_discord.server import TOKEN, FakeDiscord

PIPE, STDOUT = asyncio.subprocess.PIPE, asyncio.subprocess.STDOUT
CHECK_TOOL = Path(__file__).resolve().parents[3] / "shared" / "tools" / "container-check.sh"
READY_TIMEOUT = 120


class Unavailable(Exception):
    """Nothing to run the image with: said in one sentence."""


class Engine:
    """docker or podman: the bot in a named container, commands beside it with `exec`, and after the stop in a
    new container on the same data volume."""

    def __init__(self, program: str, image: str) -> None:
        self.program, self.image = program, image
        self.name = f"glosario-e2e-{uuid.uuid4().hex[:8]}"
        self.volume = self.name + "-data"

    @classmethod
    def find(cls, image: str) -> Engine:
        for program in ("docker", "podman"):
            if shutil.which(program) and _quiet(program, "info"):
                if not _quiet(program, "image", "inspect", image):
                    raise Unavailable(
                        f"{program} has no image '{image}': build it first with `{program} build -t {image} .`"
                    )
                return cls(program, image)
        raise Unavailable("no container engine answers here (docker or podman): install one, or run the bot directly")

    def start(self, env: list[str]) -> list[str]:
        net = ["--network", "host", "-v", f"{self.volume}:/data"]
        return [self.program, "run", "--name", self.name, *net, *env, self.image]

    def beside(self, env: list[str], *args: str) -> list[str]:
        return [self.program, "exec", self.name, "glosario-bot", *args]

    def after(self, env: list[str], *args: str) -> list[str]:
        return [self.program, "run", "--rm", "--network", "host", "-v", f"{self.volume}:/data", *env, self.image, *args]

    def stop_signal(self) -> list[str]:
        return [self.program, "kill", "--signal", "TERM", self.name]

    def clean(self) -> None:
        _quiet(self.program, "rm", "-f", self.name)
        _quiet(self.program, "volume", "rm", "-f", self.volume)


class CheckTool:
    """The workplace's container-check.sh: chroot containers sharing one set of files, no process namespace."""

    def __init__(self) -> None:
        self.env = {**os.environ, "CHECK_CONTAINER": "glosario-e2e"}

    def start(self, env: list[str]) -> list[str]:
        return ["bash", str(CHECK_TOOL), "run", *env]

    def beside(self, env: list[str], *args: str) -> list[str]:
        return ["bash", str(CHECK_TOOL), "run", *env, *args]

    after = beside

    def stop_signal(self) -> list[str]:
        return ["pkill", "-TERM", "-f", "^/opt/venv/bin/python[0-9.]* /opt/venv/bin/glosario-bot run"]

    def clean(self) -> None:
        subprocess.run(["bash", str(CHECK_TOOL), "clean"], env=self.env, capture_output=True, check=False)


def _quiet(*command: str) -> bool:
    return subprocess.run(command, capture_output=True, check=False, timeout=60).returncode == 0


async def run(command: list[str], env: dict | None = None) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(*command, env=env, stdout=PIPE, stderr=STDOUT)
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode(errors="replace").strip()


async def main(runner: Engine | CheckTool, database_env: list[str]) -> int:
    fake = await FakeDiscord().start()
    env = getattr(runner, "env", None)
    bot_env = [*database_env, "-e", f"DISCORD_TOKEN={TOKEN}", "-e", f"DISCORD_API_BASE={fake.api_base}"]
    bot_env += ["-e", f"DISCORD_GATEWAY_URL={fake.gateway_url}"]
    proc = await asyncio.create_subprocess_exec(*runner.start(bot_env), env=env, stdout=PIPE, stderr=STDOUT)
    problems: list[str] = []
    try:
        try:
            await fake.wait_ready(timeout=READY_TIMEOUT)
        except TimeoutError:
            proc.kill()
            log = (await proc.stdout.read()).decode(errors="replace").strip().splitlines()[-5:]
            print(f"the bot in the image did not connect to the fake Discord within {READY_TIMEOUT} s; its last lines:")
            print("\n".join(f"  {line}" for line in log) or "  (nothing)")
            return 1
        await fake.wait_for(lambda: "global" in fake.commands, timeout=30)
        r = await fake.response(await fake.command("termino", {"termino": "horovd"}))
        print("reply:", r["data"]["embeds"][0]["title"])
        m = await fake.response(await fake.command("termino", {"termino": "aprendizaje por refuerzo"}))
        print("miss:", m["data"]["content"][:60])
        code, out = await run(runner.beside(database_env, "health"), env)
        print("health while running:", code, (out.splitlines() or [""])[0])
        if code != 0:
            problems.append("health was bad while the bot ran")
        if r["data"]["embeds"][0]["title"] != "Horovod":
            problems.append("the lookup did not answer Horovod")
        await run(runner.stop_signal(), env)
        try:
            await asyncio.wait_for(proc.wait(), 20)
            print("container exited:", proc.returncode)
            if proc.returncode != 0:
                problems.append(f"the container exited {proc.returncode}")
        except TimeoutError:
            print("container did not exit")
            problems.append("the container did not exit on SIGTERM")
            proc.kill()
        code, out = await run(runner.after(database_env, "misses", "--json"), env)
        print("misses after stop:", out[:200])
        if "aprendizaje por refuerzo" not in out:
            problems.append("the gap was not in the database after the stop")
        code, out = await run(runner.after(database_env, "health"), env)
        print("health after stop:", code, (out.splitlines() or [""])[0])
        if code == 0:
            problems.append("health was good after the bot stopped")
    finally:
        await fake.stop()
        runner.clean()
    print("OK" if not problems else "FAILED: " + "; ".join(problems))
    return 1 if problems else 0


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fake_discord.container_e2e", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--image", help="the image to try (built with `docker build -t NAME .` or podman's)")
    parser.add_argument("--postgres", action="store_true", help="run the bot on a throwaway PostgreSQL")
    return parser.parse_args(argv)


def choose(image: str | None) -> Engine | CheckTool:
    if image:
        return Engine.find(image)
    if CHECK_TOOL.exists():
        return CheckTool()
    raise Unavailable(
        "say which image to try: build it (`docker build -t glosario-bot .`), then add --image glosario-bot"
    )


def cli(argv: list[str]) -> int:
    args = arguments(argv)
    try:
        runner = choose(args.image)
    except Unavailable as exc:
        print(exc, file=sys.stderr)
        return 2
    if not args.postgres:
        return asyncio.run(main(runner, []))
    from tests.postgres import Cluster, binaries

    cluster = Cluster(binaries()).start()
    try:
        url = cluster.url()  # the cluster's own database: it is thrown away afterwards
        local = ["-e", "GLOSARIO_JOURNAL=/data/pending.jsonl", "-e", "GLOSARIO_HEARTBEAT=/data/heartbeat"]
        print("database:", url)
        return asyncio.run(main(runner, ["-e", f"GLOSARIO_DB={url}", *local, "-e", "GLOSARIO_CACHE_DIR=/data/cache"]))
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(cli(sys.argv[1:]))
