"""TBX in: v2 (`martif`, `termEntry`/`langSet`/`tig` or `ntig`/`termGrp`) and v3 (`tbx`, `conceptEntry`/
`langSec`/`termSec`), with or without a namespace. One language becomes the glossary's (name, aliases, forms to
avoid, definition); English gives the English name (its other forms are aliases, noted as English); everything else
in an entry is counted as not kept. A language is asked as BCP 47 has it: `en` is en-US, en_GB, EN-gb."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from bot.app.interchange.entries import Entry, Imported, Problem, language_matches, same_language
from bot.app.interchange.imports import Refused, imported, no_language, refuse, source, web_url
from bot.core.problems import said

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_V3 = {"conceptEntry": "termEntry", "langSec": "langSet", "termSec": "tig"}
_SECTIONS = ("tig", "ntig")
_DEPRECATED = re.compile(r"deprecated|superseded|obsolete|forbidden|notRecommended|rejected", re.IGNORECASE)
_PREFERRED = re.compile(r"preferred|standardized|normative", re.IGNORECASE)
_STATUS_TYPES = ("administrativeStatus", "normativeAuthorization")
_SUBSETS = ("projectSubset", "customerSubset")  # the entry's labels for who uses it: its tags
# A name kept although every form of it is deprecated: the status is what a term file cannot say of a name.
_RETIRED = "administrativeStatus (deprecated, of a name with no other form)"


def _plain(root: ET.Element) -> None:
    """Tags without their namespace, v3 names as v2 ones: one reader for every TBX there is."""
    for element in root.iter():
        if isinstance(element.tag, str):
            local = element.tag.rpartition("}")[2]
            element.tag = _V3.get(local, local)


_WRAPPED = re.compile(r"\n[ \t]+")


def _text(element: ET.Element | None) -> str:
    """An element's text; a pretty-printed file's own line wrapping (a line break then indentation) is not a
    paragraph, and becomes one space."""
    if element is None:
        return ""
    if len(element) == 0 and isinstance(element.tag, str):  # most elements: their own text is all of it
        text = (element.text or "").strip()
    else:
        text = "".join(element.itertext()).strip()
    return " ".join(text.split()) if "\n" in text and _WRAPPED.search(text) else text


def _inherit_languages(root: ET.Element) -> None:
    """A langSet without xml:lang is in the language its terms say (some tools put xml:lang on each tig), else in
    its entry's, else in the file's: xml:lang holds for everything inside the element that carries it."""
    file_lang = _lang(root)
    for concept in root.iter("termEntry"):
        around = _lang(concept) or file_lang
        for lang_set in concept.iter("langSet"):
            if _lang(lang_set):
                continue
            own = {_lang(section) for section in lang_set if section.tag in _SECTIONS} - {""}
            if inherited := own.pop() if len(own) == 1 else around:
                lang_set.set(XML_LANG, inherited)


def _lang(element: ET.Element) -> str:
    """The element's own xml:lang as BCP 47 writes it ("en_GB", a gettext locale as some tools write it, is
    "en-GB")."""
    return element.get(XML_LANG, "").strip().replace("_", "-")


_matches = language_matches


def _english_too(lang: str) -> bool:
    """Whether the English forms are read beside the chosen language's: when it is not English itself (en-US
    asked, en-GB is another English, not a second name)."""
    return not _matches(lang, "en")


def read_tbx(text: str, lang: str = "es") -> Imported:
    """The entries of a TBX file in language `lang`; a file without that language is refused as a whole, in
    one paragraph naming the languages it has and how many entries each."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return Imported([], [Problem(said("tbx_unreadable", line=exc.position[0], error=str(exc)))], read=0)
    _plain(root)
    _inherit_languages(root)
    concepts = list(root.iter("termEntry"))
    languages = Counter(code for concept in concepts for code in {_lang(s) for s in concept.iter("langSet")})
    if concepts and not any(_matches(code, lang) for code in languages):
        return Imported([], [no_language(lang, languages, "tbx_no_term", "tbx_counted")], read=len(concepts))
    forms = [_forms(c, lang) for c in concepts]  # each entry's, once: other entries name it in their references
    names = {c.get("id"): form[0] for c, form in zip(concepts, forms, strict=True) if c.get("id")}
    entries, refused, dropped = [], [], Counter()
    file_lang = _lang(root)
    for n, (concept, form) in enumerate(zip(concepts, forms, strict=True), start=1):
        entry = _entry(concept, form, lang, file_lang, names, dropped)
        entry.where = f"termEntry {concept.get('id') or n}"
        if _refused(entry, concept, lang, refused):
            continue
        entries.append(entry)
    title = _text(next(root.iter("title"), None)) or _text(root.find(".//sourceDesc/p"))
    result = imported(entries, refused, title, len(concepts), dropped)
    if title and file_lang and not same_language(file_lang, lang):
        result.languages[title] = file_lang  # (a header is in the file's language)
    return result


