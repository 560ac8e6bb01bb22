"""Which of Discord's gateway shards a process runs (GLOSARIO_SHARDS), and which servers are therefore its own.

Discord puts a server on shard `(guild_id >> 22) % shard_count`. `0-3/8` is shards 0 to 3 of 8; `1/2` is shard 1
of 2; `0,2/4` shards 0 and 2 of 4. Several processes (or hosts) running disjoint subsets of one fixed count split
the servers between them; the process that runs shard 0 publishes the commands.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.problems import SaidError, said


class ShardPlanError(SaidError, ValueError):
    """GLOSARIO_SHARDS does not say which shards of how many (said in the reader's language by `text`)."""


@dataclass(frozen=True)
class ShardPlan:
    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int) -> bool:
        """Whether a server is on one of this process's shards."""
        return shard_of(guild_id, self.count) in self.ids

    @property
    def publishes_commands(self) -> bool:
        return 0 in self.ids

    def label(self) -> str:
        """The plan as GLOSARIO_SHARDS writes it (ranges collapsed): "0-3/8"."""
        parts, ids = [], list(self.ids)
        while ids:
            start = end = ids.pop(0)
            while ids and ids[0] == end + 1:
                end = ids.pop(0)
            parts.append(str(start) if start == end else f"{start}-{end}")
        return f"{','.join(parts)}/{self.count}"


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord puts a server on."""
    return (guild_id >> 22) % count


def parse_shards(text: str) -> ShardPlan:
    """`0-3/8`, `1/2`, `0,2/4` → the plan; ShardPlanError (its sentence says what is wrong) otherwise."""
    which, slash, total = text.replace(" ", "").partition("/")
    if not slash or not total.isdigit() or int(total) < 1:
        raise ShardPlanError(said("shards_which_of_how_many", text=text))
    count, ids = int(total), set()
    for part in which.split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ShardPlanError(said("shards_not_a_number", text=text, part=part))
        low, high = int(first), int(last) if dash else int(first)
        if low > high or high >= count:
            raise ShardPlanError(said("shards_numbered", text=text, last=count - 1))
        ids.update(range(low, high + 1))
    return ShardPlan(tuple(sorted(ids)), count)
