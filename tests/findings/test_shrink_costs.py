"""What shrinking a finding's example costs where a side starts processes, and
where the reference standing in for the sides (``findings/surrogate.py``) keeps
clear of texts a side refuses.

The process counts are observed: every process the adapter starts goes through
``subprocess.Popen``, which these tests count while the adapter scores cases.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from helpers import require_impl
from metricdiff.auditing.cases import generated_cases
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.metric import audit_metric
from metricdiff.findings.surrogate import (
    has_textless,
    reference_trail,
    refuses_textless,
    stands_in,
)

pytestmark = pytest.mark.filterwarnings("ignore")


class _Counted(subprocess.Popen):  # type: ignore[type-arg]
    started = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        type(self).started += 1
        super().__init__(*args, **kwargs)


def _processes_started(monkeypatch: pytest.MonkeyPatch, impl: str, metric: str,
                       cases: list[tuple[list[str], list[list[str | None]]]]) -> int:
    adapter = require_impl(impl, metric)
    monkeypatch.setattr(_Counted, "started", 0)
    monkeypatch.setattr(subprocess, "Popen", _Counted)
    outcomes = adapter.score_cases(metric, cases, adapter.default_options(metric))
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    return _Counted.started


CASES: list[tuple[list[str], list[list[str | None]]]] = [
    (["the cat sat on the mat"], [["the cat is on the mat"]]),
    (["a dog barked loudly"], [["the dog barked"]]),
    (["birds fly south"], [["birds fly south in winter"]]),
]


@pytest.mark.parametrize(("impl", "metric"), [("multi-bleu", "bleu"), ("pyrouge", "rouge-1")])
def test_an_adapter_declaring_a_process_per_case_starts_one_per_case(
    monkeypatch: pytest.MonkeyPatch, impl: str, metric: str
) -> None:
    # Three cases scored in one call: the script runs once for each (counted above),
    # which is what the shrinker must know to judge as few candidates as it can.
    assert _processes_started(monkeypatch, impl, metric, CASES) >= len(CASES)
    adapter = require_impl(impl, metric)
    assert adapter.cost.process_per_case and not adapter.cost.process_per_call


def test_the_perl_script_declares_a_process_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its cases go to the same runs of the script, whatever their number (once
    # it has been located: the first call checks the installation with a run more).
    # Each count starts with no run remembered (``rouge155/shared.py``), as a
    # shrinker's new candidates are.
    from metricdiff.impls.peers.rouge155 import shared

    counts = []
    for cases in (CASES[:1], CASES[:1], CASES * 2):
        shared.forget()
        counts.append(_processes_started(monkeypatch, "rouge155", "rouge-1", cases))
    assert counts[2] == counts[1] >= 1
    adapter = require_impl("rouge155", "rouge-1")
    assert adapter.cost.process_per_call and not adapter.cost.process_per_case


def test_python_adapters_start_no_process() -> None:
    for impl in ("rouge-score", "sacrebleu"):
        metric = "bleu" if impl == "sacrebleu" else "rouge-1"
        adapter = require_impl(impl, metric)
        assert not adapter.cost.process_per_call and not adapter.cost.process_per_case


def test_textless_texts_by_hand() -> None:
    # "..." and " " have no letter or digit, so no tokenizer finds a word in them.
    assert has_textless((("a cat", "..."), (("the cat",), ("a dog",))))
    assert has_textless((("a cat",), (("the cat", " "),)))
    assert has_textless((("",), (("the cat",),)))
    # A missing reference (None) is not a text; "é" and "7" are words.
    assert not has_textless((("a cat", "é"), (("the cat", None), ("7",))))


def test_the_stand_in_keeps_clear_of_texts_a_side_refuses() -> None:
    # rouge-pltrdy declares empty_policy=error (it raises on an empty hypothesis):
    # the stand-in's way down from an example without textless texts has none either.
    require_impl("rouge-pltrdy", "rouge-1")
    impls = ["reference", "rouge-pltrdy"]
    audit = audit_metric("rouge-1", generated_cases("rouge-1", 30, 0),
                         AuditConfig(impls, workers=2, timeout=120, minimise=False))
    witnesses = [w for w in audit.witnesses if stands_in(w) and refuses_textless(w)]
    assert witnesses, "some finding has a side that refuses textless texts"
    # An origin with no textless text on which pltrdy's departure shows: by hand,
    # the paper's tokens of "a a b." are a, a, b. against a, b (one match: F 0.4);
    # pltrdy's are the set {a, b} (the period vanishes) against {a, b} (F 1).
    origin = (("a a b. the cat sat on a mat",), (("a b the cat sat on the mat",),))
    assert not has_textless(origin)
    checked = 0
    for witness in witnesses:
        trail = reference_trail("rouge-1", witness, origin)
        assert not [step for step in trail if has_textless(step)], trail
        checked += len(trail) > 1
    assert checked, "no witness shrank the origin: the test would prove nothing"


def test_a_batch_judged_a_process_per_case_spends_one_judgement_per_candidate() -> None:
    from metricdiff.findings.minimise import Budget

    # Five judgements allowed: a batch of three candidates judged by pyrouge (three
    # Perl runs) leaves two; a batch of three more is refused and its finding cut.
    budget = Budget(left=5)
    budget.finding = 7
    assert budget.spend(3)
    assert budget.left == 2
    assert not budget.spend(3)
    assert budget.cut == {7}


def test_jury_rouge_declares_its_corpus_results_unrepeatable() -> None:
    # docs/peers.md: its bootstrap median gave F 0.5782, then 0.5708, on one fixture.
    from metricdiff.impls import get_adapter

    assert not get_adapter("jury", "rouge-1").declared.reproducible
    assert get_adapter("rouge-score", "rouge-1").declared.reproducible
