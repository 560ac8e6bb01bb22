"""The answer-rate chart (a PNG) of the weekly digest and of /glosario-admin estadisticas: a line of daily rates with
gaps for days without lookups, axes, grid, dates, title and axis label, on an opaque white card that reads the same
on Discord's dark and light themes. Drawn with Pillow, which the first chart imports (the bot starts without it), in
Pillow's bundled scalable font: no font file. That font has ASCII and a few signs (« » ° ´ ·) but no accented
letters, so the catalogue's chart texts keep to those (tests/app/test_chart.py checks every letter)."""

from __future__ import annotations

import functools
import io
import math
import threading
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageFont

WIDTH, HEIGHT = 600, 260
WHITE, INK, GRID, LINE = (255, 255, 255), (0, 0, 0), (231, 231, 231), (0x58, 0x65, 0xF2)
TICKS, LABEL, TITLE = 11, 12, 15  # font sizes in pixels
TICK_LENGTH, PAD = 5, 4
LINE_WIDTH, MARKER_RADIUS = 2.1, 2.8  # in pixels
SUPERSAMPLE = 4  # Pillow draws lines without anti-aliasing: the line is drawn 4× larger and scaled down
RATE_TICKS = (0, 20, 40, 60, 80, 100)
DAY_STEPS = (1, 2, 3, 4, 7, 14, 28, 56, 91, 182, 364)
_DRAWING = threading.Lock()  # one chart at a time: they share the fonts, and a FreeType face serves one thread at once


def trend_png(days: list[date], rates: list[float | None], *, title: str, ylabel: str) -> bytes:
    """A line of daily answer rates (0–100 %, gaps for days without lookups), as PNG bytes. CPU-bound, and the first
    call imports Pillow: call it from a worker thread."""
    with _DRAWING:
        return _draw(days, rates, title, ylabel)


def _draw(days: list[date], rates: list[float | None], title: str, ylabel: str) -> bytes:
    from PIL import Image, ImageDraw  # here, not at the top: a bot that draws no chart never loads Pillow

    image = Image.new("RGB", (WIDTH, HEIGHT), WHITE)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = _plot_box(image, title, ylabel)
    first, last = (days[0].toordinal(), days[-1].toordinal()) if days else (0, 1)
    margin = max(last - first, 1) * 0.05  # room on both sides of the first and last day

    def x_of(day: date) -> float:
        return left + (day.toordinal() - first + margin) / (last - first + 2 * margin) * (right - left)

    def y_of(rate: float) -> float:
        return bottom - min(max(rate, 0.0), 100.0) / 100 * (bottom - top)

    for rate in RATE_TICKS:
        y = round(y_of(rate))
        draw.line([(left, y), (right - 1, y)], fill=GRID)
        draw.line([(left - TICK_LENGTH, y), (left - 1, y)], fill=INK)
        draw.text((left - TICK_LENGTH - PAD, y), str(rate), fill=INK, font=font(TICKS), anchor="rm")
    for day in _date_ticks(days, right - left):
        x = round(x_of(day))
        draw.line([(x, top), (x, bottom - 1)], fill=GRID)
        draw.line([(x, bottom), (x, bottom + TICK_LENGTH - 1)], fill=INK)
        draw.text((x, bottom + TICK_LENGTH + PAD), day.isoformat(), fill=INK, font=font(TICKS), anchor="ma")
    draw.rectangle([(left - 1, top - 1), (right, bottom)], outline=INK)
    points = [(x_of(d), y_of(r)) if _drawn(r) else None for d, r in zip(days, rates, strict=True)]
    image.paste(LINE, (0, 0, WIDTH, HEIGHT), _line_mask(points))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font (Aileron) at size pixels, built once per size."""
    from PIL import ImageFont

    face = ImageFont.load_default(size=size)
    if not isinstance(face, ImageFont.FreeTypeFont):  # a Pillow built without FreeType: its bitmap font has one size
        raise RuntimeError("this Pillow has no FreeType, which the chart's scalable font needs")
    return face


def _drawn(rate: float | None) -> bool:
    return rate is not None and math.isfinite(rate)


def _plot_box(image: Image.Image, title: str, ylabel: str) -> tuple[int, int, int, int]:
    """Writes the title and the axis label and returns the axes' box: left, top, right, bottom (inside the frame)."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    draw.text((WIDTH // 2, PAD + 2), title, fill=INK, font=font(TITLE), anchor="ma")
    top = PAD + 2 + _height(font(TITLE)) + 2 * PAD
    bottom = HEIGHT - (PAD + _height(font(TICKS)) + PAD + TICK_LENGTH)
    _write_upwards(image, ylabel, PAD + 2, (top + bottom) // 2)
    widest = max(math.ceil(font(TICKS).getlength(str(rate))) for rate in RATE_TICKS)
    left = PAD + 2 + _height(font(LABEL)) + 2 * PAD + widest + PAD + TICK_LENGTH
    right = WIDTH - 4 * PAD  # the 5 % margin on the x axis leaves room for half of a date under the last day
    return left, top, right, bottom


def _height(face: ImageFont.FreeTypeFont) -> int:
    ascent, descent = face.getmetrics()
    return ascent + descent


def _write_upwards(image: Image.Image, text: str, x: int, middle: int) -> None:
    """Writes text in ink read from the bottom up, its left edge at x and its middle at middle."""
    from PIL import Image, ImageDraw

    face = font(LABEL)
    mask = Image.new("L", (max(math.ceil(face.getlength(text)), 1), _height(face)))
    ImageDraw.Draw(mask).text((0, 0), text, fill=255, font=face, anchor="la")
    mask = mask.transpose(Image.Transpose.ROTATE_90)
    image.paste(INK, (x, middle - mask.height // 2, x + mask.width, middle - mask.height // 2 + mask.height), mask)


def _date_ticks(days: list[date], width: int) -> list[date]:
    """Every n-th day from the first, n the smallest step whose ISO dates do not touch each other."""
    if not days:
        return []
    first, span = days[0].toordinal(), max(days[-1].toordinal() - days[0].toordinal(), 1)
    room = font(TICKS).getlength("0000-00-00") + 3 * PAD
    step = next((s for s in DAY_STEPS if width * s / (span * 1.1) >= room), DAY_STEPS[-1])
    return [date.fromordinal(n) for n in range(first, first + span + 1, step)]


def _line_mask(points: list[tuple[float, float] | None]) -> Image.Image:
    """Coverage (0–255) of the line through consecutive points (None breaks it) and of their markers, drawn
    SUPERSAMPLE times larger and averaged down: anti-aliased."""
    from PIL import Image, ImageDraw

    big = Image.new("L", (WIDTH * SUPERSAMPLE, HEIGHT * SUPERSAMPLE), 0)
    draw = ImageDraw.Draw(big)
    scaled = [None if p is None else (p[0] * SUPERSAMPLE, p[1] * SUPERSAMPLE) for p in points]
    run: list[tuple[float, float]] = []
    for point in [*scaled, None]:
        if point is not None:
            run.append(point)
            continue
        if len(run) > 1:
            draw.line(run, fill=255, width=round(LINE_WIDTH * SUPERSAMPLE), joint="curve")
        run = []
    r = MARKER_RADIUS * SUPERSAMPLE
    for x, y in (p for p in scaled if p is not None):
        draw.ellipse([(x - r, y - r), (x + r, y + r)], fill=255)
    return big.reduce(SUPERSAMPLE)
