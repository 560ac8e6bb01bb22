"""SKOS in: Turtle (and N-Triples), RDF/XML and JSON-LD, parsed by pyoxigraph. One language becomes the glossary's
(prefLabel → name, altLabel → aliases, hiddenLabel → forms to avoid, definition, notes, example); English gives the
English name (and its altLabels are aliases); labels, definitions and notes in any other language are counted as
not kept, per property and language. broader, narrower and related → related; the concept's IRI → source_id.
Each text kept is noted with the language the file gives it where that is not the one its field implies
(`Entry.languages`: an English altLabel among the aliases, an untagged literal), and so is the scheme's title and
each collection's name (`Imported.languages`): the SKOS export says each again."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.app.interchange.entries import Entry, Imported, Problem, language_matches, same_language
from bot.app.interchange.imports import Refused, imported, no_language, refuse, web_url
from bot.core.problems import said

SKOS = "http://www.w3.org/2004/02/skos/core#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDF_VALUE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#value"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
DCT = "http://purl.org/dc/terms/"
PARSERS = {"turtle": "TURTLE", "rdf-xml": "RDF_XML", "json-ld": "JSON_LD"}
_PREFIXES = {SKOS: "skos:", RDFS: "rdfs:", DCT: "dct:", "http://www.w3.org/2002/07/owl#": "owl:"}
# Texts of the concept in one language: where each goes when it is in the chosen language.
_NOTES = ("note", "scopeNote", "historyNote")
_RELATIONS = ("related", "broader", "narrower", "broaderTransitive", "narrowerTransitive")
_STRUCTURE = (RDF_TYPE, SKOS + "inScheme", SKOS + "topConceptOf")


@dataclass
class _Concept:
    """One concept's statements, by property: (value, language or None for an IRI, "" for untagged text)."""

    iri: str
    values: dict[str, list[tuple[str, str | None]]] = field(default_factory=dict)

    def texts(self, prop: str, lang: str) -> list[str]:
        """The literals of `prop` in `lang` (untagged text counts as the chosen language)."""
        return [text for text, _ in self.tagged(prop, lang)]

    def tagged(self, prop: str, lang: str) -> list[tuple[str, str]]:
        """The literals of `prop` in `lang` (or untagged), each with its language tag ("" for none)."""
        return [
            (v, tag)
            for v, tag in self.values.get(SKOS + prop, [])
            if tag == "" or (tag and language_matches(tag, lang))
        ]


def _short(iri: str) -> str:
    return next((short + iri[len(long) :] for long, short in _PREFIXES.items() if iri.startswith(long)), iri)


def _graph(text: str, fmt: str) -> dict[str, _Concept]:
    """Subject → its statements, in the file's order. A blank node is "_:" and its label, never taken for an IRI."""
    import pyoxigraph as ox

    literal, blank = ox.Literal, ox.BlankNode  # (pyoxigraph's classes have no subclasses: `type(x) is` is exact)
    subjects: dict[str, _Concept] = {}
    for quad in ox.parse(text, format=getattr(ox.RdfFormat, PARSERS[fmt]), base_iri="urn:glosario:"):
        node, value = quad.subject, quad.object
        name = "_:" + node.value if type(node) is blank else node.value
        if (subject := subjects.get(name)) is None:
            subject = subjects[name] = _Concept(name)
        if type(value) is literal:
            said, tag = value.value, value.language or ""
        else:
            said, tag = ("_:" + value.value if type(value) is blank else value.value), None
        predicate = quad.predicate.value
        if (values := subject.values.get(predicate)) is None:
            values = subject.values[predicate] = []
        values.append((said, tag))
    return subjects


def _typed(subjects: dict[str, _Concept], kind: str) -> list[_Concept]:
    """The subjects of type skos:`kind`, by IRI: RDF has no order, and a name two concepts share must go to the
    same one whatever the syntax."""
    found = [s for s in subjects.values() if (SKOS + kind, None) in s.values.get(RDF_TYPE, [])]
    return sorted(found, key=lambda s: s.iri)


