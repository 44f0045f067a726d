"""The explainer (``metricdiff.findings.explain``): which convention makes the reference
reproduce an implementation.

Each test starts from a profile that is wrong on known axes and asks the
explainer to find them.  Where the expectations come from:

* sacrebleu 2.6.0's ``BLEU()`` defaults are ``tokenize='13a'`` and
  ``smooth_method='exp'`` (``sacrebleu/metrics/bleu.py``: ``TOKENIZER_DEFAULT``
  and the constructor's signature); the scores are checked against a direct
  ``sacrebleu.corpus_bleu`` call.
* Which axes can or cannot reproduce a statistic is argued by hand next to each
  test (for instance: ``sys_len`` is the number of hypothesis tokens, so only the
  ``tokenize`` axis can change it).
* rouge-metric's ``rouge-l`` is summary-level, i.e. ROUGE-Lsum, on multi-line
  text (``tests/known_findings.py``, FIXTURE_FINDINGS, ``must_rl_ignores_sentences``).
"""

from __future__ import annotations

import pytest

from helpers import large_corpus
from metricdiff.findings.explain import (
    FIXED_AXES,
    Reproducer,
    candidate_values,
    explain,
    single_changes,
)
from metricdiff.impls import get_adapter
from metricdiff.impls.base import Tolerance
from metricdiff.profiles import AXES, BleuOptions, profile_of, with_overrides
from metricdiff.profiles.metrics import Options, paper_options
from metricdiff.statistics import BleuResult

CAT = (["the cat sat on the mat"], [["the cat is on the mat"]])


def sacrebleu_target(sample: tuple[list[str], list[list[str]]]) -> tuple[BleuOptions, BleuResult]:
    sacrebleu = pytest.importorskip("sacrebleu")
    adapter = get_adapter("sacrebleu", "bleu")
    declared = adapter.options("bleu", {})
    result = adapter.corpus_score("bleu", *sample, declared)
    # the adapter's score is sacrebleu's own (direct call of the peer library)
    hyps, refs = sample
    direct = sacrebleu.corpus_bleu(hyps, [list(stream) for stream in zip(*refs, strict=True)])
    assert result.score == pytest.approx(direct.score, abs=1e-9)
    return declared, result


def test_smoothing_none_is_explained_as_sacrebleus_exp() -> None:
    declared, target = sacrebleu_target(CAT)
    # sacrebleu: 37.99 (direct call); 4-grams: 0 of 3 match (by hand), so the
    # reference without smoothing scores 0 and exp gives p_4 = 1/(2*3).
    assert target.score == pytest.approx(37.99178428257963)
    assert target.counts == (5, 3, 1, 0)
    wrong = with_overrides(declared, {"smoothing": "none"})
    tolerance = get_adapter("sacrebleu").declared.tolerance
    explanation = explain("bleu", wrong, [CAT], [target], tolerance)
    # floor (0.1/3), add-k ((3+1)/(5+1) for bigrams already) come before exp in the
    # axis and do not reproduce; exp does.
    assert explanation.axis == "smoothing"
    assert explanation.values == ("none", "exp")
    assert explanation.explained
    assert explanation.options == declared
    # the first difference under the wrong profile: p_4 is 0 there, 100/6 in sacrebleu
    assert explanation.first_difference is not None
    assert explanation.first_difference.field == "precisions[3]"
    assert explanation.first_difference.a == pytest.approx(100 / 6)
    assert explanation.first_difference.b == 0.0


