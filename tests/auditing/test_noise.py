"""Differences within what an implementation can state are not findings by
default; ``audit --strict`` shows them (``Tolerance``, ``audit.metric.participants``).

The two kinds of noise of issue 10:

* NLTK's default smoothing (method0, spec/bleu.md BLEU-SMOOTH-FLOAT-MIN) turns a
  zero precision into ``sys.float_info.min``: "a b c x" against "a b c y" has
  p = 3/4, 2/3, 1/2 and no 4-gram match, so where the paper's BLEU is 0, NLTK
  gives 100 · (3/4 · 2/3 · 1/2 · float_min)^(1/4), about 6e-76 points (c = r, so
  BP = 1);
* ROUGE-1.5.5 prints R, P and F with 5 decimals, and averages rounded scores: the
  reference rounding the same way lands one unit of the 5th decimal away where
  the exact value is a hair from half a unit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from helpers import require_impl, run
from metricdiff.impls.base import Tolerance

#: By hand: the formula of BLEU-SMOOTH-FLOAT-MIN on the counts in the docstring.
NLTK_NOISE = 100 * (3 / 4 * 2 / 3 * 1 / 2 * sys.float_info.min) ** 0.25


def audit_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    status, out, err = run(capsys, "audit", "--format", "json", "--no-minimise", *argv)
    assert status == 0, err
    found: list[dict[str, object]] = json.loads(out)
    return found


def test_tolerance_adds_printed_precision_and_float_noise() -> None:
    # numbers chosen here: 1e-5 printed precision, 1e-9 relative noise
    stated = Tolerance(absolute=1e-5, relative=1e-9)
    assert stated.allows(0.56428, 0.56429, 0.0)  # one unit of the 5th decimal, in floats
    assert not stated.allows(0.56428, 0.56430, 0.0)
    assert Tolerance().allows(0.0, 0.0, 0.0) and not Tolerance().allows(0.0, 1e-76, 0.0)


def test_nltk_float_min_smoothing_is_noise_unless_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_impl("nltk", "bleu")
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a b c x\n", encoding="utf-8")
    ref.write_text("a b c y\n", encoding="utf-8")
    argv = ["--metric", "bleu", "--impl", "reference", "--impl", "nltk",
            "--hyp", str(hyp), "--ref", str(ref)]
    assert audit_json(capsys, *argv) == []
    [finding] = audit_json(capsys, *argv, "--strict")
    assert (finding["impl_a"], finding["impl_b"]) == ("reference", "nltk")
    assert "smoothing" in str(finding["axis"]).split(",")
    assert finding["max_delta"] == pytest.approx(NLTK_NOISE, rel=1e-9)
    assert 0 < NLTK_NOISE < 1e-70


def test_perl_rounding_is_noise_unless_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_impl("rouge155", "rouge-1")
    # A corpus on which the script's averaged F lands one unit of the 5th decimal
    # from the reference configured as it (found by the audit of reports/).
    rows = [("It dogs dogs It played BLEU BLEU played played BLEU BLEU playing",
             "It BLEU BLEU"), ("5k 5k", "5k 5k"), ("", ""), ("it mat it", "it mat it n")]
    data = tmp_path / "corpus.jsonl"
    data.write_text("".join(json.dumps({"hyp": h, "ref": r}) + "\n" for h, r in rows),
                    encoding="utf-8")
    argv = ["--metric", "rouge-1", "--impl", "reference", "--impl", "rouge155",
            "--jsonl", str(data)]

    def perl_conformance(found: list[dict[str, object]]) -> list[dict[str, object]]:
        return [f for f in found if f["kind"] == "conformance" and f["impl_a"] == "rouge155"]

    assert perl_conformance(audit_json(capsys, *argv)) == []
    strict = perl_conformance(audit_json(capsys, *argv, "--strict"))
    assert strict, "the unit of the 5th decimal shows under --strict"
    for finding in strict:
        assert float(str(finding["max_delta"])) <= 1e-5 * (1 + 1e-9)
