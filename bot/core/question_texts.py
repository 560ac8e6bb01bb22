"""What a question index reads of each term (bot/core/questions.py): the text embedded for it and the fields BM25
reads, related ids resolved to names; and one hash of all of it, so that an index built for one glossary can be
known to answer alike for another with the same terms (a server's terms read again, unchanged). No numpy here:
a server's terms are hashed when they are read, whether or not the question path is on."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from bot.core.model import Glossary, Term


def embedding_text(term: Term, related: Sequence[str] = ()) -> str:
    """What is embedded for a term: its spellings, its definitions (every sense's) and the names of its related
    terms (the cache key hashes exactly this)."""
    others = term.spellings()[1:]
    names = f"{term.term} ({', '.join(others)})" if others else term.term
    return f"{names}. {term.definitions()}" + (f" Relacionado: {', '.join(related)}" if related else "")


def related_names(term: Term, *glossaries: Glossary | None) -> list[str]:
    """The names of a term's related terms, looked up in each glossary in turn."""
    names = []
    for term_id in term.all_related():  # every sense's
        found = next((g.get(term_id) for g in glossaries if g is not None and g.get(term_id) is not None), None)
        if found is not None:
            names.append(found.term)
    return names


def lexical_fields(term: Term, related: Sequence[str] = ()) -> tuple[str, str, str, str]:
    """What BM25 reads of a term: its spellings, its other spellings (also read as English), its definitions and
    the names of its related terms."""
    spellings = term.spellings()
    return " ".join(spellings), " ".join(spellings[1:]), term.definitions(), " ".join(related)


def index_texts(glossary: Glossary, context: Glossary | None = None) -> tuple[list[str], list[tuple[str, ...]]]:
    """Per term of `glossary`, its `embedding_text` and its `lexical_fields`, related ids resolved in `glossary`,
    then in `context` (the published glossary, for a server's terms)."""
    texts, fields = [], []
    for term in glossary:
        related = related_names(term, glossary, context)
        texts.append(embedding_text(term, related))
        fields.append(lexical_fields(term, related))
    return texts, fields


def index_key(glossary: Glossary, texts: Sequence[str], fields: Sequence[Sequence[str]]) -> str:
    """One hash of everything a question index of `glossary` reads of it: each term's id and spellings, and its
    `texts` and `fields` (from `index_texts`), in order. Two glossaries with the same key are answered alike by
    one index (the terms it hands back aside)."""
    digest = hashlib.blake2b(digest_size=16)
    for term, text, parts in zip(glossary, texts, fields, strict=True):
        for part in (term.id, *term.spellings(), text, *parts):
            digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
        digest.update(b"\1")
    return digest.hexdigest()


def question_key(glossary: Glossary, context: Glossary | None = None) -> str:
    """`index_key` of `glossary`, its related ids resolved in it, then in `context`."""
    return index_key(glossary, *index_texts(glossary, context))