def read_skos(text: str, fmt: str = "turtle", lang: str = "es") -> Imported:
    """The concepts of a SKOS file in language `lang`; a file without any label in that language is refused as a
    whole, in one paragraph naming the languages it has and how many concepts each."""
    try:
        subjects = _graph(text, fmt)
    except (SyntaxError, ValueError, OSError) as exc:  # what the parser raises for a broken or unsupported file
        error = f"{type(exc).__name__}: {exc}"
        return Imported([], [Problem(said("skos_unreadable", error=error))], read=0)
    concepts = _typed(subjects, "Concept")
    languages = Counter(
        tag for c in concepts for tag in {t for _, t in c.values.get(SKOS + "prefLabel", []) if t is not None}
    )
    if concepts and not any(tag == "" or language_matches(tag, lang) for tag in languages):
        return Imported([], [no_language(lang, languages, "skos_no_label", "skos_counted")], read=len(concepts))
    names = {c.iri: _name(c, lang) for c in concepts}
    categories = {
        member: next(iter(collection.tagged("prefLabel", lang)), ("", ""))
        for collection in _typed(subjects, "Collection")
        for member, _ in collection.values.get(SKOS + "member", [])
    }
    entries, refused, dropped = [], [], Counter()
    for concept in concepts:
        entry = _entry(concept, lang, names, subjects, dropped)
        entry.category = categories.get(concept.iri, ("", ""))[0].strip()
        if not _refused(entry, concept, lang, refused):
            entries.append(entry)
    title, title_language = _title(_typed(subjects, "ConceptScheme"), lang)
    result = imported(entries, refused, title, len(concepts), dropped)
    # The glossary's own texts in the language the file gives them (the title and category names).
    own = [(title, title_language), *((label.strip(), tag) for label, tag in categories.values())]
    result.languages = {text: tag for text, tag in own if text and not same_language(tag, lang)}
    return result


def _name(concept: _Concept, lang: str) -> str:
    """The concept's name in `lang`: its prefLabel, else its first altLabel."""
    return next(iter(concept.texts("prefLabel", lang) + concept.texts("altLabel", lang)), "").strip()


def _refused(entry: Entry, concept: _Concept, lang: str, refused: list[Refused]) -> bool:
    if not entry.term:
        tags = sorted({t for _, t in concept.values.get(SKOS + "prefLabel", []) if t})
        refuse(refused, entry, said("skos_no_name_in", lang=lang, languages=", ".join(tags) or "—"))
        return True
    if not entry.definition:
        refuse(refused, entry, said("no_definition"))
        return True
    return False


def _entry(concept: _Concept, lang: str, names: dict, subjects: dict, dropped: Counter) -> Entry:
    """The entry of `concept`: each text it keeps noted with the language the file gives it, where that is not
    the one the term file implies (an English altLabel among the aliases, untagged text)."""
    name = names[concept.iri]
    entry = Entry(term=name, source_id=concept.iri, where=f"<{concept.iri}>")
    english = not language_matches(lang, "en")  # (not when English is the chosen language: en-US asked)
    en, en_tag = next(iter(concept.tagged("prefLabel", "en")), ("", "en")) if english else ("", "en")
    entry.en = en.strip()
    entry.said_in(entry.en, en_tag, "en")
    labels = [*concept.tagged("prefLabel", lang), *concept.tagged("altLabel", lang)]
    labels += concept.tagged("altLabel", "en") if english else []
    hidden = concept.tagged("hiddenLabel", lang)
    for text, tag in labels + hidden:
        entry.said_in(text, tag, lang)
    entry.aliases = [label for label in dict.fromkeys(t.strip() for t, _ in labels) if label and label != name]
    entry.deprecated = [text for text, _ in hidden]
    entry.note = _joined(entry, [pair for note in _NOTES for pair in concept.tagged(note, lang)], lang, dropped)
    entry.example = _joined(entry, concept.tagged("example", lang), lang, dropped)
    _definition(entry, concept, lang)
    for prop in _RELATIONS:
        entry.related += [names.get(iri) or iri for iri, _ in concept.values.get(SKOS + prop, [])]
    for node, tag in concept.values.get(RDFS + "seeAlso", []):
        if tag is None and (found := _addressed(node, subjects)):
            entry.links.append({"title": found[0], "url": found[1]})
            entry.said_in(found[0], found[2], "")  # (a title is written untagged unless it had a language)
    _sources_and_tags(entry, concept, lang, subjects)
    _count_rest(concept, entry, lang, subjects, dropped)
    return entry


def _joined(entry: Entry, texts: list[tuple[str, str]], lang: str, dropped: Counter) -> str:
    """Several notes (or examples) as one text, " · " between them, noted with their language when they share
    one; joined from several languages, the text is said in none of them, and that is counted."""
    joined = " · ".join(dict.fromkeys(text.strip() for text, _ in texts))
    tags = [tag for _, tag in texts]
    if tags and all(same_language(tag, tags[0]) for tag in tags):
        entry.said_in(joined, tags[0], lang)
    elif tags:
        dropped["language (of notes or examples in several languages, joined)"] += 1
    return joined


