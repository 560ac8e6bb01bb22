"""Which texts may be questions of this glossary at all: decided before the sentence encoder runs, so that a text
that cannot be one costs no encoding (issue 34).

A text reaches the encoder only when
  1. one of its words is *known*: the glossary's lexical vocabulary has it (its stem, a synonym's stem or its
     English stem, as BM25 reads it: `glossary_knows`), or the model's own vocabulary has it as a whole word (a
     piece of its SentencePiece vocabulary that is a word of two letters or more: `model_knows`); and,
  2. where a description has to be told from a name (/termino, `description=True`), three of its words or more
     *carry meaning*: a word that is not a stop word, not a number, and not a code (letters and digits mixed)
     unless the glossary knows it ("k8s", "a100").
"zq4471", "12 34", "xkqzt wrtpl" and, for /termino, "consulta inexistente 12 zq4471" (two words that carry meaning)
never reach it. A question with no known word would get no confident answer anyway: the coverage of its words in any
term (bot/core/questions.py, `decide`) would be nil.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from bot.core.normalize import normalize
from bot.core.question_words import STOP_WORDS, word_groups

DESCRIPTION_WORDS = 3  # words that carry meaning for a text to read as a description (bot/core/questions.py)
MODEL_WORD_LETTERS = 2  # a whole-word piece shorter than this ("a", "x") says nothing of what is asked

# Whether the glossary's lexical vocabulary has any of these stems (a word's group: `word_groups`).
GlossaryKnows = Callable[[Sequence[str]], bool]
# Which of these words (folded, letters only) the model has as whole words.
ModelKnows = Callable[[Sequence[str]], Sequence[bool]]


def content_words(text: str) -> list[str]:
    """The text's words, folded as the question path reads them, without its stop words."""
    return [w for w in normalize(text).split() if w not in STOP_WORDS]


def has_digit(word: str) -> bool:
    """A number ("12") or a code ("zq4471", "k8s"): a word that is not letters only (`normalize` leaves nothing but
    letters and digits in a word)."""
    return not word.isalpha()


def stems(word: str) -> tuple[str, ...]:
    """What BM25 would look up for this word (its stem, its synonyms' stems, its English stem)."""
    groups = word_groups(word)
    return groups[0] if groups else ()


class Gate(StrEnum):
    """What the gate says of a text."""

    ASK = "ask"  # it may be a question: the encoder reads it
    UNKNOWN = "unknown"  # no word of it is known (rule 1): the answer is nothing, without the encoder
    NOT_A_DESCRIPTION = "not_a_description"  # /termino only (rule 2): the name matcher's answer stands alone


def gate(
    text: str, glossary_knows: GlossaryKnows, model_knows: ModelKnows | None = None, *, description: bool = False
) -> Gate:
    """Rules 1 and 2 above, for `text` (`description`: /termino's rule 2 applies)."""
    words = content_words(text)
    lettered = [w for w in words if w.isalpha()]
    codes = [w for w in words if not w.isalpha() and not w.isnumeric()]
    if description and len(lettered) + len(codes) < DESCRIPTION_WORDS:
        return Gate.NOT_A_DESCRIPTION  # (even if the glossary knew every code)
    known_codes = [w for w in codes if glossary_knows(stems(w))]
    if description and len(lettered) + len(known_codes) < DESCRIPTION_WORDS:
        return Gate.NOT_A_DESCRIPTION
    if known_codes:
        return Gate.ASK
    model_words = [w for w in lettered if len(w) >= MODEL_WORD_LETTERS]
    if model_knows is not None and model_words and any(model_knows(model_words)):
        return Gate.ASK
    return Gate.ASK if any(glossary_knows(stems(w)) for w in lettered) else Gate.UNKNOWN


def may_be_a_question(
    text: str, glossary_knows: GlossaryKnows, model_knows: ModelKnows | None = None, *, description: bool = False
) -> bool:
    """Whether `text` may be a question of this glossary: False means that the encoder is not to be called."""
    return gate(text, glossary_knows, model_knows, description=description) is Gate.ASK