def test_tokenize_none_is_explained_as_13a() -> None:
    sample = (["Hello, world!"], [["Hello, world!"]])
    declared, target = sacrebleu_target(sample)
    # By hand: 13a splits the punctuation off ("Hello , world !", 4 tokens, all
    # matching: BLEU 100); none keeps "Hello," "world!" (2 tokens, no trigram).
    assert target.score == pytest.approx(100.0)
    assert (target.sys_len, target.counts) == (4, (4, 3, 2, 1))
    wrong = with_overrides(declared, {"tokenize": "none"})
    explanation = explain("bleu", wrong, [sample], [target], Tolerance())
    # sys_len (2 vs 4) is the hypothesis's token count: only tokenize changes it,
    # so no other single axis reproduces; 13a is the first tokenizer after none.
    assert explanation.first_difference is not None
    assert explanation.first_difference.field == "sys_len"
    assert (explanation.first_difference.a, explanation.first_difference.b) == (4.0, 2.0)
    assert explanation.axis == "tokenize"
    assert explanation.values == ("none", "13a")


def test_other_single_axes_do_not_reproduce_the_tokenization() -> None:
    # The hand argument of the previous test, checked: every single change that
    # is not on the tokenize axis leaves sys_len at 2.
    sample = (["Hello, world!"], [["Hello, world!"]])
    declared, target = sacrebleu_target(sample)
    wrong = with_overrides(declared, {"tokenize": "none"})
    reproducer = Reproducer("bleu", [sample], [target], Tolerance())
    for axis, value in single_changes(wrong):
        if axis == "tokenize":
            continue
        options = with_overrides(wrong, {axis: value})
        assert not reproducer.reproduces(options), (axis, value)


def test_two_axes_at_once() -> None:
    # "Hello, world!" against "Hello, world.": under 13a the 4-gram "Hello , world !"
    # misses, so sacrebleu's 59.46 (direct call) needs 13a AND exp smoothing:
    # p = 3/4, 2/3, 1/2, 1/(2*1) -> (1/8)^(1/4) = 0.5946 (by hand).
    sample = (["Hello, world!"], [["Hello, world."]])
    declared, target = sacrebleu_target(sample)
    assert target.score == pytest.approx(100 * (1 / 8) ** 0.25)
    wrong = with_overrides(declared, {"tokenize": "none", "smoothing": "none"})
    explanation = explain("bleu", wrong, [sample], [target], Tolerance())
    assert explanation.axis == "tokenize,smoothing"
    assert explanation.values == ("none,none", "13a,exp")
    assert explanation.options == declared


def test_one_change_at_most_leaves_a_two_axis_difference_unexplained() -> None:
    # The sample of test_two_axes_at_once needs both axes (argued there by hand):
    # with one change at most (``most=1``) no candidate reproduces it.
    sample = (["Hello, world!"], [["Hello, world."]])
    declared, target = sacrebleu_target(sample)
    wrong = with_overrides(declared, {"tokenize": "none", "smoothing": "none"})
    explanation = explain("bleu", wrong, [sample], [target], Tolerance(), most=1)
    assert explanation.axis == "unexplained"
    one_off = with_overrides(declared, {"smoothing": "none"})  # one change away
    explanation = explain("bleu", one_off, [sample], [target], Tolerance(), most=1)
    assert (explanation.axis, explanation.values) == ("smoothing", ("none", "exp"))


def test_the_declared_profile_that_reproduces_needs_no_explanation() -> None:
    declared, target = sacrebleu_target(CAT)
    explanation = explain("bleu", declared, [CAT], [target], Tolerance())
    assert explanation.axis == ""
    assert explanation.first_difference is None
    assert explanation.options == declared


def test_a_restricted_search_does_not_look_elsewhere() -> None:
    # The agreement explainer passes only the axes on which two profiles part.
    declared, target = sacrebleu_target(CAT)
    wrong = with_overrides(declared, {"smoothing": "none"})
    explanation = explain("bleu", wrong, [CAT], [target], Tolerance(),
                          changes=[("lowercase", "unicode"), ("tokenize", "intl")])
    assert explanation.axis == "unexplained"
    explanation = explain("bleu", wrong, [CAT], [target], Tolerance(),
                          changes=[("lowercase", "unicode"), ("smoothing", "exp")])
    assert (explanation.axis, explanation.values) == ("smoothing", ("none", "exp"))


