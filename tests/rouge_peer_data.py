"""What the tests of the ROUGE peers share: small corpora and the assertions on
recall, precision and F."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from metricdiff.impls.segment_references import usable_rouge_references

Refs = list[list[str | None]]

#: Small corpora: (hypotheses, per-segment references).
CORPORA: dict[str, tuple[list[str], Refs]] = {
    "single": (["the cat sat on the mat"], [["the cat is on the mat"]]),
    "multi_sentence": (
        ["the cat sat on the mat.\nit was happy.\nthe end", "a quick brown fox.\njumps over"],
        [["the cat is on the mat.\nit is happy", "a cat sat.\non a mat it was"],
         ["the quick brown fox\njumps over the dog."]],
    ),
    "multi_ref": (
        ["the cat sat on the mat", "a quick brown fox jumps over the dog"],
        [["the cat is on the mat", "there is a cat on the mat", "cat mat"],
         ["the quick brown fox jumps over the lazy dog", "a fast brown fox leaps over a dog"]],
    ),
    "stemming": (
        ["the cats were running quickly towards the houses"],
        [["a cat runs quick toward its house", "cats ran to houses"]],
    ),
    "punctuation": (
        ["Hello, world! It's 3.5 km (roughly)... U.S.A.", "The Cat SAT on the mat; 1,000 times."],
        [["Hello world, it's 3.5 km roughly.", "Hi, world! It is 3.5 km."],
         ["The cat sat on the mat 1,000 times.", "the cat SAT on a mat; 1000 times"]],
    ),
    "non_ascii": (
        ["café naïve İstanbul 日本語の文 Kelvin", "ÉCOLE über straße"],
        [["cafe naive istanbul 日本語の文章", "café naïve"], ["école uber strasse"]],
    ),
    "repeats": (
        ["the the the cat cat", "a b a b a b"],
        [["the cat the", "the the the the"], ["a b a", "b a b a b a b"]],
    ),
    "missing_reference": (["a b c d", "a b"], [["a b c", None], [None]]),
}

#: Corpora with one reference per segment, for pltrdy's rouge.
SINGLE_REF = {
    name: corpus
    for name, corpus in CORPORA.items()
    if all(len(usable_rouge_references(seg)) == 1 for seg in corpus[1])
}


def segments(corpus: tuple[list[str], Refs]) -> list[tuple[str, list[str]]]:
    hyps, refs = corpus
    return [(hyp, usable_rouge_references(seg)) for hyp, seg in zip(hyps, refs, strict=True)]


def assert_rpf(result, recall, precision, fmeasure, exact=True):
    got = (result.recall, result.precision, result.fmeasure)
    expected = (float(recall), float(precision), float(fmeasure))
    if exact:
        assert got == expected
    else:
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)


def assert_rpf_signed(result, recall, precision, fmeasure):
    """``assert_rpf`` down to the sign of a zero (-0.0 == 0.0 in Python): for the
    adapters that score from their own pass over the library's steps."""
    assert_rpf(result, recall, precision, fmeasure)
    got = (result.recall, result.precision, result.fmeasure)
    assert repr(got) == repr((float(recall), float(precision), float(fmeasure)))


def assert_counts_consistent(result):
    """R and P are the counts' ratios (for the unweighted variants)."""
    if result.ref_total > 0:
        assert result.recall == pytest.approx(result.matches / result.ref_total, rel=1e-12)
    if result.hyp_total > 0:
        assert result.precision == pytest.approx(result.matches / result.hyp_total, rel=1e-12)


def assert_raises_like(error, adapter, metric, corpus, options):
    """The adapter lets the library's exception through, for either call."""
    with pytest.raises(type(error)):
        adapter.sentence_scores(metric, *corpus, options)
    with pytest.raises(type(error)):
        adapter.corpus_score(metric, *corpus, options)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def rs_key(metric: str) -> str:
    return {"rouge-l": "rougeL", "rouge-lsum": "rougeLsum"}.get(
        metric, "rouge" + metric.removeprefix("rouge-")
    )
