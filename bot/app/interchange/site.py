"""The glossary as a static web page (`glosario-bot site OUTDIR`): one self-contained `index.html` — every term with
its own anchor, grouped by category, an alphabetical index, instant search as you type (accent-insensitive,
forgiving one typo), light and dark, readable on a phone — that works opened from disk, with no server, no
external script, style or font (its Content-Security-Policy allows only its own inline style and script, by hash).
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from html import escape
from importlib import resources
from pathlib import Path
from urllib.parse import quote, urlsplit

from bot.app.files import write_whole
from bot.app.interchange.site_words import site_words
from bot.core.model import Glossary, Sense, Term
from bot.core.normalize import slug, unused_id
from bot.core.paragraphs import paragraphs

PAGE = "index.html"
# The page's own ids have an underscore, which no term's id (a slug) has: a term named «Buscar», «Índice» or
# «Categoría Redes» keeps its anchor, and the search box, the index and the category "Redes" theirs.


def term_url(site_url: str, term_id: str) -> str:
    """Where a term is on the published page: its anchor (a Discord card links there)."""
    return f"{site_url.split('#', 1)[0]}#{quote(term_id, safe='-_.')}"


def write_site(glossary: Glossary, outdir: Path) -> Path:
    """Write the page into `outdir` (created if needed); returns the file written."""
    outdir.mkdir(parents=True, exist_ok=True)
    path = outdir / PAGE
    write_whole(path, render(glossary))  # (a web server may be serving the page being replaced)
    return path


def render(glossary: Glossary) -> str:
    style = _asset("site.css")
    script = _asset("site.js")
    policy = (
        f"default-src 'none'; style-src '{_sha256(style)}'; script-src '{_sha256(script)}'; "
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    )
    say = site_words(glossary.language or "es")
    title = escape(glossary.title)
    subtitle = f"<p>{escape(glossary.subtitle)}</p>" if glossary.subtitle else ""
    groups = _by_category(glossary.terms)
    categories = _anchors("_categoria-", [name for name, _ in groups])
    letters = _anchors("_letra-", sorted({_letter(t.term) for t in glossary.terms}, key=_sort_key))
    return "\n".join(
        [
            "<!doctype html>",
            f'<html lang="{escape(glossary.language or "es")}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
            '<meta name="color-scheme" content="light dark">',
            f"<title>{title}</title>",
            f"<style>{style}</style>",
            "</head>",
            "<body>",
            f'<a class="saltar" href="#_contenido">{say["skip"]}</a>',
            f"<header><h1>{title}</h1>{subtitle}",
            _search_form(list(glossary.terms), say),
            "</header>",
            _alphabet_nav(letters, say),
            '<main id="_contenido">',
            *(_category(name, categories[name], terms, glossary, say) for name, terms in groups),
            _index(glossary.terms, letters, say),
            "</main>",
            f"<footer><p>{_how_many(len(glossary), say)}. {say['made']}</p></footer>",
            f"<script>{script}</script>",
            "</body>",
            "</html>",
            "",
        ]
    )


def _search_form(terms: list[Term], say: dict[str, str]) -> str:
    sentences = "".join(f' data-{key}="{escape(say[key])}"' for key in ("terms_1", "terms", "found", "none"))
    # (three of this glossary's own names as examples: its shortest, in order)
    examples = sorted(sorted({t.term.lower() for t in terms}, key=lambda name: (len(name), name))[:3], key=_sort_key)
    placeholder = f' placeholder="{escape(", ".join(examples))}…"' if examples else ""
    return (
        '<search><form role="search" id="_busqueda" action="#">'
        f'<label for="_buscar">{say["search"]}</label>'
        '<input id="_buscar" name="q" type="search" autocomplete="off" spellcheck="false" '
        f'aria-describedby="_resultado"{placeholder}>'
        f'<p id="_resultado" role="status" aria-live="polite"{sentences}>{_how_many(len(terms), say)}</p>'
        "</form></search>"
    )


def _how_many(count: int, say: dict[str, str]) -> str:
    """The count of terms in words, as the page's script says it while searching: "1 término", "17 términos"."""
    return say["terms_1"] if count == 1 else say["terms"].format(count=count)


