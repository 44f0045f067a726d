"""sacrebleu, NLTK and pycocoevalcap against the reference configured as each
declares itself, on more inputs and settings than the fixtures hold: the
conformance kit (``metricdiff.testing.check_adapter``) run on the inputs below,
each under every configuration an adapter must agree on (its declared profile
plus ``AGREEING``'s overrides), corpus and segments, within the adapter's declared
tolerance (pycocoevalcap's brevity penalty is exp(1 - (r + 1e-9) / (c + 1e-15)),
a relative ~1e-9 * r / c from the paper's: its tolerance says so).

Where a library genuinely disagrees, the case is pinned in
``tests/known_findings.py`` with its cause and declared to the kit, which then
expects it: it fails when the library agrees again, and a pinned refusal must
still raise the exception it names.
"""

from __future__ import annotations

import importlib.util

import pytest

from helpers import TOKENIZER_MODULES
from known_findings import FINDING_INPUTS, KNOWN_FINDINGS
from metricdiff.cases import Case, Expectation
from metricdiff.impls import get_adapter
from metricdiff.profiles import AXES
from metricdiff.testing import Deviation, check_adapter

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


def tokenizer_here(settings: dict[str, str]) -> bool:
    """Whether the packages of the tokenizer ``settings`` name can be imported."""
    return all(importlib.util.find_spec(module) is not None
               for module in TOKENIZER_MODULES.get(settings.get("tokenize", ""), ()))


def agreeing_cases(name: str) -> list[Case]:
    """Every shared input under every configuration ``name`` must agree on; the
    empty pair, the empty corpus and NLTK's one-segment smoothings besides."""
    configs = [c for c in AGREEING[name] if tokenizer_here(c)]
    when = tuple(Expectation(config, {}, "", 0.0) for config in configs)
    cases = [Case(hyps, refs, id=input_name, metric="bleu", expectations=when)
             for input_name, (hyps, refs) in INPUTS.items()]
    empty_pair = {"sacrebleu": [{"tokenize": "none"}], "nltk": [{}],
                  "pycocoevalcap": [{"ref_length": r} for r in ("closest", "shortest", "average")]}
    cases.append(Case(*EMPTY_PAIR, id="empty pair", metric="bleu", expectations=tuple(
        Expectation(config, {}, "", 0.0) for config in empty_pair[name])))
    if name == "pycocoevalcap":
        cases.append(Case([], [], id="empty corpus", metric="bleu"))
    if name == "nltk":
        # Method 6 agrees with the reference when the last segment is the corpus and
        # the hypothesis has every order and a trigram match.  (Method 5 never does:
        # NLTK averages precisions where Chen & Cherry average matched counts.)
        for input_name, (hyps, refs) in (("single", INPUTS["single"]),
                                         ("long[0]", ([INPUTS["long"][0][0]],
                                                      [INPUTS["long"][1][0]]))):
            cases.append(Case(hyps, refs, id=f"one segment {input_name}", metric="bleu",
                              expectations=tuple(Expectation(config, {}, "", 0.0)
                                                 for config in NLTK_ONE_SEGMENT)))
    return cases


def pinned(name: str) -> tuple[list[Case], list[Deviation]]:
    """Each pinned finding of ``name`` as a case under its overrides, and as the
    deviation the kit must see on it."""
    cases, deviations = [], []
    for (impl, description), cause in KNOWN_FINDINGS.items():
        found = FINDING_INPUTS[(impl, description)]
        if impl != name or not tokenizer_here(found.overrides):
            continue
        cases.append(Case(found.hyps, found.refs, id=description, metric="bleu",
                          expectations=(Expectation(found.overrides, {}, "", 0.0),)))
        deviations.append(Deviation(description, cause, found.overrides))
    return cases, deviations


@pytest.mark.parametrize("name", sorted(AGREEING))
def test_agrees_with_the_reference_or_is_a_known_finding(name):
    adapter = get_adapter(name)
    pytest.importorskip(adapter.package.modules[0])
    cases, deviations = pinned(name)
    found = check_adapter(type(adapter), deviations, cases=[*agreeing_cases(name), *cases])
    assert found.unavailable is None
    # Every agreeing configuration was scored on every input (none refused).
    claimed = {(input_name, ",".join(f"{a}={v}" for a, v in config.items()))
               for input_name in INPUTS for config in AGREEING[name] if tokenizer_here(config)}
    assert claimed <= found.scored
    for deviation in deviations:  # a pinned refusal still raises what it names
        raises = FINDING_INPUTS[(name, deviation.case)].raises
        if raises is not None:
            assert found.departures[deviation.key].startswith(f"raises {raises}:"), (
                found.departures[deviation.key])


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
