"""The answer-rate chart (a PNG) of the weekly digest and of /glosario-admin estadisticas, drawn in pure Python: a
line of daily rates with gaps for days without lookups, axes, grid, dates, title and axis label, anti-aliased, in
DejaVu Sans (bot.app.insights.chart_font). No plotting or imaging library: a chart takes about 15 ms and imports
nothing (bench/bench_chart.py)."""

from __future__ import annotations

import itertools
import math
import struct
import unicodedata
import zlib
from collections.abc import Iterable
from datetime import date

from bot.app.insights.chart_font import Face, Glyph, face

WIDTH, HEIGHT = 600, 260  # as matplotlib drew it: 6 × 2.6 inches at 100 dpi
WHITE, INK, GRID, LINE = (255, 255, 255), (0, 0, 0), (231, 231, 231), (0x58, 0x65, 0xF2)
TICKS, LABEL, TITLE = 10, 11, 14  # font sizes in pixels (chart_font.SIZES)
TICK_LENGTH, PAD = 5, 4
LINE_WIDTH, MARKER_RADIUS = 2.1, 2.8  # 1.5 pt, and a 3 pt marker with its 1 pt edge, at 100 dpi
RATE_TICKS = (0, 20, 40, 60, 80, 100)
DAY_STEPS = (1, 2, 3, 4, 7, 14, 28, 56, 91, 182, 364)


def trend_png(days: list[date], rates: list[float | None], *, title: str, ylabel: str) -> bytes:
    """A line of daily answer rates (0–100 %, gaps for days without lookups), as PNG bytes. CPU-bound: call it from
    a worker thread."""
    canvas = Canvas(WIDTH, HEIGHT)
    left, top, right, bottom = _plot_box(canvas, title, ylabel)
    first, last = (days[0].toordinal(), days[-1].toordinal()) if days else (0, 1)
    margin = max(last - first, 1) * 0.05  # matplotlib's default margin on the x axis

    def x_of(day: date) -> float:
        return left + (day.toordinal() - first + margin) / (last - first + 2 * margin) * (right - left)

    def y_of(rate: float) -> float:
        return bottom - min(max(rate, 0.0), 100.0) / 100 * (bottom - top)

    for rate in RATE_TICKS:
        y = round(y_of(rate))
        canvas.rect(left, y, right, y + 1, GRID)
        canvas.rect(left - TICK_LENGTH, y, left, y + 1, INK)
        canvas.text(str(rate), face(TICKS), left - TICK_LENGTH - PAD, y, anchor="right-middle")
    for day in _date_ticks(days, right - left, face(TICKS)):
        x = round(x_of(day))
        canvas.rect(x, top, x + 1, bottom, GRID)
        canvas.rect(x, bottom, x + 1, bottom + TICK_LENGTH, INK)
        canvas.text(day.isoformat(), face(TICKS), x, bottom + TICK_LENGTH + PAD, anchor="center-top")
    canvas.frame(left, top, right, bottom, INK)
    points = [(x_of(d), y_of(r)) if _drawn(r) else None for d, r in zip(days, rates, strict=True)]
    canvas.fill(_line_coverage(points, LINE_WIDTH / 2, MARKER_RADIUS), LINE)
    return canvas.png()


def _drawn(rate: float | None) -> bool:
    return rate is not None and math.isfinite(rate)


