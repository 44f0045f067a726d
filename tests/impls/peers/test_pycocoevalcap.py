"""The pycocoevalcap adapters (BLEU and ROUGE-L) against direct calls of
``pycocoevalcap.bleu`` and ``pycocoevalcap.rouge``.

Every expected value comes from calling the library itself, never from the
adapter's own output; the adapter must reproduce it exactly (the same floating
point computation, so ``==`` rather than a tolerance, except where the adapter
multiplies a 0-1 score by 100 or averages).
"""

from __future__ import annotations

import contextlib
import io

import pytest

from bleu_peer_data import CORPORA as BLEU_CORPORA
from bleu_peer_data import RAW
from metricdiff.impls import UnsupportedOption, get_adapter
from metricdiff.impls.text.tokenizers import get_tokenizer
from rouge_peer_data import CORPORA, segments

# ----------------------------------------------------------------- pycocoevalcap


@pytest.fixture
def coco():
    pytest.importorskip("pycocoevalcap")
    from pycocoevalcap.bleu import bleu, bleu_scorer

    return bleu, bleu_scorer


def coco_inputs(hyps, refs):
    return {i: list(seg) for i, seg in enumerate(refs)}, {i: [h] for i, h in enumerate(hyps)}


def quiet(function, *args, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()):
        return function(*args, **kwargs)


@pytest.mark.parametrize("corpus", sorted(BLEU_CORPORA))
@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_pycocoevalcap_matches_bleu_compute_score(coco, corpus, order):
    bleu, _ = coco
    hyps, refs = BLEU_CORPORA[corpus]
    adapter = get_adapter("pycocoevalcap")
    options = adapter.options("bleu", {"max_order": str(order)})
    scores, per_segment = quiet(bleu.Bleu(order).compute_score, *coco_inputs(hyps, refs))
    assert adapter.corpus_score("bleu", hyps, refs, options).score == 100 * scores[order - 1]
    sentences = adapter.sentence_scores("bleu", hyps, refs, options)
    assert [s.score for s in sentences] == [100 * s for s in per_segment[order - 1]]


@pytest.mark.parametrize("corpus", sorted(BLEU_CORPORA))
@pytest.mark.parametrize("ref_length", ["closest", "shortest", "average"])
def test_pycocoevalcap_ref_length_options(coco, corpus, ref_length):
    _, bleu_scorer = coco
    hyps, refs = BLEU_CORPORA[corpus]
    scorer = bleu_scorer.BleuScorer(n=4)
    for hyp, seg in zip(hyps, refs, strict=True):
        scorer += (hyp, seg)
    scores, _ = quiet(scorer.compute_score, option=ref_length)
    adapter = get_adapter("pycocoevalcap")
    result = adapter.corpus_score("bleu", hyps, refs,
                                  adapter.options("bleu", {"ref_length": ref_length}))
    assert result.score == 100 * scores[3]
    assert result.ref_len == scorer._reflen
    assert result.sys_len == scorer._testlen
    assert list(result.counts) == [sum(c["correct"][k] for c in scorer.ctest) for k in range(4)]
    assert list(result.totals) == [sum(c["guess"][k] for c in scorer.ctest) for k in range(4)]


def test_pycocoevalcap_default_profile(coco):
    bleu, _ = coco
    adapter = get_adapter("pycocoevalcap")
    declared = adapter.default_options("bleu")
    assert (declared.smoothing, declared.all_zero, declared.ref_length) == (
        "epsilon", "smooth", "closest",
    )
    for hyps, refs in BLEU_CORPORA.values():
        scores, _ = quiet(bleu.Bleu().compute_score, *coco_inputs(hyps, refs))
        assert adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu")).score == (
            100 * scores[3]
        )


