"""Questions in a member's own words ("¿cómo se llama lo de Uber para entrenar con MPI?"): terms ranked by
meaning, and an answer that is honest about its certainty (confident, unsure, nothing).

Two sides, fused: a lexical one (BM25 over name, English name, aliases, definition and related names; Spanish
stems, folded accents, Spanish and English stop words) and a dense one (the cosine between the question's
sentence embedding and each term's, computed outside the core and handed in as vectors). The thresholds are
tuned on the `tune` half of tests/questions/questions.yaml and reported on the other half (docs/questions.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import Stemmer

from bot.core.mentions import MentionFinder
from bot.core.model import Glossary, Term
from bot.core.normalize import normalize
from bot.core.search import Ambiguous, Found, LookupResult, Suggestion

MAX_QUESTION = 300  # characters of a question that are read
MAX_CANDIDATES = 3  # terms offered when unsure
_POOL = 12  # candidates each index hands to the fusion

# -- tuned on the `tune` half (python -m tests.questions.tune prints the search); the suite checks the figures --
DENSE_WEIGHT = 0.5  # share of the dense side in the fused score (the lexical side has the rest)
LEXICAL_HALF = 5.0  # BM25 score that counts as half the lexical evidence (it saturates: bm25 / (bm25 + this))
CONFIDENT_SCORE = 0.32  # fused score of the best term from which it may be said with confidence…
CONFIDENT_MARGIN = 0.08  # …when it is this far ahead of the second…
CONFIDENT_COVERAGE = 0.0  # …and the question's words (weighted by rarity) are this much found in it
UNSURE_SCORE = 0.22  # below this fused score nothing is offered: the question is a gap
NAMED_PENALTY = 0.75  # a term the question names, beside other words, is context rather than the answer
ABOUT_WORDS = 1  # at most this many other words beside a named term: the question is about that term…
# …unless one of them sets it against another ("la alternativa de Google a SageMaker", "besides Feast").
_CONTRAST = frozenset(
    normalize(
        "alternativa alternativas alternative parecido parecida similar equivalente equivalent vez instead besides "
        "ademas otra otro other reemplaza replace replaces no not pero but usa uses"
    ).split()
)

# BM25 (Robertson's defaults) with field weights: a word in a name counts three times one in the definition.
_K1, _B = 1.2, 0.75
_NAME_WEIGHT, _DEFINITION_WEIGHT, _RELATED_WEIGHT = 3.0, 1.0, 0.5

# Words that carry no meaning on their own, Spanish and English, and the words a question is wrapped in
# ("cómo se llama lo de…", "what's the thing"), written folded as `normalize` leaves them.
_STOP = """
a al algo algun alguna alguno algunos ante antes aqui asi aun bajo bien cada casi como con contra cual cuales
cuando de del desde donde dos el ella ellas ello ellos en entre era eran es esa esas ese eso esos esta estan
estas este esto estos fue fueron ha hace hacen hacer han hasta hay la las le les lo los mas me mi mis mismo muy
nada ni no nos nosotros o os otra otras otro otros para pero poco por porque puede pueden que quien se sea ser
si sin sobre solo son su sus tal tambien tan tanto te tiene tienen tipo todo todos tu tus un una uno unos y ya yo
oye bro pa pal q k xq porq d tb tmb osea verdad exactamente cosa coso cosas movida esa ese llama llaman llamo
dice dicen decir nombre sirve funciona uso usar usa usan quiero necesito recomiendan mejor algo hay alguien
about an and are as at be been by can could do does for from get has have how i if in into is it its just like
me my of on or so than that the their them then there these they this those to was we what whats when where
which who why will with would you your thing stuff called name named call
"""
STOP_WORDS = frozenset(normalize(_STOP).split())
_STEMMER = Stemmer.Stemmer("spanish")

# The field's everyday words in English, chat Spanish and synonyms, each with the words a definition says instead
# (a question's word is also looked up as these: "workers" finds "trabajadores"). General vocabulary of machine
# learning, not any term's answer: no name of a term is here. Two lists of the same kind: pairs "said:written",
# then, for the words the shipped definitions use, a line "written: what a member says instead" (English and
# Spanish synonyms), written from the definitions' own words.
_SYNONYMS = """
machine:automatico learning:aprendizaje deep:profundo train:entrenamiento training:entrenamiento trains:entrena
entrena:entrenamiento entrenar:entrenamiento model:modelo models:modelos data:datos dataset:conjunto
datasets:conjuntos worker:trabajador workers:trabajadores node:nodo nodes:nodos server:servidor
servers:servidores weights:parametros pesos:parametros weight:parametro gradient:gradientes gradients:gradientes
library:biblioteca lib:biblioteca libreria:biblioteca cloud:nube platform:plataforma managed:gestionado
open:abierto source:codigo tracking:seguimiento track:seguimiento trackear:seguimiento experiment:experimento
experiments:experimentos deploy:despliegue deployar:despliegue deployment:despliegue desplegar:despliegue
serving:servicio serve:servicio scale:escala scales:escalar scalable:escalable escalado:escalable
cluster:cluster clusters:clusteres partition:particionamiento partir:particionamiento dividir:particion
split:particion splitting:particionamiento shards:particion trozos:particion pedazos:particion cachitos:particion
horizontally:horizontal sync:sincronizar synchronous:sincronizada async:asincrona asynchronous:asincrona
copy:copia batch:lotes batches:lotes parallel:paralela paralelizar:paralelizacion repartir:distribuyen
distributed:distribuido collective:colectiva communication:comunicacion resources:recursos dynamic:dinamicamente
lifecycle:ciclo versioning:versionado stored:almacenados storage:almacenados efficient:eficiente
algorithm:algoritmo algorithms:algoritmos ordenadores:maquinas computadoras:maquinas computers:maquinas
machines:maquinas equipos:maquinas gpus:nodos gpu:nodo amazon:aws google:google pipelines:pipelines
containers:contenedorizada contenedores:contenedorizada orchestration:orquestacion orquestar:orquestacion
features:features variables:features caracteristicas:features columns:features
"""
_DEFINITION_WORDS = """
abierto: open
acceso: access acceder leer read reading lectura
actualizar: update updates actualizacion actualizaciones
adaptar: adapt adjust ajustar cambiar change
algoritmo: algorithm algorithms
almacenados: stored store almacenar guardar guardados guardadas save saved
arquitectura: architecture diseño design esquema
asincrona: asynchronous async asincrono asincronos
automatico: automatic automated automatica
aprendizaje: learning
calculo: computing computation compute computo computacion calcular
capa: layer
capacidad: ability capability
carga: load workload
centraliza: central centralizado centralizados centralized centralizar
ciclo: lifecycle cycle
clasicos: classic classical clasico tradicionales traditional
clusteres: cluster clusters cluster
codigo: code source
colectiva: collective
complejos: complex
comunicacion: communication communicate comunicarse comunican
conjuntos: datasets dataset
construida: built
contenerizada: containers container containerized contenedores contenedor docker
copia: copy copies replica replicas replicar clone
costos: cost costs coste costes
datos: data
dedicados: dedicated
desarrollado: developed made hecho creado created
despliegue: deploy deployment deploying deployar desplegar producción production serving
difusion: broadcast broadcasting
dinamicamente: dynamically dynamic dinamico caliente
distribuido: distributed distribuida distribuir distribute repartir
ejecucion: execution execute executing run running ejecutar correr
eficiente: efficient efficiently rapido fast
entorno: environment
entrenamiento: training train trains trained entrenar entrena
escala: scale scaling escalar escalado escalabilidad scales
estado: state
estrategia: strategy strategies
extension: extension extends extiende
flujos: workflows workflow flows
gestion: management manage managing gestionar administrar manejar
gestionado: managed gestionada administrado
gradientes: gradient gradients
herramientas: tools tool
implementaciones: implementations implementation
integra: integrates integrated integrates
lotes: batch batches minibatch minibatches lote
maquinas: machines machine computers computadoras ordenadores equipos hosts servers servidores
masivos: massive huge enormes gigantes grandes big
modelo: model
modelos: models
monitoreo: monitoring monitor monitorear monitorizar
multiples: multiple many several varios varias muchas muchos
nodos: nodes node gpus gpu workers
numero: number count cantidad cuantos cuantas
optimizacion: optimization optimize tuning
orquestacion: orchestration orchestrate orquestar
paralela: parallel paralelo paralelamente
paralelizacion: parallelization parallelize paralelizar parallelism
parametros: parameters weights pesos
particionamiento: partitioning partition partitions particionar partir dividir split splitting fragmentar
particionamiento: shards trozos pedazos fragmentos
plataforma: platform
primitivas: primitives
procesamiento: processing process procesar
profundo: deep
proyectos: projects project
recursos: resources
reduccion: reduce reduction reduces sumar suma sum sums
reducir: reduce reduces cut lower
reproducibilidad: reproducibility reproducible reproducir
seguimiento: tracking track tracks trackear registrar registro log logging apuntar
servicio: service serving servir
servidores: servers server
sincronizada: synchronized synchronous sincrono sincronizado sync
sincronizar: synchronize sync
tamaño: size sized
tiempo: time
trabajadores: workers worker
unificada: unified
versionado: versioning versions version versionar
vida: life
"""


def _synonyms() -> dict[str, tuple[str, ...]]:
    by_word: dict[str, tuple[str, ...]] = {}
    pairs = [pair.partition(":")[::2] for pair in _SYNONYMS.split()]
    for line in _DEFINITION_WORDS.strip().splitlines():
        written, _, said = line.partition(":")
        pairs += [(word, written) for word in said.split()]
    for said, written in pairs:
        for word in normalize(said).split():
            by_word[word] = tuple(dict.fromkeys((*by_word.get(word, ()), normalize(written))))
    return by_word


_SYNONYMS_BY_WORD = _synonyms()
_EN_STEMMER = Stemmer.Stemmer("english")
_ENGLISH = "~"  # marks an English stem, so that it never meets a Spanish one by chance


def words(text: str) -> list[str]:
    """The question's or the term's words that carry meaning, folded and stemmed (Spanish)."""
    return _STEMMER.stemWords([w for w in normalize(text).split() if w not in STOP_WORDS])


def english_words(text: str) -> list[str]:
    """The same words stemmed as English (marked apart): an English name or alias meets an English question."""
    return [_ENGLISH + w for w in _EN_STEMMER.stemWords([w for w in normalize(text).split() if w not in STOP_WORDS])]


def word_groups(text: str) -> tuple[tuple[str, ...], ...]:
    """The question's words that carry meaning, each stemmed (Spanish) with the stems of its synonyms and its
    English stem after it: a word counts once, through whichever of these a term has."""
    groups: dict[str, tuple[str, ...]] = {}
    for w in normalize(text).split():
        if w not in STOP_WORDS:
            stems = _STEMMER.stemWords([w, *_SYNONYMS_BY_WORD.get(w, ())])
            groups.setdefault(stems[0], (*dict.fromkeys(stems), _ENGLISH + _EN_STEMMER.stemWord(w)))
    return tuple(groups.values())


def embedding_text(term: Term, related: Sequence[str] = ()) -> str:
    """What is embedded for a term: its spellings, its definition and the names of its related terms (the
    cache key hashes exactly this)."""
    others = term.spellings()[1:]
    names = f"{term.term} ({', '.join(others)})" if others else term.term
    return f"{names}. {term.definition}" + (f" Relacionado: {', '.join(related)}" if related else "")


def related_names(term: Term, *glossaries: Glossary | None) -> list[str]:
    """The names of a term's related terms, looked up in each glossary in turn."""
    names = []
    for term_id in term.related:
        found = next((g.get(term_id) for g in glossaries if g is not None and g.get(term_id) is not None), None)
        if found is not None:
            names.append(found.term)
    return names


