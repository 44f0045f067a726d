"""Auditing your own BLEU that does not clip (issue 28, item 3), through the
command line and the API alike.

tests/example_impls/unclipped_bleu.py splits on whitespace, keeps case and
counts a hypothesis n-gram every time it occurs (its source): Papineni et al.
2002 §2.1 clip it by its largest count in one reference (BLEU-CLIP).  On the
README's four lines (examples/) the reference configured with another tokenizer
and lowercasing happens to give the same numbers, so a profile "fits" that the
function plainly does not have: the audit must say that a defect may explain
the numbers as well.  The bundled fixtures hold cases where the hypothesis
repeats a word more often than the reference ("the the the ..." of the paper's
Example 2), which no profile reproduces for a BLEU that does not clip: run
beside it by default, they turn the fit into an unexplained difference at
counts[0], named by its clause.
"""

from __future__ import annotations

import re

import metricdiff
from helpers import ROOT, run
from metricdiff.findings.cause import unexplained_cause
from metricdiff.findings.finding import Example, Finding
from metricdiff.profiles import BleuOptions

UNCLIPPED = "python:tests/example_impls/unclipped_bleu.py:bleu"
MY_BLEU = "python:tests/example_impls/my_bleu.py:bleu"
EXAMPLES = ROOT / "examples"
CLIPPING = ("counts[0] differs where the hypothesis repeats a word more often than the "
            "reference: clipping (BLEU-CLIP)")
DEFECT = "a defect may explain them as well"


def _lines():
    hyps = (EXAMPLES / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (EXAMPLES / "ref.txt").read_text(encoding="utf-8").splitlines()
    return hyps, [[ref] for ref in refs]


def _audit(capsys, monkeypatch, impl, *more):
    monkeypatch.chdir(ROOT)
    return run(capsys, "audit", "--metric", "bleu", "--impl", impl, "--hyp",
               EXAMPLES / "hyp.txt", "--ref", EXAMPLES / "ref.txt", "--no-minimise",
               "--no-progress", *more)


def test_cli_a_profile_fitted_to_four_lines_says_a_defect_may_fit_too(capsys, monkeypatch):
    status, out, err = _audit(capsys, monkeypatch, UNCLIPPED, "--no-fixtures")
    assert status == 0, err
    line = next(line for line in out.splitlines() if "inferred profile of" in line)
    assert re.search(r"\(reproduces 5/5 cases; \d+ profiles? fits? them with as few "
                     r"changes|no other profile fits them", line), line
    assert DEFECT in line and "--no-fixtures" in line


def test_cli_the_fixtures_run_beside_it_and_name_the_clause(capsys, monkeypatch):
    status, out, err = _audit(capsys, monkeypatch, UNCLIPPED)
    assert status == 0, err
    assert "the bundled fixtures run alongside your implementation" in err
    assert f"[conformance] unexplained: {CLIPPING}: {UNCLIPPED} (" in out
    assert f"inferred profile of {UNCLIPPED}: not found" in out
    # The audit is the command running: it does not send the user to itself.
    assert "run `metricdiff audit`" not in out + err
    assert "no profile the audit tried reproduces it on every case" in out


def test_cli_a_real_convention_is_inferred_without_the_caveat(capsys, monkeypatch):
    # my_bleu.py lowercases and adds one on every order (its docstring).
    status, out, err = _audit(capsys, monkeypatch, MY_BLEU)
    assert status == 0, err
    line = next(line for line in out.splitlines() if "inferred profile of" in line)
    assert re.search(r": lowercase=unicode smoothing=add-k smooth_orders=all "
                     r"\(reproduces (\d+)/\1 cases\)", line), line
    assert DEFECT not in line


def test_api_says_the_same(monkeypatch):
    monkeypatch.chdir(ROOT)
    hyps, refs = _lines()
    alone = metricdiff.audit(hyps, refs, metrics=["bleu"], impls=[UNCLIPPED],
                             fixtures=False, minimise=False)
    [inference] = alone.inferred
    assert inference.found and inference.uncertain and inference.fixtures == 0
    assert DEFECT in inference.describe()
    assert alone.to_dict()["inferred"][0]["uncertain"] is True
    beside = metricdiff.audit(hyps, refs, metrics=["bleu"], impls=[UNCLIPPED],
                              minimise=False)
    [inference] = beside.inferred
    assert not inference.found and inference.fixtures > 0
    assert [(f.kind, f.axis, f.first_difference.split(":")[0]) for f in beside.findings] == [
        ("conformance", "unexplained", "counts[0]")]


def test_the_clause_is_named_with_what_the_example_shows():
    # The paper's Example 2 (§2.1): "the" 7 times against a reference holding it
    # twice: 7 unclipped matches, 2 clipped.
    example = Example("x", ("the the the the the the the",),
                      (("the cat is on the mat",),), None, None)
    finding = Finding("bleu", "mine", "", "conformance", "unexplained", ("", ""),
                      "counts[0]: 7 vs 2", 1, 1.0, example, {})
    assert unexplained_cause(finding, BleuOptions()) == CLIPPING
    # Without a repeated word the clause is still named, without the "where".
    plain = Example("x", ("a b",), (("a c",),), None, None)
    finding = Finding("bleu", "mine", "", "conformance", "unexplained", ("", ""),
                      "counts[0]: 2 vs 1", 1, 1.0, plain, {})
    assert unexplained_cause(finding, BleuOptions()) == "counts[0] differs: clipping (BLEU-CLIP)"
    finding = Finding("bleu", "mine", "", "conformance", "unexplained", ("", ""),
                      "ref_len: 5 vs 4", 1, 1.0, plain, {})
    assert unexplained_cause(finding, BleuOptions()) == (
        "ref_len differs: the effective reference length (BLEU-REFLEN)")