def test_an_impossible_result_is_unexplained() -> None:
    # 7 clipped unigram matches for a 6-token hypothesis: a clipped match count
    # never exceeds the hypothesis's own n-gram count (= sys_len for unigrams, under
    # any tokenizer), and counts are taken before smoothing, so no configuration
    # reproduces it.  The reference's unigram matches are 5 (by hand: the x2, cat,
    # on, mat), so the first difference is counts[0]: 7 vs 5.
    impossible = BleuResult(0.0, (0.0,) * 4, 1.0, 6, 6.0, (7, 3, 1, 0), (6, 5, 4, 3))
    explanation = explain("bleu", BleuOptions(), [CAT], [impossible], Tolerance())
    assert explanation.axis == "unexplained"
    assert not explanation.explained
    assert explanation.options is None
    assert explanation.values == ("", "")
    assert explanation.first_difference is not None
    assert explanation.first_difference.field == "counts[0]"
    assert (explanation.first_difference.a, explanation.first_difference.b) == (7.0, 5.0)


def test_rouge_metric_py_rouge_l_is_summary_level() -> None:
    pytest.importorskip("rouge_metric")
    adapter = get_adapter("rouge-metric-py", "rouge-l")
    declared = adapter.options("rouge-l", {})
    sample = (["c d a b"], [["a b\nc d"]])
    target = adapter.corpus_score("rouge-l", *sample, declared)
    # By hand: summary-level union LCS: "a b" finds a b, "c d" finds c d in the
    # hypothesis: 4 of 4 -> R = P = F = 1; sentence-level LCS of "a b c d" and
    # "c d a b" is 2 -> 0.5.
    assert (target.recall, target.precision, target.fmeasure) == (1.0, 1.0, 1.0)
    explanation = explain("rouge-l", declared, [sample], [target], adapter.declared.tolerance)
    assert explanation.axis == "variant"
    assert explanation.values == ("l", "lsum")
    assert explanation.first_difference is not None
    assert explanation.first_difference.field == "matches"
    assert (explanation.first_difference.a, explanation.first_difference.b) == (4.0, 2.0)


# -------------------------------------------------------------- candidate values


@pytest.mark.parametrize("metric", ["bleu", "rouge-1", "rouge-l", "rouge-su"])
def test_candidates_never_include_the_current_value(metric: str) -> None:
    options = paper_options(metric)
    current = profile_of(options)
    for axis in current:
        values = candidate_values(axis, options)
        assert current[axis] not in values, axis
        assert len(values) == len(set(values)), axis
    for axis, value in single_changes(options):
        assert axis not in FIXED_AXES
        assert value != current[axis]


def test_candidates_after_a_change_exclude_the_new_current_value() -> None:
    options = with_overrides(BleuOptions(), {"tokenize": "13a", "max_order": "2"})
    tokenizers = candidate_values("tokenize", options)
    assert "13a" not in tokenizers and "none" in tokenizers
    assert candidate_values("max_order", options) == ["1", "3", "4", "5"]


def test_variant_candidates_only_swap_l_and_lsum() -> None:
    assert candidate_values("variant", paper_options("rouge-l")) == ["lsum"]
    assert candidate_values("variant", paper_options("rouge-lsum")) == ["l"]
    assert candidate_values("variant", paper_options("rouge-2")) == []
    assert candidate_values("variant", paper_options("rouge-w")) == []