def test_pycocoevalcap_no_match_is_tiny_not_zero(coco):
    bleu, _ = coco
    adapter = get_adapter("pycocoevalcap")
    scores, _ = quiet(bleu.Bleu(4).compute_score, {0: ["a b c"]}, {0: ["x y z"]})
    result = adapter.corpus_score("bleu", ["x y z"], [["a b c"]], adapter.options("bleu"))
    assert result.score == 100 * scores[3]
    assert 0 < result.score < 1e-6


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char"])
@pytest.mark.parametrize("lowercase", ["none", "unicode"])
def test_pycocoevalcap_pretokenized(coco, tokenize, lowercase):
    bleu, _ = coco
    tokenizer = get_tokenizer(tokenize)

    def text(segment: str) -> str:
        return " ".join(tokenizer(segment.lower() if lowercase == "unicode" else segment))

    hyps, refs = RAW
    adapter = get_adapter("pycocoevalcap")
    options = adapter.options("bleu", {"tokenize": tokenize, "lowercase": lowercase})
    scores, _ = quiet(
        bleu.Bleu(4).compute_score,
        *coco_inputs([text(h) for h in hyps], [[text(r) for r in seg] for seg in refs]),
    )
    assert adapter.corpus_score("bleu", hyps, refs, options).score == 100 * scores[3]


def test_pycocoevalcap_prints_nothing(coco, capsys):
    adapter = get_adapter("pycocoevalcap")
    hyps, refs = BLEU_CORPORA["multi_ref"]
    adapter.corpus_score("bleu", hyps, refs, adapter.options("bleu"))
    assert capsys.readouterr().out == ""


def test_pycocoevalcap_segment_without_reference(coco):
    bleu, _ = coco
    from metricdiff.errors import MissingReferenceError

    # The library itself asserts.
    with pytest.raises(AssertionError):
        quiet(bleu.Bleu(4).compute_score, {0: []}, {0: ["a b"]})
    adapter = get_adapter("pycocoevalcap")
    with pytest.raises(MissingReferenceError, match="segment 2 has none"):
        adapter.corpus_score("bleu", ["a", "a b"], [["a"], [None]], adapter.options("bleu"))
    with pytest.raises(MissingReferenceError):
        adapter.corpus_score(
            "bleu", ["a"], [[""]], adapter.options("bleu", {"empty_reference": "dropped"})
        )


def test_pycocoevalcap_cannot_count_beyond_4_grams(coco):
    # Why max_order > 4 is refused: the scorer cooks 4-grams whatever its n is.
    bleu, _ = coco
    with pytest.raises(IndexError):
        quiet(bleu.Bleu(5).compute_score, {0: ["a b c d e f"]}, {0: ["a b c d e f"]})
    with pytest.raises(UnsupportedOption, match="max_order"):
        get_adapter("pycocoevalcap").options("bleu", {"max_order": "5"})


@pytest.mark.parametrize(
    "overrides",
    [
        {"smoothing": "none"},
        {"smoothing": "exp"},
        {"smooth_value": "0.1"},
        {"weights": "0.1,0.2,0.3,0.4"},
        {"closest_tie": "first"},
        {"empty_order": "effective-order"},
        {"all_zero": "zero"},
        {"level": "sentence-mean"},
        {"max_order": "6"},
        {"empty_policy": "one"},
    ],
)
def test_pycocoevalcap_refuses(overrides):
    with pytest.raises(UnsupportedOption, match="pycocoevalcap cannot honour"):
        get_adapter("pycocoevalcap").options("bleu", overrides)


# --------------------------------------------------------------------------
# pycocoevalcap


@pytest.fixture(scope="module")
def coco_rouge():
    return pytest.importorskip("pycocoevalcap.rouge.rouge")


def one_line(text):
    """A caption has no sentences: the adapter joins a segment's lines with a space."""
    return " ".join(line for line in text.split("\n") if line)


def coco_segments(corpus):
    return [(one_line(hyp), [one_line(r) for r in seg]) for hyp, seg in segments(corpus)]


