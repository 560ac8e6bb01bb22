"""The open questions' YAML file (what /glosario-admin exportar and `glosario-bot gaps --format yaml` give) loads
whatever its members and its server's name hold."""

from __future__ import annotations

import yaml

from bot.app.review.exports import gaps_yaml
from bot.storage.records import Gap


def gap(text: str) -> Gap:
    return Gap(
        1, 5, text.lower(), text, "lookup", 2, 1, "2026-12-05T10:00:00", "2026-12-05T10:00:00", None, "open", None
    )


def test_a_server_name_or_a_query_with_line_separators_and_controls_keeps_the_file_loadable():
    hostile = ["a\x9b2Jb", "nel\x85x", "ls\u2028x", "ps\u2029x", "bidi\u202ex", 'q"\\', "\x1b]0;t\x07"]
    text = gaps_yaml([gap(h) for h in hostile], [], title="Servidor\u2028# falso\x85 raro\x9b")
    loaded = yaml.safe_load(text)  # (U+2028 or U+0085 in the title would have ended its comment line)
    assert set(loaded) == {"category", "terms"}
    assert sorted(t["term"] for t in loaded["terms"]) == sorted(hostile)
    assert text.splitlines()[0] == "# Servidor # falso raro\\x9b"
