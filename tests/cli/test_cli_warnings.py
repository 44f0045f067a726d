"""Library code warns; the command line prints: a ``MetricdiffWarning`` is one line
``metricdiff: warning: ...`` on stderr, each time it is given, and nothing of it
reaches standard output; other warnings keep Python's own display, and the
caller's warning filters are left as they were."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import metricdiff
import metricdiff.cli.score
from helpers import run
from metricdiff.cases.files import read_segments
from metricdiff.errors import MetricdiffWarning

BOM = b"\xef\xbb\xbf"
#: The sentence the BOM warning says (cases/files.py), after the file's name.
DROPPED = ("dropped the UTF-8 byte order mark (U+FEFF) the file starts with: it is not "
           "part of the text")


def test_the_warning_is_exported_from_the_package() -> None:
    assert metricdiff.MetricdiffWarning is MetricdiffWarning
    assert "MetricdiffWarning" in metricdiff.__all__
    assert issubclass(MetricdiffWarning, UserWarning)


def test_reading_a_file_warns_and_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(BOM + b"a b\n")
    with pytest.warns(MetricdiffWarning) as warned:
        assert read_segments(str(hyp)) == ["a b"]
    assert [str(w.message) for w in warned] == [f"{hyp}:1: {DROPPED}"]
    assert capsys.readouterr() == ("", "")


def test_the_command_line_prints_each_warning_as_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_bytes(BOM + b"a b c d\n")
    ref.write_bytes(BOM + b"a b c d\n")
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", "reference",
                           "--hyp", hyp, "--ref", ref, "--format", "json")
    assert status == 0 and out.startswith("{")
    assert err == (f"metricdiff: warning: {hyp}:1: {DROPPED}\n"
                   f"metricdiff: warning: {ref}:1: {DROPPED}\n")
    # The same warning twice in one process is said twice: once per file read.
    status, _, err = run(capsys, "score", "--metric", "bleu", "--impl", "reference",
                         "--hyp", hyp, "--ref", ref)
    assert status == 0 and err.count("metricdiff: warning:") == 2


def test_other_warnings_keep_pythons_display_and_the_filters_are_restored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def warn_both(*_args: object) -> None:
        warnings.warn("ours", MetricdiffWarning, stacklevel=1)
        warnings.warn("theirs", UserWarning, stacklevel=1)
        raise SystemExit(0)

    monkeypatch.setattr(metricdiff.cli.score, "stream_input", warn_both)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\n", encoding="utf-8")
    # pytest.warns stands for the caller's display: it records what reaches it.
    with pytest.warns(UserWarning) as reached:
        filters, shown = list(warnings.filters), warnings.showwarning
        with pytest.raises(SystemExit):
            run(capsys, "score", "--impl", "reference", "--hyp", hyp, "--ref", hyp)
        assert warnings.filters == filters and warnings.showwarning is shown
    assert capsys.readouterr().err == "metricdiff: warning: ours\n"
    assert [(w.category, str(w.message)) for w in reached] == [(UserWarning, "theirs")]


def test_library_code_never_prints() -> None:
    # Outside cli/ (the command line) and reports/ (the report writers) nothing
    # calls print() or writes to sys.stdout / sys.stderr itself.
    import ast

    from helpers import ROOT

    package = ROOT / "src" / "metricdiff"
    printing = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] in ("cli", "reports"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            function = node.func
            if (isinstance(function, ast.Name) and function.id == "print") or (
                isinstance(function, ast.Attribute) and function.attr == "write"
                and isinstance(function.value, ast.Attribute)
                and function.value.attr in ("stdout", "stderr")
                and isinstance(function.value.value, ast.Name)
                and function.value.value.id == "sys"
            ):
                printing.append(f"{path.relative_to(package)}:{node.lineno}")
    assert printing == []