def _refused(entry: Entry, concept: ET.Element, lang: str, refused: list[Refused]) -> bool:
    if not entry.term:
        has = sorted({_lang(s) for s in concept.iter("langSet") if any(_text(t) for t in s.iter("term"))} - {""})
        refuse(refused, entry, said("tbx_no_term_in", lang=lang, languages=", ".join(has) or "—"))
        return True
    if not entry.definition:
        refuse(refused, entry, said("no_definition"))
        return True
    return False


def _status(section: ET.Element) -> str:
    """preferred, admitted or deprecated, from administrativeStatus or normativeAuthorization."""
    for note in section.iter("termNote"):
        if note.get("type") in _STATUS_TYPES:
            value = _text(note)
            return (
                "deprecated" if _DEPRECATED.search(value) else "preferred" if _PREFERRED.search(value) else "admitted"
            )
    return ""


def _sections(concept: ET.Element, lang: str) -> list[ET.Element]:
    return [
        section
        for lang_set in concept.iter("langSet")
        if _matches(_lang(lang_set), lang)
        for section in lang_set
        if section.tag in _SECTIONS
    ]


def _forms(concept: ET.Element, lang: str) -> tuple[str, list[str], list[str], bool]:
    """(name, other forms, deprecated forms, whether the name is deprecated) in `lang`: the name is the first
    preferred form, else the first that is not deprecated, else (an entry kept for the forms it retired, such as
    Weblate's forbidden terms) the first deprecated one."""
    forms = [(_text(next(section.iter("term"), None)), _status(section)) for section in _sections(concept, lang)]
    usable = [text for text, status in forms if text and status != "deprecated"]
    preferred = next((text for text, status in forms if text and status == "preferred"), usable[0] if usable else "")
    deprecated = [text for text, status in forms if text and status == "deprecated"]
    if not preferred and deprecated:
        return deprecated[0], [], deprecated[1:], True
    return preferred, [text for text in usable if text != preferred], deprecated, False


def _entry(concept: ET.Element, forms: tuple, lang: str, file_lang: str, names: dict, dropped: Counter) -> Entry:
    """The entry of `concept`, whose forms in `lang` are `forms` (what `_forms` gives)."""
    used: set[int] = set()
    name, others, deprecated, retired = forms
    entry = Entry(term=name, aliases=others, deprecated=deprecated, source_id=concept.get("id", ""))
    if retired:
        dropped[_RETIRED] += 1
    mine = [s for s in concept.iter("langSet") if _matches(_lang(s), lang)]
    for section in (s for lang_set in mine for s in lang_set if s.tag in _SECTIONS):
        used.update(id(e) for e in section.iter("term"))
        used.update(id(n) for n in section.iter("termNote") if n.get("type") in _STATUS_TYPES)
    if _english_too(lang):
        _english(entry, concept, lang, used, dropped)
    _definition(entry, concept, mine, lang, file_lang, used)
    entry.category = _text(_first(concept, "descrip", "subjectField", used, direct=True))
    subsets = [a for kind in _SUBSETS for a in _all(concept, "admin", kind, direct=True)]
    entry.tags = [text for text in dict.fromkeys(_text(a) for a in subsets) if text]
    used.update(id(a) for a in subsets)
    _notes(entry, concept, mine, used)
    _references(entry, concept, names, used)
    _count_rest(concept, lang, used, dropped)
    return entry


def _english(entry: Entry, concept: ET.Element, lang: str, used: set[int], dropped: Counter) -> None:
    """The English name (the preferred English form); the other English forms not deprecated become aliases,
    as the English spellings a member may type."""
    en_name, others, _, retired = _forms(concept, "en")
    entry.en = en_name
    if retired:
        dropped[_RETIRED] += 1
    entry.aliases += [other for other in others if other not in entry.aliases]
    english = [s for s in concept.iter("langSet") if _matches(_lang(s), "en")]
    for lang_set in english:
        for section in (s for s in lang_set if s.tag in _SECTIONS):
            text = _text(next(section.iter("term"), None))
            if text in others:
                entry.said_in(text, _lang(lang_set), lang)  # an English alias: in English, not the glossary's
            if text in (en_name, *others):
                used.update(id(e) for e in section.iter("term"))
                used.update(id(n) for n in section.iter("termNote") if n.get("type") in _STATUS_TYPES)


