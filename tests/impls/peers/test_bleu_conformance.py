"""Each adapter against the reference configured with the adapter's declared profile.

For every adapter the reference is run with ``adapter.default_options('bleu')`` plus
the same overrides, and must agree: score within 1e-9 relative, counts, totals,
sys_len and ref_len equal.  pycocoevalcap gets a 1e-6 relative tolerance on the
score: its brevity penalty is exp(1 - (r + 1e-9) / (c + 1e-15)), applied whenever
(c + 1e-15) / (r + 1e-9) < 1, so it is off by a relative ~1e-9 * r / c from the
paper's exp(1 - r / c) and is slightly below 1 even when c = r; the reference's
``epsilon`` smoothing covers the precisions, not that.

Where a library genuinely disagrees, the case is pinned in
``tests/known_findings.py`` and the test asserts that it still disagrees.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from helpers import require_tokenizer
from known_findings import FINDING_INPUTS, KNOWN_FINDINGS
from metricdiff.impls import get_adapter
from metricdiff.profiles import AXES
from metricdiff.statistics import BleuResult

Refs = list[list[str | None]]

#: Shared inputs on which the agreeing configurations below must agree.
INPUTS: dict[str, tuple[list[str], Refs]] = {
    "single": (["the cat sat on the mat"], [["the cat is on the mat"]]),
    "multi_ref": (
        ["the cat sat on the mat", "a b c d e"],
        [["the cat is on the mat", "there is a cat on the mat"], ["a b c x y z", "a b"]],
    ),
    "short_hyps": (["a b", "c"], [["a b c"], ["c d"]]),
    "one_token": (["a"], [["a b c"]]),
    "closest_tie": (["a b c d e"], [["a b c d", "a b c d e f"]]),
    "no_match": (["x y z w"], [["a b c d"]]),
    "empty_hypothesis": (["", "a b c d"], [["a b"], ["a b c d"]]),
    "empty_reference": (["a b c"], [["", "a b c d"]]),
    "missing_reference": (["a b c d e", "a b c d"], [["a b c d e", None], ["a b c d"]]),
    "no_4gram_match": (["a b c d e f", "x y z w v"], [["a b c q d e f"], ["x y z w v"]]),
    "long": (
        [
            "the quick brown fox jumps over the lazy dog today",
            "it is a truth universally acknowledged that a single man",
        ],
        [
            ["the quick brown fox jumped over the lazy dog", "a quick fox jumps over a dog"],
            ["it is a truth universally acknowledged that a single man in possession"],
        ],
    ),
    "raw_text": (
        ["Hello, world! It's 3.5 km (roughly).", "The Cat SAT on the mat; 1,000 times."],
        [
            ["Hello world, it's 3.5 km roughly.", "Hi, world! It is 3.5 km."],
            ["The cat sat on the mat 1,000 times.", "the cat SAT on a mat; 1000 times"],
        ],
    ),
    "chinese": (
        ["我喜欢吃苹果。", "今天天气很好"],
        [["我爱吃苹果。"], ["今天的天气很好", "天气很好"]],
    ),
}

#: An empty hypothesis against an empty reference: every implementation scores 0.
EMPTY_PAIR: tuple[list[str], Refs] = ([""], [[""]])

#: Per adapter: the overrides (on top of its declared profile) that must agree on
#: every input above.
AGREEING: dict[str, list[dict[str, str]]] = {
    "sacrebleu": [
        {},
        {"tokenize": "none"},
        {"tokenize": "none", "smoothing": "none"},
        {"tokenize": "none", "smoothing": "floor"},
        {"tokenize": "none", "smoothing": "floor", "smooth_value": "0.5"},
        {"tokenize": "none", "smoothing": "add-k"},
        {"tokenize": "none", "smoothing": "add-k", "smooth_value": "0.3"},
        {"tokenize": "none", "empty_order": "effective-order"},
        {"tokenize": "none", "empty_order": "effective-order", "smoothing": "none"},
        {"tokenize": "none", "empty_order": "effective-order", "smoothing": "floor"},
        {"tokenize": "none", "empty_order": "effective-order", "smoothing": "add-k"},
        {"tokenize": "none", "max_order": "1"},
        {"tokenize": "none", "max_order": "2"},
        {"tokenize": "none", "max_order": "6", "smoothing": "floor"},
        {"tokenize": "none", "empty_reference": "dropped"},
        {"lowercase": "unicode"},
        {"tokenize": "intl"},
        {"tokenize": "intl", "lowercase": "unicode"},
        {"tokenize": "char"},
        {"tokenize": "zh"},
        {"tokenize": "zh-sacrebleu"},
        {"tokenize": "ja-mecab"},
        {"tokenize": "ko-mecab"},
    ],
    "nltk": [
        {},
        {"smoothing": "floor"},
        {"smoothing": "floor", "smooth_value": "0.01"},
        {"smoothing": "add-k"},
        {"smoothing": "exp"},
        {"max_order": "1"},
        {"max_order": "2"},
        {"max_order": "5", "smoothing": "exp"},
        {"weights": "0.1,0.2,0.3,0.4"},
        {"max_order": "3", "weights": "1,0,2", "smoothing": "floor"},
        {"empty_reference": "dropped"},
        {"tokenize": "13a"},
        {"tokenize": "13a", "lowercase": "unicode"},
        {"tokenize": "13a", "lowercase": "unicode", "lowercase_stage": "after-tokenize"},
        {"tokenize": "intl"},
        {"tokenize": "char"},
        {"tokenize": "zh"},
    ],
    "pycocoevalcap": [
        {},
        {"ref_length": "shortest"},
        {"ref_length": "average"},
        {"max_order": "1"},
        {"max_order": "2"},
        {"max_order": "3"},
        {"empty_reference": "dropped"},
        {"tokenize": "13a"},
        {"tokenize": "13a", "lowercase": "unicode"},
        {"tokenize": "intl"},
        {"tokenize": "char"},
    ],
}

#: Smoothing methods that NLTK applies to the last segment only at corpus level
#: (pinned), but that agree on one segment: checked on one-segment inputs.
NLTK_ONE_SEGMENT: list[dict[str, str]] = [{"smoothing": "cc6"}]


RELATIVE = {"pycocoevalcap": 1e-6}


def differences(actual: BleuResult, expected: BleuResult, relative: float) -> list[str]:
    """The compared fields that disagree."""
    problems = []
    if not math.isclose(actual.score, expected.score, rel_tol=relative, abs_tol=0.0):
        problems.append(f"score {actual.score!r} != {expected.score!r}")
    for field in ("counts", "totals"):
        if tuple(getattr(actual, field)) != tuple(getattr(expected, field)):
            problems.append(f"{field} {getattr(actual, field)} != {getattr(expected, field)}")
    if actual.sys_len != expected.sys_len:
        problems.append(f"sys_len {actual.sys_len} != {expected.sys_len}")
    if actual.ref_len != expected.ref_len:
        problems.append(f"ref_len {actual.ref_len} != {expected.ref_len}")
    return problems


def both(name: str, hyps: Sequence[str], refs: Refs, overrides: dict[str, str]):
    adapter = get_adapter(name)
    pytest.importorskip(adapter.package.modules[0])
    options = adapter.options("bleu", overrides)
    expected = get_adapter("reference").corpus_score("bleu", hyps, refs, options)
    return adapter, options, expected


def config_id(overrides: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in overrides.items()) or "default"


AGREEING_CASES = [
    pytest.param(name, overrides, id=f"{name}-{config_id(overrides)}")
    for name, configs in AGREEING.items()
    for overrides in configs
]


@pytest.mark.parametrize(("name", "overrides"), AGREEING_CASES)
def test_corpus_agrees_with_reference(name, overrides):
    require_tokenizer(overrides.get("tokenize"))
    relative = RELATIVE.get(name, 1e-9)
    failures = {}
    for input_name, (hyps, refs) in INPUTS.items():
        adapter, options, expected = both(name, hyps, refs, overrides)
        actual = adapter.corpus_score("bleu", hyps, refs, options)
        problems = differences(actual, expected, relative)
        if problems:
            failures[input_name] = problems
    assert not failures


@pytest.mark.parametrize(("name", "overrides"), AGREEING_CASES)
def test_sentences_agree_with_reference(name, overrides):
    require_tokenizer(overrides.get("tokenize"))
    relative = RELATIVE.get(name, 1e-9)
    reference = get_adapter("reference")
    failures = {}
    for input_name, (hyps, refs) in INPUTS.items():
        adapter, options, _ = both(name, hyps, refs, overrides)
        actual = adapter.sentence_scores("bleu", hyps, refs, options)
        expected = reference.sentence_scores("bleu", hyps, refs, options)
        assert len(actual) == len(expected) == len(hyps)
        for index, (a, e) in enumerate(zip(actual, expected, strict=True)):
            problems = differences(a, e, relative)
            if problems:
                failures[f"{input_name}[{index}]"] = problems
    assert not failures


@pytest.mark.parametrize("overrides", NLTK_ONE_SEGMENT, ids=config_id)
def test_nltk_neighbour_smoothing_agrees_on_one_segment(overrides):
    # Method 6 agrees with the reference when the last segment is the corpus and the
    # hypothesis has every order and a trigram match.  (Method 5 never does: NLTK
    # averages precisions where Chen & Cherry average matched counts; see
    # known_findings.)
    for hyps, refs in (INPUTS["single"], ([INPUTS["long"][0][0]], [INPUTS["long"][1][0]])):
        adapter, options, expected = both("nltk", hyps, refs, overrides)
        assert not differences(adapter.corpus_score("bleu", hyps, refs, options), expected, 1e-9)


@pytest.mark.parametrize("name", ["sacrebleu", "nltk"])
def test_empty_pair_agrees(name):
    hyps, refs = EMPTY_PAIR
    overrides = {"tokenize": "none"} if name == "sacrebleu" else {}
    adapter, options, expected = both(name, hyps, refs, overrides)
    assert not differences(adapter.corpus_score("bleu", hyps, refs, options), expected, 1e-9)


@pytest.mark.parametrize("ref_length", ["closest", "shortest", "average"])
def test_pycocoevalcap_empty_pair(ref_length):
    hyps, refs = EMPTY_PAIR
    adapter, options, expected = both("pycocoevalcap", hyps, refs, {"ref_length": ref_length})
    actual = adapter.corpus_score("bleu", hyps, refs, options)
    assert actual.score == 0.0  # pycocoevalcap: BP = exp(1 - 1e6) = 0
    assert not differences(actual, expected, RELATIVE["pycocoevalcap"])


def test_pycocoevalcap_empty_corpus():
    adapter, options, expected = both("pycocoevalcap", [], [], {})
    assert not differences(adapter.corpus_score("bleu", [], [], options), expected, 1e-6)


@pytest.mark.parametrize("key", sorted(KNOWN_FINDINGS), ids=lambda key: f"{key[0]}: {key[1]}")
def test_known_finding_still_disagrees(key):
    name, _ = key
    hyps, refs, overrides, raises = FINDING_INPUTS[key]
    require_tokenizer(overrides.get("tokenize"))
    adapter, options, expected = both(name, hyps, refs, overrides)
    if raises is not None:  # the library refuses what the reference scores
        with pytest.raises(Exception) as error:
            adapter.corpus_score("bleu", hyps, refs, options)
        assert type(error.value).__name__ == raises, KNOWN_FINDINGS[key]
        return
    actual = adapter.corpus_score("bleu", hyps, refs, options)
    assert differences(actual, expected, RELATIVE.get(name, 1e-9)), (
        f"{name} now agrees with the reference on {key[1]!r}; remove the pin "
        f"({KNOWN_FINDINGS[key]})"
    )


def test_every_pin_has_an_input_and_a_cause():
    assert set(KNOWN_FINDINGS) == set(FINDING_INPUTS)
    for (name, _), cause in KNOWN_FINDINGS.items():
        assert name in AGREEING
        axis = cause.split(":", 1)[0]
        assert all(part.split("=")[0].strip() in AXES for part in axis.split(",")), cause


def test_pinned_cases_are_not_also_claimed_to_agree():
    # a pinned input must not be one of the shared inputs under an agreeing config
    shared = {(tuple(h), tuple(map(tuple, r))) for h, r in INPUTS.values()}
    for (name, _), (hyps, refs, overrides, _raises) in FINDING_INPUTS.items():
        if overrides in AGREEING[name]:
            assert (tuple(hyps), tuple(map(tuple, refs))) not in shared
