"""`glosario-bot site OUTDIR`: the page, opened from disk in a real browser (headless Chromium), searched, followed
by its links, looked at on a phone and a desktop, and checked by axe-core for accessibility."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from bot.app.files import load_glossary
from bot.app.interchange.site import render, term_url
from bot.app.interchange.site_words import SITE_WORDS
from bot.cli import main
from bot.core.loader import load_glossary_from_texts
from tests.conftest import SHIPPED
from tests.site.conftest import ARTIFACTS

PHONE, DESKTOP = (390, 844), (1280, 900)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("sitio")
    assert main(["site", str(out)]) == 0
    return out / "index.html"


@pytest.fixture
def opened(browser, page):
    browser.set_window_size(*DESKTOP)
    browser.get(page.as_uri())
    browser.get_log("browser")  # what loading said is checked by its own test
    return browser


def visible_ids(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('article.termino')).filter(a => !a.hidden).map(a => a.id)"
    )


def search(driver, text: str) -> list[str]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE, text)  # as a person edits it: every keystroke is an input event
    return visible_ids(driver)


def test_every_term_is_on_the_page_with_its_anchor_and_names(opened):
    glossary = load_glossary(SHIPPED)
    assert sorted(visible_ids(opened)) == sorted(t.id for t in glossary.terms)
    # (the text as written: a term off screen is not laid out yet, so innerText, made from the layout, skips it)
    text = opened.execute_script("return document.body.textContent")
    for term in glossary.terms:
        assert term.term in text and (not term.en or term.en in text)
        assert all(alias in text for alias in term.aliases)
    assert opened.title == glossary.title
    landmarks = opened.execute_script(
        "return ['header','nav','main','footer','search'].map(t => document.querySelectorAll(t).length)"
    )
    assert all(landmarks), landmarks


def test_search_forgives_a_typo_accents_and_case_and_says_how_many(opened):
    from selenium.webdriver.common.by import By

    assert search(opened, "horovd") == ["horovod"]
    assert opened.find_element(By.CSS_SELECTOR, "[role=status]").text == "1 término para «horovd»"
    assert "paralelismo-de-datos" in search(opened, "paralelsmo")
    assert "entrenamiento-elastico" in search(opened, "ELÁSTICO")
    assert search(opened, "zzzzqqq") == []
    assert "Ningún término coincide" in opened.find_element(By.CSS_SELECTOR, "[role=status]").text
    assert len(search(opened, "")) == 17  # clearing the box shows everything again


def test_on_a_page_of_thousands_a_link_lands_on_its_term_and_the_search_shows_it(browser, tmp_path):
    from tests.synthetic import generate

    names = generate(tmp_path / "g", 3000)
    assert main(["--data", str(tmp_path / "g"), "site", str(tmp_path / "web")]) == 0
    page = (tmp_path / "web" / "index.html").as_uri()
    browser.set_window_size(*DESKTOP)
    browser.get(page)
    far = browser.execute_script("return Array.from(document.querySelectorAll('article.termino')).at(-1).id")
    browser.get(f"{page}#{far}")  # the page's last term: the thousands above it are not laid out yet
    top = browser.execute_script(f"return document.getElementById('{far}').getBoundingClientRect().top")
    assert 0 <= top < 200  # landed on it, whatever size the terms above were guessed to have
    search(browser, names[1234])
    assert names[1234] in browser.execute_script("return document.body.innerText")  # found, shown, laid out
    assert len(visible_ids(browser)) < 50


def test_a_related_link_jumps_to_its_term(opened):
    from selenium.webdriver.common.by import By

    link = opened.find_element(By.CSS_SELECTOR, '#horovod .relacionados a[href="#allreduce"]')
    link.click()
    assert opened.current_url.endswith("#allreduce")
    top = opened.execute_script("return document.getElementById('allreduce').getBoundingClientRect().top")
    assert 0 <= top < 200  # scrolled to it
    # a related term the search had hidden is shown again when its link is followed
    search(opened, "horovod")
    opened.find_element(By.CSS_SELECTOR, '#horovod .relacionados a[href="#petastorm"]').click()
    assert "petastorm" in visible_ids(opened)


def test_no_console_errors_and_nothing_loaded_from_elsewhere(browser, page):
    browser.get(page.as_uri())
    search(browser, "kubeflw")
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
    resources_loaded = browser.execute_script("return performance.getEntriesByType('resource').map(r => r.name)")
    assert resources_loaded == []  # no script, style, font or image from anywhere


@pytest.mark.parametrize(("name", "size"), [("telefono", PHONE), ("escritorio", DESKTOP)])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_readable_on_a_phone_and_a_desktop_in_light_and_dark(browser, page, name, size, scheme):
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    browser.set_window_size(*size)
    browser.get(page.as_uri())
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]  # nothing wider than the screen: no sideways scrolling
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(255, 255, 255)") == (scheme == "light")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / f"sitio-{name}-{scheme}.png"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_accessibility_violation(browser, page, scheme):
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )
    browser.set_window_size(*DESKTOP)
    browser.get(page.as_uri())
    browser.execute_script((resources.files("axe_core_python") / "axe.min.js").read_text(encoding="utf-8"))
    result = browser.execute_async_script("const done = arguments[arguments.length - 1]; axe.run().then(done);")
    serious = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert len(result["passes"]) > 10  # axe really ran (colour contrast, labels, landmarks…)


def test_the_page_escapes_what_it_shows_and_allows_only_its_own_code():
    hostile = """category: "<script>alert(1)</script>"
