"""What ``audit`` and ``check`` refuse before they score anything, and how they end
when interrupted: one line on stderr naming what is wrong, exit status 2 (130 for
Ctrl-C), no traceback, nothing scored in vain.

Each refusal is checked to come before the scoring by making the scoring itself
fail the test (``no_scoring``): a refusal that came after it would show up as that
failure instead of the expected line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import metricdiff.auditing.journal
import metricdiff.auditing.run
import metricdiff.comparison.expectations
import metricdiff.impls as adapters
from helpers import ROOT, interrupted_at, run
from metricdiff.cases import bundled
from metricdiff.cli import EXIT_INTERRUPTED
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter
from metricdiff.wording import plural


def one_line_error(err: str, *parts: str) -> None:
    """``err`` is exactly one line ``metricdiff: error: ...`` holding every part."""
    assert err.startswith("metricdiff: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for part in parts:
        assert part in err, (part, err)


def inputs(directory: Path) -> list[str]:
    hyp, ref = directory / "h.txt", directory / "r.txt"
    hyp.write_text("the cat sat on the mat.\na dog, ran\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(ref)]


@pytest.fixture
def no_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if ``audit`` or ``check`` starts scoring."""

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("scored before refusing")

    monkeypatch.setattr(metricdiff.auditing.run, "score_metric", never)
    monkeypatch.setattr(metricdiff.comparison.expectations, "run_cases", never)


class GhostBleuAdapter(ReferenceBleuAdapter):
    """An implementation that is never installed."""

    name = "ghost"

    def unavailable_reason(self) -> str | None:
        return "ghost: not installed (pip install ghost)"


