"""Option values that make no sense, or cost without end (issue 27): timeouts and
job counts on every command and in the pytest plugin (item 14), numeric settings
that would hang or overflow (items 17 and 27).  Each is a one-line usage error,
exit status 2, before anything runs; the bounds allow real use."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run

pytest_plugins = ["pytester"]

SENTENCE = "the cat sat on the mat"


def corpus(tmp_path: Path) -> list[str]:
    hyp = tmp_path / "h.txt"
    hyp.write_text(f"{SENTENCE}\n", encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(hyp)]


def usage_error(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    """The one line of a usage error, exit status 2 (argparse's or metricdiff's)."""
    try:
        status, out, err = run(capsys, *argv)
    except SystemExit as exited:  # argparse
        status, captured = exited.code, capsys.readouterr()
        out, err = captured.out, captured.err
    assert (status, out) == (2, "") and err.count("\n") == 1, (status, out, err)
    assert err.startswith("metricdiff: error: "), err
    return err


# ------------------------------------------------------ item 14: timeouts, jobs


@pytest.mark.parametrize(("option", "value"), [
    ("--timeout", "0"), ("--timeout", "-1"), ("--timeout", "nan"), ("--jobs", "0"),
])
def test_a_senseless_compare_option_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    # Before: tracebacks (compare read them as plain float and int).
    err = usage_error(capsys, "compare", "--metric", "bleu", "--impl", "reference",
                      *corpus(tmp_path), option, value)
    assert f"argument {option}: must be a " in err and repr(value) in err, err


@pytest.mark.parametrize(("option", "value"), [
    ("--timeout", "0"), ("--timeout", "nan"), ("--timeout", "1e300"), ("--jobs", "0"),
    ("--jobs", "1000"), ("--trials", "0"), ("--trials", "10000000"),
])
def test_a_senseless_rank_option_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    # Before: rank read --jobs and --timeout as plain int and float (tracebacks,
    # or a pool of a thousand processes) and bounded --trials only from below.
    hyp = tmp_path / "h.txt"
    hyp.write_text(f"{SENTENCE}\n", encoding="utf-8")
    err = usage_error(capsys, "rank", "--metric", "bleu", "--impl", "reference",
                      "--hyp", f"a={hyp}", "--hyp", f"b={hyp}", "--ref", hyp, option, value)
    assert f"argument {option}: must be a " in err and repr(value) in err, err


@pytest.mark.parametrize(("option", "value"), [("--timeout", "-1"), ("--jobs", "0")])
def test_a_senseless_reproduce_option_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    err = usage_error(capsys, "reproduce", "27.3", "--impl", "reference", *corpus(tmp_path),
                      option, value)
    assert f"argument {option}: must be a " in err and repr(value) in err, err


@pytest.mark.parametrize("command", [
    ["score", "--metric", "bleu"],
    ["audit", "--metric", "bleu", "--impl", "reference", "--no-minimise"],
    ["snapshot", "--metric", "bleu", "--impl", "reference", "--out", "{tmp}/x.lock"],
    ["check", "--impl", "reference", "--out", "{tmp}/out"],
    ["compare", "--metric", "bleu", "--impl", "reference"],
])
def test_a_timeout_no_float_can_wait_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # Before: OverflowError tracebacks ("timestamp too large to convert to C _PyTime_t").
    argv = [word.replace("{tmp}", str(tmp_path)) for word in command]
    inputs = [] if command[0] == "check" else corpus(tmp_path)
    err = usage_error(capsys, *argv, *inputs, "--timeout", "1e300")
    assert ("argument --timeout: must be a number of seconds greater than 0 (at most "
            "1,000,000; inf: no limit), not '1e300'") in err, err


def test_verify_refuses_such_a_timeout_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = usage_error(capsys, "verify", tmp_path / "x.lock", "--timeout", "1e300")
    assert "argument --timeout: must be a number of seconds" in err, err


def test_inf_is_no_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl",
                           "cmd:echo BLEU = 12.5 {hyp} {ref}", *corpus(tmp_path),
                           "--timeout", "inf")
    assert status == 0 and out.startswith("BLEU = 12.5 "), err  # as the program prints it


@pytest.mark.slow
@pytest.mark.parametrize(("given", "says"), [
    (["--metricdiff-timeout=1e300"], "--metricdiff-timeout must be a number of seconds"),
    (["--metricdiff-timeout=0"], "--metricdiff-timeout must be a number of seconds"),
    ([], "the metricdiff_timeout ini option must be a number of seconds"),
])
def test_the_plugin_refuses_such_a_timeout_at_the_start(
    pytester: pytest.Pytester, given: list[str], says: str
) -> None:
    # Before: OverflowError inside the verify item (1e300), a traceback for a bad
    # ini value; now the session stops at once, in one line.
    pytester.makeini("[pytest]\nmetricdiff_timeout = soon\n" if not given else "[pytest]\n")
    pytester.makepyfile(test_nothing="def test_ok():\n    pass\n")
    result = pytester.runpytest(*given)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {says}*"])


# ---------------------------------- items 17 and 27: settings that hang or overflow


@pytest.mark.parametrize(("metric", "setting", "says"), [
    ("bleu", "max_order=100000", "expected a whole number from 1 to 20, got '100000'"),
    ("rouge-1", "corpus_average=bootstrap-mean", None),
    ("rouge-w", "weight=1e308", "expected a positive number of at most 20, got '1e308'"),
    ("bleu", "smooth_value=1e308", "of at most 1000, or 'default', got '1e308'"),
])
def test_a_setting_that_would_hang_or_overflow_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], metric: str, setting: str,
    says: str | None,
) -> None:
    # Before: max_order=100000 hung (the reference is quadratic in it); weight=1e308
    # was "reference failed: OverflowError", exit 1, blamed on the reference.
    options = ["-o", setting]
    if says is None:  # bootstrap_samples with the average that uses it
        options += ["-o", "bootstrap_samples=1000000000"]
        says = "expected a whole number from 1 to 100000, got '1000000000'"
    err = usage_error(capsys, "score", "--metric", metric, *options, *corpus(tmp_path))
    assert says in err, err


def test_the_bounds_allow_real_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rouge-score's 1,000 resamples and ROUGE-1.5.5's -w 1.2 up to its largest
    weights, BLEU to order 20, run."""
    for metric, settings in [("rouge-1", ["corpus_average=bootstrap-mean",
                                           "bootstrap_samples=1000"]),
                             ("rouge-w", ["weight=20"]), ("bleu", ["max_order=20"])]:
        options = [word for setting in settings for word in ("-o", setting)]
        status, _out, err = run(capsys, "score", "--metric", metric, *options,
                                *corpus(tmp_path))
        assert status == 0, (metric, err)


def test_generating_ten_million_cases_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: it ran, printing nothing (not even a progress line), for hours.
    err = usage_error(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                      "--generate", "10000000")
    assert "argument --generate: must be a whole number, from 0 to 1,000,000" in err, err


def test_generating_many_cases_says_how_far_it_is(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import metricdiff.cases.generate as generate

    monkeypatch.setattr(generate, "PROGRESS_EVERY", 10)
    from metricdiff.auditing.cases import generated_cases

    said: list[str] = []
    cases = generated_cases("bleu", 25, 0, said.append)
    assert len(cases) == 25
    assert said == ["bleu: generated 10/25 cases", "bleu: generated 20/25 cases"]