def text_key(text: str, model: str) -> str:
    """The cache key of one embedded text: a hash of the model's name and version and the text."""
    return hashlib.blake2b(f"{model}\0{text}".encode(), digest_size=16).hexdigest()


def reads_as_description(text: str) -> bool:
    """Whether a query reads as a description rather than a name: three words that carry meaning or more."""
    return len(words(text)) >= 3


class Verdict(StrEnum):
    CONFIDENT = "confident"  # one term, said as the closest term of the glossary
    UNSURE = "unsure"  # up to three terms to choose from
    NOTHING = "nothing"  # no term: the question is a gap


@dataclass(frozen=True, slots=True)
class Candidate:
    term: Term
    score: float  # fused, 0–1
    dense: float = 0.0  # cosine of the embeddings
    lexical: float = 0.0  # BM25, raw
    coverage: float = 0.0  # share of the question's words (by rarity) found in the term, 0–1


@dataclass(frozen=True, slots=True)
class Answer:
    verdict: Verdict
    candidates: tuple[Candidate, ...]  # best first, at most MAX_CANDIDATES (some even when the verdict is nothing)

    @property
    def term(self) -> Term | None:
        """The term said with confidence, if any."""
        return self.candidates[0].term if self.verdict is Verdict.CONFIDENT else None


