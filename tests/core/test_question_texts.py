"""What a question index reads of a server's terms, hashed (`question_key`): it stays when only what the index never
reads changes (who added a term, its category, links, note), and changes with anything it reads; an index taken
over by another glossary of the same terms hands back that glossary's terms."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bot.core.model import Glossary, Link, Term
from bot.core.question_texts import question_key
from bot.core.questions import QuestionIndex

PUBLISHED = Glossary("G", "S", "es", (Term("horovod", "Horovod", "Entrenamiento distribuido de Uber.", "Marcos"),))
NEBULA = Term("nebula", "Clúster Nebula", "El clúster de GPUs.", "Infra", aliases=("nebula",), related=("horovod",))


def of(*terms: Term) -> Glossary:
    return Glossary("G", "S", "es", terms)


def test_the_key_stays_for_what_the_index_never_reads_and_changes_with_what_it_reads():
    key = question_key(of(NEBULA), PUBLISHED)
    unread = replace(NEBULA, category="Otra", links=(Link("web", "https://example.org"),), note="n", source="s:1")
    assert question_key(of(unread), PUBLISHED) == key
    for changed in (
        replace(NEBULA, definition="Otra definición."),
        replace(NEBULA, aliases=("nebula", "la granja")),
        replace(NEBULA, en="Nebula cluster"),
        replace(NEBULA, id="nebula-2"),
        replace(NEBULA, related=()),
    ):
        assert question_key(of(changed), PUBLISHED) != key, changed
    renamed = of(replace(PUBLISHED.terms[0], term="Horovod de Uber"))  # a related published name, as shown
    assert question_key(of(NEBULA), renamed) != key
    assert question_key(of(NEBULA, NEBULA), PUBLISHED) != key


def test_an_index_taken_over_hands_back_the_new_glossarys_terms_and_shares_its_arrays():
    glossary = of(NEBULA)
    index = QuestionIndex(glossary, np.ones((1, 4), dtype=np.float32), PUBLISHED, key=question_key(glossary, PUBLISHED))
    again = of(replace(NEBULA, category="Otra"))
    taken = index.rebound(again)
    assert taken.glossary is again and taken.key == index.key
    assert taken.vectors is index.vectors and taken.lexical is index.lexical
    assert index.glossary is glossary  # (the first one as it was)
