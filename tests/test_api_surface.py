"""The public surface as a user's tools see it: ``import metricdiff`` gives the
four API functions and their result types (``__all__``), typed for ``mypy
--strict`` and shown by ``help()`` and ``inspect.signature`` as the functions
they are -- not a module, not ``Any``, not ``(*args, **kwargs)``."""

from __future__ import annotations

import inspect
import pydoc
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import metricdiff
from metricdiff import api

FUNCTIONS = ("score", "compare", "audit", "implementations")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_help_and_signature_show_the_function(name: str) -> None:
    function = getattr(metricdiff, name)
    assert function is getattr(api, name) and inspect.isfunction(function)
    signature = inspect.signature(function)
    assert signature == inspect.signature(getattr(api, name))
    assert "args" not in signature.parameters and "kwargs" not in signature.parameters
    shown = pydoc.render_doc(function, renderer=pydoc.plaintext)
    assert f"{name}(" in shown and (function.__doc__ or "").split("\n")[0] in shown
    assert "Example:" in shown
    if name != "implementations":
        assert list(signature.parameters)[:2] in (["impl", "metric"], ["hyps", "refs"])


def test_every_public_name_is_listed_and_given() -> None:
    assert {*FUNCTIONS, "Score", "AuditResult", "Implementation", "Comparison", "Finding",
            "MetricdiffError", "MetricdiffWarning", "__version__",
            # issue 29: rank, reproduce, sensitivity and their results
            "rank", "reproduce", "sensitivity", "Ranking", "Reproduction",
            "Sensitivity"} == set(metricdiff.__all__)
    for name in metricdiff.__all__:
        assert getattr(metricdiff, name) is not None
        assert name in dir(metricdiff)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        metricdiff.nothing_here  # noqa: B018


#: A user's script: every API function through ``import metricdiff``, and the
#: result types by their public names.
USER_SCRIPT = '''
import warnings

import metricdiff

hyps = ["The cat sat on the mat."]
refs = [["The cat sat on the mat ."]]

scored: metricdiff.Score = metricdiff.score("reference", "bleu", hyps, refs,
                                            options={"tokenize": "13a"})
value: float = scored.score
comparison: metricdiff.Comparison = metricdiff.compare(hyps, refs, metrics=["bleu"])
gap: float = comparison["bleu"].gap("reference", "sacrebleu").delta
result: metricdiff.AuditResult = metricdiff.audit(hyps, refs, metrics=["bleu"], jobs=2)
findings: tuple[metricdiff.Finding, ...] = result.findings
axes: list[str] = [finding.axis for finding in findings]
found: list[metricdiff.Implementation] = metricdiff.implementations()
available: list[str] = [implementation.name for implementation in found
                        if implementation.available]
warnings.simplefilter("error", metricdiff.MetricdiffWarning)
try:
    metricdiff.score("reference", "bleu", hyps, ["not a list per segment"])
except metricdiff.MetricdiffError as error:
    said: str = str(error)
version: str = metricdiff.__version__
'''

#: The same calls, used wrongly: what ``Any`` or a module would let through.
WRONG_SCRIPT = '''
import metricdiff

hyps = ["The cat sat on the mat."]
wrong_result: int = metricdiff.audit(hyps, [["x"]])
wrong_argument = metricdiff.score("reference", "bleu", hyps, [["x"]], options=3)
wrong_item: str = metricdiff.implementations()[0]
wrong_keyword = metricdiff.compare(hyps, [["x"]], metric=["bleu"])
'''


def test_mypy_strict_passes_on_a_user_script_and_catches_misuse(tmp_path: Path) -> None:
    (tmp_path / "user_script.py").write_text(textwrap.dedent(USER_SCRIPT), encoding="utf-8")
    (tmp_path / "wrong_script.py").write_text(textwrap.dedent(WRONG_SCRIPT), encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(tmp_path / "cache"), "user_script.py", "wrong_script.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    said = checked.stdout + checked.stderr
    assert "user_script.py" not in said, said
    wrong = {line.split(":")[1] for line in said.splitlines()
             if line.startswith("wrong_script.py:") and ": error:" in line}
    assert wrong == {"5", "6", "7", "8"}, said