@pytest.fixture
def ghost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register ``ghost`` for BLEU (as ``auditing/test_audit.py`` registers ``crashy``)."""
    module = sys.modules[GhostBleuAdapter.__module__]
    monkeypatch.setitem(sys.modules, "metricdiff.impls._test_ghost", module)
    monkeypatch.setitem(adapters._REGISTRY, "ghost", {"bleu": "_test_ghost:GhostBleuAdapter"})


# ------------------------------------------------- 1. unknown or idle --impl


@pytest.mark.usefixtures("no_scoring")
@pytest.mark.parametrize("command", [["audit", "--metric", "bleu"], ["check"]])
def test_an_unknown_implementation_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    files = inputs(tmp_path) if command[0] == "audit" else []
    status, out, err = run(capsys, *command, "--impl", "reference", "--impl", "nope", *files,
                           "--out", tmp_path / "out")
    assert status == 2 and out == ""
    one_line_error(err, "unknown implementation 'nope' (known: reference, sacrebleu")
    assert not (tmp_path / "out").exists()


@pytest.mark.usefixtures("no_scoring")
def test_a_metric_nobody_computes_is_an_error_when_it_is_the_only_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # rouge-score has ROUGE only (impls/__init__.py's registry), installed or not.
    status, _, err = run(capsys, "audit", "--metric", "bleu", "--impl", "rouge-score",
                         *inputs(tmp_path))
    assert status == 2
    one_line_error(err, "no implementation can run: bleu: rouge-score does not compute bleu")


@pytest.mark.usefixtures("no_scoring", "ghost")
def test_a_metric_whose_implementations_are_all_unavailable_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "audit", "--metric", "bleu", "--impl", "ghost",
                         *inputs(tmp_path))
    assert status == 2
    one_line_error(err, "no implementation can run: bleu: ghost: not installed")


@pytest.mark.usefixtures("ghost")
def test_a_metric_nobody_can_run_is_said_and_the_others_are_audited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rouge_score")
    # ghost is BLEU's only implementation here; rouge-score runs ROUGE-1.
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--metric", "rouge-1",
                           "--impl", "ghost", "--impl", "rouge-score", "--no-minimise",
                           *inputs(tmp_path))
    assert status == 0, err
    assert err.splitlines()[0] == (
        "bleu: no implementation can run: ghost: not installed (pip install ghost); "
        "rouge-score does not compute bleu"
    )
    assert "== bleu" not in out and "== rouge-1: rouge-score" in out
    assert out.splitlines()[-1].startswith("audit: 1 metric, 3 cases, ")


# ------------------------------------------------------ 2. --fixtures folder


@pytest.mark.usefixtures("no_scoring")
@pytest.mark.parametrize("command", [["audit", "--metric", "bleu", "--impl", "reference"],
                                     ["check", "--impl", "reference"]])
def test_a_missing_or_empty_fixture_folder_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    out = ["--out", str(tmp_path / "out")]
    missing = tmp_path / "no-such-folder"
    status, _, err = run(capsys, *command, "--fixtures", missing, *out)
    assert status == 2
    one_line_error(err, f"{missing}: no such folder")

    empty = tmp_path / "empty"
    (empty / "sub").mkdir(parents=True)
    (empty / "notes.txt").write_text("not a fixture\n", encoding="utf-8")
    status, _, err = run(capsys, *command, "--fixtures", empty, *out)
    assert status == 2
    one_line_error(err, f"{empty}: no fixture files (*.toml)")

    a_file = tmp_path / "fx.toml"
    a_file.write_text("format = 1\n", encoding="utf-8")
    status, _, err = run(capsys, *command, "--fixtures", a_file, *out)
    assert status == 2
    one_line_error(err, f"{a_file}: not a folder")
    assert not (tmp_path / "out").exists()


@pytest.mark.usefixtures("no_scoring")
@pytest.mark.parametrize("command", [["audit", "--metric", "bleu", "--impl", "reference"],
                                     ["check", "--impl", "reference"]])
def test_an_installation_without_its_bundled_fixtures_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    # A wheel built without the pyproject's force-include: no fixtures in the
    # package, and no checkout around it.
    package = tmp_path / "lib" / "site-packages" / "metricdiff"
    package.mkdir(parents=True)
    monkeypatch.setattr(bundled, "PACKAGE", package)
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, *command, "--out", "out")
    assert status == 2
    one_line_error(err, "fixtures: no such folder", "reinstall it, or give --fixtures DIR")


# ------------------------------------------------------------ 5. --out folder


@pytest.mark.usefixtures("no_scoring")
@pytest.mark.parametrize(
    "command",
    [["audit", "--metric", "bleu", "--impl", "reference", "--fixtures", ROOT / "fixtures"],
     ["check", "--impl", "reference", "--fixtures", ROOT / "fixtures"]],
)
def test_an_out_folder_that_cannot_be_created_is_an_error_before_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[object]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    for out in (blocker / "out", blocker):  # under a file; a file itself
        status, _, err = run(capsys, *command, "--out", out)
        assert status == 2
        one_line_error(err, f"--out {out}: cannot create the folder ({blocker} is a file)")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write anywhere")
@pytest.mark.usefixtures("no_scoring")
def test_an_out_folder_without_write_permission_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    status, _, err = run(capsys, "check", "--impl", "reference", "--fixtures",
                         ROOT / "fixtures", "--out", locked / "out")
    assert status == 2
    one_line_error(err, f"--out {locked / 'out'}: cannot create the folder")


# ---------------------------------------------------------------- 5. Ctrl-C


@pytest.mark.slow
def test_an_interrupted_audit_keeps_what_it_did_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the second metric is scored: one line, 130, the first metric's
    findings and reports written, the journal closed and whole; --resume then gives what an
    uninterrupted run gives."""
    argv = ["audit", "--metric", "bleu", "--metric", "rouge-1", "--impl", "reference",
            "--no-minimise", *inputs(tmp_path)]
    status, _, err = run(capsys, *argv, "--out", tmp_path / "whole")
    assert status == 0, err

    real = metricdiff.auditing.run.score_metric
    closed: list[Path] = []
    real_close = metricdiff.auditing.journal.Journal.close

    def close(journal: metricdiff.auditing.journal.Journal) -> None:
        closed.append(journal.path)
        real_close(journal)

    monkeypatch.setattr(metricdiff.auditing.run, "score_metric", interrupted_at("rouge-1", real))
    monkeypatch.setattr(metricdiff.auditing.journal.Journal, "close", close)
    out = tmp_path / "cut"
    status, stdout, err = run(capsys, *argv, "--out", out)
    assert status == EXIT_INTERRUPTED
    # The first metric is printed as soon as it is done, and its reports written.
    assert stdout.startswith("== bleu: reference\n") and "== rouge-1" not in stdout
    assert err.splitlines()[-1] == (
        f"metricdiff: interrupted; the reports of bleu are in {out} (`metricdiff report "
        f"--from {out}` rebuilds them); run the same command with --resume to continue")
    assert "Traceback" not in err
    assert closed == [out / "journal.jsonl"]
    # The first metric's files are written as soon as it is done.
    about = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert [m["metric"] for m in about["metrics"]] == ["bleu"]

    monkeypatch.setattr(metricdiff.auditing.run, "score_metric", real)
    status, _, err = run(capsys, *argv, "--out", out, "--resume")
    assert status == 0, err
    assert (out / "findings.json").read_bytes() == (tmp_path / "whole" / "findings.json"
                                                     ).read_bytes()


def test_an_interrupt_is_one_line_for_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import metricdiff.cli.score

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(metricdiff.cli.score, "stream_input", interrupted)
    status, out, err = run(capsys, "score", *inputs(tmp_path))
    assert (status, out, err) == (EXIT_INTERRUPTED, "", "metricdiff: interrupted\n")
    # Without --out there is nothing to resume from: no hint.
    monkeypatch.setattr(metricdiff.auditing.run, "score_metric", interrupted)
    status, _, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                         *inputs(tmp_path))
    assert (status, err.splitlines()[-1]) == (EXIT_INTERRUPTED, "metricdiff: interrupted")


