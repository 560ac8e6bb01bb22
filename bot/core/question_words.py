"""The words of the question path: which carry meaning (Spanish and English stop words and the words a question
is wrapped in), their stems (Spanish Snowball; English for English names), and the field's bilingual vocabulary
(what a member says, and the words the definitions use instead). Read by bot/core/questions.py."""

from __future__ import annotations

import Stemmer

from bot.core.normalize import normalize

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
features:features variables:features caracteristicas:features columns:features columnas:features
k8s:kubernetes kube:kubernetes
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


def _synonyms_by_stem() -> dict[str, tuple[str, ...]]:
    by_stem: dict[str, tuple[str, ...]] = {}
    for said, written in _SYNONYMS_BY_WORD.items():
        stem = _STEMMER.stemWord(said)
        by_stem[stem] = tuple(dict.fromkeys((*by_stem.get(stem, ()), *written)))
    return by_stem


_SYNONYMS_BY_STEM = _synonyms_by_stem()
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
            said = _SYNONYMS_BY_WORD.get(w)
            if said is None:  # another form of a listed word ("apunto" for "apuntar")
                said = _SYNONYMS_BY_STEM.get(_STEMMER.stemWord(w))
            stems = _STEMMER.stemWords([w, *(said or ())])
            groups.setdefault(stems[0], (*dict.fromkeys(stems), _ENGLISH + _EN_STEMMER.stemWord(w)))
    return tuple(groups.values())
