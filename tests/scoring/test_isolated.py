"""One scoring path: `check`, `snapshot`, `verify`, the pytest plugin and the API
all run implementations isolated (a worker process, a per-call timeout, the result
validated), so a crash, a hang or a NaN is an outcome with one meaning in each:

* check: a `crash` outcome of that case;
* snapshot: a refused entry, one line on stderr, never written into the lock;
* verify: a failure line naming the case and the implementation, exit status 1;
* pytest: a failed test, and the session goes on;
* the Python API: ``ImplementationFailed`` saying why.

The misbehaving implementation is ``fake_adapters.MisbehavingAdapter`` (ROUGE-1),
registered as ``misbehaving``: a hypothesis starting with KILL kills its process
(SIGKILL), HANG sleeps an hour, NAN returns a recall of NaN; any other text is
scored by ``fake_adapters.expected``.  The timeout (TIMEOUT) is generous: a
well-behaved case takes milliseconds, and HANG exceeds any timeout.  No test
asserts how long anything took.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import fake_adapters
from metricdiff import impls
from metricdiff.cli import main
from metricdiff.errors import ImplementationFailed
from metricdiff.locks import snapshot
from metricdiff.scoring import score, score_cases

pytest_plugins = ["pytester"]

TIMEOUT = "5"
KILLED = "crash: process killed by signal SIGKILL"
HUNG = f"timeout: no result within {TIMEOUT} s"
NAN = "invalid-output: recall is NaN"
# fake_adapters.expected(["fine"]): one word, so recall = 1 / (1 + 1) = 0.5; the
# fake's precision and F are the constants 0.5 and 0.25; matches = 1 word,
# hyp_total = 1 hypothesis, ref_total = 1.
FINE = {"recall": 0.5, "precision": 0.5, "fmeasure": 0.25, "matches": 1.0,
        "hyp_total": 1.0, "ref_total": 1.0}


@pytest.fixture
def misbehaving(monkeypatch: pytest.MonkeyPatch) -> None:
    """``misbehaving`` in the registry, as ``cli/test_cli_errors.py`` registers
    ``ghost``; a worker finds the class as ``fake_adapters:MisbehavingAdapter``
    (``tests/`` is on the ``sys.path`` each worker gets)."""
    monkeypatch.setitem(sys.modules, "metricdiff.impls._test_misbehaving",
                        fake_adapters)
    monkeypatch.setitem(impls._REGISTRY, "misbehaving",
                        {"rouge": "_test_misbehaving:MisbehavingAdapter"})


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def corpus(folder: Path, hyps: list[str]) -> tuple[Path, Path]:
    (folder / "hyp.txt").write_text("".join(f"{h}\n" for h in hyps), encoding="utf-8")
    (folder / "ref.txt").write_text("a\n" * len(hyps), encoding="utf-8")
    return folder / "hyp.txt", folder / "ref.txt"


# --------------------------------------------------------------------- the API


def test_the_api_scores_the_reference_here_and_isolates_the_rest() -> None:
    # By hand (Papineni et al. 2002): "a b c d" against itself matches every
    # n-gram of every order, BP = 1, BLEU = 100.
    here = score("reference", "bleu", ["a b c d"], [["a b c d"]])
    assert here.ok and here.result is not None and here.result.headline == 100.0
    outcomes = score_cases(fake_adapters.MisbehavingAdapter(), "rouge-1",
                           [(("RAISE now",), (("a",),)), (("KILL now",), (("a",),)),
                            (("fine",), (("a",),))], timeout=float(TIMEOUT))
    raised, killed, fine = outcomes
    # What the fake raises: ValueError("bad input\non two lines").
    assert raised.status == "crash" and raised.raised is not None
    assert (raised.raised.type, raised.raised.message) == ("ValueError", "bad input\non two lines")
    assert (killed.status, killed.reason, killed.raised) == ("crash", KILLED, None)
    assert fine.result is not None and fine.result.to_json() == FINE


@pytest.mark.usefixtures("misbehaving")
def test_the_python_api_raises_what_went_wrong() -> None:
    import metricdiff

    with pytest.raises(ImplementationFailed) as caught:
        metricdiff.score("misbehaving", "rouge-1", ["NAN now"], [["a"]])
    assert str(caught.value) == f"misbehaving rouge-1: {NAN}"


# ---------------------------------------------------------------------- check

FIXTURE = """format = 1
{cases}"""
CASE = """
[[case]]
id = "must_{name}"
metric = "rouge-1"
description = "MisbehavingAdapter on {hyp!r}"
hyps = ["{hyp}"]
refs = [["a"]]
source = "fake_adapters.expected: one word, recall 1/(1+1), precision 0.5, F 0.25"
[[case.expect]]
recall = 0.5
precision = 0.5
fmeasure = 0.25
"""


@pytest.mark.usefixtures("misbehaving")
def test_check_gives_a_crash_outcome_for_a_crash_a_hang_and_a_nan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "fixtures").mkdir()
    cases = "".join(CASE.format(name=name, hyp=hyp) for name, hyp in
                    [("killed", "KILL now"), ("hung", "HANG now"), ("nan", "NAN now"),
                     ("fine", "fine")])
    (tmp_path / "fixtures" / "fake.toml").write_text(FIXTURE.format(cases=cases),
                                                     encoding="utf-8")
    status, out, err = run(capsys, "check", "--fixtures", tmp_path / "fixtures", "--impl",
                           "misbehaving", "--out", tmp_path / "out", "--timeout", TIMEOUT)
    assert status == 1, err  # a crash is a problem of the implementation
    outcomes = json.loads((tmp_path / "out" / "check.json").read_text(encoding="utf-8"))
    found = {o["case"]: (o["status"], o["detail"]) for o in outcomes["outcomes"]}
    assert found == {
        "must_killed": ("crash", KILLED),
        "must_hung": ("crash", HUNG),
        "must_nan": ("crash", NAN),
        "must_fine": ("pass", ""),
    }
    assert "crash: misbehaving on must_hung" in out


# ------------------------------------------------------------ snapshot, verify


@pytest.mark.usefixtures("misbehaving")
def test_snapshot_refuses_what_crashed_hung_or_is_nan_and_writes_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = corpus(tmp_path, ["KILL now", "HANG now", "NAN now", "fine"])
    lock = tmp_path / "scores.lock"
    status, out, err = run(capsys, "snapshot", "--out", lock, "--hyp", hyp, "--ref", ref,
                           "--impl", "misbehaving", "--metric", "rouge-1",
                           "--timeout", TIMEOUT)
    assert status == 0, err
    where = "misbehaving  rouge-1"
    # The corpus case's first hypothesis is line 1's: it is killed too.
    assert err.splitlines() == [
        f"refused: hyp.txt:1  {where}  {KILLED} (not written into the lock)",
        f"refused: hyp.txt:2  {where}  {HUNG} (not written into the lock)",
        f"refused: hyp.txt:3  {where}  {NAN} (not written into the lock)",
        f"refused: hyp.txt:corpus  {where}  {KILLED} (not written into the lock)",
    ]
    assert out.startswith(f"wrote {lock}: 1 score (0 raised, 4 refused), 1 case,")
    [entry] = snapshot.read(lock).entries
    assert (entry.case, entry.result) == ("hyp.txt:4", FINE)
    assert "nan" not in lock.read_text(encoding="utf-8")


@pytest.mark.usefixtures("misbehaving")
def test_snapshot_with_every_score_refused_writes_no_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = corpus(tmp_path, ["NAN now"])
    lock = tmp_path / "scores.lock"
    status, _, err = run(capsys, "snapshot", "--out", lock, "--hyp", hyp, "--ref", ref,
                         "--impl", "misbehaving", "--metric", "rouge-1")
    assert status == 1 and not lock.exists()
    assert err.splitlines()[-1].startswith(
        f"metricdiff: error: {lock}:0: no lock written: every score was refused")


def lock_then_misbehave(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A lock of four well-behaved lines, whose hypotheses then become a KILL, a
    HANG and a NAN (line 4 stays as it was)."""
    hyp, ref = corpus(tmp_path, ["fine one", "fine two", "fine three", "fine"])
    lock = tmp_path / "scores.lock"
    status, _, err = run(capsys, "snapshot", "--out", lock, "--hyp", hyp, "--ref", ref,
                         "--impl", "misbehaving", "--metric", "rouge-1")
    assert status == 0, err
    corpus(tmp_path, ["KILL now", "HANG now", "NAN now", "fine"])
    return lock


