"""Try the Docker image against the fake Discord (needs podman: ../shared/tools/container-check.sh build first).

    python -m tests.fake_discord.container_e2e [--postgres]

With --postgres the bot in the image runs on a throwaway PostgreSQL (tests/postgres.py) instead of its SQLite file.

Starts the image's default command (the bot) on the host network, asks /termino twice, checks `health` inside
the same container, sends SIGTERM to the bot, and checks the exit code, the logged gap and `health` again.
Not part of the test suite: CI has no container runtime.
"""

import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.fake_discord.server import TOKEN, FakeDiscord

PIPE = asyncio.subprocess.PIPE
CC = str(Path(__file__).resolve().parents[3] / "shared" / "tools" / "container-check.sh")


async def in_container(env: dict, database_env: list[str], *args: str) -> tuple[asyncio.subprocess.Process, bytes]:
    """A glosario-bot command in the same container (its files, its database settings): the process and output."""
    proc = await asyncio.create_subprocess_exec(
        "bash", CC, "run", *database_env, *args, env=env, stdout=PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    return proc, out


async def main(database_env: list[str]):
    fake = await FakeDiscord().start()
    env = {**os.environ, "CHECK_CONTAINER": "glosario-e2e"}
    args = [
        "bash",
        CC,
        "run",
        *database_env,
        "-e",
        f"DISCORD_TOKEN={TOKEN}",
        "-e",
        f"DISCORD_API_BASE={fake.api_base}",
        "-e",
        f"DISCORD_GATEWAY_URL={fake.gateway_url}",
    ]
    proc = await asyncio.create_subprocess_exec(
        *args, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.STDOUT
    )
    await fake.wait_ready(timeout=120)
    await fake.wait_for(lambda: "global" in fake.commands, timeout=30)
    r = await fake.response(await fake.command("termino", {"termino": "horovd"}))
    print("reply:", r["data"]["embeds"][0]["title"])
    m = await fake.response(await fake.command("termino", {"termino": "aprendizaje por refuerzo"}))
    print("miss:", m["data"]["content"][:60])
    await asyncio.sleep(1)
    h, out = await in_container(env, database_env, "health")
    print("health while running:", h.returncode, out.decode().strip().splitlines()[0])
    problems = [] if h.returncode == 0 else ["health was bad while the bot ran"]
    if r["data"]["embeds"][0]["title"] != "Horovod":
        problems.append("the lookup did not answer Horovod")
    # SIGTERM to the bot inside the container
    k = await asyncio.create_subprocess_exec(
        "pkill", "-TERM", "-f", "^/opt/venv/bin/python[0-9.]* /opt/venv/bin/glosario-bot run"
    )
    await k.wait()
    try:
        await asyncio.wait_for(proc.wait(), 20)
        print("container exited:", proc.returncode)
        if proc.returncode != 0:
            problems.append(f"the container exited {proc.returncode}")
    except TimeoutError:
        print("container did not exit")
        problems.append("the container did not exit on SIGTERM")
        proc.kill()
    h, out = await in_container(env, database_env, "misses", "--json")
    print("misses after stop:", out.decode().strip()[:200])
    if "aprendizaje por refuerzo" not in out.decode():
        problems.append("the gap was not in the database after the stop")
    h, out = await in_container(env, database_env, "health")
    print("health after stop:", h.returncode, out.decode().strip().splitlines()[0])
    if h.returncode == 0:
        problems.append("health was good after the bot stopped")
    await fake.stop()
    print("OK" if not problems else "FAILED: " + "; ".join(problems))
    return 1 if problems else 0


def with_database() -> int:
    if "--postgres" not in sys.argv:
        return asyncio.run(main([]))
    from tests.postgres import Cluster, binaries

    cluster = Cluster(binaries()).start()
    try:
        url = cluster.url()  # the cluster's own database: it is thrown away afterwards
        local = ["-e", "GLOSARIO_JOURNAL=/data/pending.jsonl", "-e", "GLOSARIO_HEARTBEAT=/data/heartbeat"]
        print("database:", url)
        return asyncio.run(main(["-e", f"GLOSARIO_DB={url}", *local, "-e", "GLOSARIO_CACHE_DIR=/data/cache"]))
    finally:
        cluster.stop()


sys.exit(with_database())