def _first(parent: ET.Element, tag: str, kind: str, used: set[int], *, direct: bool = False) -> ET.Element | None:
    """The first `tag` of type `kind` in `parent` (its direct children and descripGrp, or anywhere)."""
    found = _all(parent, tag, kind, direct=direct)
    if found:
        used.add(id(found[0]))
    return found[0] if found else None


def _all(parent: ET.Element, tag: str, kind: str, *, direct: bool = False) -> list[ET.Element]:
    if not direct:
        return [e for e in parent.iter(tag) if e.get("type") == kind]
    grouped = [e for group in parent.findall("descripGrp") for e in group.findall(tag)]
    return [e for e in [*parent.findall(tag), *grouped] if e.get("type") == kind]


def _definition(entry: Entry, concept, mine: list, lang: str, file_lang: str, used: set[int]) -> None:
    """The definition in the chosen language (its langSet, then the entry's own, taken to be in the file's
    language), else one in another language, marked with it (English first)."""
    for lang_set in mine:
        if (found := _first(lang_set, "descrip", "definition", used)) is not None:
            entry.definition = _text(found)
            _sources(entry, found, lang_set, used)
            return
    if (found := _first(concept, "descrip", "definition", used, direct=True)) is not None:
        entry.definition = _text(found)
        said = _lang(found) or file_lang  # the definition's own xml:lang, else the file's
        if said and not _matches(said, lang):
            entry.definition_language = said
        _sources(entry, found, concept, used)
        return
    others = sorted(concept.iter("langSet"), key=lambda s: not _matches(_lang(s), "en"))
    for lang_set in others:
        if (found := _first(lang_set, "descrip", "definition", used)) is not None:
            entry.definition, entry.definition_language = _text(found), _lang(found) or _lang(lang_set)
            _sources(entry, found, lang_set, used)
            return


def _sources(entry: Entry, descrip: ET.Element, scope: ET.Element, used: set[int]) -> None:
    """The `admin type="source"` beside a definition or a context, in their descripGrp."""
    group = next((g for g in scope.iter("descripGrp") if descrip in list(g)), None)
    for admin in group.iter("admin") if group is not None else ():
        if admin.get("type") == "source" and (text := _text(admin)):
            used.add(id(admin))
            entry.sources.append(source(text))


def _notes(entry: Entry, concept: ET.Element, mine: list, used: set[int]) -> None:
    """Notes (the entry's, its language's, its terms') as one note; contexts as the example."""
    notes = [n for n in concept.findall("note")]
    notes += [n for s in mine for n in s.iter("note")]
    notes += [d for d in concept.iter("descrip") if (d.get("type") or "").lower().replace(" ", "") == "usagenote"]
    texts = list(dict.fromkeys(t for t in (_text(n) for n in notes) if t))
    used.update(id(n) for n in notes)
    entry.note = " · ".join(texts)
    contexts = [d for s in mine for d in s.iter("descrip") if d.get("type") == "context"]
    if contexts:
        entry.example = _text(contexts[0])
        used.add(id(contexts[0]))
        for lang_set in mine:
            _sources(entry, contexts[0], lang_set, used)


def _references(entry: Entry, concept: ET.Element, names: dict, used: set[int]) -> None:
    for ref in concept.iter("ref"):
        if ref.get("type") == "crossReference":
            used.add(id(ref))
            entry.related.append(names.get(ref.get("target")) or _text(ref))
    for xref in concept.iter("xref"):
        url = web_url(xref.get("target") or "")
        if xref.get("type") == "externalCrossReference" and url:
            used.add(id(xref))
            entry.links.append({"title": _text(xref) or url, "url": url})


def _count_rest(concept: ET.Element, lang: str, used: set[int], dropped: Counter) -> None:
    """Every piece of data in the entry not kept, by element and type; another language counts once per entry."""
    for lang_set in concept.iter("langSet"):
        code = _lang(lang_set)
        if not _matches(code, lang) and not (_english_too(lang) and _matches(code, "en")):
            dropped[f"langSet xml:lang={code}"] += 1
            used.update(id(e) for e in lang_set.iter())
    for element in concept.iter():
        if len(element) == 0 and id(element) not in used and element.tag != "termEntry":
            kind = element.get("type")
            dropped[f"{element.tag}[{kind}]" if kind else element.tag] += 1