def test_mecab_tokenizers_are_proposed_only_when_they_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import metricdiff.impls.text.tokenizers as tokenizers

    real = tokenizers.get_tokenizer

    def without_mecab(name: str):  # type: ignore[no-untyped-def]
        if name in ("ja-mecab", "ko-mecab"):
            raise ModuleNotFoundError("No module named 'MeCab'")
        return real(name)

    monkeypatch.setattr(tokenizers, "get_tokenizer", without_mecab)
    values = candidate_values("tokenize", BleuOptions())
    assert "ja-mecab" not in values and "ko-mecab" not in values
    # every other tokenizer of the axis is still proposed
    assert values == [v for v in AXES["tokenize"].values if v not in ("none", "ja-mecab",
                                                                       "ko-mecab")]
    assert ("tokenize", "ja-mecab") not in single_changes(BleuOptions())

    monkeypatch.setattr(tokenizers, "get_tokenizer", lambda name: object())
    values = candidate_values("tokenize", BleuOptions())
    assert "ja-mecab" in values and "ko-mecab" in values


@pytest.mark.parametrize("changes", [{"lowercase": "unicode"},
                                     {"lowercase": "unicode", "counts": "set"},
                                     {"f_measure": "beta=1.2"}])
def test_a_large_corpus_is_explained_as_profile_by_profile(
    changes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A user's corpus is one case of hundreds of segments: its candidates are
    # scored together.  The oracle: the same search, one candidate at a time.
    from metricdiff.impls.reference.adapter import ReferenceRougeAdapter

    declared = paper_options("rouge-2")
    sample = large_corpus(ReferenceRougeAdapter.FAST_FROM + 10)
    reference = get_adapter("reference", "rouge-2")
    target = reference.corpus_score("rouge-2", *sample, with_overrides(declared, changes))
    tolerance = Tolerance(0.0, 1e-12)
    assert Reproducer("rouge-2", [sample], [target], tolerance).together
    together = explain("rouge-2", declared, [sample], [target], tolerance)
    monkeypatch.setattr(ReferenceRougeAdapter, "scores_together", lambda *_: False)
    assert not Reproducer("rouge-2", [sample], [target], tolerance).together
    assert together == explain("rouge-2", declared, [sample], [target], tolerance)
    assert together.explained


ONE_REFERENCE = (["The cat sat on the mat .", "a Dog ran"], [["the cat is on the mat"],
                                                            ["A dog ran away"]])
TWO_REFERENCES = (["The cat sat on the mat ."], [["the cat is on the mat", "A cat sat"]])


@pytest.mark.parametrize("sample", [ONE_REFERENCE, TWO_REFERENCES])
@pytest.mark.parametrize(("metric", "changes"), [
    ("rouge-1", {"lowercase": "unicode"}),
    ("rouge-1", {"lowercase": "unicode", "counts": "set"}),
    ("rouge-l", {"multi_ref": "mean", "f_measure": "beta=1.2"}),
    ("bleu", {"ref_length": "shortest", "tokenize": "13a"}),
    ("bleu", {"lowercase": "unicode", "smoothing": "floor"}),
])
def test_candidates_with_an_inert_change_are_not_scored_and_change_nothing(
    sample: tuple[list[str], list[list[str]]], metric: str, changes: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A change that cannot matter on the sample (multi_ref with one reference
    # each, lowercase_stage where nothing folds case, ...) leaves a candidate
    # scoring as one with fewer changes, tried before.  The oracle: the same
    # search scoring every candidate.
    from metricdiff.findings import explain as explaining

    declared = paper_options(metric)
    target = get_adapter("reference", metric).corpus_score(
        metric, *sample, with_overrides(declared, changes))
    tolerance = Tolerance(0.0, 1e-12)
    scored: list[Options] = []
    reproduces = explaining.Reproducer.reproduces
    monkeypatch.setattr(explaining.Reproducer, "reproduces",
                        lambda self, options: scored.append(options) or reproduces(self, options))
    skipping = explain(metric, declared, [sample], [target], tolerance)
    fewer = len(scored)
    monkeypatch.setattr(explaining, "_as_fewer", lambda *_: False)
    scored.clear()
    assert skipping == explain(metric, declared, [sample], [target], tolerance)
    assert fewer <= len(scored)
    if "," in skipping.axis:  # every single change was tried: lowercase_stage's was not scored
        assert fewer < len(scored)
