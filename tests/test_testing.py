"""``metricdiff.testing.check_adapter``, the conformance kit: run over every
built-in adapter (each with its known deviations, tests/known_findings.py), and
shown to catch what it promises to catch on adapters made wrong on purpose.

The made-up adapters below score with the reference itself, so that what is
right and wrong about them is known by construction: one conforms, the others
each break one promise.
"""

from __future__ import annotations

import doctest
import re

import attrs
import pytest

from helpers import ROOT
from known_findings import FIXTURE_FINDINGS
from metricdiff.impls import base, builtin_classes
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter
from metricdiff.plugin import ANY, Adapter, BleuOptions, BleuResult, Declared, Package
from metricdiff.profiles.profile import axis_names, with_overrides
from metricdiff.testing import Deviation, NonConformance, check_adapter

CLASSES = builtin_classes()


def deviations_of(name: str) -> list[Deviation]:
    """The fixture cases the implementation ``name`` is pinned to disagree on."""
    return [Deviation(case, cause, dict(part.split("=", 1) for part in when.split(",") if part))
            for (impl, case, when), cause in FIXTURE_FINDINGS.items() if impl == name]


@pytest.mark.parametrize("adapter", CLASSES, ids=lambda a: f"{a.name}-{a.family}")
def test_every_builtin_adapter_conforms(adapter):
    found = check_adapter(adapter, deviations_of(adapter.name))
    if found.unavailable:  # what it declares was checked; its scores cannot be
        pytest.skip(found.unavailable)
    assert {d.key for d in found.deviations} == {d.key for d in deviations_of(adapter.name)
                                                 if d.key in found.departures}


def test_every_pinned_fixture_finding_names_a_builtin_adapter():
    names = {adapter.name for adapter in CLASSES}
    assert {impl for impl, _, _ in FIXTURE_FINDINGS} <= names


# ------------------------------------------------------ adapters made to break it


BLEU_AXES = axis_names(BleuOptions)


class CleanBleu(Adapter[BleuOptions, BleuResult]):
    """sacrebleu's tokenizer declared, every BLEU axis settable, and honoured: it
    conforms."""

    name = "clean-bleu"
    declared = Declared(profile={"tokenize": "13a"}, settable=dict.fromkeys(BLEU_AXES, ANY),
                        refused={"tokenize": {"ja-mecab": "it has no MeCab"}})

    def corpus_score(self, metric, hyps, refs, options):
        return ReferenceBleuAdapter().corpus_score(metric, hyps, refs, options)


class OffByOneBleu(CleanBleu):
    """One BLEU point too many on every corpus."""

    name = "off-by-one"

    def corpus_score(self, metric, hyps, refs, options):
        return attrs.evolve(super().corpus_score(metric, hyps, refs, options),
                            score=super().corpus_score(metric, hyps, refs, options).score + 1)


def test_an_adapter_that_does_what_it_declares_conforms():
    found = check_adapter(CleanBleu)
    assert found.checked > 0 and found.deviations == () and found.unavailable is None


def test_a_departure_is_a_failure_until_declared_then_expected():
    with pytest.raises(NonConformance) as caught:
        check_adapter(OffByOneBleu)
    problems, undeclared = caught.value.problems, caught.value.undeclared
    assert problems and all("score: expected" in problem for problem in problems)
    assert len(undeclared) == len(problems)
    # Each case it departs on, declared with its reason: then it conforms, and
    # the kit lists them as seen.
    declared = [attrs.evolve(found, reason="adds one") for found in undeclared]
    found = check_adapter(OffByOneBleu, declared)
    assert len(found.deviations) == len(declared)


def test_a_result_that_does_not_validate_fails():
    class Nan(CleanBleu):
        name = "nan"

        def corpus_score(self, metric, hyps, refs, options):
            return attrs.evolve(super().corpus_score(metric, hyps, refs, options),
                                score=float("nan"))

    with pytest.raises(NonConformance) as caught:
        check_adapter(Nan)
    assert all("invalid result: " in problem for problem in caught.value.problems)


def test_a_declared_deviation_that_no_longer_happens_fails():
    stale = Deviation("must_basic_exact_match", "a defect a release has fixed")
    with pytest.raises(NonConformance, match="agrees now: remove the Deviation"):
        check_adapter(CleanBleu, [stale])
    unknown = Deviation("must_no_such_case", "a typo in its ID")
    with pytest.raises(NonConformance, match="no such configuration was scored"):
        check_adapter(CleanBleu, [unknown])


def test_declarations_that_do_not_hold_together_fail():
    class Confused(CleanBleu):
        name = "confused"
        declared = Declared(metrics=("bleu", "rouge-1"), profile={"stemmer": "porter-nltk"})
        package = Package(modules=("json",), isolated=None)

    with pytest.raises(NonConformance) as caught:
        check_adapter(Confused)
    text = "\n".join(caught.value.problems)
    assert "metric 'rouge-1' is not a bleu metric" in text
    assert "profile names 'stemmer', not an axis of bleu" in text
    assert "imports modules but says no way to install them" in text


def test_a_refusal_must_happen_in_one_line_with_its_reason():
    class Accepting(CleanBleu):
        """Declares values it refuses and axes it cannot set, then takes them all."""

        name = "accepting"
        declared = attrs.evolve(CleanBleu.declared, refused={"tokenize": {"char": "no chars"}},
                                settable={})

        def options(self, metric, overrides=None):
            return with_overrides(self.default_options(metric), overrides or {})

    with pytest.raises(NonConformance) as caught:
        check_adapter(Accepting)
    assert "tokenize=char: accepted, but it is refused" in caught.value.problems
    assert "lowercase=unicode: accepted, but it is not settable" in caught.value.problems

    class Muddled(CleanBleu):
        """Refuses with a message of two lines that does not name it."""

        name = "muddled"

        def options(self, metric, overrides=None):
            if overrides:
                from metricdiff.errors import UnsupportedOption

                raise UnsupportedOption("no\nway")
            return super().options(metric, overrides)

    with pytest.raises(NonConformance, match="refused, but not in one line naming muddled"):
        check_adapter(Muddled)


# ----------------------------------------------------- the examples third parties read


def test_the_example_of_adapters_docstring_runs():
    failed, attempted = doctest.testmod(base, raise_on_error=False)[:2]
    assert attempted >= 8 and failed == 0


def test_the_examples_of_docs_own_implementation_md_run(capsys):
    pytest.importorskip("sacrebleu")
    page = (ROOT / "docs" / "own-implementation.md").read_text(encoding="utf-8")
    namespace: dict[str, object] = {}
    for block in re.findall(r"```python\n(.*?)```", page, re.DOTALL):
        exec(compile(block, "docs/own-implementation.md", "exec"), namespace)
    printed = page.split("\nprints\n\n```\n", 1)[1].split("```", 1)[0]
    assert capsys.readouterr().out == printed
