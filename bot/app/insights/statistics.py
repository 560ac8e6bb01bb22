"""A server's glossary statistics: `summarize` computes them from what the stores counted (pure, tested without
a database); `server_statistics` is the action that reads the counts and summarizes them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.core.model import Glossary, Term
from bot.core.status import GapStatus, Outcome
from bot.storage.interfaces import GapStore, UsageStore
from bot.storage.records import Gap

if TYPE_CHECKING:
    from bot.app.feedback.votes import Shown


@dataclass(frozen=True)
class Statistics:
    terms: int
    lookups: int
    lookups_week: int
    rates: dict[Outcome, float | None]  # outcome → share of all lookups, 0–100 (None with no lookups yet)
    most_looked_up: list[tuple[Term, int]]  # most first
    never_looked_up: list[Term]  # in glossary order
    top_gaps: list[Gap] = field(default_factory=list)  # the most asked open gaps
    superseded: tuple[str, ...] = ()  # server terms a published term with the same name replaces
    set_aside: tuple[str, ...] = ()  # server terms stored before a rule refused them: not served until fixed
    least_helpful: Shown | None = None  # feedback: the terms with the largest share of 👎 (bot.app.feedback.votes)
    comments: Shown | None = None  # feedback: the latest comments, for the editors


def summarize(
    glossary: Glossary,
    outcomes: Mapping[str, int],
    outcomes_week: Mapping[str, int],
    term_counts: Mapping[str, int],
    top: int = 5,
) -> Statistics:
    """The figures of `/glosario-admin estadisticas`. Counts of terms no longer in the glossary are left out."""
    total = sum(outcomes.values())
    rates = {k: (100 * outcomes.get(k, 0) / total if total else None) for k in Outcome}
    present = [(term, n) for term_id, n in term_counts.items() if (term := glossary.get(term_id)) is not None]
    present.sort(key=lambda pair: (-pair[1], pair[0].id))
    never = [term for term in glossary if term.id not in term_counts]
    return Statistics(len(glossary), total, sum(outcomes_week.values()), rates, present[:top], never)


def percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate:.0f} %"


async def server_statistics(
    glossary: Glossary, usage: UsageStore, gaps: GapStore, guild_id: int, now: datetime, top: int = 5
) -> Statistics:
    """The figures of one server (`/glosario-admin estadisticas`): the last seven days include today."""
    week_ago = (now - timedelta(days=6)).date().isoformat()
    stats = summarize(
        glossary,
        await usage.outcomes(guild_id=guild_id),
        await usage.outcomes(guild_id=guild_id, since=week_ago),
        await usage.term_counts(guild_id=guild_id),
        top,
    )
    return replace(stats, top_gaps=await gaps.gaps(guild_id=guild_id, status=GapStatus.OPEN, limit=top))