terms:
  - term: "<img src=x onerror=alert(1)>"
    definition: "Un </script><script>alert(2)</script> y \\"comillas\\" & más."
    aliases: ["a\\" onmouseover=\\"alert(3)"]
"""
    glossary = load_glossary_from_texts(
        [("glossary.yaml", "title: T\nsubtitle: S\nlanguage: es\n"), ("x.yaml", hostile)]
    )
    html = render(glossary)
    assert "<script>alert" not in html and "<img src=x" not in html and 'onmouseover="alert' not in html
    assert html.count("<script>") == 1
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert "default-src 'none'" in policy and "unsafe-inline" not in policy


NAMED_LIKE_THE_PAGE = """category: Redes
terms:
  - term: Índice
    definition: Estructura que permite encontrar rápido lo que se busca.
  - term: Buscar
    definition: Acción de encontrar algo.
  - term: Búsqueda
    definition: Lo que se hace al buscar.
  - term: Resultado
    definition: Lo que devuelve una búsqueda.
  - term: Contenido
    definition: Lo que hay dentro.
  - term: Categoría Redes
    definition: Un nombre como el ancla de su categoría.
  - term: Letra A
    definition: Un nombre como el ancla de una letra.
  - term: Árbol
    definition: Estructura de datos (su letra es la A).
"""
ALIKE_CATEGORIES = [
    ("v1.yaml", "category: Visión\nterms:\n  - term: Píxel\n    definition: Un punto de una imagen.\n"),
    ("v2.yaml", "category: Vision\nterms:\n  - term: Vóxel\n    definition: Un punto en tres dimensiones.\n"),
]


def page_of(folder, meta: str, *files: tuple[str, str]):
    """The glossary of these term files (glossary.yaml holding `meta`) and its page, written into `folder`."""
    glossary = load_glossary_from_texts([("glossary.yaml", meta), *files])
    path = folder / "index.html"
    path.write_text(render(glossary), encoding="utf-8")
    return glossary, path


@pytest.fixture
def named_like_the_page(tmp_path):
    return page_of(tmp_path, "title: T\n", ("r.yaml", NAMED_LIKE_THE_PAGE), *ALIKE_CATEGORIES)


def test_a_term_named_like_a_part_of_the_page_keeps_its_anchor_and_the_page_its_own(named_like_the_page):
    glossary, path = named_like_the_page
    ids = re.findall(r'\sid="([^"]*)"', path.read_text(encoding="utf-8"))
    assert len(ids) == len(set(ids))  # (a term "Buscar" had the search box's id, "Índice" the index's…)
    assert {t.id for t in glossary.terms} <= set(ids)


def test_the_page_works_with_terms_named_like_its_parts(browser, named_like_the_page):
    from selenium.webdriver.common.by import By

    glossary, path = named_like_the_page
    browser.set_window_size(*DESKTOP)
    browser.get(path.as_uri())
    tags = browser.execute_script(
        "return arguments[0].map(i => document.getElementById(i).tagName)", [t.id for t in glossary.terms]
    )
    assert set(tags) == {"ARTICLE"}  # every term's anchor leads to the term
    assert search(browser, "resultado") == ["resultado"]  # the search box and its status still work
    assert browser.find_element(By.CSS_SELECTOR, "[role=status]").text == "1 término para «resultado»"
    search(browser, "")  # (the index shows when the box is empty)
    browser.find_element(By.CSS_SELECTOR, '.indice a[href="#buscar"]').click()
    assert browser.current_url.endswith("#buscar") and "buscar" in visible_ids(browser)
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []


ENGLISH = """category: Distributed training
terms:
  - term: Horovod
    definition: Uber's framework for distributed training.
    aliases: [hvd]
    related: [Parameter server]
  - term: Parameter server
    definition: Servers that hold the model's parameters.
    note: An older design.
