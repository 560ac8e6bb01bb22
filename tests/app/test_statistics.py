"""Statistics are computed without Discord: shares, most looked up (ties by id), never looked up, removed terms."""

from bot.app.insights.statistics import percent, summarize


def test_summarize(shipped_glossary):
    stats = summarize(
        shipped_glossary,
        {"found": 6, "ambiguous": 2, "not_found": 2},
        {"found": 1},
        {"ray": 3, "horovod": 3, "feast": 1, "a-term-since-removed": 9},
    )
    assert (stats.terms, stats.lookups, stats.lookups_week) == (17, 10, 1)
    assert [percent(stats.rates[k]) for k in ("found", "ambiguous", "not_found")] == ["60 %", "20 %", "20 %"]
    assert [(t.id, n) for t, n in stats.most_looked_up] == [("horovod", 3), ("ray", 3), ("feast", 1)]
    assert len(stats.never_looked_up) == 14 and "ray" not in {t.id for t in stats.never_looked_up}


def test_no_lookups_yet(shipped_glossary):
    stats = summarize(shipped_glossary, {}, {}, {})
    assert stats.lookups == 0 and percent(stats.rates["found"]) == "—"
    assert stats.most_looked_up == [] and len(stats.never_looked_up) == 17
