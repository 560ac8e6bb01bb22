"""SKOS in: Turtle (and N-Triples), RDF/XML and JSON-LD, parsed by pyoxigraph. One language becomes the glossary's
(prefLabel → name, altLabel → aliases, hiddenLabel → forms to avoid, definition, notes, example); English gives the
English name (and its altLabels are aliases); labels, definitions and notes in any other language are counted as
not kept, per property and language. broader, narrower and related → related; the concept's IRI → source_id."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.app.interchange.entries import Entry, Imported, Problem, language_matches
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
        return [v for v, tag in self.values.get(SKOS + prop, []) if tag == "" or (tag and language_matches(tag, lang))]


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
        member: (collection.texts("prefLabel", lang) or [""])[0]
        for collection in _typed(subjects, "Collection")
        for member, _ in collection.values.get(SKOS + "member", [])
    }
    entries, refused, dropped = [], [], Counter()
    for concept in concepts:
        entry = _entry(concept, lang, names, subjects, dropped)
        entry.category = categories.get(concept.iri, "")
        if not _refused(entry, concept, lang, refused):
            entries.append(entry)
    title = _title(_typed(subjects, "ConceptScheme"), lang)
    return imported(entries, refused, title, len(concepts), dropped)


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
    name = names[concept.iri]
    entry = Entry(term=name, source_id=concept.iri, where=f"<{concept.iri}>")
    english = not language_matches(lang, "en")  # (not when English is the chosen language: en-US asked)
    entry.en = next(iter(concept.texts("prefLabel", "en")), "").strip() if english else ""
    labels = [*concept.texts("prefLabel", lang), *concept.texts("altLabel", lang)]
    labels += concept.texts("altLabel", "en") if english else []
    entry.aliases = [label for label in dict.fromkeys(t.strip() for t in labels) if label and label != name]
    entry.deprecated = concept.texts("hiddenLabel", lang)
    entry.note = " · ".join(dict.fromkeys(t.strip() for note in _NOTES for t in concept.texts(note, lang)))
    entry.example = " · ".join(dict.fromkeys(t.strip() for t in concept.texts("example", lang)))
    _definition(entry, concept, lang)
    for prop in _RELATIONS:
        entry.related += [names.get(iri) or iri for iri, _ in concept.values.get(SKOS + prop, [])]
    for node, tag in concept.values.get(RDFS + "seeAlso", []):
        if tag is None and (found := _addressed(node, subjects)):
            entry.links.append({"title": found[0], "url": found[1]})
    _sources_and_tags(entry, concept, lang, subjects)
    _count_rest(concept, entry, lang, subjects, dropped)
    return entry


def _addressed(node: str, subjects: dict[str, _Concept]) -> tuple[str, str] | None:
    """(title, web address) of a link or a source: an address with its dct:title, or a blank node with the
    address as its rdf:value and its own dct:title (as the export writes an address titled two ways)."""
    described = subjects.get(node, _Concept(node))
    address = node
    if node.startswith("_:"):
        address = next((value for value, tag in described.values.get(RDF_VALUE, []) if tag is None), "")
    if not (url := web_url(address)):
        return None
    title = next((t for t, tag in described.values.get(DCT + "title", []) if tag is not None), "")
    return title.strip() or url, url


def _definition(entry: Entry, concept: _Concept, lang: str) -> None:
    """The definition in the chosen language, else one in English, else in any language, marked with it."""
    mine = concept.texts("definition", lang)
    if mine:
        entry.definition = mine[0].strip()
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
        elif found := _addressed(value, subjects):
            entry.sources.append({"text": found[0], "url": found[1]})
    entry.tags = [t.strip() for t, tag in concept.values.get(DCT + "subject", []) if tag == "" or _is(tag, lang)]


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


def _title(schemes: list[_Concept], lang: str) -> str:
    """The scheme's title in the chosen language, else untagged, else in any language."""
    for scheme in schemes:
        for prop in (DCT + "title", RDFS + "label", SKOS + "prefLabel"):
            values = scheme.values.get(prop, [])
            mine = [v for v, tag in values if _is(tag, lang)]
            if mine or values:
                return (mine or [values[0][0]])[0].strip()
    return ""