def _plot_box(canvas: Canvas, title: str, ylabel: str) -> tuple[int, int, int, int]:
    """Lays out the title and the axis label (drawn here) and returns the axes' box: left, top, right, bottom."""
    title_face, label_face, tick_face = face(TITLE), face(LABEL), face(TICKS)
    canvas.text(title, title_face, WIDTH // 2, PAD + 2, anchor="center-top")
    top = PAD + 2 + title_face.ascent + title_face.descent + 2 * PAD
    bottom = HEIGHT - (PAD + tick_face.ascent + tick_face.descent + PAD + TICK_LENGTH)
    label_height = label_face.ascent + label_face.descent
    canvas.text(ylabel, label_face, PAD + 2, (top + bottom) // 2, anchor="left-middle", upright=False)
    widest = max(_width(str(rate), tick_face) for rate in RATE_TICKS)
    left = PAD + 2 + label_height + 2 * PAD + widest + PAD + TICK_LENGTH
    right = WIDTH - 4 * PAD  # the x margin (5 %) leaves room for half of a date under the last day
    return left, top, right, bottom


def _date_ticks(days: list[date], width: int, tick_face: Face) -> list[date]:
    """Every n-th day from the first, n the smallest step whose ISO dates do not touch each other."""
    if not days:
        return []
    first, span = days[0].toordinal(), max(days[-1].toordinal() - days[0].toordinal(), 1)
    room = _width("0000-00-00", tick_face) + 3 * PAD
    step = next((s for s in DAY_STEPS if width * s / (span * 1.1) >= room), DAY_STEPS[-1])
    return [date.fromordinal(n) for n in range(first, first + span + 1, step)]


def _line_coverage(points: list[tuple[float, float] | None], half_width: float, radius: float) -> dict[int, float]:
    """Pixel (y × WIDTH + x) → coverage of the line through consecutive points (None breaks it) and their markers."""
    coverage: dict[int, float] = {}
    for a, b in itertools.pairwise(points):
        if a is not None and b is not None:
            _cover(coverage, a, b, half_width)
    for p in points:
        if p is not None:
            _cover(coverage, p, p, radius)
    return coverage


def _cover(coverage: dict[int, float], a: tuple[float, float], b: tuple[float, float], radius: float) -> None:
    """Anti-aliased capsule of the given radius around the segment a–b (a disc when a is b)."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    x0, x1 = max(int(min(ax, bx) - radius - 1), 0), min(int(max(ax, bx) + radius + 2), WIDTH)
    y0, y1 = max(int(min(ay, by) - radius - 1), 0), min(int(max(ay, by) + radius + 2), HEIGHT)
    for y in range(y0, y1):
        for x in range(x0, x1):
            px, py = x + 0.5 - ax, y + 0.5 - ay
            t = 0.0 if length2 == 0 else min(max((px * dx + py * dy) / length2, 0.0), 1.0)
            value = radius + 0.5 - math.hypot(px - t * dx, py - t * dy)
            if value > 0:
                key = y * WIDTH + x
                coverage[key] = max(coverage.get(key, 0.0), min(value, 1.0))


def _glyphs(text: str, font: Face) -> Iterable[tuple[float, Glyph]]:
    """(origin x, glyph) along the text; a character the face lacks is drawn as its base letter, else as '?'."""
    x = 0.0
    for ch in text:
        glyph = font.glyphs.get(ch) or font.glyphs.get(unicodedata.normalize("NFKD", ch)[:1]) or font.glyphs["?"]
        yield x, glyph
        x += glyph.advance


def _width(text: str, font: Face) -> int:
    return math.ceil(sum(glyph.advance for _, glyph in _glyphs(text, font)))


class Canvas:
    """An RGB image in memory that draws rectangles, coverage maps and text, and encodes itself as PNG."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rgb = bytearray(bytes(WHITE) * (width * height))

    def blend(self, key: int, color: tuple[int, int, int], alpha: float) -> None:
        """Mixes color into pixel key (y × width + x) by alpha, 0 to 1."""
        rgb, at, (red, green, blue) = self.rgb, key * 3, color
        rgb[at] += round((red - rgb[at]) * alpha)
        rgb[at + 1] += round((green - rgb[at + 1]) * alpha)
        rgb[at + 2] += round((blue - rgb[at + 2]) * alpha)

    def rect(self, x0: int, y0: int, x1: int, y1: int, color: tuple[int, int, int]) -> None:
        """Fills [x0, x1) × [y0, y1), crisp."""
        x0, x1 = max(x0, 0), min(x1, self.width)
        for y in range(max(y0, 0), min(y1, self.height)):
            self.rgb[(y * self.width + x0) * 3 : (y * self.width + x1) * 3] = bytes(color) * (x1 - x0)

    def frame(self, left: int, top: int, right: int, bottom: int, color: tuple[int, int, int]) -> None:
        """A one-pixel box whose inside is [left, right) × [top, bottom)."""
        for box in ((left - 1, top - 1, right + 1, top), (left - 1, bottom, right + 1, bottom + 1)):
            self.rect(*box, color)
        for box in ((left - 1, top, left, bottom), (right, top, right + 1, bottom)):
            self.rect(*box, color)

    def fill(self, coverage: dict[int, float], color: tuple[int, int, int]) -> None:
        for key, alpha in coverage.items():
            self.blend(key, color, alpha)

    def text(self, text: str, font: Face, x: int, y: int, *, anchor: str, upright: bool = True) -> None:
        """Writes text in ink. anchor says which point of the text's box (x, y) is: center-top, right-middle…;
        upright=False turns it a quarter to the left (read from the bottom up), its box turned with it."""
        width, height = _width(text, font), font.ascent + font.descent
        mask = bytearray(width * height)
        for origin, glyph in _glyphs(text, font):
            gx, gy = round(origin) + glyph.left, font.ascent + glyph.top
            for row in range(glyph.height):
                for col in range(glyph.width):
                    if 0 <= gx + col < width and 0 <= gy + row < height:
                        at = (gy + row) * width + gx + col
                        mask[at] = max(mask[at], glyph.alpha[row * glyph.width + col])
        if not upright:  # a quarter turn to the left: the last column becomes the first row
            mask = bytearray(mask[r * width + c] for c in reversed(range(width)) for r in range(height))
            width, height = height, width
        horizontal, vertical = anchor.split("-")
        x -= {"left": 0, "center": width // 2, "right": width}[horizontal]
        y -= {"top": 0, "middle": height // 2, "bottom": height}[vertical]
        for row in range(height):
            for col in range(width):
                alpha = mask[row * width + col]
                if alpha and 0 <= x + col < self.width and 0 <= y + row < self.height:
                    self.blend((y + row) * self.width + x + col, INK, alpha / 255)

    def png(self) -> bytes:
        stride = self.width * 3
        rows = b"".join(b"\x00" + self.rgb[y * stride : (y + 1) * stride] for y in range(self.height))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
        return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND")


def _chunk(kind: bytes, data: bytes = b"") -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
