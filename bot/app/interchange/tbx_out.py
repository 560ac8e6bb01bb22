"""TBX-Basic out (ISO 30042, valid against the TBX-Basic DTD and XCS): one termEntry per term (per sense, for a term
that has several: each with the name, as TBX holds one concept per entry), a langSet in the
glossary's language (definition with its sources, the name as preferred term with the example as its context,
aliases admitted, forms to avoid deprecated) and one in English for the English name (and the aliases the term
files say are English; an alias in a third language gets a langSet of its own). A source is one text
(`bot.app.interchange.imports.citation`: "Texto <https://…>"), the only place TBX-Basic has for it."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

from bot.app.interchange.entries import same_language
from bot.app.interchange.imports import citation
from bot.core.model import Glossary, Layered, Term

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
PREFERRED, ADMITTED, DEPRECATED = "preferredTerm-admn-sts", "admittedTerm-admn-sts", "deprecatedTerm-admn-sts"
# XML 1.0 (fifth edition) names, which an ID attribute must be: a letter or "_" first (any script), then letters,
# digits, "-", ".", "_", "·" and combining marks.
_START = (
    "A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_XML_NAME = re.compile(f"[{_START}][{_START}\\-.0-9\u00b7\u0300-\u036f\u203f-\u2040]*")


def xml_ids(terms: list[Term]) -> dict[str, str]:
    """Term id → its termEntry id: the id it was imported with when that is a valid XML name, else the term's id
    (with "t-" before it when it does not start as a name may), each used once."""
    ids: dict[str, str] = {}
    used: set[str] = set()
    for term in terms:
        if _XML_NAME.fullmatch(term.source_id) and term.source_id not in used:
            ids[term.id] = term.source_id
            used.add(term.source_id)
    for n, term in enumerate(terms):
        if term.id in ids:
            continue
        base = next((c for c in (term.id, "t-" + term.id) if _XML_NAME.fullmatch(c)), f"t{n}")
        numbered = (f"{base}-{k}" for k in itertools.count(2))
        ids[term.id] = next(c for c in itertools.chain([base], numbered) if c not in used)
        used.add(ids[term.id])
    return ids


def to_tbx(glossary: Glossary, context: Glossary | None = None) -> str:
    """The glossary as TBX-Basic; related terms it does not hold are looked up in `context`."""
    lang = glossary.language or "es"
    root = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: lang})
    header = ET.SubElement(ET.SubElement(ET.SubElement(root, "martifHeader"), "fileDesc"), "sourceDesc")
    ET.SubElement(header, "p").text = f"{glossary.title} — {glossary.subtitle}" if glossary.subtitle else glossary.title
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    both = Layered(glossary, context)
    entries = [each for term in glossary.terms for each in term.sense_terms()]  # a termEntry per sense
    ids = xml_ids(entries)
    for term in entries:
        _entry(ET.SubElement(body, "termEntry", {"id": ids[term.id]}), term, lang, both, ids)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _entry(entry: ET.Element, term: Term, lang: str, both: Layered, ids: dict[str, str]) -> None:
    ET.SubElement(entry, "descrip", {"type": "subjectField"}).text = term.category
    for tag in term.tags:
        ET.SubElement(entry, "admin", {"type": "projectSubset"}).text = tag
    if term.note:
        ET.SubElement(entry, "note").text = term.note
    for i in term.related:
        if (other := both.get(i)) is not None:
            # A published term named by a server's term is not in this file: named, without a target (IDREF)
            target = {"target": ids[other.id]} if other.id in ids else {}
            ET.SubElement(entry, "ref", {"type": "crossReference", **target}).text = other.term
    for link in term.links:
        ET.SubElement(entry, "xref", {"type": "externalCrossReference", "target": link.url}).text = link.title
    definition_in = term.definition_language or lang
    english = term.definition_language.split("-")[0].lower() == "en" and bool(term.en)
    if not english and definition_in != lang:  # a definition in a language the entry has no terms in
        _definition(entry, term, {XML_LANG: definition_in})
    others = _aliases_by_language(term, lang)
    mine = ET.SubElement(entry, "langSet", {XML_LANG: lang})
    if definition_in == lang:
        _definition(mine, term)
    _tig(mine, term.term, PREFERRED, term.example)
    for alias in others.pop(lang, []):
        _tig(mine, alias, ADMITTED)
    for form in term.deprecated:
        _tig(mine, form, DEPRECATED)
    english_aliases = others.pop("en", [])
    if term.en or english_aliases:
        theirs = ET.SubElement(entry, "langSet", {XML_LANG: "en"})
        if english:
            _definition(theirs, term, {XML_LANG: definition_in})
        if term.en:
            _tig(theirs, term.en, PREFERRED)
        for alias in english_aliases:
            _tig(theirs, alias, ADMITTED)
    for language, aliases in others.items():  # an alias in a third language (Term.languages says which)
        theirs = ET.SubElement(entry, "langSet", {XML_LANG: language})
        for alias in aliases:
            _tig(theirs, alias, ADMITTED)


def _aliases_by_language(term: Term, lang: str) -> dict[str, list[str]]:
    """The aliases by the langSet they go in: the glossary's language (`lang`) for those in it or in none (TBX has
    no place for a term without a language), "en" for English ones, else their own."""
    grouped: dict[str, list[str]] = {}
    for alias in term.aliases:
        language = term.language_of(alias, lang)
        key = (
            lang
            if not language or same_language(language, lang)
            else "en"
            if same_language(language, "en")
            else language
        )
        grouped.setdefault(key, []).append(alias)
    return grouped


def _definition(parent: ET.Element, term: Term, attributes: dict[str, str] | None = None) -> None:
    """The definition, in a descripGrp with its sources when it has any."""
    group = ET.SubElement(parent, "descripGrp") if term.sources else parent
    ET.SubElement(group, "descrip", {"type": "definition", **(attributes or {})}).text = term.definition
    for cited in term.sources:
        ET.SubElement(group, "admin", {"type": "source"}).text = citation(cited.text, cited.url)


def _tig(lang_set: ET.Element, text: str, status: str, example: str = "") -> None:
    tig = ET.SubElement(lang_set, "tig")
    ET.SubElement(tig, "term").text = text
    ET.SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status
    if example:
        ET.SubElement(tig, "descrip", {"type": "context"}).text = example
