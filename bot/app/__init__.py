"""The application: the product's actions, with no Discord in them. The Discord layer, the command line and the
scheduler call the same actions; the actions call the core (pure) and the stores (bot.storage).

What every feature uses sits here, at the top:
    application.py   the composition root: builds every feature from the settings, starts and stops them
    catalog.py       the published glossary in service (read from files.py, swapped whole on reload)
    glossary.py      reloading it, and closing the gaps a new glossary answers
    limits.py        rate limits and budgets against floods; background.py, the helper that keeps background
                     tasks referenced; errors.py, what callers catch; health.py, the heartbeat;
                     spreadsheets.py, cells no spreadsheet runs as formulas; recent.py, what is kept in
                     memory for the most recently used keys only

One package per feature, each with its own reading order in its __init__:
    community/     a server's own terms and members' proposals
    lookup/        looking terms up, and what a lookup leaves behind (counts, gaps)
    questions/     questions in a member's own words (the model, its cache, the action)
    feedback/      👍/👎 and comments on a card
    review/        the gap's life: the moderators' list, statuses, exports
    daily/         the term of the day
    insights/      a server's statistics, the weekly digest and its chart
    privacy/       erasure on request
    interchange/   every format in and out (TBX, SKOS, CSV, JSON, the web page)

Top-level modules (but application.py) import no feature; features import the top and each other without a
cycle (tests/test_architecture.py holds both)."""
