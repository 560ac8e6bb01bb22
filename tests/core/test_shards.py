"""GLOSARIO_SHARDS: which shards of how many a process runs, and which servers are its own."""

import re

import pytest

from bot.core.shards import ShardPlan, ShardPlanError, parse_shards, shard_of


@pytest.mark.parametrize(
    ("text", "ids", "count", "label"),
    [
        ("0-3/8", (0, 1, 2, 3), 8, "0-3/8"),
        ("1/2", (1,), 2, "1/2"),
        ("0,2/4", (0, 2), 4, "0,2/4"),
        (" 5-6,0 / 7", (0, 5, 6), 7, "0,5-6/7"),
    ],
)
def test_plans_are_read_and_written_back(text, ids, count, label):
    plan = parse_shards(text)
    assert (plan.ids, plan.count, plan.label()) == (ids, count, label)


@pytest.mark.parametrize("text", ["3", "4/4", "2-1/4", "a/2", "0-/2", "0/0", "/2", "-1/2", "1/x"])
def test_a_plan_that_does_not_say_which_of_how_many_is_refused(text):
    with pytest.raises(ShardPlanError) as refused:
        parse_shards(text)
    assert re.search(r"0-3/8|0 to|range", refused.value.text("en"))
    assert re.search(r"0-3/8|del 0 al|intervalo", refused.value.text("es"))


def test_a_server_belongs_to_exactly_one_process_of_a_split():
    halves = parse_shards("0/2"), parse_shards("1/2")
    guilds = [(i << 22) | 7 for i in range(20)]
    for guild in guilds:
        assert [plan.owns(guild) for plan in halves].count(True) == 1
        assert halves[shard_of(guild, 2)].owns(guild)
    assert sum(halves[0].owns(g) for g in guilds) == 10
    assert ShardPlan((0, 1), 2).publishes_commands and not halves[1].publishes_commands
