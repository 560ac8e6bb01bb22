"""Where an interaction's time goes, from the cProfile files `bench_e2e --profile DIR` writes.

    python -m bench.bench_e2e --n 1000 --rounds 1 --per-kind --profile DIR
    python -m bench.profile_split DIR/*.prof

Splits the bot's CPU time while it served (start-up left out) into discord.py's own parse and send (what the
fixed-card bot pays too), our wrappers, the lookup, the card, and what a miss leaves behind (the gap, written
after the reply). Each share is inclusive time of the functions named below, nested parts taken out of the
part around them; cProfile's own overhead weighs more on code that makes many Python calls, so read the shares
beside the instruction counts of `bench_e2e --instructions`, not instead of them.
"""

from __future__ import annotations

import argparse
import pstats
from pathlib import Path

# part → the functions (file ending, name) whose inclusive time it is; a part's time excludes every part
# listed after it that runs inside it (see NESTED).
PARTS = {
    "all callbacks": [("asyncio/events.py", "_run")],
    "start-up": [
        ("bot/app/application.py", "start"),
        ("discord/client.py", "setup_hook"),
        ("discord/client.py", "login"),
    ],
    "gateway in (json, discord.py)": [("discord/gateway.py", "received_message")],
    "make_valid": [("bot/discord_app/guard.py", "make_valid")],
    "dispatch + watch": [("bot/discord_app/client.py", "dispatch")],
    "command tree (discord.py)": [("discord/app_commands/tree.py", "_call")],
    "guard + rate limit": [("bot/discord_app/guard.py", "accepting_work")],
    "handler (termino)": [("bot/discord_app/cogs/lookup.py", "termino")],
    "server terms prepare": [("bot/app/server_terms.py", "prepare")],
    "Lookups.lookup": [("bot/app/lookups.py", "lookup")],
    "index lookup": [("bot/core/search.py", "lookup")],
    "gap (recorded, queued)": [("bot/app/lookups.py", "_gap"), ("bot/core/gaps.py", "gap_key")],
    "counters": [("bot/app/lookups.py", "count")],
    "card": [("bot/discord_app/cards.py", "card_for"), ("bot/discord_app/views.py", "suggestions_view")],
    "echo + i18n": [("bot/discord_app/embeds.py", "echo"), ("bot/discord_app/i18n.py", "t")],
    "send (discord.py)": [("discord/interactions.py", "send_message")],
    "write queue (after the reply)": [("bot/storage/writer.py", "_run")],
}
NESTED = {  # part → parts measured inside it
    "all callbacks": [
        "start-up",
        "gateway in (json, discord.py)",
        "command tree (discord.py)",
        "write queue (after the reply)",
    ],
    "gateway in (json, discord.py)": ["make_valid", "dispatch + watch"],
    "command tree (discord.py)": ["guard + rate limit", "handler (termino)"],
    "handler (termino)": ["server terms prepare", "Lookups.lookup", "card", "echo + i18n", "send (discord.py)"],
    "Lookups.lookup": ["index lookup", "gap (recorded, queued)", "counters"],
}


def inclusive(stats: pstats.Stats, functions: list[tuple[str, str]]) -> float:
    total = 0.0
    for (filename, _, name), (_, _, _, cumtime, _) in stats.stats.items():  # type: ignore[attr-defined]
        if any(name == fn and filename.endswith(suffix) for suffix, fn in functions):
            total += cumtime
    return total


def interactions(stats: pstats.Stats) -> int:
    for (filename, _, name), (calls, *_) in stats.stats.items():  # type: ignore[attr-defined]
        if name == "parse_interaction_create" and filename.endswith("discord/state.py"):
            return calls
    return 0


def split(path: Path) -> tuple[int, dict[str, float]]:
    """Microseconds per interaction for each part (exclusive of the parts nested in it)."""
    stats = pstats.Stats(str(path))
    n = max(interactions(stats), 1)
    times = {part: inclusive(stats, functions) for part, functions in PARTS.items()}
    own = dict(times)
    for part, inner in NESTED.items():
        own[part] -= sum(times[i] for i in inner)
    own["other (event loop, aiohttp, tasks)"] = own.pop("all callbacks")
    del own["start-up"]
    return n, {part: seconds * 1e6 / n for part, seconds in own.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profiles", nargs="+", type=Path)
    args = parser.parse_args()
    splits = {path.stem: split(path) for path in args.profiles}
    names = list(splits)
    print(f"{'µs per interaction (cProfile)':<36}" + "".join(f"{name:>12}" for name in names))
    for part in next(iter(splits.values()))[1]:
        print(f"{part:<36}" + "".join(f"{splits[name][1][part]:>12.0f}" for name in names))
    print(f"{'total':<36}" + "".join(f"{sum(splits[name][1].values()):>12.0f}" for name in names))
    print(f"{'interactions':<36}" + "".join(f"{splits[name][0]:>12}" for name in names))


if __name__ == "__main__":
    main()