NO_ANSWER = Answer(Verdict.NOTHING, ())


@dataclass(frozen=True, slots=True)
class Question:
    """A question read once, asked of several indexes (the published glossary, then a server's own terms)."""

    text: str
    words: tuple[str, ...]  # the stems of its words that carry meaning
    groups: tuple[tuple[str, ...], ...]  # each of those stems with its synonyms' stems after it
    vector: np.ndarray | None  # the question's embedding (unit length), None without the dense side


def read_question(text: str, vector: np.ndarray | None = None) -> Question:
    text = text[:MAX_QUESTION]
    groups = word_groups(text)
    return Question(text, tuple(g[0] for g in groups), groups, vector)


@dataclass(frozen=True, slots=True)
class _Evidence:
    term: Term
    dense: float
    lexical: float
    coverage: float
    named: bool


class QuestionIndex:
    """Built once per glossary (the published one, or a server's terms) from the terms and their embeddings,
    one row per term in glossary order. `context` resolves related ids that name terms of another glossary."""

    def __init__(self, glossary: Glossary, vectors: np.ndarray | None, context: Glossary | None = None) -> None:
        if vectors is not None and len(vectors) != len(glossary):
            raise ValueError(f"{len(vectors)} vectors for {len(glossary)} terms")
        self.glossary = glossary
        self._terms = list(glossary.terms)
        self._positions = {t.id: i for i, t in enumerate(self._terms)}
        self.vectors = None if vectors is None else np.ascontiguousarray(vectors, dtype=np.float32)
        self.mentions = MentionFinder(glossary)
        self._build_lexical(context)

    def _build_lexical(self, context: Glossary | None) -> None:
        docs: list[dict[str, float]] = []
        name_words: list[frozenset[str]] = []
        for term in self._terms:
            counts: dict[str, float] = {}
            names = words(" ".join(term.spellings()))
            english = english_words(" ".join(term.spellings()[1:]))
            related = [r.term for r in map(self._resolver(context), term.related) if r is not None]
            fields = ((names, _NAME_WEIGHT), (english, _NAME_WEIGHT), (words(term.definition), _DEFINITION_WEIGHT))
            for ws, weight in fields:
                for w in ws:
                    counts[w] = counts.get(w, 0.0) + weight
            for w in words(" ".join(related)):
                counts[w] = counts.get(w, 0.0) + _RELATED_WEIGHT
            docs.append(counts)
            name_words.append(frozenset(names))
        self._name_words = name_words
        n = max(1, len(docs))
        lengths = np.array([sum(d.values()) for d in docs] or [0.0], dtype=np.float64)
        average = float(lengths.mean()) or 1.0
        frequency: dict[str, int] = {}
        for doc in docs:
            for w in doc:
                frequency[w] = frequency.get(w, 0) + 1
        postings: dict[str, list[tuple[int, float]]] = {}
        for d_idx, doc in enumerate(docs):
            norm = _K1 * (1 - _B + _B * lengths[d_idx] / average)
            for w, tf in doc.items():
                postings.setdefault(w, []).append((d_idx, tf * (_K1 + 1) / (tf + norm)))
        self._idf = {w: float(np.log(1 + (n - f + 0.5) / (f + 0.5))) for w, f in frequency.items()}
        self._unknown_idf = float(np.log(1 + (n + 0.5) / 0.5))  # a word no term has: rarer than any
        self._postings = {
            w: (np.array([d for d, _ in p], dtype=np.int32), np.array([s for _, s in p], dtype=np.float32))
            for w, p in postings.items()
        }

    def _resolver(self, context: Glossary | None):
        def get(term_id: str) -> Term | None:
            return self.glossary.get(term_id) or (context.get(term_id) if context is not None else None)

        return get

    def __len__(self) -> int:
        return len(self._terms)

    def evidence(self, question: Question, named: set[str]) -> list[_Evidence]:
        """The few terms this index finds most likely, with what each side says of them."""
        n = len(self._terms)
        if not n:
            return []
        lexical = np.zeros(n, dtype=np.float32)
        for group in question.groups:  # each word counts once: through itself or its best synonym
            found = [(self._postings[w], self._idf[w]) for w in group if w in self._postings]
            if len(found) == 1:  # the usual case: add the postings, no array the size of the glossary
                (docs, scores), idf = found[0]
                lexical[docs] += idf * scores
            elif found:
                best = np.zeros(n, dtype=np.float32)
                for (docs, scores), idf in found:
                    np.maximum.at(best, docs, idf * scores)
                lexical += best
        dense = np.zeros(n, dtype=np.float32)
        if self.vectors is not None and question.vector is not None:
            dense = self.vectors @ question.vector.astype(np.float32, copy=False)
        rough = fused(dense, lexical)
        pool = min(_POOL, n)
        best = np.argpartition(-rough, pool - 1)[:pool] if n > pool else np.arange(n)
        weights = [(g, self._idf.get(g[0], self._unknown_idf)) for g in question.groups]
        total = sum(weight for _, weight in weights) or 1.0
        found = []
        for i in best.tolist():
            term = self._terms[i]
            covered = sum(weight for g, weight in weights if any(self._has(w, i) for w in g))
            found.append(_Evidence(term, float(dense[i]), float(lexical[i]), covered / total, term.id in named))
        return found

    def _has(self, word: str, d_idx: int) -> bool:
        found = self._postings.get(word)
        if found is None:
            return False
        docs = found[0]
        at = int(np.searchsorted(docs, d_idx))
        return at < len(docs) and int(docs[at]) == d_idx

    def named_in(self, question: Question) -> tuple[set[str], int]:
        """Ids of the terms the question names, and how many of its words are not part of those names."""
        named = self.mentions.find(question.text)
        if not named:
            return set(), len(question.words)
        inside = set().union(*(self._name_words[self._positions[t.id]] for t in named))
        return {t.id for t in named}, sum(1 for w in question.words if w not in inside)


