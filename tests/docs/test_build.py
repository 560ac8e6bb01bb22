"""The documentation site builds strictly (MkDocs, Material theme) and offline, and README.md stays a front door."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys

import pytest
import yaml

from tests.docs.blocks import PAGES, ROOT


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,  # the benchmarks' page is included from bench/README.md, relative to here
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


def test_every_page_is_built_and_in_the_navigation(site):
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def listed(nav):
        for entry in nav:
            for value in entry.values():
                yield from listed(value) if isinstance(value, list) else [value]

    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in PAGES if p.is_relative_to(ROOT / "docs"))
    assert sorted(listed(config["nav"])) == pages
    for page in pages:
        html = site / re.sub(r"(index)?\.md$", "", page) / "index.html"
        assert html.is_file(), page


def test_the_benchmarks_page_is_bench_readme_itself(site):
    page = (site / "development" / "benchmarks" / "index.html").read_text(encoding="utf-8")
    shown = html.unescape(re.sub(r"<[^>]+>", "", page))
    headings = re.findall(r"^## (.+)$", (ROOT / "bench" / "README.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert len(headings) > 5
    for heading in headings:
        assert re.sub(r"`([^`]*)`", r"\1", heading) in shown, heading


def test_the_site_loads_nothing_from_elsewhere(site):
    """No web fonts, scripts or styles from another host: the pages work offline, like the build."""
    outside = []
    for built in site.rglob("*.html"):
        text = built.read_text(encoding="utf-8")
        for tag in re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", text):
            source = re.search(r"\b(?:src|href)=\"?([^\" >]+)", tag)
            if source and re.match(r"(https?:)?//", source[1]) and 'rel="canonical"' not in tag:
                outside.append(f"{built.relative_to(site)}: {tag}")
    assert outside == []


def test_the_pictures_are_published_with_the_site(site):
    pictures = sorted(p.name for p in (ROOT / "docs" / "screenshots").glob("*.png"))
    assert pictures and sorted(p.name for p in (site / "screenshots").glob("*.png")) == pictures
    assert not list((site / "screenshots").glob("*.json"))  # what the test compares stays out of the site


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    headings = re.findall(r"^#+ .*$", readme, re.MULTILINE)
    numbered = [h for h in (*headings, *_doc_headings()) if re.search(r"\b(issue|#)\s*\d+", h, re.IGNORECASE)]
    assert numbered == [], "headings say what a section is about, not which issue asked for it"
    for link in re.findall(r"\]\((?!https?:)([^)#]+)", readme):  # every page it points to exists
        assert (ROOT / link).exists(), link


def _doc_headings() -> list[str]:
    found = []
    for page in PAGES:
        found += re.findall(r"^#+ .*$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return found


def test_the_settings_page_names_every_setting_the_bot_reads():
    read = set(re.findall(r'"((?:GLOSARIO|DISCORD|LOG|LC)_[A-Z_]+|LANG)"', (ROOT / "bot" / "config.py").read_text()))
    page = (ROOT / "docs" / "operators" / "settings.md").read_text(encoding="utf-8")
    assert len(read) > 15
    assert sorted(name for name in read if f"`{name}`" not in page) == []


def test_the_image_leaves_the_documentation_out():
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {"docs", "mkdocs.yml", "site"} <= set(ignored)
