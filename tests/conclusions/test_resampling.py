"""The resampling schemes against the packages that define them: rouge-score's
``BootstrapAggregator`` (low/mid/high, its own numbers with the same seed) and
ROUGE-1.5.5.pl's interval rule (hand-computed on a small list); and the
scheme's value checks."""

from __future__ import annotations

import numpy
import pytest

from helpers import require_impl, system_variants
from metricdiff.conclusions.rank import rank_corpus
from metricdiff.conclusions.resampling import Resampling, interval
from metricdiff.errors import ConventionError


@pytest.mark.parametrize("seed", [0, 7])
def test_bootstrap_median_is_rouge_scores_aggregator(seed):
    require_impl("rouge-score", "rouge-l")
    from rouge_score import rouge_scorer, scoring

    systems, refs = system_variants(120)
    scheme = Resampling("bootstrap-median", seed, 1000)
    ranked = rank_corpus({"rouge-l": {name: (tuple(hyps), tuple((r,) for r in refs))
                                      for name, hyps in systems.items()}},
                         ["rouge-score"], resampling={"rouge": scheme}, test="bootstrap")
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for name, hyps in systems.items():
        aggregator = scoring.BootstrapAggregator(n_samples=1000)
        for hyp, ref in zip(hyps, refs, strict=True):
            aggregator.add_scores(scorer.score(ref, hyp))
        numpy.random.seed(seed)
        expected = aggregator.aggregate()["rougeL"]
        found = ranked["rouge-l"]["rouge-score"].score(name).interval
        assert found.low == pytest.approx(100 * expected.low.fmeasure, rel=1e-12)
        assert found.center == pytest.approx(100 * expected.mid.fmeasure, rel=1e-12)
        assert found.high == pytest.approx(100 * expected.high.fmeasure, rel=1e-12)


def test_the_perl_scripts_interval_reads_the_sorted_resamples():
    # ROUGE-1.5.5.pl l. 929-935 with n = 40 resamples: delta = 40 x 2.5% = 1,
    # lower index int(1) = 1, upper index int(40 - 1 - 1) = 38, ratio 0: the 2nd
    # and the 39th of the sorted values; the average is their plain mean.
    values = list(range(40, 0, -1))
    found = interval(values, "bootstrap-rouge155")
    assert (found.low, found.high) == (2, 39)
    assert found.center == pytest.approx(20.5)


def test_sacrebleus_interval_is_half_the_spread_at_n_over_40():
    # significance.estimate_ci: 1000 sorted scores 0..999: lower index 25, upper
    # 974, half-width (974 - 25) / 2 = 474.5 around the mean 499.5.
    found = interval(numpy.arange(1000.0)[::-1], "bootstrap-sacrebleu")
    assert (found.center, found.half_width) == (499.5, 474.5)


def test_a_scheme_is_a_bootstrap_value_of_corpus_average():
    assert Resampling.parse("bootstrap-rouge155", "3", "50").signature() == \
        "avg:bootstrap-rouge155|seed:3|samples:50"
    with pytest.raises(ConventionError, match="corpus_average"):
        Resampling.parse("bootstrap-fast", 0, 1000)
    with pytest.raises(ValueError, match="known: bootstrap-mean"):
        Resampling.parse("macro", 0, 1000)
    with pytest.raises(ConventionError, match="bootstrap_samples"):
        Resampling.parse("bootstrap-mean", 0, "0")
