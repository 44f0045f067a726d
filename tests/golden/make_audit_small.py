"""Regenerate ``tests/golden/audit_small/``: a real ``metricdiff audit --out`` on seven
fixed lines, with the peers installed (sacrebleu, nltk, rouge-score, and Moses'
multi-bleu.perl, whose empty references are an explained and an unexplained
conformance finding) and the
``crashy`` implementation of ``auditing/test_audit.py`` (the reference's BLEU, raising on
``BOOM``) taking part, and ``--pair sacrebleu,nltk``, so that the folder holds a
crash, an explained and an unexplained conformance finding, departures, a pair
derived from the star (``pairs.json``), the table of the user's corpus
(``compare.json``), and texts with tabs, no-break and zero-width spaces, a
combining mark and ``<script>``.

    .venv/bin/python tests/golden/make_audit_small.py

The golden reports (``tests/golden/report.*``) are made from the folder by
``METRICDIFF_UPDATE_GOLDEN=1 .venv/bin/pytest tests/reports/test_reports.py``.  Only the
files the reports read are kept; the journal and reports the audit writes are
removed.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
OUT = HERE / "audit_small"

HYPS = [
    "The cat sat on the mat.",
    "a\tdog ran\u00a0in the park",
    '<script>alert("x")</script> | cafe\u0301 x\u200by',
    "R&amp;D spending rose",
    "BOOM goes the dynamite",
    "",
    "the cat",
]
REFS = [
    "the cat sat on the mat",
    "a dog ran in the park",
    '<script>alert("x")</script> | café xy',
    "R & D spending rose",
    "BOOM goes the dynamite",
    "",
    "",
]


def main() -> int:
    sys.path[:0] = [str(TESTS), str(TESTS / "auditing")]
    import test_audit  # type: ignore[import-not-found]

    import metricdiff.findings.witness
    import metricdiff.impls as adapters
    from metricdiff.cli import main as cli
    from metricdiff.scoring.jobs import Job

    # As test_audit's ``crashy`` fixture does, without pytest.
    sys.modules["metricdiff.impls._test_crashy"] = test_audit
    adapters._REGISTRY["crashy"] = {"bleu": "_test_crashy:CrashingBleuAdapter"}

    def job(impl: str, *args: object, **kwargs: object) -> Job:
        if impl == "crashy":
            kwargs["adapter_path"] = test_audit.CRASHY
        return Job(impl, *args, **kwargs)  # type: ignore[arg-type]

    metricdiff.findings.witness.Job = job  # type: ignore[misc,assignment]
    with tempfile.TemporaryDirectory() as scratch:
        hyp, ref = Path(scratch) / "hyp.txt", Path(scratch) / "ref.txt"
        hyp.write_text("".join(f"{line}\n" for line in HYPS), encoding="utf-8")
        ref.write_text("".join(f"{line}\n" for line in REFS), encoding="utf-8")
        status = cli([
            "audit", "--hyp", str(hyp), "--ref", str(ref), "--metric", "bleu",
            "--metric", "rouge-1", "--impl", "reference", "--impl", "sacrebleu",
            "--impl", "nltk", "--impl", "crashy", "--impl", "rouge-score", "--impl", "multi-bleu",
            "--pair", "sacrebleu,nltk", "--no-minimise", "--jobs", "1", "--out", str(OUT),
        ])
    for name in ("journal.jsonl", "report.md", "report.html", "report.json", "packages.md"):
        (OUT / name).unlink(missing_ok=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
