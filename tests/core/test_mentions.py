"""MentionFinder: whole words, accents and case ignored, longest match wins, short keys exact."""

from bot.core.mentions import MentionFinder, first_sentence


def test_finds_names_aliases_and_english_in_order(shipped_glossary):
    finder = MentionFinder(shipped_glossary)
    text = (
        "Para el paralelismo de datos usamos HOROVOD con all-reduce; el parameter server quedó atrás. "
        "Vertex AI o Amazon SageMaker? Y tf.distribute."
    )
    assert [t.id for t in finder.find(text)] == [
        "paralelismo-de-datos",
        "horovod",
        "allreduce",
        "servidor-de-parametros",
        "vertex-ai",
        "sagemaker",
        "tensorflow-distribuido",
    ]


def test_longest_match_wins_and_whole_words_only(shipped_glossary):
    finder = MentionFinder(shipped_glossary)
    ids = [t.id for t in finder.find("aprendizaje automático distribuido y entrenamiento distribuido")]
    assert ids == ["aprendizaje-automatico-distribuido"]  # both phrases are this term; nothing shorter inside
    assert finder.find("horovodización, shardingish, kubeflowing") == []


def test_short_keys_must_be_written_exactly(shipped_glossary):
    finder = MentionFinder(shipped_glossary)
    assert finder.find("a ray of light; ps: nos vemos") == []
    assert [t.id for t in finder.find("Probamos Ray y un PS dedicado")] == ["ray", "servidor-de-parametros"]


def test_each_term_once_and_nothing_in_plain_text(shipped_glossary):
    finder = MentionFinder(shipped_glossary)
    assert [t.id for t in finder.find("Horovod, horovod, HOROVOD")] == ["horovod"]
    assert finder.find("Hoy comemos paella.") == []
    assert finder.find("") == []


def test_first_sentence():
    assert first_sentence("Uno. Dos.") == "Uno."
    assert first_sentence("Sin punto y seguido") == "Sin punto y seguido"
