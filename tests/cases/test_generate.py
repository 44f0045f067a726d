"""The generated audit cases: reproducible, aimed at their classes, shrinkable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata

import attrs
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from metricdiff.cases import Case, fixtures
from metricdiff.cases.generate import (
    CLASS_NAMES,
    CLASSES,
    FAMILIES,
    as_fixture,
    classes_for,
    generate_case,
    generate_cases,
    strategy_for,
)

COUNT = 1300  # 100 per BLEU class


@pytest.fixture(scope="module", params=FAMILIES)
def family(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def cases(family: str) -> list[Case]:
    return generate_cases(family, COUNT, 20240501)


def _dump(cases: list[Case]) -> str:
    return json.dumps([attrs.asdict(case) for case in cases], ensure_ascii=True)


def _all_text(cases: list[Case]) -> str:
    return "\x00".join(text for case in cases for text in case.texts())


def _check_shape(case: Case, family: str) -> None:
    assert case.klass in classes_for(family)
    assert case.family == family
    assert len(case.hyps) == len(case.refs)
    assert len(case.hyps) in ((2, 3, 4) if case.klass == "corpus" else (1,))
    ref_counts = {len(refs) for refs in case.refs}
    assert len(ref_counts) == 1 and ref_counts.pop() >= 1
    for text in case.texts():
        assert isinstance(text, str)
        assert "\\" not in text  # ROUGE input files write a sentence break as \n
        assert not text.endswith("\r")  # a file line would lose it
        if family == "bleu":
            assert "\n" not in text


# ------------------------------------------------------------------ reproducibility


def test_same_seed_same_cases(family):
    assert generate_cases(family, 300, 7) == generate_cases(family, 300, 7)


def test_same_cases_in_another_process(family):
    code = (
        "import json, attrs\n"
        "from metricdiff.cases.generate import generate_cases\n"
        f"cases = generate_cases({family!r}, 200, 7)\n"
        "print(json.dumps([attrs.asdict(c) for c in cases], ensure_ascii=True))\n"
    )
    expected = _dump(generate_cases(family, 200, 7))
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True).stdout.strip()
        assert out == expected


def test_different_seeds_differ(family):
    one, two = generate_cases(family, 50, 1), generate_cases(family, 50, 2)
    assert [c.klass for c in one] == [c.klass for c in two]
    assert sum(a.hyps != b.hyps or a.refs != b.refs for a, b in zip(one, two, strict=True)) > 40


def test_prefix_and_single_case_are_stable(family):
    long = generate_cases(family, 60, 3)
    assert generate_cases(family, 25, 3) == long[:25]
    assert generate_case(family, 3, 41) == long[41]
    assert generate_cases(family, 0, 3) == []


def test_bad_arguments():
    with pytest.raises(ValueError, match="family"):
        generate_cases("meteor", 3, 1)
    with pytest.raises(ValueError, match="negative"):
        generate_cases("bleu", -1, 1)
    with pytest.raises(ValueError, match="rouge only"):
        strategy_for("multi-sentence", "bleu")
    with pytest.raises(ValueError, match="unknown case class"):
        strategy_for("nonsense", "rouge")


def test_two_thousand_cases():
    assert len(generate_cases("rouge", 2000, 99)) == 2000


# ------------------------------------------------------------------ what comes out


def test_every_class_in_turn(family, cases):
    names = classes_for(family)
    assert [case.klass for case in cases[: len(names)]] == list(names)
    assert {case.klass for case in cases} == set(names)
    assert ("multi-sentence" in names) == (family == "rouge")
    assert set(CLASSES) == set(CLASS_NAMES)


def test_shape_and_line_rules(family, cases):
    for case in cases:
        _check_shape(case, family)


def test_rouge_multi_sentence_cases_have_sentence_breaks():
    for case in generate_cases("rouge", 700, 5):
        if case.klass == "multi-sentence":
            assert all(hyp.count("\n") >= 1 for hyp in case.hyps)


def test_rouge_line_breaks_appear_elsewhere_too():
    text = _all_text([c for c in generate_cases("rouge", 700, 5)
                      if c.klass in ("whitespace", "long")])
    assert "\n" in text


@pytest.mark.parametrize("trap", [
    "\u0130",  # İ
    "\u212a",  # Kelvin sign
    "\u00df",  # ß
    "\ufb01",  # ﬁ
    "\u03c2",  # final sigma
    "\u200b",  # zero-width space
    "\u00ad",  # soft hyphen
    "\ufeff",  # BOM
    "\u200f",  # right-to-left mark
    "\u00a0",  # no-break space
    "\t",
    "\u3000",
    "\u201c",  # “
    "\u2014",  # —
    "$5.50",
    "1,000",
    "state-of-the-art",
    "U.S.",
    "\u043a\u043e\u0448\u043a\u0430",  # Cyrillic
    "\uace0\uc591\uc774",  # Korean
    "\u732b",  # CJK
    "\u0301",  # a combining mark
])
def test_traps_appear(family, cases, trap):
    assert trap in _all_text(cases)


def test_nfc_and_nfd_of_one_word_meet(cases):
    """Some combining case holds a text in NFD whose NFC form is a text of the same
    case, or differs from its own NFC form."""
    combining = [c for c in cases if c.klass == "combining-nfc-nfd"]
    assert any(unicodedata.normalize("NFC", t) != t for c in combining for t in c.texts())
    assert any(unicodedata.normalize("NFD", t) != t for c in combining for t in c.texts())


#: What the empty class puts in place of a text: nothing, blanks, invisible
#: characters, lone punctuation.
EMPTY_LOOKING = {"", " ", "  ", "\t", "\u00a0", "\u3000", "\u200b", "\ufeff", ".", "\u2026",
                 " . ", "!!", "-", "\u00ad", "\n", " \n ", "\n\n"}


def test_empty_class_has_empty_and_blank_texts(family, cases):
    empty = [c for c in cases if c.klass == "empty"]
    assert all(any(t in EMPTY_LOOKING for t in c.texts()) for c in empty)
    assert any(c.hyps[0] == "" for c in empty)
    assert any("" in c.refs[0] and c.hyps[0].strip() for c in empty)
    assert any(c.hyps[0] and not c.hyps[0].strip() for c in empty)


def test_short_and_long_lengths(cases):
    short = [c for c in cases if c.klass == "short"]
    assert all(len(c.hyps[0].split()) <= 3 for c in short)
    assert {len(c.hyps[0].split()) for c in short} == {0, 1, 2, 3}
    long = [c for c in cases if c.klass == "long"]
    assert all(80 <= len(c.hyps[0].split()) <= 300 for c in long)


def test_repeats_repeat(cases):
    repeats = [c for c in cases if c.klass == "repeats"]
    assert all(len(set(c.hyps[0].split())) < len(c.hyps[0].split()) for c in repeats)


def test_multi_ref_has_length_ties(cases):
    multi = [c for c in cases if c.klass == "multi-ref"]
    assert {len(c.refs[0]) for c in multi} == {1, 2, 3, 4}
    exact = both_sides = 0
    for case in multi:
        length = len(case.hyps[0].split())
        ref_lengths = [len(ref.split()) for ref in case.refs[0]]
        exact += length in ref_lengths
        both_sides += any(length - k in ref_lengths and length + k in ref_lengths
                          for k in (1, 2, 3))
    assert exact > 10 and both_sides > 10


def test_references_mostly_overlap_partly(cases):
    partial = total = 0
    for case in cases:
        for hyp, refs in zip(case.hyps, case.refs, strict=True):
            for ref in refs:
                total += 1
                partial += hyp != ref and bool(set(hyp.split()) & set(ref.split()))
    assert partial / total > 0.5


def test_corpus_cases_have_several_segments(cases):
    corpus = [c for c in cases if c.klass == "corpus"]
    assert {len(c.hyps) for c in corpus} == {2, 3, 4}


# ------------------------------------------------------------------ as fixture cases


def test_to_case(family, cases):
    metric = "bleu" if family == "bleu" else "rouge-l"
    for index, generated in enumerate(cases[:40]):
        case = as_fixture(generated, metric, index)
        assert isinstance(case, fixtures.Case)
        slug = generated.klass.replace("-", "_")
        assert case.id == f"conv_generated_{slug}_{index}"
        assert fixtures._ID_PATTERN.match(case.id)
        assert case.verdict_class == "conv"
        assert case.metric == metric
        assert (case.hyps, case.refs) == (generated.hyps, generated.refs)
        assert case.expectations == ()
        assert case.location == f"generated:20240501:{index}"
        assert generated.klass in case.description and "20240501" in case.description
        case.ref_streams()  # same reference count in every segment


def test_rouge_case_with_sentence_breaks_is_refused_for_bleu():
    case = next(c for c in generate_cases("rouge", 30, 1) if c.klass == "multi-sentence")
    assert as_fixture(case, "rouge-lsum", 0).metric == "rouge-lsum"
    with pytest.raises(ValueError, match="sentence breaks"):
        as_fixture(case, "bleu", 0)
    assert as_fixture(Case(("a",), (("a",),), klass="x"), "bleu", 3).location == (
        "generated:none:3"
    )


# ------------------------------------------------------------------ Hypothesis


_PAIRS = [(klass, family) for family in FAMILIES for klass in classes_for(family)]


@settings(max_examples=150, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(_PAIRS).flatmap(lambda pair: strategy_for(*pair).map(
    lambda case: (pair, case))))
def test_strategies_keep_the_rules(drawn):
    (klass, family), case = drawn
    assert case.klass == klass
    _check_shape(case, family)


def test_class_registry_gives_the_strategies():
    assert CLASSES["repeats"]("bleu") is strategy_for("repeats", "bleu")


def test_repeats_shrink_to_a_minimal_case():
    # Hypothesis shrinks towards the minimal case but does not promise to reach it
    # in every run, so the test asks for a small case, not the smallest.
    found = find(strategy_for("repeats", "bleu"), lambda c: len(c.hyps[0].split()) >= 3,
                 settings=settings(database=None, derandomize=True))
    tokens = found.hyps[0].split()
    assert 3 <= len(tokens) <= 4 and len(set(tokens)) <= 2
    assert len(found.refs[0]) == 1 and len(found.refs[0][0].split()) <= 4


def test_traps_shrink_to_one_trap():
    found = find(strategy_for("case-traps", "rouge"), lambda c: "\u212a" in c.hyps[0],
                 settings=settings(database=None, derandomize=True))
    assert "\u212a" in found.hyps[0] and len(found.hyps[0].split()) <= 2