def _by_category(terms: list[Term]) -> list[tuple[str, list[Term]]]:
    groups: dict[str, list[Term]] = {}
    for term in terms:
        groups.setdefault(term.category, []).append(term)
    return sorted(groups.items(), key=lambda item: _sort_key(item[0]))


def _anchors(prefix: str, names: list[str]) -> dict[str, str]:
    """Each name's id on the page: `prefix` and its slug, numbered when two names have one ("Visión", "Vision")."""
    taken: set[str] = set()
    return {name: unused_id(prefix, slug(name) or "otros", taken) for name in names}


def _category(name: str, anchor: str, terms: list[Term], glossary: Glossary, say: dict[str, str]) -> str:
    articles = "\n".join(_article(term, glossary, say) for term in sorted(terms, key=lambda t: _sort_key(t.term)))
    return (
        f'<section class="categoria" aria-labelledby="{anchor}">'
        f'<h2 id="{anchor}">{escape(name)}</h2>\n{articles}\n</section>'
    )


def _article(term: Term, glossary: Glossary, say: dict[str, str]) -> str:
    names = [term.term, *([term.en] if term.en else []), *term.aliases]
    parts = [
        f'<article class="termino" id="{escape(term.id)}" data-nombres="{escape(chr(10).join(names))}">',
        f'<h3><a href="#{escape(term.id)}">{escape(term.term)}</a></h3>',
    ]
    if term.en:
        parts.append(f'<p class="en">{say["english"]} <span lang="en">{escape(term.en)}</span></p>')
    if term.senses:  # one item per sense, each with what is its own; the forms and tags are the name's
        items = "".join(f"<li>{''.join(_sense(sense, term, glossary, say))}</li>" for sense in term.all_senses())
        parts.append(f'<ol class="sentidos" aria-label="{escape(say["senses"].format(term=term.term))}">{items}</ol>')
    else:
        parts.extend(_sense(term.first_sense(), term, glossary, say))
    parts.extend(_forms(term, say))
    if term.aliases:
        parts.append(f'<p class="alias">{say["also"]} {escape(", ".join(term.aliases))}</p>')
    if not term.senses:
        parts.extend(_related(term.related, glossary, say))
    if term.links:
        items = "".join(f'<li><a href="{escape(k.url)}" rel="noopener">{escape(k.title)}</a></li>' for k in term.links)
        parts.append(f'<ul class="enlaces" aria-label="{escape(say["links"].format(term=term.term))}">{items}</ul>')
    parts.append("</article>")
    return "".join(parts)


def _sense(sense: Sense, term: Term, glossary: Glossary, say: dict[str, str]) -> list[str]:
    """A sense: its category when the term has several and it is not the first's, the language of its definition
    when not the glossary's, the definition, note, example and sources (and, with several senses, its related)."""
    parts = []
    if term.senses and sense.category != term.category:
        parts.append(f'<p class="categoria-sentido">{escape(sense.category)}</p>')
    if sense.definition_language:
        lang = escape(sense.definition_language)
        parts.append(f'<p class="idioma">{say["definition_in"]} <span lang="{lang}">{lang}</span>:</p>')
    parts.append(_definition(sense.definition))
    if sense.note:
        parts.append(f'<p class="nota">{say["note"]} {escape(sense.note)}</p>')
    if sense.example:
        parts.append(f'<p class="ejemplo">{say["example"]} <q>{escape(sense.example)}</q></p>')
    if sense.sources:
        cited = (
            f'<li><a href="{escape(s.url)}" rel="noopener">{escape(s.text)}</a></li>'
            if s.url
            else f"<li>{escape(s.text)}</li>"
            for s in sense.sources
        )
        parts.append(f'<ul class="fuentes" aria-label="{say["sources"]}">{"".join(cited)}</ul>')
    if term.senses:
        parts.extend(_related(sense.related, glossary, say))
    return parts


