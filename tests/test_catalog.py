"""The glossary cache for large glossaries: written once, reused while the files are unchanged, invalidated by edits."""

import logging

from bot.app.catalog import load_catalog
from bot.core.search import Found
from tests.synthetic import generate


def test_cache_is_reused_until_a_file_changes(tmp_path, caplog):
    data, cache = tmp_path / "g", tmp_path / "cache"
    names = generate(data, 1500)  # big enough (> 256 KB) to be cached
    first = load_catalog(data, cache)
    (cached,) = cache.glob("glossary-*.json")
    with caplog.at_level(logging.INFO, logger="bot.app.catalog"):
        again = load_catalog(data, cache)
        assert "loaded from cache" in caplog.text
    assert again.fingerprint == first.fingerprint and again.glossary == first.glossary
    assert isinstance(again.index.lookup(names[7]), Found)  # the index read back answers
    edited = data / "cat_000.yaml"
    edited.write_text(edited.read_text(encoding="utf-8").replace("definition: ", "definition: Nueva. ", 1))
    changed = load_catalog(data, cache)
    assert changed.fingerprint != first.fingerprint
    assert changed.glossary.get(first.glossary.terms[0].id).definition.startswith("Nueva. ")
    assert not cached.exists() and len(list(cache.glob("glossary-*.json"))) == 1


def test_small_glossaries_are_not_cached(tmp_path):
    from tests.conftest import SHIPPED

    load_catalog(SHIPPED, tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def test_a_planted_cache_file_runs_nothing_and_is_rebuilt(tmp_path, caplog):
    import pickle

    data, cache = tmp_path / "g", tmp_path / "cache"
    names = generate(data, 1500)
    load_catalog(data, cache)
    (cached,) = cache.glob("glossary-*.json")
    marker = tmp_path / "pwned"

    class Payload:  # what a pickle cache would have run at the next start
        def __reduce__(self):
            return (marker.write_text, ("ran",))

    cached.write_bytes(pickle.dumps(Payload()))
    again = load_catalog(data, cache)
    assert not marker.exists()
    assert "ignoring unreadable glossary cache" in caplog.text
    assert isinstance(again.index.lookup(names[3]), Found)
    cached.write_text('{"glossary": {"title": 1, "terms": [[1]]}, "index": {}}')  # JSON, but not ours
    assert isinstance(load_catalog(data, cache).index.lookup(names[3]), Found)


def test_the_index_read_from_the_cache_is_the_one_that_was_built(tmp_path):
    data, cache = tmp_path / "g", tmp_path / "cache"
    generate(data, 12_000)  # more than one chunk of 10,000 in the file
    built = load_catalog(data, cache)
    loaded = load_catalog(data, cache)
    skip = {"_lookup_cached", "_similar_words", "glossary", "_terms"}
    assert {k: v for k, v in vars(loaded.index).items() if k not in skip} == {
        k: v for k, v in vars(built.index).items() if k not in skip
    }
    assert loaded.glossary == built.glossary
