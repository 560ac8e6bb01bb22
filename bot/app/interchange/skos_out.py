"""SKOS out (W3C), as Turtle, RDF/XML or JSON-LD through pyoxigraph: a ConceptScheme with the glossary's title, a
Concept per term, a Collection per category. Every literal carries its true language: the one the term files give
its text (`languages`, which an import fills: an English altLabel, an untagged title; "" is no language, an
untagged literal), else the one its field implies: the glossary's for the name, aliases, notes, example, tags,
title and categories, English for `en`, the definition its own (`definition_language`) when set, none for the
title of a link or a source. A link or a source with an address is that address with its dct:title (a blank node
with rdf:value and its own title when another one gave the same address another title); a source without one is a
literal."""

from __future__ import annotations

import re

from bot.core.model import Glossary, Layered, Term
from bot.core.normalize import slug, unused_id

SKOS = "http://www.w3.org/2004/02/skos/core#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDF_TYPE, RDF_VALUE = RDF + "type", RDF + "value"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
DCT = "http://purl.org/dc/terms/"
PREFIXES = {"skos": SKOS, "dct": DCT, "rdfs": RDFS, "rdf": RDF}
DEFAULT_BASE = "https://glosario-ia.example/terminos/"
SERIALISERS = {"turtle": "TURTLE", "rdf-xml": "RDF_XML", "json-ld": "JSON_LD"}
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S+")


def concept_iri(term: Term, base: str) -> str:
    """The term's IRI: the one it was imported with (its source_id, when that is an absolute IRI), else base + id."""
    import pyoxigraph as ox

    if _ABSOLUTE.fullmatch(term.source_id):
        try:
            return ox.NamedNode(term.source_id).value
        except ValueError:  # not an IRI after all (a TBX id such as "a:b c")
            pass
    return base + term.id


def to_skos(
    glossary: Glossary, *, base: str = DEFAULT_BASE, fmt: str = "turtle", context: Glossary | None = None
) -> str:
    """The glossary as SKOS in `fmt` (turtle, rdf-xml, json-ld); related terms it does not hold are looked up in
    `context` (the published glossary, when `glossary` is a server's own terms)."""
    import pyoxigraph as ox

    triples: dict = {}  # in order, once each

    def add(subject, predicate: str, value) -> None:
        triples[ox.Triple(subject, ox.NamedNode(predicate), value)] = None

    lang = glossary.language or "es"
    senses = [each for named in glossary.terms for each in named.sense_terms()]  # a Concept per sense
    iris = [concept_iri(term, base) for term in senses]
    taken = set(iris)  # (the term "Categoría Redes" is base + categoria-redes: the category "Redes" takes -2)
    scheme = ox.NamedNode(unused_id(base.rstrip("/#") + "#", "scheme", taken))
    add(scheme, RDF_TYPE, ox.NamedNode(SKOS + "ConceptScheme"))
    add(scheme, DCT + "title", _literal(glossary.title, glossary.language_of(glossary.title)))
    both = Layered(glossary, context)
    collections: dict[str, list] = {}
    titles: dict[str, tuple[str, str]] = {}
    for term, iri in zip(senses, iris, strict=True):
        concept = ox.NamedNode(iri)
        add(concept, RDF_TYPE, ox.NamedNode(SKOS + "Concept"))
        add(concept, SKOS + "inScheme", scheme)
        _concept(add, concept, term, lang, titles)
        for i in term.related:
            if (other := both.get(i)) is not None:
                add(concept, SKOS + "related", ox.NamedNode(concept_iri(other, base)))
        collections.setdefault(term.category, []).append(concept)
    for url, (title, language) in titles.items():
        add(ox.NamedNode(url), DCT + "title", _literal(title, language))
    for category, concepts in collections.items():
        collection = ox.NamedNode(unused_id(base + "categoria-", slug(category), taken))
        add(collection, RDF_TYPE, ox.NamedNode(SKOS + "Collection"))
        add(collection, SKOS + "prefLabel", _literal(category, glossary.language_of(category)))
        for concept in concepts:
            add(collection, SKOS + "member", concept)
    form = getattr(ox.RdfFormat, SERIALISERS[fmt])
    return ox.serialize(triples, format=form, prefixes=PREFIXES).decode("utf-8")


def _literal(text: str, language: str):
    """A literal in `language`; in none (untagged) for ""."""
    import pyoxigraph as ox

    return ox.Literal(text, language=language) if language else ox.Literal(text)


def _concept(add, concept, term: Term, lang: str, titles: dict) -> None:
    """A term's own statements: labels, definition, notes, example, links, sources and tags, each literal in the
    language its text is in (`Term.language_of`: the glossary's unless the term says otherwise)."""

    def text(value: str, implied: str = lang):
        return _literal(value, term.language_of(value, implied))

    add(concept, SKOS + "prefLabel", text(term.term))
    if term.en:
        add(concept, SKOS + "prefLabel", text(term.en, "en"))
    for alias in term.aliases:
        add(concept, SKOS + "altLabel", text(alias))
    for form in term.deprecated:  # searchable, never shown: what SKOS has for a form to avoid
        add(concept, SKOS + "hiddenLabel", text(form))
    add(concept, SKOS + "definition", text(term.definition, term.definition_language or lang))
    if term.note:
        add(concept, SKOS + "note", text(term.note))
    if term.example:
        add(concept, SKOS + "example", text(term.example))
    for link in term.links:
        _addressed(add, concept, RDFS + "seeAlso", link.url, (link.title, term.language_of(link.title, "")), titles)
    for cited in term.sources:
        if cited.url:
            _addressed(add, concept, DCT + "source", cited.url, (cited.text, term.language_of(cited.text, "")), titles)
        else:
            add(concept, DCT + "source", text(cited.text, ""))
    for tag in term.tags:
        add(concept, DCT + "subject", text(tag))


def _addressed(add, concept, predicate: str, url: str, title: tuple[str, str], titles: dict) -> None:
    """A link or a source: its address, titled once in the file (`titles`, address → its title and the title's
    language); when another link or source has titled that address otherwise, a blank node of its own with the
    address as its rdf:value and its title."""
    import pyoxigraph as ox

    if titles.setdefault(url, title) == title:
        add(concept, predicate, ox.NamedNode(url))
        return
    node = ox.BlankNode()
    add(concept, predicate, node)
    add(node, RDF_VALUE, ox.NamedNode(url))
    add(node, DCT + "title", _literal(*title))
