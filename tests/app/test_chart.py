"""The answer-rate chart: a valid PNG, the line where the rates are and broken where a day has none, lettering for
every language the bot speaks, no imaging library."""

from __future__ import annotations

import itertools
import struct
import subprocess
import sys
import zlib
from datetime import date, timedelta

import pytest

from bot.app.insights.chart import HEIGHT, LINE, WIDTH, trend_png
from bot.app.insights.chart_font import SIZES, face
from bot.discord_app.kit.i18n import STRINGS

DAYS = [date(2026, 11, 1) + timedelta(days=n) for n in range(28)]


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of a PNG, read with nothing but the PNG specification: every chunk's CRC checked."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    at, chunks = 8, {}
    while at < len(png):
        (length,) = struct.unpack_from(">I", png, at)
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        assert struct.unpack_from(">I", png, at + 8 + length)[0] == zlib.crc32(kind + data)
        chunks[kind] = chunks.get(kind, b"") + data
        at += 12 + length
    assert list(chunks) == [b"IHDR", b"IDAT", b"IEND"]
    width, height, depth, color, *_ = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, color) == (8, 2)  # 8-bit RGB
    raw, stride = zlib.decompress(chunks[b"IDAT"]), width * 3 + 1
    assert len(raw) == stride * height and all(raw[y * stride] == 0 for y in range(height))
    return width, height, [raw[y * stride + 1 : (y + 1) * stride] for y in range(height)]


def line_columns(png: bytes) -> list[int]:
    """The columns where the line's colour shows."""
    _, _, rows = pixels(png)
    return sorted({x for row in rows for x in range(len(row) // 3) if tuple(row[3 * x : 3 * x + 3]) == LINE})


def chart(rates, days=DAYS, title="Tasa de respuesta", ylabel="% respondidas") -> bytes:
    return trend_png(days[: len(rates)], rates, title=title, ylabel=ylabel)


def test_a_valid_png_of_the_chart_size():
    width, height, _ = pixels(chart([50.0 + n for n in range(28)]))
    assert (width, height) == (WIDTH, HEIGHT) == (600, 260)


def test_the_line_runs_across_the_days_and_breaks_where_a_day_has_no_lookups():
    whole = line_columns(chart([50.0] * 28))
    assert whole == list(range(whole[0], whole[-1] + 1))  # one unbroken line
    broken = line_columns(chart([50.0] * 10 + [None] + [50.0] * 17))
    gaps = [(a, b) for a, b in itertools.pairwise(broken) if b - a > 1]
    assert len(gaps) == 1 and (broken[0], broken[-1]) == (whole[0], whole[-1])
    assert line_columns(chart([None] * 28)) == []  # no lookups at all: axes only


@pytest.mark.parametrize(
    ("days", "rates"),
    [([], []), (DAYS[:1], [42.0]), (DAYS[:3], [0.0, float("nan"), 100.0]), (DAYS[:2], [-5.0, 130.0])],
)
def test_edge_cases_draw(days, rates):
    assert pixels(trend_png(days, rates, title="", ylabel=""))[:2] == (600, 260)


def test_the_title_is_written_centred_above_the_plot():
    _, _, blank = pixels(chart([50.0], title=""))
    _, _, titled = pixels(chart([50.0], title="Tasa de respuesta diaria (últimos 28 días)"))
    xs = [x for y in range(30) for x in range(WIDTH) if blank[y][3 * x : 3 * x + 3] != titled[y][3 * x : 3 * x + 3]]
    assert xs and abs((min(xs) + max(xs)) / 2 - WIDTH / 2) <= 2


def test_every_letter_of_the_chart_in_every_language_has_a_glyph():
    texts = [strings[key] for strings in STRINGS.values() for key in ("chart_title", "chart_ylabel")]
    texts += [day.isoformat() for day in DAYS] + ["0 20 40 60 80 100"]
    assert len(texts) >= 4
    for size in SIZES:
        assert {ch for text in texts for ch in text} - set(face(size).glyphs) == set(), size


def test_drawing_imports_no_imaging_library():
    code = (
        "import sys, datetime; from bot.app.insights.chart import trend_png; "
        "trend_png([datetime.date(2026, 11, 1)], [1.0], title='t', ylabel='y'); "
        "print(sorted({'PIL', 'matplotlib', 'numpy'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
