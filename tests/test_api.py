"""The Python API (``metricdiff.api``): reference shapes, the same numbers as the
command line, ``python -`` on standard input, and docs/api.md's examples run
as they are written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import metricdiff
from helpers import ROOT
from metricdiff.api import per_segment
from metricdiff.cli import main
from metricdiff.errors import InputError

SRC = ROOT / "src"


def test_refs_per_segment_and_streams_give_the_same_corpus():
    # Two streams of two segments: segment i gets the i-th line of each stream.
    hyps = ["a b", "c d"]
    streams = [["a b", "c d"], ["a x", "c y"]]
    assert per_segment(hyps, ref_streams=streams) == (
        ("a b", "c d"), (("a b", "a x"), ("c d", "c y")))
    assert per_segment(hyps, [["a b", "a x"], ["c d", "c y"]]) == per_segment(
        hyps, ref_streams=streams)
    assert per_segment(hyps, [["a b", None], ["c d"]])[1] == (("a b", None), ("c d",))


@pytest.mark.parametrize(("hyps", "refs", "streams", "message"), [
    (["a", "b"], ["a", "b"], None, "refs[0] is a string; refs[i] must be the list of "
                                   "references of hyps[i], e.g. ['a']"),
    (["a", "b"], [["a", "b"]], None, "refs has 1 entries but hyps has 2: refs[i] is the list "
                                     "of references of hyps[i]; for reference streams"),
    (["a"], None, None, "give refs (refs[i]: the references of hyps[i]) or ref_streams="),
    (["a"], [["a"]], [["a"]], "exactly one of them"),
    ("a", [["a"]], None, "hyps must be a list of strings, one per segment, not str"),
    (["a", "b"], None, [["a"]], "ref_streams[0] has 1 references but hyps has 2"),
    (["a"], [[3]], None, "refs[0] must be a list of strings"),
])
def test_wrong_shapes_are_refused_with_a_hint(hyps, refs, streams, message):
    with pytest.raises(InputError) as caught:
        per_segment(hyps, refs, streams)
    assert message in str(caught.value)


def test_score_is_the_command_lines_score(capsys, tmp_path):
    hyps = ["the cat sat on the mat", "hello world"]
    refs = [["the cat sat on a mat"], ["hello there world"]]
    (tmp_path / "h").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(r[0] for r in refs) + "\n", encoding="utf-8")
    assert main(["score", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"),
                 "--format", "json", "-o", "max_order=2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    found = metricdiff.score("reference", "bleu", hyps, refs, options={"max_order": "2"})
    assert found.to_dict() == printed


def test_compare_is_the_command_lines_compare(capsys, tmp_path):
    # A summary of two sentences: a line break in Python, a literal \n in a file.
    hyps = ["The cat sat.\nIt was happy.", "A dog barked loudly."]
    refs = [["The cat sat down.\nIt was glad."], ["The dog barked."]]
    (tmp_path / "h").write_text("\n".join(h.replace("\n", "\\n") for h in hyps) + "\n",
                                encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(r[0].replace("\n", "\\n") for r in refs) + "\n",
                                encoding="utf-8")
    metrics = ["rouge-lsum", "bleu"]
    argv = ["compare", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"),
            "--impl", "reference", "--format", "json"]
    assert main([*argv, *(a for m in metrics for a in ("--metric", m))]) == 0
    printed = json.loads(capsys.readouterr().out)
    found = metricdiff.compare(hyps, refs, metrics=metrics, impls=["reference"])
    assert found.to_dict()["metrics"] == printed


def run_on_stdin(code: str) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600, check=False)


def test_import_is_light_and_the_api_works_from_stdin():
    pytest.importorskip("nltk")
    # From `python -`, whose __main__ has the file name '<stdin>': workers used
    # to die re-importing it, and every implementation became a crash.
    done = run_on_stdin(
        "import sys, metricdiff\n"
        "assert 'metricdiff.api' not in sys.modules and 'metricdiff.auditing' not in sys.modules\n"
        "found = metricdiff.audit(['a b c d e', 'x y z'], [['a b c d f'], ['x y w']],\n"
        "                         metrics=['bleu'], impls=['reference', 'nltk'],\n"
        "                         minimise=False)\n"
        "print(sorted({f.kind for f in found.findings}))\n"
        "c = metricdiff.compare(['a b c d e'], [['a b c d f']], metrics=['bleu'],\n"
        "                       impls=['nltk'])\n"
        "print(c['bleu'].score('nltk').error or 'scored')\n")
    assert done.returncode == 0, done.stderr
    kinds, scored = done.stdout.splitlines()
    assert "crash" not in kinds and scored == "scored"


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.DOTALL)


def test_the_examples_of_docs_api_md_run():
    pytest.importorskip("sacrebleu")
    pytest.importorskip("nltk")
    blocks = python_blocks(ROOT / "docs" / "api.md")
    assert len(blocks) >= 6
    namespace: dict[str, object] = {}
    for block in blocks:  # one namespace, as a reader runs them in order
        exec(compile(block, "docs/api.md", "exec"), namespace)


def test_the_old_import_path_of_adapter_warns_and_gives_the_same_class():
    """docs/own-implementation.md named ``metricdiff.implementations.base.Adapter``
    until the package became ``metricdiff.impls``: for one release that path gives
    the same class, with a DeprecationWarning naming the new place, and leaves
    ``metricdiff.implementations`` the API function."""
    code = (
        "import warnings, metricdiff\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    from metricdiff.implementations.base import Adapter\n"
        "import metricdiff.impls.base\n"
        "assert Adapter is metricdiff.impls.base.Adapter\n"
        "assert callable(metricdiff.implementations), metricdiff.implementations\n"
        "print([str(w.category.__name__) + ': ' + str(w.message) for w in seen][-1])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.startswith(
        "DeprecationWarning: metricdiff.implementations.base is deprecated: "
        "import metricdiff.impls.base instead"), done.stdout


# --- issue 27, item 26: wrong arguments are refused in one line, as on the command line

HYPS, REFS = ["the cat sat on the mat"], [["the cat sat on a mat"]]


@pytest.mark.parametrize(("call", "message"), [
    # A string where a list of names belongs: its letters were taken for names
    # ("unknown metric 'b'"), or every name silently dropped.
    (lambda: metricdiff.compare(HYPS, REFS, impls="sacrebleu"),
     "impls must be a list of names, such as ['sacrebleu'], not str 'sacrebleu'"),
    (lambda: metricdiff.compare(HYPS, REFS, metrics="bleu"),
     "metrics must be a list of names, such as ['bleu'], not str 'bleu'"),
    (lambda: metricdiff.audit(HYPS, REFS, metrics="bleu"),
     "metrics must be a list of names, such as ['bleu'], not str 'bleu'"),
    # An unknown name was dropped: the command line refuses it.
    (lambda: metricdiff.compare(HYPS, REFS, metrics=["bleu"], impls=["no-such-impl"]),
     "unknown implementation 'no-such-impl'"),
    (lambda: metricdiff.compare(HYPS, REFS, metrics=["blue"]), "unknown metric 'blue'"),
    # report="zzz" gave every score None.
    (lambda: metricdiff.compare(HYPS, REFS, metrics=["rouge-1"], report="zzz"),
     "report must be one of f, recall, precision, not 'zzz'"),
    (lambda: metricdiff.compare(HYPS, REFS, metrics=["bleu"], jobs=0),
     "jobs must be a whole number, from 1 to 256, not 0"),
    (lambda: metricdiff.compare(HYPS, REFS, metrics=["bleu"], timeout=float("nan")),
     "timeout must be a number of seconds greater than 0"),
    (lambda: metricdiff.audit(HYPS, REFS, metrics=["bleu"], jobs=0),
     "jobs must be a whole number, from 1 to 256, not 0"),
    # impl=None, options=5, options={"tokenize": None}: AttributeError or TypeError.
    (lambda: metricdiff.score(None, "bleu", HYPS, REFS),  # type: ignore[arg-type]
     "impl must be an implementation's name, such as 'sacrebleu'"),
    (lambda: metricdiff.score("reference", "bleu", HYPS, REFS, options=5),  # type: ignore[arg-type]
     "options must be a mapping of axis to value, such as {'tokenize': 'intl'}, not int"),
    (lambda: metricdiff.score("reference", "bleu", HYPS, REFS, options={"tokenize": None}),  # type: ignore[dict-item]
     "options['tokenize'] must be a string or a number (as -o takes it), not NoneType"),
    (lambda: metricdiff.score("reference", "bleu", HYPS, REFS, options={"tokenize": 13}),
     "unknown value '13' for axis 'tokenize'"),
    (lambda: metricdiff.score("reference", "bleu", ["a \ud800"], [["a"]]),
     "hyps[0] holds a lone surrogate (\\ud800) at character 3"),
    # rank, reproduce and sensitivity (issue 29) take the same checks: before,
    # jobs=0 and trials=0 reached numpy or the pool as tracebacks, and a string
    # of names was read letter by letter.
    (lambda: metricdiff.rank({"a": HYPS, "b": HYPS}, REFS, metrics=["bleu"], jobs=0),
     "jobs must be a whole number, from 1 to 256, not 0"),
    (lambda: metricdiff.rank({"a": HYPS, "b": HYPS}, REFS, metrics=["bleu"], trials=0),
     "trials must be a whole number, from 1 to 1,000,000, not 0"),
    (lambda: metricdiff.rank({"a": HYPS, "b": HYPS}, REFS, metrics="bleu"),
     "metrics must be a list of names, such as ['bleu'], not str 'bleu'"),
    (lambda: metricdiff.rank({"a": HYPS, "b": HYPS}, REFS, metrics=["bleu"], test="t"),
     "test must be one of bootstrap, ar, both, not 't'"),
    (lambda: metricdiff.reproduce("27.3", HYPS, REFS, metric="blue"), "unknown metric 'blue'"),
    (lambda: metricdiff.reproduce("27.3", HYPS, REFS, timeout=0),
     "timeout must be a number of seconds greater than 0"),
    (lambda: metricdiff.sensitivity(HYPS, REFS, metric="rouge-1", report="zzz"),
     "report must be one of f, recall, precision, not 'zzz'"),
])
def test_a_wrong_argument_is_one_clear_error(call, message):
    with pytest.raises(metricdiff.MetricdiffError) as raised:
        call()
    assert message in str(raised.value), raised.value
    assert "\n" not in str(raised.value)


def test_numbers_as_option_values_are_taken_as_the_command_line_takes_them():
    # max_order=2 (a number, as Python writes it) is -o max_order=2; a score by
    # hand: "the cat sat on the mat" against "the cat sat on a mat" has 5/6
    # unigram and 3/5 bigram matches, c = r = 6, so BLEU-2 = 100 sqrt(5/6 * 3/5).
    result = metricdiff.score("reference", "bleu", HYPS, REFS, options={"max_order": 2})
    assert result.score == pytest.approx(100 * (5 / 6 * 3 / 5) ** 0.5, rel=1e-12)
