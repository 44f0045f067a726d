"""What ``verify`` (and the pytest plugin) may run: a ``python:``/``cmd:``
implementation a lock names runs only when told, whatever spaces the lock puts
around its name (issue 27, item 1: the trust check read the raw name, the
registry strips it, so `` cmd:...`` ran without ``--trust-lock``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run

pytest_plugins = ["pytester"]


def locked_command(tmp_path: Path, capsys: pytest.CaptureFixture[str], pwned: Path,
                   spaced: str) -> Path:
    """A lock of a ``cmd:`` implementation that leaves ``pwned`` when it runs,
    its name then written with ``spaced`` (a space, a tab...) in front, as a
    hostile lock would write it."""
    impl = f"cmd:sh -c 'touch {pwned}; echo BLEU = 1' sh {{hyp}} {{ref}}"
    (tmp_path / "h.txt").write_text("the cat sat\n", encoding="utf-8")
    lock = tmp_path / "scores.lock"
    status, _out, err = run(capsys, "snapshot", "--metric", "bleu", "--impl", impl,
                            "--hyp", tmp_path / "h.txt", "--ref", tmp_path / "h.txt",
                            "--out", lock)
    assert status == 0, err
    pwned.unlink()  # snapshot ran it: the user named it there
    text = lock.read_text(encoding="utf-8")
    quoted = '"' + impl.replace("\\", "\\\\") + '"'
    assert quoted in text
    lock.write_text(text.replace(quoted, quoted.replace('"cmd:', f'"{spaced}cmd:')),
                    encoding="utf-8")
    return lock


@pytest.mark.parametrize("spaced", [" ", "\\t", "  \\n"])
def test_a_spaced_command_in_a_lock_does_not_run_without_trust(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spaced: str
) -> None:
    pwned = tmp_path / "PWNED"
    lock = locked_command(tmp_path, capsys, pwned, spaced)
    status, out, err = run(capsys, "verify", lock)
    assert not pwned.exists(), "verify ran code the lock names without --trust-lock"
    assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)
    assert "--trust-lock" in err, err
    # Trusted, it runs (and reproduces its score): the name resolves as before.
    assert run(capsys, "verify", lock, "--trust-lock")[0] == 0
    assert pwned.exists()


def test_a_spaced_python_function_in_a_lock_does_not_run_without_trust(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pwned = tmp_path / "PWNED"
    (tmp_path / "evil.py").write_text(
        f"open({str(pwned)!r}, 'w').close()\n"
        "def f(hyps, refs, metric):\n    return {'score': 1.0}\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text("the cat sat\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    lock = tmp_path / "scores.lock"
    status, _out, err = run(capsys, "snapshot", "--metric", "bleu", "--impl",
                            "python:evil.py:f", "--hyp", "h.txt", "--ref", "h.txt",
                            "--out", lock)
    assert status == 0, err
    pwned.unlink()
    text = lock.read_text(encoding="utf-8")
    lock.write_text(text.replace('"python:evil.py:f"', '" python:evil.py:f"'), encoding="utf-8")
    status, _out, err = run(capsys, "verify", lock)
    assert status == 2 and "--trust-lock" in err and not pwned.exists(), err


@pytest.mark.slow
def test_the_plugin_does_not_run_a_spaced_command_either(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    pwned = pytester.path / "PWNED"
    lock = locked_command(pytester.path, capsys, pwned, "\\t")
    result = pytester.runpytest(f"--metricdiff-verify={lock}")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*--trust-lock*"])
    assert not pwned.exists()


def test_a_name_is_judged_as_the_registry_resolves_it() -> None:
    from metricdiff.locks.trust import runs_code

    assert runs_code(" cmd:x {hyp} {ref}") and runs_code("\tpython:m:f")
    assert runs_code(" python:m.py:f[tokenize=13a] ")
    assert not runs_code(" sacrebleu ") and not runs_code("reference[tokenize=intl]")
