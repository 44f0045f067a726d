"""The reference's scores of a large corpus under many profiles at once
(``metricdiff.comparison.scorer.ReferenceScorer``) where some profiles refuse
it: ``empty_policy=error`` meets a tokenizer that empties segments.

The corpus is built so that the count is known by hand: ``EMPTIED`` segments
are Cyrillic only, on both sides, which the rouge-score tokenizer (``[a-z0-9]``
runs after lowercasing, Lin's ROUGE-1.5.5 convention) empties entirely; every
other segment keeps ASCII words.  The scores are the reference's own, each
profile scored alone by ``corpus_score`` (the paper's functions, one profile
at a time), which is the oracle the shared pass must equal."""

from __future__ import annotations

import attrs
import pytest

from helpers import large_corpus
from metricdiff.comparison.scorer import ReferenceScorer, attribute_gap, points, prepare_gaps
from metricdiff.errors import EmptyInputError
from metricdiff.impls.reference.adapter import ReferenceRougeAdapter
from metricdiff.profiles import with_overrides
from metricdiff.profiles.metrics import paper_options

#: How many segments the rouge-score tokenizer empties (every 40th, by construction).
EMPTIED = 7


def _corpus() -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    made, references = large_corpus(ReferenceRougeAdapter.FAST_FROM + 24)
    hyps, refs = list(made), [list(seg) for seg in references]
    for k in range(EMPTIED):
        at = 40 * k + 3
        hyps[at], refs[at] = "Кошка сидит на коврике", ["Собака бежит по улице"]
    return tuple(hyps), tuple(tuple(seg) for seg in refs)


@pytest.mark.parametrize("metric", ["rouge-1", "rouge-l", "rouge-lsum"])
def test_profiles_that_refuse_the_corpus_say_how_many_segments_and_count_as_zero(metric):
    hyps, refs = _corpus()
    refusing = with_overrides(paper_options(metric), {"tokenize": "rouge-score",
                                                      "empty_policy": "error"})
    others = [with_overrides(refusing, {"lowercase": "unicode"}),
              with_overrides(refusing, {"corpus_average": "micro"}),
              with_overrides(refusing, {"empty_policy": "zero"})]
    adapter = ReferenceRougeAdapter()
    # the oracle: each profile alone; a refusing one raises, its twin scores the
    # emptied segments 0
    with pytest.raises(EmptyInputError):
        adapter.corpus_score(metric, hyps, refs, refusing)
    alone = {options: points(adapter.corpus_score(
        metric, hyps, refs, attrs.evolve(options, empty_policy="zero")), options)
        for options in [refusing, *others]}

    together = ReferenceScorer(metric, (hyps, refs))
    together.prepare([refusing, *others])
    assert {options: together.known[options] for options in alone} == alone
    assert together.refused == {options: EMPTIED for options in [refusing, *others]
                                if options.empty_policy == "error"}


def test_one_pass_refuses_with_the_count_and_scores_the_rest():
    hyps, refs = _corpus()
    refusing = with_overrides(paper_options("rouge-1"), {"tokenize": "rouge-score",
                                                         "empty_policy": "error"})
    taking = with_overrides(paper_options("rouge-1"), {"empty_policy": "error"})
    adapter = ReferenceRougeAdapter()
    refused, scored = adapter.corpus_scores("rouge-1", hyps, refs, [refusing, taking])
    assert isinstance(refused, EmptyInputError) and refused.segments == EMPTIED
    # the paper's own tokenizer keeps Cyrillic: no segment is empty, so it scores
    assert scored == adapter.corpus_score("rouge-1", hyps, refs, taking)


def test_the_gaps_of_one_corpus_share_one_pass_and_attribute_as_each_alone():
    # Oracle: each gap attributed on its own scorer (its own pass), as before
    # ``prepare_gaps``; together, the same Attribution (exact floats) and note,
    # and no profile left for ``attribute_gap`` to score afterwards.
    hyps, refs = _corpus()
    paper = paper_options("rouge-1")
    sides = [with_overrides(paper, {"tokenize": "rouge-score", "empty_policy": "error"}),
             with_overrides(paper, {"lowercase": "unicode", "corpus_average": "micro"}),
             with_overrides(paper, {"stemmer": "porter-nltk", "stopwords": "smart"})]
    alone = [attribute_gap(paper, side, ReferenceScorer("rouge-1", (hyps, refs)))
             for side in sides]
    shared = ReferenceScorer("rouge-1", (hyps, refs))
    prepare_gaps([(paper, side) for side in sides], shared)
    known = dict(shared.known)
    assert [attribute_gap(paper, side, shared) for side in sides] == alone
    assert shared.known == known  # every profile came from the one pass