def fused(dense, lexical):
    """The fused score (0–1) from the cosine and the raw BM25 score (numbers or arrays alike)."""
    return DENSE_WEIGHT * dense + (1 - DENSE_WEIGHT) * (lexical / (lexical + LEXICAL_HALF))


def ask(question: Question, indexes: list[QuestionIndex]) -> Answer:
    """Rank the terms of every index (the published glossary first: a term there wins over a server term of the
    same id) and decide how certain the best one is."""
    named: set[str] = set()
    other_words = len(question.words)
    for index in indexes:
        ids, rest = index.named_in(question)
        if ids:
            named |= ids
            other_words = min(other_words, rest)
    pooled: dict[str, _Evidence] = {}
    for index in indexes:
        for found in index.evidence(question, named):
            pooled.setdefault(found.term.id, found)
    if not pooled:
        return NO_ANSWER
    contrast = not _CONTRAST.isdisjoint(normalize(question.text).split())
    about_named = bool(named) and other_words <= ABOUT_WORDS and not contrast
    ranked = []
    for e in pooled.values():
        score = float(fused(max(e.dense, 0.0), e.lexical))
        if e.named:
            score = 1.0 if about_named else score * NAMED_PENALTY
        ranked.append(Candidate(e.term, round(float(score), 4), round(e.dense, 4), round(e.lexical, 4), e.coverage))
    ranked.sort(key=lambda c: (-c.score, c.term.id))
    return Answer(decide(ranked, about_named), tuple(ranked[:MAX_CANDIDATES]))