@pytest.mark.slow
def test_a_real_ctrl_c_during_scoring(tmp_path: Path) -> None:
    """SIGINT to the process group, as a terminal's Ctrl-C sends it, while worker
    processes score: exit 130 with the one line, and a journal --resume reads."""
    pytest.importorskip("sacrebleu")
    out = tmp_path / "out"
    # As a terminal's foreground job has it: a job a non-interactive shell starts in
    # the background inherits SIGINT ignored, and Python keeps it ignored.
    script = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "from metricdiff.cli import main; sys.exit(main(sys.argv[1:]))")
    argv = [sys.executable, "-c", script, "audit", "--metric", "bleu", "--impl", "reference",
            "--impl", "sacrebleu", "--generate", "3000", "--seed", "5", "--jobs", "2",
            "--no-minimise", "--out", str(out)]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True, cwd=tmp_path)
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and journal.stat().st_size > 0:
            break
        time.sleep(0.02)
    # 3000 cases take minutes: an audit already over has failed, not won a race.
    assert process.poll() is None, process.communicate()[1].decode("utf-8")
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    text = err.decode("utf-8")
    assert process.returncode == EXIT_INTERRUPTED, text
    assert text.splitlines()[-1] == (
        "metricdiff: interrupted; run the same command with --resume to continue")
    assert "Traceback" not in text
    lines = journal.read_bytes().split(b"\n")
    assert lines[0] and all(json.loads(line)["metric"] == "bleu" for line in lines[:-1] if line)


SLOW_BLEU = """\
import os, pathlib, time
def bleu(hypotheses, references, metric):
    pathlib.Path(os.environ["SLOW_BLEU_STARTED"]).write_text(str(os.getpid()))
    time.sleep(300)
"""


@pytest.mark.slow
@pytest.mark.parametrize("to_group", [True, False], ids=["ctrl-c", "sigint-to-the-process"])
def test_a_ctrl_c_while_compare_scores_in_the_background_ends_it(tmp_path: Path,
                                                                 to_group: bool) -> None:
    """``compare`` scores the implementations in a background thread while its
    main thread attributes the gaps.  A SIGINT then (to the process group, as a
    terminal's Ctrl-C; or to the process alone, as a supervisor sends it) ends
    it with 130 and the one line.  It used to print the line and then wait for
    ever: ``multiprocessing`` joins the worker processes at exit, and a worker
    that was still scoring (here, sleeping in the user's own function) never
    ended."""
    (tmp_path / "slow.py").write_text(SLOW_BLEU, encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("the cat is on the mat\n", encoding="utf-8")
    started = tmp_path / "started"
    script = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "from metricdiff.cli import main; sys.exit(main(sys.argv[1:]))")
    argv = [sys.executable, "-c", script, "compare", "--metric", "bleu", "--impl",
            "reference", "--impl", f"python:{tmp_path / 'slow.py'}:bleu", "--hyp", "hyp.txt",
            "--ref", "ref.txt"]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True, cwd=tmp_path,
                               env={**os.environ, "SLOW_BLEU_STARTED": str(started)})
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not started.exists() and process.poll() is None:
            time.sleep(0.02)
        assert started.exists(), process.communicate()[1].decode("utf-8")
        (os.killpg if to_group else os.kill)(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)  # a hang, not a speed: it used to never end
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    text = err.decode("utf-8")
    assert process.returncode == EXIT_INTERRUPTED, text
    assert text.splitlines()[-1] == "metricdiff: interrupted"
    assert "Traceback" not in text and "Exception ignored" not in text


# --------------------------------------------------------------- 8. wording


def test_plural() -> None:
    assert [plural(n, "case") for n in (0, 1, 2)] == ["0 cases", "1 case", "2 cases"]
    assert plural(1, "(case, implementation) run") == "1 (case, implementation) run"
    assert plural(3, "analysis", "analyses") == "3 analyses"


def test_audit_and_check_summaries_count_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("a b c d\n", encoding="utf-8")
    ref.write_text("a b c d\n", encoding="utf-8")
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                           "--hyp", hyp, "--ref", ref)
    assert status == 0
    assert out.splitlines()[-1] == "audit: 1 metric, 1 case, 0 findings"
    assert err.splitlines() == ["bleu: 1 participant on 1 case", "bleu: 0 findings"]

    fixtures = tmp_path / "fx"
    fixtures.mkdir()
    (fixtures / "one.toml").write_text(
        'format = 1\n[[case]]\nid = "must_one"\nmetric = "bleu"\ndescription = "d"\n'
        'hyps = ["a b c d"]\nrefs = [["a b c d"]]\nsource = "hand"\n'
        "[[case.expect]]\nscore = 100.0\n", encoding="utf-8")
    status, out, _ = run(capsys, "check", "--impl", "reference", "--fixtures", fixtures,
                         "--out", tmp_path / "out")
    assert status == 0
    assert out.startswith("1 case, 1 implementation, 1 outcome, 0 problems, 0 declared "
                          "departures; wrote ")
