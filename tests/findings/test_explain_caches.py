"""The memos behind the explainer's speed give what the functions they remember
give when computed afresh.

Each expected value is computed independently of the memo: the profile text by
formatting every field of the options with its axis (``AXES[name].format``),
the changed options by ``attrs.evolve`` with the parsed values, the counting
options by setting the after-count axes to ``RougeOptions()``'s values, the
bootstrap means by numpy's own legacy draws (what rouge-score resamples).
"""

from __future__ import annotations

import attrs
import pytest

from metricdiff.comparison.stages import Difference, first_difference
from metricdiff.findings.explain import changed, single_changes
from metricdiff.impls.base import Tolerance
from metricdiff.impls.reference.resample import (
    _drawn_means,
    bootstrap_means,
    rouge155_bootstrap_means,
)
from metricdiff.impls.reference.rouge import _AFTER_COUNTS, counting_options
from metricdiff.profiles import AXES, BleuOptions, RougeOptions, profile_of
from metricdiff.statistics import RougeResult


def _fresh_profile(options: attrs.AttrsInstance) -> dict[str, str]:
    return {field.name: AXES[field.name].format(getattr(options, field.name))
            for field in attrs.fields(type(options))}


def test_profile_of_is_a_fresh_dict_each_time() -> None:
    options = BleuOptions()
    first = profile_of(options)
    first["tokenize"] = "changed by a caller"
    # A caller's change must not reach the next caller.
    assert profile_of(options) == _fresh_profile(options)


def test_profile_of_equals_the_fields_written_out() -> None:
    stemmed_l = RougeOptions(variant="l", stemmer="porter-original")
    for options in (BleuOptions(), RougeOptions(), stemmed_l):
        assert profile_of(options) == _fresh_profile(options)


def test_changed_equals_evolve_with_the_parsed_values() -> None:
    base = RougeOptions()
    for axis, value in single_changes(base):
        expected_value = AXES[axis].parse(value)
        try:
            expected = attrs.evolve(base, **{axis: expected_value})
        except (TypeError, ValueError):
            expected = None
        # Twice: once computed, once remembered.
        assert changed(base, [(axis, value)]) == expected
        assert changed(base, [(axis, value)]) == expected


def test_counting_options_sets_the_after_count_axes_to_the_papers() -> None:
    options = RougeOptions(multi_ref="mean", corpus_average="micro", stemmer="porter-original")
    paper = RougeOptions()
    expected = attrs.evolve(options, **{axis: getattr(paper, axis) for axis in _AFTER_COUNTS})
    assert counting_options(options) == expected
    assert counting_options(options) == expected


def test_first_difference_in_stage_order_whether_or_not_the_fields_match() -> None:
    # ROUGE stages: ref_total, hyp_total, matches, recall, precision, fmeasure;
    # the counts (4 vs 5 reference tokens) differ before the scores.
    a = RougeResult(0.5, 0.5, 0.5, 2, 4, 4)
    b = RougeResult(0.4, 0.5, 0.44, 2, 4, 5)
    found = first_difference(a, b, Tolerance())
    assert found == Difference("ref_total", 4.0, 5.0)
    # Recall unreported on one side: not compared; the counts still come first.
    c = attrs.evolve(b, unknown=frozenset({"recall"}))
    assert first_difference(a, c, Tolerance()) == Difference("ref_total", 4.0, 5.0)


def test_remembered_bootstrap_means_are_numpys_draws_and_fresh_lists() -> None:
    numpy = pytest.importorskip("numpy")
    rows = [[0.5, 0.25, 0.3], [1.0, 0.0, 0.0], [0.2, 0.4, 0.1]]
    # rouge-score's BootstrapAggregator: numpy.random.seed(seed), then
    # choice(N, size=N) per resample from the global generator; column means.
    numpy.random.seed(7)
    expected = [
        numpy.asarray(rows)[numpy.random.choice(3, size=3)].mean(axis=0) for _ in range(20)
    ]
    first = bootstrap_means(rows, 20, 7)
    first[0][0] = -1.0  # a caller's change must not reach the next caller
    again = bootstrap_means(rows, 20, 7)
    assert again == [pytest.approx(list(row), abs=1e-15) for row in expected]
    assert again == _drawn_means(rows, 20, 7)  # remembered == drawn afresh, exactly