def decide(ranked: list[Candidate], about_named: bool = False) -> Verdict:
    """Confident, unsure or nothing, from the ranked candidates (best first)."""
    if not ranked:
        return Verdict.NOTHING
    best = ranked[0]
    if about_named:
        return Verdict.CONFIDENT
    margin = best.score - (ranked[1].score if len(ranked) > 1 else 0.0)
    if best.score >= CONFIDENT_SCORE and margin >= CONFIDENT_MARGIN and best.coverage >= CONFIDENT_COVERAGE:
        return Verdict.CONFIDENT
    return Verdict.UNSURE if best.score >= UNSURE_SCORE else Verdict.NOTHING


# -- beside the name matcher (/termino) ------------------------------------------------------------------------
NAME_CLOSE = 85.0  # a name suggestion this alike is a misspelling: the name path's answer is kept in full


def should_ask(result: LookupResult, query: str) -> bool:
    """Whether /termino should also run the question path: the name matched nothing with certainty and the text
    reads as a description (several words). A name that matches behaves exactly as before."""
    return not isinstance(result, Found) and reads_as_description(query)


def combine(result: LookupResult, answer: Answer) -> Answer:
    """One answer from the name matcher's result and the question path's, never worse for a misspelt name than
    the name matcher alone: its suggestions are all kept, first when one of them is close to the query."""
    if isinstance(result, Found):
        return Answer(Verdict.CONFIDENT, (Candidate(result.term, 1.0),))
    suggestions: tuple[Suggestion, ...] = result.candidates if isinstance(result, Ambiguous) else ()
    named = tuple(Candidate(s.term, round(s.score / 100, 4)) for s in suggestions)
    close = bool(suggestions) and suggestions[0].score >= NAME_CLOSE
    if answer.verdict is Verdict.CONFIDENT and (not close or answer.candidates[0].term.id == named[0].term.id):
        return answer
    if not named:
        return answer
    first, then = (named, answer.candidates) if close else (answer.candidates, named)
    merged: dict[str, Candidate] = {}
    for candidate in (*first, *then):
        merged.setdefault(candidate.term.id, candidate)
    return Answer(Verdict.UNSURE, tuple(merged.values())[: max(len(named), MAX_CANDIDATES)])