def _addressed(node: str, subjects: dict[str, _Concept]) -> tuple[str, str, str] | None:
    """(title, web address, the title's language) of a link or a source: an address with its dct:title, or a
    blank node with the address as its rdf:value and its own dct:title (as the export writes an address titled
    two ways)."""
    described = subjects.get(node, _Concept(node))
    address = node
    if node.startswith("_:"):
        address = next((value for value, tag in described.values.get(RDF_VALUE, []) if tag is None), "")
    if not (url := web_url(address)):
        return None
    title, tag = next(((t, tag) for t, tag in described.values.get(DCT + "title", []) if tag is not None), ("", ""))
    return (title.strip(), url, tag) if title.strip() else (url, url, "")


def _definition(entry: Entry, concept: _Concept, lang: str) -> None:
    """The definition in the chosen language, else one in English, else in any language, marked with it."""
    mine = concept.tagged("definition", lang)
    if mine:
        entry.definition = mine[0][0].strip()
        entry.said_in(entry.definition, mine[0][1], lang)
        return
    others = sorted(
        ((text, tag) for text, tag in concept.values.get(SKOS + "definition", []) if tag),
        key=lambda found: not language_matches(found[1], "en"),
    )
    if others:
        entry.definition, entry.definition_language = others[0][0].strip(), others[0][1]


def _sources_and_tags(entry: Entry, concept: _Concept, lang: str, subjects: dict) -> None:
    """dct:source (a citation as text, taken as written; or an address with its title) → sources; dct:subject
    text → tags."""
    for value, tag in concept.values.get(DCT + "source", []):
        if tag is not None:
            entry.sources.append({"text": value.strip()})
            entry.said_in(value, tag, "")  # (a citation is written untagged unless it had a language)
        elif found := _addressed(value, subjects):
            entry.sources.append({"text": found[0], "url": found[1]})
            entry.said_in(found[0], found[2], "")
    subjects_in = [(t, tag) for t, tag in concept.values.get(DCT + "subject", []) if _is(tag, lang)]
    entry.tags = [text.strip() for text, _ in subjects_in]
    for text, tag in subjects_in:
        entry.said_in(text, tag, lang)


def _is(tag: str | None, lang: str) -> bool:
    return tag is not None and (tag == "" or language_matches(tag, lang))


def _count_rest(concept: _Concept, entry: Entry, lang: str, subjects: dict, dropped: Counter) -> None:
    """Every statement of the concept not kept, by property (and language, for text)."""
    kept = {"prefLabel", "altLabel", "hiddenLabel", "definition", "example", *_NOTES}
    english = not language_matches(lang, "en")  # (not when English is the chosen language: en-US asked)
    for prop, values in concept.values.items():
        local = prop.removeprefix(SKOS) if prop.startswith(SKOS) else ""
        if prop in _STRUCTURE or local in _RELATIONS:
            continue
        for value, tag in values:
            if _used(prop, local, value, tag, entry, lang, english, kept, subjects):
                continue
            dropped[f"{_short(prop)}@{tag}" if tag else _short(prop)] += 1


def _used(prop: str, local: str, value: str, tag, entry: Entry, lang: str, english: bool, kept: set, subjects) -> bool:
    """Whether this statement went into the entry."""
    if local in kept and _is(tag, lang):
        return local != "definition" or value.strip() == entry.definition
    if english and tag and language_matches(tag, "en") and local in ("prefLabel", "altLabel"):
        return local == "altLabel" or value.strip() == entry.en
    if local == "definition":
        return value.strip() == entry.definition and tag == entry.definition_language
    if prop == RDFS + "seeAlso":
        found = _addressed(value, subjects) if tag is None else None
        return found is not None and any(link["url"] == found[1] for link in entry.links)
    if prop == DCT + "source":
        return tag is not None or _addressed(value, subjects) is not None
    return prop == DCT + "subject" and _is(tag, lang)


def _title(schemes: list[_Concept], lang: str) -> tuple[str, str]:
    """The scheme's title in the chosen language, else untagged, else in any language; with its language tag."""
    for scheme in schemes:
        for prop in (DCT + "title", RDFS + "label", SKOS + "prefLabel"):
            values = [(v, tag) for v, tag in scheme.values.get(prop, []) if tag is not None]
            mine = [(v, tag) for v, tag in values if tag and language_matches(tag, lang)]
            untagged = [(v, tag) for v, tag in values if tag == ""]
            if found := (mine or untagged or values):
                return found[0][0].strip(), found[0][1]
    return "", ""