def _related(ids: tuple[str, ...], glossary: Glossary, say: dict[str, str]) -> list[str]:
    related = [r for r in (glossary.get(i) for i in ids) if r is not None]
    if not related:
        return []
    links = ", ".join(f'<a href="#{escape(r.id)}">{escape(r.term)}</a>' for r in related)
    return [f'<p class="relacionados">{say["related"]} {links}</p>']


def _forms(term: Term, say: dict[str, str]) -> list[str]:
    """What is the name's, whatever its sense: forms to avoid and tags (each only when present)."""
    parts = []
    if term.deprecated:
        parts.append(f'<p class="evita">{say["avoid"]} {escape(", ".join(term.deprecated))}</p>')
    if term.tags:
        parts.append(f'<p class="etiquetas">{say["tags"]} {escape(", ".join(term.tags))}</p>')
    return parts


def _definition(text: str) -> str:
    """The definition's paragraphs, each a <p>, with the web addresses in them as links (a line break between
    paragraphs, so that the search reads the words of two paragraphs apart)."""
    body = "\n".join(f"<p>{_linked(paragraph)}</p>" for paragraph in paragraphs(text))
    return f'<div class="definicion">{body}</div>'


# A web address in running text ends at a space or at what cannot be in one; closing punctuation after it is the
# sentence's, not the address's ("véase https://ejemplo.org/a.").
_WEB_ADDRESS = re.compile(r"https?://[^\s<>\"'«»“”‘’]+", re.IGNORECASE)
_TRAILING = ".,;:!?)]}"


def _linked(text: str) -> str:
    """`text` escaped, with each http(s) address in it made a link (escaped too); anything else stays text."""
    out, start = [], 0
    for found in _WEB_ADDRESS.finditer(text):
        address = found.group()
        while address and address[-1] in _TRAILING:
            closing = address[-1]
            if closing == ")" and address.count("(") >= address.count(")"):
                break  # https://es.wikipedia.org/wiki/Red_(informática): the parenthesis is the address's
            address = address[:-1]
        if not _is_web_address(address):
            continue
        end = found.start() + len(address)
        out.append(escape(text[start : found.start()]))
        out.append(f'<a href="{escape(address)}" rel="noopener">{escape(address)}</a>')
        start = end
    out.append(escape(text[start:]))
    return "".join(out)


def _is_web_address(address: str) -> bool:
    try:
        parts = urlsplit(address)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _alphabet_nav(letters: dict[str, str], say: dict[str, str]) -> str:
    links = "".join(f'<li><a href="#{escape(anchor)}">{escape(letter)}</a></li>' for letter, anchor in letters.items())
    return f'<nav aria-label="{say["index"]}"><ul class="letras">{links}</ul></nav>'


def _index(terms: list[Term], letters: dict[str, str], say: dict[str, str]) -> str:
    by_letter: dict[str, list[Term]] = {}
    for term in sorted(terms, key=lambda t: _sort_key(t.term)):
        by_letter.setdefault(_letter(term.term), []).append(term)
    blocks = []
    for letter, group in sorted(by_letter.items(), key=lambda item: _sort_key(item[0])):
        items = "".join(f'<li><a href="#{escape(t.id)}">{escape(t.term)}</a></li>' for t in group)
        blocks.append(f'<h3 id="{escape(letters[letter])}">{escape(letter)}</h3><ul>{items}</ul>')
    heading = f'<h2 id="_indice">{say["index"]}</h2>'
    return f'<section class="indice" aria-labelledby="_indice">{heading}{"".join(blocks)}</section>'


def _letter(name: str) -> str:
    first = _sort_key(name)[:1].upper()
    return first if first.isalpha() else "#"


def _sort_key(text: str) -> str:
    """Alphabetical as a Spanish reader expects: accents do not move a word ("Á" sorts with "A")."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _asset(name: str) -> str:
    return (resources.files("bot.app.interchange") / "web" / name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
