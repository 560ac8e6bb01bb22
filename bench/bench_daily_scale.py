"""The term of the day at scale: N servers (10,000 by default) configured for the same minute, posted by
`glosario-bot run` (its own process) against the fake Discord enforcing Discord's global rate limit.

    python -m bench.bench_daily_scale [--servers 10000] [--limit 50]

Target: every server posted within 5 minutes, exactly once, no server marked failed for a rate limit. Printed
beside it: 429s Discord (the fake) had to send, the busiest second seen by the limit, and, as a baseline in the
same run, what the same posts would take without our pacing (they burst into the limit, and discord.py waits out
each 429: `--no-baseline` skips it).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.daily import Schedule
from bot.storage.daily import SqlDailyStore
from bot.storage.db import Database
from tests.fake_discord.process import env_for
from tests.fake_discord.server import FakeDiscord, Guild

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 300.0


async def configure_all(db_path: Path, guilds: list[Guild], due: datetime) -> None:
    db = await Database.open(db_path)
    store = SqlDailyStore(db)
    schedule = Schedule(due.hour, due.minute, "UTC")
    for guild in guilds:
        await store.configure(guild.id, guild.channel_ids[0], schedule)
    await db.close()


async def run(servers: int, limit: int, pace: str | None) -> dict:
    guilds = [Guild(id=((i + 1) << 22) | 1, channel_ids=[10**15 + i]) for i in range(servers)]
    fake = await FakeDiscord(guilds).start()
    fake.global_limit = limit
    with tempfile.TemporaryDirectory(prefix="glosario-bench-daily-") as tmp:
        db_path = Path(tmp) / "glosario.db"
        await configure_all(db_path, guilds, datetime.now(UTC) - timedelta(minutes=1))
        extra = {"GLOSARIO_DAILY_POSTS_PER_SECOND": pace} if pace else {}
        env = env_for(fake, Path(tmp), GLOSARIO_DB=str(db_path), LOG_LEVEL="ERROR", **extra)
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", cwd=ROOT, env=env)
        try:
            await fake.wait_ready(timeout=120)
            began = time.perf_counter()
            channels = [str(g.channel_ids[0]) for g in guilds]
            while sum(1 for c in channels if fake.channel_messages.get(c)) < servers:
                if time.perf_counter() - began > 2 * TARGET_S:
                    break
                await asyncio.sleep(0.5)
            elapsed = time.perf_counter() - began
            await asyncio.sleep(1)  # anything posted twice would show now
        finally:
            proc.send_signal(signal.SIGTERM)
            await proc.wait()
            await fake.stop()
        with sqlite3.connect(db_path) as conn:
            statuses = dict(conn.execute("SELECT status, COUNT(*) FROM daily_posts GROUP BY status").fetchall())
        counts = [len(fake.channel_messages.get(c, [])) for c in channels]
    return {
        "elapsed": elapsed,
        "posted": sum(1 for n in counts if n),
        "twice": sum(1 for n in counts if n > 1),
        "statuses": statuses,
        "rate_limited": fake.rate_limited,
        "busiest": fake.busiest_second,
    }


def report(name: str, servers: int, result: dict) -> None:
    met = result["posted"] == servers and not result["twice"] and result["elapsed"] < TARGET_S
    met = met and not result["statuses"].get("failed")
    print(
        f"{name:<22} {result['posted']:,}/{servers:,} posted in {result['elapsed']:6.1f} s, "
        f"{result['twice']} twice, statuses {result['statuses']}, {result['rate_limited']:,} × 429, "
        f"busiest second {result['busiest']} requests"
        + (
            f"   (target: all within {TARGET_S:.0f} s, once, none failed: {'met' if met else 'NOT met'})"
            if name == "paced (ours)"
            else ""
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, default=10_000)
    parser.add_argument("--limit", type=int, default=50, help="the fake's global limit, requests a second")
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    report("paced (ours)", args.servers, asyncio.run(run(args.servers, args.limit, None)))
    if not args.no_baseline:
        report("unpaced (baseline)", args.servers, asyncio.run(run(args.servers, args.limit, "100000")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