FAILURES = [
    f"failed: hyp.txt:1  misbehaving  rouge-1  {KILLED}",
    f"failed: hyp.txt:2  misbehaving  rouge-1  {HUNG}",
    f"failed: hyp.txt:3  misbehaving  rouge-1  {NAN}",
    f"failed: hyp.txt:corpus  misbehaving  rouge-1  {KILLED}",
]


@pytest.mark.usefixtures("misbehaving")
def test_verify_names_each_failure_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = lock_then_misbehave(tmp_path, capsys)
    status, out, err = run(capsys, "verify", lock, "--timeout", TIMEOUT)
    assert (status, err) == (1, "")
    lines = out.splitlines()
    # Five recorded scores: four failed, line 4 reproduces.
    assert lines[0] == f"{lock}: 4 of 5 scores failed"
    assert lines[1:5] == FAILURES
    assert "input changes since the lock was written:" in lines


# ---------------------------------------------------------------------- pytest

TESTS = """
import pytest

@pytest.mark.parametrize("hyp", ["KILL now", "HANG now", "NAN now", "fine"])
def test_score(metricdiff, hyp):
    metricdiff.score("misbehaving", "rouge-1", [hyp], [["a"]])
"""


@pytest.mark.usefixtures("misbehaving")
def test_pytest_fails_the_tests_and_survives(
    capsys: pytest.CaptureFixture[str], pytester: pytest.Pytester
) -> None:
    lock = lock_then_misbehave(pytester.path, capsys)
    pytester.makepyfile(test_fake=TESTS)
    result = pytester.runpytest(f"--metricdiff-verify={lock.name}",
                                f"--metricdiff-timeout={TIMEOUT}", "-p", "no:cacheprovider")
    # The lock's item and three of the four scoring tests fail; the session ends
    # normally, with its summary.
    result.assert_outcomes(passed=1, failed=4)
    result.stdout.fnmatch_lines([f"*{line}" for line in FAILURES])
    for hyp, reason in [("KILL now", KILLED), ("HANG now", HUNG), ("NAN now", NAN)]:
        result.stdout.fnmatch_lines([f"*test_score*{hyp}*", f"*misbehaving rouge-1: {reason}"])
