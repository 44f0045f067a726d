"""The py-rouge adapter (Diego Antognini's ``py-rouge``, loaded from a folder of
its own) against direct calls of its ``Rouge.get_scores``.

Every expected value comes from calling the library itself, never from the
adapter's own output.  The tests skip when ``metricdiff install-peers`` has not
been run.
"""

from __future__ import annotations

import inspect

import pytest

from helpers import require_impl
from metricdiff.impls import get_adapter, isolated_peers
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import punkt_available
from rouge_peer_data import (
    CORPORA,
    assert_counts_consistent,
    assert_raises_like,
    assert_rpf_signed,
    segments,
)


@pytest.fixture(scope="module")
def pyrouge():
    require_impl("py-rouge", "rouge-1")
    return _isolated.load(isolated_peers()["py-rouge"])


def pyrouge_direct(peer, metric, options, hyps, refs, per_segment):
    """py-rouge called directly, the tokenize_text substitute applied when punkt
    is missing exactly as the adapter applies it (see impls/peers/py_rouge.py)."""
    from metricdiff.impls.peers.py_rouge import _tokenize_without_punkt

    rouge_class = peer.module.Rouge
    if not punkt_available():
        rouge_class.tokenize_text = staticmethod(_tokenize_without_punkt)
    unit, _, limit = options.truncate.partition(":")
    kwargs = dict(
        metrics=["rouge-n"] if options.variant == "n" else
        ["rouge-w" if options.variant == "w" else "rouge-l"],
        max_n=options.n if options.variant == "n" else None,
        limit_length=unit != "none", length_limit=int(limit) if limit else 665,
        length_limit_type="words" if unit == "words" else "bytes",  # line-chars: "bytes"
        apply_avg=options.multi_ref == "pooled", apply_best=options.multi_ref == "best-recall",
        stemming=options.stemmer != "none", alpha=float(options.f_measure.removeprefix("alpha=")),
        weight_factor=options.weight,
    )
    rouge = rouge_class(**kwargs)
    key = "rouge-l" if metric == "rouge-lsum" else metric
    if per_segment:
        return [rouge.get_scores([h], [r])[key] for h, r in zip(hyps, refs, strict=True)]
    return rouge.get_scores(hyps, refs)[key]


PY_ROUGE_METRICS = ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-lsum", "rouge-w"]


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("metric", PY_ROUGE_METRICS)
@pytest.mark.parametrize("overrides", [
    {}, {"stemmer": "none"}, {"multi_ref": "best-recall"},
    {"truncate": "none", "weight": "1.2", "f_measure": "alpha=0.3"},
    {"truncate": "words:4", "multi_ref": "best-recall", "weight": "1.2"},
    {"truncate": "line-chars:12"},
])
def test_py_rouge_matches_get_scores(pyrouge, corpus, metric, overrides):
    adapter = get_adapter("py-rouge", metric)
    options = adapter.options(metric, overrides)
    hyps = [hyp for hyp, _ in segments(CORPORA[corpus])]
    refs = [seg for _, seg in segments(CORPORA[corpus])]
    try:
        with _isolated.active(isolated_peers()["py-rouge"]) as peer:
            individual = pyrouge_direct(peer, metric, options, hyps, refs, per_segment=True)
            whole = pyrouge_direct(peer, metric, options, hyps, refs, per_segment=False)
    except Exception as error:  # the library fails on the input: so does the adapter
        assert_raises_like(error, adapter, metric, CORPORA[corpus], options)
        return
    got = adapter.sentence_scores(metric, *CORPORA[corpus], options)
    for result, score in zip(got, individual, strict=True):
        assert_rpf_signed(result, score["r"], score["p"], score["f"])
        if options.variant == "n" or (options.variant != "w" and options.weight == 1.0):
            assert_counts_consistent(result)
    assert_rpf_signed(adapter.corpus_score(metric, *CORPORA[corpus], options),
               whole["r"], whole["p"], whole["f"])


def test_py_rouge_quirks(pyrouge):
    adapter = get_adapter("py-rouge", "rouge-3")
    # ROUGE-N's n-gram total is len - (n - 1): a one-token reference counts -1,
    # and pooled over the references recall exceeds 1
    short = adapter.corpus_score("rouge-3", ["a b c d"], [["a b c d", "x"]],
                                 adapter.options("rouge-3"))
    assert (short.matches, short.ref_total, short.recall) == (2, 1, 2.0)
    # the Treebank tokenizer splits "gonna"
    one = get_adapter("py-rouge", "rouge-1")
    gonna = one.corpus_score("rouge-1", ["gonna go"], [["gonna go"]], one.options("rouge-1"))
    assert gonna.hyp_total == 3
    # weight_factor also bends ROUGE-L
    lcs = get_adapter("py-rouge", "rouge-l")
    plain = lcs.corpus_score("rouge-l", ["a b c d"], [["a c b d"]], lcs.options("rouge-l"))
    bent = lcs.corpus_score("rouge-l", ["a b c d"], [["a c b d"]],
                            lcs.options("rouge-l", {"weight": "1.2"}))
    assert plain.recall == 0.75 and bent.recall == pytest.approx(0.75 ** (1 / 1.2))
    # default truncation: 665 characters of the stripped text
    long = one.corpus_score("rouge-1", ["x " * 700], [["x"]], one.options("rouge-1"))
    assert long.hyp_total == 333


def test_py_rouge_tokenize_substitute_is_exact():
    nltk = pytest.importorskip("nltk")
    from metricdiff.impls.peers.py_rouge import _tokenize_without_punkt

    if not punkt_available():
        pytest.skip("NLTK's punkt model is not installed: nothing to compare with")
    for text in ["gonna go", "i m _cannot_ do 3 5 km", "", "a b c d e f", "the end"]:
        assert _tokenize_without_punkt(text) == nltk.word_tokenize(text)


def test_py_rouge_declared_profile(pyrouge):
    declared = get_adapter("py-rouge", "rouge-1").default_options("rouge-w")
    init = inspect.signature(pyrouge.module.Rouge.__init__).parameters
    limit = init["length_limit"].default
    # its 'bytes' are characters of the stripped lines (len(sentence)): line-chars
    assert init["length_limit_type"].default == "bytes"
    assert declared.truncate == f"line-chars:{limit}"
    assert init["limit_length"].default is True and declared.truncate_side == "both"
    assert init["apply_avg"].default is True and declared.multi_ref == "pooled"
    assert init["weight_factor"].default == declared.weight == 1.0
    assert f"alpha={init['alpha'].default:g}" == declared.f_measure
    assert init["stemming"].default is True and declared.stemmer != "none"
    assert pyrouge.version == "1.1"