"""


@pytest.fixture
def english_page(tmp_path):
    return page_of(tmp_path, "title: AI glossary\nlanguage: en\n", ("e.yaml", ENGLISH))[1]


def test_the_page_of_a_glossary_in_english_says_its_own_words_in_english(english_page):
    html = english_page.read_text(encoding="utf-8")
    assert '<html lang="en">' in html
    for spanish in SITE_WORDS["es"].values():  # (each without what is filled in: a count, a query, a name)
        assert not [part for part in re.split(r"\{\w+\}", spanish) if part.strip() and part in html], spanish
    assert SITE_WORDS["en"]["search"] in html and SITE_WORDS["en"]["related"] in html
    assert 'placeholder="horovod, parameter server…"' in html  # its own names as examples (were the shipped ones)


def test_the_search_of_a_page_in_english_speaks_english(browser, english_page):
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(english_page.as_uri())
    say = SITE_WORDS["en"]
    status = browser.find_element(By.CSS_SELECTOR, "[role=status]")
    assert status.text == say["terms"].format(count=2)
    assert search(browser, "horovd") == ["horovod"]
    assert status.text == say["found"].format(terms=say["terms_1"], query="horovd")
    assert search(browser, "zz $& $1") == []  # (what is typed is said back as typed, not as a pattern)
    assert status.text == say["none"].format(query="zz $& $1")


def test_term_url_points_at_the_anchor():
    assert (
        term_url("https://glosario.example/", "paralelismo-de-datos")
        == "https://glosario.example/#paralelismo-de-datos"
    )
    assert term_url("https://glosario.example/ia#old", "horovod") == "https://glosario.example/ia#horovod"


def test_the_command_says_where_it_wrote_and_refuses_a_file_as_folder(tmp_path, capsys):
    assert main(["site", str(tmp_path / "web")]) == 0
    assert (tmp_path / "web" / "index.html").is_file()
    assert "17 términos" in capsys.readouterr().out
    (tmp_path / "archivo").write_text("x", encoding="utf-8")
    assert main(["site", str(tmp_path / "archivo")]) == 1
    assert "archivo" in capsys.readouterr().err


PARAGRAPHS = """category: Pruebas
terms:
  - term: Horovod
    definition: >-
      Framework de Uber para entrenar con MPI; véase https://horovod.ai/docs?a=1&b=2.

      Segundo párrafo (https://es.wikipedia.org/wiki/Red_(informática)), sin enlaces javascript:alert(1)
      ni <b>etiquetas</b> https://x.example/"onmouseover="alert(1) fin.
  - term: Literal
    definition: |
      Una línea
      que sigue.

      Otro párrafo.
"""


@pytest.fixture
def paragraphs_page(tmp_path):
    return page_of(tmp_path, "title: T\n", ("p.yaml", PARAGRAPHS))[1]


def test_definitions_keep_their_paragraphs_and_their_addresses_are_links(browser, paragraphs_page):
    from selenium.webdriver.common.by import By

    browser.set_window_size(*DESKTOP)
    browser.get(paragraphs_page.as_uri())
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('#horovod .definicion p')).map(p => p.textContent)"
    )
    assert len(texts) == 2 and texts[0].startswith("Framework") and texts[1].startswith("Segundo párrafo")
    assert browser.execute_script("return document.querySelectorAll('#literal .definicion p').length") == 2
    links = browser.find_elements(By.CSS_SELECTOR, "#horovod .definicion a")
    hrefs = [link.get_attribute("href") for link in links]
    assert hrefs[0] == "https://horovod.ai/docs?a=1&b=2"  # the sentence's full stop is not part of it
    assert hrefs[1] == "https://es.wikipedia.org/wiki/Red_(inform%C3%A1tica)"  # its own parenthesis kept
    assert all(h.startswith("https://") for h in hrefs) and len(hrefs) == 3
    assert not browser.find_elements(By.CSS_SELECTOR, "#horovod b, [onmouseover]")  # still text, not markup
    assert "<b>etiquetas</b>" in texts[1]
    assert search(browser, "wikipedia") == ["horovod"]  # the page's search still reads the definition
    assert search(browser, "linea") == ["literal"]
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []  # CSP intact