def coco_direct(module, corpus):
    pairs = coco_segments(corpus)
    gts = {i: seg for i, (_, seg) in enumerate(pairs)}
    res = {i: [hyp] for i, (hyp, _) in enumerate(pairs)}
    return module.Rouge().compute_score(gts, res)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_pycocoevalcap_matches_compute_score(coco_rouge, corpus):
    import numpy as np

    adapter = get_adapter("pycocoevalcap", "rouge-l")
    options = adapter.options("rouge-l")
    average, per_image = coco_direct(coco_rouge, CORPORA[corpus])
    got = adapter.sentence_scores("rouge-l", *CORPORA[corpus], options)
    assert [r.fmeasure for r in got] == [float(s) for s in per_image]
    result = adapter.corpus_score("rouge-l", *CORPORA[corpus], options)
    assert result.fmeasure == float(average)
    # R and P: the largest over the references, as calc_score takes them
    for (hyp, seg), pair in zip(coco_segments(CORPORA[corpus]), got, strict=True):
        tokens = hyp.split(" ")
        lcs = [coco_rouge.my_lcs(ref.split(" "), tokens) for ref in seg]
        assert pair.precision == max(m / len(tokens) for m in lcs)
        assert pair.recall == max(m / len(r.split(" ")) for m, r in zip(lcs, seg, strict=True))
        beta = 1.2
        if pair.precision and pair.recall:
            assert pair.fmeasure == pytest.approx(
                (1 + beta**2) * pair.precision * pair.recall / (pair.recall + beta**2
                                                                 * pair.precision), rel=1e-12)
    assert result.recall == float(np.mean([p.recall for p in got]))


def test_pycocoevalcap_splits_on_single_spaces(coco_rouge):
    adapter = get_adapter("pycocoevalcap", "rouge-l")
    options = adapter.options("rouge-l")
    # "" is one empty token: an empty pair scores 1; "a  b" has three tokens
    empty = adapter.corpus_score("rouge-l", [""], [[""]], options)
    assert empty.fmeasure == coco_rouge.Rouge().calc_score([""], [""]) == 1.0
    double = adapter.sentence_scores("rouge-l", ["a  b"], [["a b"]], options)[0]
    assert double.hyp_total == 3
    assert double.fmeasure == coco_rouge.Rouge().calc_score(["a  b"], ["a b"])
    # a line break is metricdiff's sentence marker: the lines are joined by a space
    lines = adapter.sentence_scores("rouge-l", ["a b\nc d"], [["a b c d"]], options)[0]
    assert (lines.fmeasure, lines.hyp_total) == (1.0, 4)


@pytest.mark.parametrize("overrides", [
    {"tokenize": "none"}, {"tokenize": "rouge-score"},
    {"tokenize": "13a", "lowercase": "unicode"},
])
def test_pycocoevalcap_rouge_pretokenized(coco_rouge, overrides):
    from metricdiff.impls.text.tokenizers import preprocess

    adapter = get_adapter("pycocoevalcap", "rouge-l")
    options = adapter.options("rouge-l", overrides)
    hyps, refs = CORPORA["punctuation"]

    def text(s):
        return " ".join(preprocess(s, options.tokenize, options.lowercase,
                                   options.lowercase_stage))

    scorer = coco_rouge.Rouge()
    expected = [scorer.calc_score([text(h)], [text(r) for r in seg])
                for h, seg in segments((hyps, refs))]
    got = adapter.sentence_scores("rouge-l", hyps, refs, options)
    assert [r.fmeasure for r in got] == expected


def test_pycocoevalcap_declared_profile(coco_rouge):
    declared = get_adapter("pycocoevalcap", "rouge-l").default_options("rouge-l")
    assert declared.f_measure == f"beta={coco_rouge.Rouge().beta:g}" == "beta=1.2"
    assert (declared.variant, declared.multi_ref, declared.tokenize, declared.report) == (
        "l", "max-p-max-r", "whitespace-strict", "f")
