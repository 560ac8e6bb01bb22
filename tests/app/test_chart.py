"""The answer-rate chart, read back with Pillow: a PNG of the chart's size on an opaque card, the line where the rates
put it and broken where a day has none, the title, axis label and tick labels written, every letter of the chart's
texts in the bundled font, no font file, and Pillow loaded by the first chart only."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from datetime import date, timedelta

import pytest
from PIL import Image, ImageDraw

from bot.app.insights.chart import HEIGHT, INK, LABEL, LINE, MARKER_RADIUS, TICKS, TITLE, WHITE, WIDTH, font, trend_png
from bot.discord_app.kit.i18n import STRINGS
from tests.conftest import ROOT

DAYS = [date(2026, 11, 1) + timedelta(days=n) for n in range(28)]


class Read:
    """A chart decoded by Pillow, with the places of its frame and its line."""

    def __init__(self, png: bytes) -> None:
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG"
        self.size, self.mode = image.size, image.mode
        self.image = image.convert("RGB")
        width, height = self.image.size
        raw, stride = self.image.tobytes(), 3 * width
        self.rows = [[tuple(raw[at : at + 3]) for at in range(y * stride, (y + 1) * stride, 3)] for y in range(height)]

    def where(self, color: tuple[int, int, int]) -> list[tuple[int, int]]:
        return [(x, y) for y, row in enumerate(self.rows) for x, pixel in enumerate(row) if pixel == color]

    def dark(self) -> list[tuple[int, int]]:
        """The pixels of lettering (anti-aliased: dark, not always pure ink), ticks and frame."""
        return [(x, y) for y, row in enumerate(self.rows) for x, pixel in enumerate(row) if max(pixel) < 128]

    def frame(self) -> tuple[int, int, int, int]:
        """The axes' frame (left, top, right, bottom): its sides are the columns of ink over most of the height, its
        top and bottom where the left side starts and ends (the line may hide the top or the bottom edge)."""
        ink = self.where(INK)
        columns = sorted(x for x in {x for x, _ in ink} if sum(1 for a, _ in ink if a == x) > HEIGHT // 2)
        side = [y for x, y in ink if x == columns[0]]
        return columns[0], min(side), columns[-1], max(side)

    def line_columns(self) -> list[int]:
        return sorted({x for x, _ in self.where(LINE)})

    def line_row(self, x: int) -> float:
        """The middle of the line in column x."""
        ys = [y for a, y in self.where(LINE) if a == x]
        return (min(ys) + max(ys)) / 2

    def changed(self, other: Read, box: tuple[int, int, int, int]) -> list[tuple[int, int]]:
        """The pixels inside box (left, top, right, bottom; right and bottom excluded) that differ from other's."""
        left, top, right, bottom = box
        return [(x, y) for y in range(top, bottom) for x in range(left, right) if self.rows[y][x] != other.rows[y][x]]


def chart(rates, days=DAYS, title="Tasa de respuesta", ylabel="% respondidas") -> Read:
    return Read(trend_png(days[: len(rates)], rates, title=title, ylabel=ylabel))


def test_a_png_of_the_chart_size_on_an_opaque_white_card():
    """Opaque RGB: the same white card on Discord's dark and light themes (transparency would put black ink on
    the dark theme's grey)."""
    read = chart([50.0 + n for n in range(28)])
    assert read.size == (WIDTH, HEIGHT) == (600, 260)
    assert read.mode == "RGB"
    assert read.rows[0][0] == read.rows[-1][-1] == WHITE