def _perl_means_by_hand(rows: list[list[float]], samples: int) -> list[list[float]]:
    # ROUGE-1.5.5's bootstrapResampling: srand(i), then int(rand(N)) N times, with
    # Perl's drand48 (x' = 0x5DEECE66D x + 0xB mod 2^48 from (i << 16) + 0x330E).
    means = []
    for i in range(samples):
        state, drawn = (i << 16) + 0x330E, []
        for _ in rows:
            state = (0x5DEECE66D * state + 0xB) % (1 << 48)
            drawn.append(rows[int(state / (1 << 48) * len(rows))])
        means.append([sum(row[c] for row in drawn) / len(drawn) for c in range(3)])
    return means


@pytest.mark.parametrize("rows", [[[0.5, 0.25, 0.3]], [[0.5, 0.25, 0.3], [1.0, 0.0, 0.0],
                                                       [0.2, 0.4, 0.1]]])
def test_remembered_rouge155_means_are_perls_draws(rows: list[list[float]]) -> None:
    first = rouge155_bootstrap_means(rows, 30)
    first[0][0] = -1.0  # a caller's change must not reach the next caller
    again = rouge155_bootstrap_means(rows, 30)
    assert again == [pytest.approx(row, abs=1e-15) for row in _perl_means_by_hand(rows, 30)]


def _left_to_right_means(rows: list[list[float]], draws: list[list[int]]) -> list[list[float]]:
    # Each column's drawn values added one by one from 0.0, then divided by
    # their number: numpy's axis-0 mean and ROUGE-1.5.5's loop, in that order.
    means = []
    for drawn in draws:
        row_means = []
        for c in range(len(rows[0])):
            total = 0.0
            for i in drawn:
                total += rows[i][c]
            row_means.append(total / len(drawn))
        means.append(row_means)
    return means


def test_remembered_draws_give_the_means_of_draws_made_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from metricdiff.impls.reference import resample

    rows = [[(7 * i % 11) / 11, (3 * i % 13) / 13, 1 / (i + 3)] for i in range(40)]
    remembered = [resample._drawn_rouge155_means(rows, 25), resample._drawn_means(rows, 25, 3)]
    monkeypatch.setattr(resample, "REMEMBERED_DRAWS", 0)  # too many to remember: drawn afresh
    afresh = [resample._drawn_rouge155_means(rows, 25), resample._drawn_means(rows, 25, 3)]
    assert remembered == afresh
    # The Perl draws, made by hand as above; each mean summed left to right.
    perl_draws = []
    for i in range(25):
        state, drawn = (i << 16) + 0x330E, []
        for _ in rows:
            state = (0x5DEECE66D * state + 0xB) % (1 << 48)
            drawn.append(int(state / (1 << 48) * len(rows)))
        perl_draws.append(drawn)
    assert remembered[0] == _left_to_right_means(rows, perl_draws)


@pytest.mark.parametrize("rows", [[[0.1, 0.7, 0.3]], [[0.5, 0.25, 0.3], [1.0, 0.0, 0.0],
                                                      [0.2, 0.4, 0.1]]])
def test_bootstrap_average_is_the_mean_of_perls_resamples_summed_in_order(
    rows: list[list[float]],
) -> None:
    from metricdiff.impls.reference.resample import bootstrap_average

    # ROUGE-1.5.5 sorts each column's resample means and adds them one by one
    # (l. 901-920); one row is every resample (0.1 added 40 times is not 4.0).
    expected = []
    for column in zip(*_perl_means_by_hand(rows, 40), strict=True):
        total = 0.0
        for value in sorted(column):
            total += value
        expected.append(total / 40)
    found = bootstrap_average(rows, "bootstrap-rouge155", 40, 0)
    assert list(found) == [pytest.approx(value, abs=1e-15) for value in expected]
    # numpy's draws (rouge-score's): the median of the resample means, by numpy
    numpy = pytest.importorskip("numpy")
    numpy.random.seed(5)
    means = [numpy.asarray(rows)[numpy.random.choice(len(rows), size=len(rows))].mean(axis=0)
             for _ in range(40)]
    medians = numpy.percentile(numpy.asarray(means), 50, axis=0)
    assert list(bootstrap_average(rows, "bootstrap-median", 40, 5)) == [
        pytest.approx(float(m), abs=1e-15) for m in medians]