@pytest.mark.parametrize(("rate", "where"), [(100.0, "top"), (50.0, "middle"), (0.0, "bottom")])
def test_the_line_stands_at_the_height_of_the_rate(rate, where):
    read = chart([rate] * 28)
    left, top, right, bottom = read.frame()
    row = read.line_row((left + right) // 2)
    expected = {"top": top, "middle": (top + bottom) / 2, "bottom": bottom}[where]
    assert abs(row - expected) <= 1.5, (row, top, bottom)


def test_the_line_is_anti_aliased():
    """Its edges blend the line's colour into the white: pixels part way between the two, as many as the line has."""
    read = chart([100.0 * n / 27 for n in range(28)])

    def blend(pixel: tuple[int, int, int]) -> bool:
        share = (WHITE[0] - pixel[0]) / (WHITE[0] - LINE[0])
        mixed = [round(w + share * (c - w)) for w, c in zip(WHITE, LINE, strict=True)]
        return 0.1 < share < 0.9 and all(abs(a - b) <= 2 for a, b in zip(pixel, mixed, strict=True))

    blended = [pixel for row in read.rows for pixel in row if blend(pixel)]
    assert len(blended) >= len(read.where(LINE)) // 2


def test_each_day_is_drawn_at_its_own_place_from_the_first_to_the_last():
    read = chart([0.0] * 5 + [100.0] + [0.0] * 22)
    left, top, right, bottom = read.frame()
    columns = read.line_columns()
    step = (right - left) / (27 * 1.1)  # 5 % of the span on either side
    first, sixth, last = left + 27 * 0.05 * step, left + (5 + 27 * 0.05) * step, right - 27 * 0.05 * step
    assert abs(columns[0] - first) <= 4 and abs(columns[-1] - last) <= 4  # the markers' radius and the frame
    line = read.where(LINE)
    highest = min(y for _, y in line)
    peaks = [(x, y) for x, y in line if y == highest]
    assert all(abs(x - sixth) <= 2 for x, _ in peaks)  # the one day at 100 % peaks there…
    assert top - MARKER_RADIUS - 1 <= peaks[0][1] <= top  # …at the top (its marker's edge)
    assert abs(read.line_row(round(sixth + 2 * step)) - bottom) <= 1.5  # and the day after next at 0 %


def test_the_line_breaks_where_a_day_has_no_lookups():
    whole = chart([50.0] * 28).line_columns()
    assert whole == list(range(whole[0], whole[-1] + 1))  # one unbroken line
    read = chart([50.0] * 10 + [None] + [50.0] * 17)
    broken = read.line_columns()
    gaps = [(a, b) for a, b in itertools.pairwise(broken) if b - a > 1]
    assert len(gaps) == 1 and (broken[0], broken[-1]) == (whole[0], whole[-1])
    left, _, right, _ = read.frame()
    missing = left + (10 + 27 * 0.05) / (27 * 1.1) * (right - left)  # where day 11 would be
    (a, b) = gaps[0]
    assert a < missing < b
    assert chart([None] * 28).line_columns() == []  # no lookups at all: axes only
    lonely = chart([None] * 5 + [70.0] + [None] * 22).line_columns()  # one day alone: its marker only
    assert 0 < len(lonely) <= 8


@pytest.mark.parametrize(
    ("days", "rates"),
    [([], []), (DAYS[:1], [42.0]), (DAYS[:3], [0.0, float("nan"), 100.0]), (DAYS[:2], [-5.0, 130.0])],
)
def test_edge_cases_draw(days, rates):
    assert Read(trend_png(days, rates, title="", ylabel="")).size == (600, 260)


def test_charts_drawn_at_once_in_worker_threads_come_out_whole():
    """The digest and estadisticas draw in worker threads and share the fonts: charts drawn at once are the same."""
    from concurrent.futures import ThreadPoolExecutor

    rates = [50.0 + n for n in range(28)]
    alone = trend_png(DAYS, rates, title="Tasa de respuesta", ylabel="% respondidas")
    with ThreadPoolExecutor(4) as pool:
        drawn = list(
            pool.map(lambda _: trend_png(DAYS, rates, title="Tasa de respuesta", ylabel="% respondidas"), range(8))
        )
    assert drawn == [alone] * 8


def test_the_title_is_written_centred_above_the_plot():
    blank, titled = chart([50.0], title=""), chart([50.0], title="Tasa de respuesta diaria (4 semanas)")
    _, top, _, _ = titled.frame()
    xs = [x for x, _ in titled.changed(blank, (0, 0, WIDTH, top))]
    assert xs and abs((min(xs) + max(xs)) / 2 - WIDTH / 2) <= 2


def test_the_axis_label_is_written_upwards_left_of_the_plot():
    blank, labelled = chart([50.0], ylabel=""), chart([50.0], ylabel="% respondidas")
    left, top, _, bottom = labelled.frame()
    changed = labelled.changed(blank, (0, 0, WIDTH, HEIGHT))
    xs, ys = [x for x, _ in changed], [y for _, y in changed]
    assert changed and max(xs) < left - 20  # left of the rates written beside the axis
    assert max(ys) - min(ys) > 3 * (max(xs) - min(xs))  # taller than wide: turned
    assert abs((min(ys) + max(ys)) / 2 - (top + bottom) / 2) <= 2


def test_the_rates_and_the_dates_are_written_beside_the_axes():
    read = chart([50.0] * 28)
    left, top, _, bottom = read.frame()
    beside = [(x, y) for x, y in read.dark() if left - 30 < x < left - 5 and top - 8 <= y <= bottom + 8]
    under = [(x, y) for x, y in read.dark() if y > bottom + 7 and left - 30 < x]
    assert {round((y - top) / (bottom - top) * 5) for _, y in beside} == {0, 1, 2, 3, 4, 5}  # 100, 80 … 0
    assert len({x // 60 for x, _ in under}) >= 6  # several dates along the axis


def test_every_letter_of_the_chart_in_every_language_is_in_the_bundled_font():
    """Pillow's bundled font has no accented letters: a letter it lacks would be drawn as a box."""
    texts = [strings[key] for strings in STRINGS.values() for key in ("chart_title", "chart_ylabel")]
    texts += [day.isoformat() for day in DAYS] + ["0 20 40 60 80 100"]
    assert len(texts) >= 4
    for size in (TICKS, LABEL, TITLE):

        def drawn(letter: str, size=size) -> bytes:
            image = Image.new("L", (3 * size, 3 * size))
            ImageDraw.Draw(image).text((size, size), letter, fill=255, font=font(size))
            return image.tobytes()

        box = drawn("\ue000")  # a private-use character: no font has it
        assert drawn("ú") == box  # the check can fail: the font lacks ú (if a new Pillow has it, accents may return)
        assert [ch for ch in sorted({ch for text in texts for ch in text}) if drawn(ch) == box] == [], size


def test_the_chart_is_drawn_without_a_font_file(tmp_path):
    """Every font the chart loads is read from bytes in memory (Pillow's bundled one), none from a path; run from
    an empty directory with an empty home."""
    code = (
        "import datetime, io, sys; from PIL import ImageFont\n"
        "sources = []\n"
        "init = ImageFont.FreeTypeFont.__init__\n"
        "def spy(self, font=None, *args, **kwargs):\n"
        "    sources.append(type(font).__name__)\n"
        "    if not isinstance(font, io.BytesIO): raise OSError('a font file was asked for')\n"
        "    init(self, font, *args, **kwargs)\n"
        "ImageFont.FreeTypeFont.__init__ = spy\n"
        "from bot.app.insights.chart import trend_png\n"
        "png = trend_png([datetime.date(2026, 11, 1)], [50.0], title='Tasa', ylabel='%')\n"
        "print(sorted(set(sources)), png[:4] == b'\\x89PNG')"
    )
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['BytesIO'] True"


def test_pillow_is_loaded_by_the_first_chart_not_before():
    code = (
        "import sys, datetime; import bot.app.insights.digest, bot.app.insights.chart as chart; "
        "before = 'PIL' in sys.modules; "
        "chart.trend_png([datetime.date(2026, 11, 1)], [1.0], title='t', ylabel='y'); "
        "print(before, 'PIL' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False True"
