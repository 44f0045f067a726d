"""The pytest plugin, run in a temporary project the way a project's CI runs it:
`--metricdiff-verify` (or the ini option) adds a verify item that fails on drift;
the `metricdiff` fixture scores and checks numbers against the lock."""

from __future__ import annotations

import importlib.metadata
import re

import pytest

from helpers import require_impl
from metricdiff.cli import main

pytest_plugins = ["pytester"]

# By hand (Papineni et al. 2002, N = 4, no smoothing): "a b c d" against itself
# matches every n-gram, BLEU = 100; the corpus adds "w x y z" against "w x y q":
# counts 7,5,3,1 over totals 8,6,4,2, c = r = 8, BLEU = 100 (7/8 5/6 3/4 1/2)^(1/4).
HYPS = ["a b c d", "w x y z"]
REFS = ["a b c d", "w x y q"]

TEST_FIXTURE = """
import math

HYPS = {hyps!r}
REFS = {refs!r}
CORPUS_BLEU = 100 * (7 / 8 * 5 / 6 * 3 / 4 * 1 / 2) ** 0.25


def test_score_and_lock(metricdiff):
    result = metricdiff.score("reference", "bleu", HYPS, [[ref] for ref in REFS])
    assert math.isclose(result.score, CORPUS_BLEU, rel_tol=1e-12)
    assert metricdiff.score("reference", "bleu", HYPS, ref_streams=[REFS]) == result
    metricdiff.assert_matches_lock(result, case="hyp.txt:corpus", impl="reference",
                                   metric="bleu")
    metricdiff.assert_matches_lock(result.score, case="hyp.txt:corpus", impl="reference",
                                   metric="bleu")
    assert metricdiff.signature("reference", "bleu", max_order=2).startswith(
        "bleu|impl:reference-")
    assert "|order:2|" in metricdiff.signature("reference", "bleu", max_order=2)


def test_a_wrong_number_fails(metricdiff):
    metricdiff.assert_matches_lock(71.0, case="hyp.txt:corpus", impl="reference",
                                   metric="bleu")
"""


@pytest.fixture
def project(pytester):
    pytester.makefile(".txt", hyp="\n".join(HYPS) + "\n", ref="\n".join(REFS) + "\n")
    lock = pytester.path / "scores.lock"
    status = main(["snapshot", "--out", str(lock), "--hyp", str(pytester.path / "hyp.txt"),
                   "--ref", str(pytester.path / "ref.txt"), "--impl", "reference",
                   "--metric", "bleu"])
    assert status == 0
    return lock


def test_the_plugin_is_registered_through_pytest11():
    points = importlib.metadata.entry_points(group="pytest11")
    assert [p.value for p in points if p.name == "metricdiff"] == ["metricdiff.locks.pytest_plugin"]


@pytest.mark.slow
def test_verify_item_passes_then_fails_on_drift(pytester, project):
    pytester.makepyfile(test_nothing="def test_ok():\n    pass\n")
    result = pytester.runpytest("--metricdiff-verify=scores.lock", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*scores.lock::metricdiff-verify PASSED*"])

    text = project.read_text(encoding="utf-8")
    text = re.sub(r'(case = "hyp.txt:1"\n(?:.*\n)*?\[score.result\]\nscore = )\S+',
                  r"\g<1>99.5", text, count=1)
    text = re.sub(r'(\[impl\.reference\]\nversion = )"[^"]*"', r'\1"0.0.1"', text)
    project.write_text(text, encoding="utf-8")
    result = pytester.runpytest("--metricdiff-verify=scores.lock")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*scores.lock: 1 of 3 scores drifted (1 field)",
        "drift: hyp.txt:1  reference  bleu  score: 99.5 -> 100.0",
        "environment changes since the lock was written:",
        "  reference: version 0.0.1 -> *",
        "*FAILED scores.lock::metricdiff-verify*",
    ])
    assert "Traceback" not in result.stdout.str()


def collected(result):
    """The node IDs ``--co -q`` listed, and the count it gave."""
    lines = result.stdout.lines
    ids = [line for line in lines if "::" in line]
    counts = [line for line in lines if " collected" in line]
    assert len(counts) == 1, lines
    return ids, counts[0]


LOCK_ITEM = "scores.lock::metricdiff-verify"


@pytest.mark.slow
@pytest.mark.parametrize(
    "where",
    [
        [],  # the lock lies in the folder collected: pytest's own collection meets it
        ["test_two.py"],  # it does not: the plugin adds it, before pytest's selection
    ],
)
def test_the_lock_item_is_selected_like_any_test(pytester, project, where):
    # No test name here may contain the word "metricdiff": -k also matches the
    # names of the folders, and pytester's folder is named after the test.
    pytester.makepyfile(test_two="def test_ok():\n    pass\n\n\ndef test_too():\n    pass\n")
    verify = ["-p", "no:cacheprovider", "--metricdiff-verify=scores.lock", *where]

    ids, count = collected(pytester.runpytest(*verify, "--co", "-q"))
    assert sorted(ids) == [LOCK_ITEM, "test_two.py::test_ok", "test_two.py::test_too"]
    assert count.startswith("3 tests collected")

    result = pytester.runpytest(*verify, "-k", "metricdiff", "-v")
    result.assert_outcomes(passed=1, deselected=2)
    result.stdout.fnmatch_lines([f"{LOCK_ITEM} PASSED*"])
    ids, count = collected(pytester.runpytest(*verify, "-k", "metricdiff", "--co", "-q"))
    assert ids == [LOCK_ITEM] and count.startswith("1/3 tests collected (2 deselected)")

    pytester.runpytest(*verify, "-k", "not metricdiff").assert_outcomes(passed=2, deselected=1)
    pytester.runpytest(*verify, f"--deselect={LOCK_ITEM}").assert_outcomes(
        passed=2, deselected=1)


@pytest.mark.slow
def test_a_node_id_runs_only_what_it_names(pytester, project):
    pytester.makepyfile(test_two="def test_ok():\n    pass\n\n\ndef test_too():\n    pass\n")
    verify = ["-p", "no:cacheprovider", "--metricdiff-verify=scores.lock"]
    result = pytester.runpytest(*verify, "test_two.py::test_ok", "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["test_two.py::test_ok PASSED*"])
    result = pytester.runpytest(*verify, LOCK_ITEM, "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"{LOCK_ITEM} PASSED*"])
    # A lock the session was not asked to verify is never collected.
    result = pytester.runpytest("-p", "no:cacheprovider", "--co", "-q")
    assert collected(result)[0] == ["test_two.py::test_ok", "test_two.py::test_too"]


@pytest.mark.slow
def test_ini_option_and_a_malformed_lock(pytester, project):
    pytester.makeini("[pytest]\nmetricdiff_verify = scores.lock\n")
    pytester.makepyfile(test_nothing="def test_ok():\n    pass\n")
    pytester.runpytest().assert_outcomes(passed=2)
    project.write_text("format = 1\n[environment\n", encoding="utf-8")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["metricdiff: error: *scores.lock:2: not valid TOML*"])


@pytest.mark.slow
def test_the_fixture_scores_and_checks_against_the_lock(pytester, project):
    pytester.makepyfile(test_scores=TEST_FIXTURE.format(hyps=HYPS, refs=REFS))
    pytester.makeini("[pytest]\nmetricdiff_verify = scores.lock\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*test_a_wrong_number_fails*",
        "drift: hyp.txt:corpus  reference  bleu  score: 72.3126902129769* -> 71.0",
    ])


@pytest.mark.slow
def test_a_run_without_the_plugins_options_is_untouched(pytester):
    # No extra items, and metricdiff's scoring machinery is never imported.
    pytester.makepyfile(test_plain="""
import sys

def test_lazy():
    assert "metricdiff.locks.pytest_plugin" in sys.modules
    assert not {"metricdiff.locks.snapshot", "metricdiff.adapters"} & set(sys.modules)
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


@pytest.mark.slow
def test_the_plugin_applies_verify_trust_rules(pytester):
    """A lock's inputs outside its folder are read only when the run allows it,
    as `metricdiff verify --allow-outside` (locks/trust.py)."""
    pytester.makefile(".txt", hyp="\n".join(HYPS) + "\n", ref="\n".join(REFS) + "\n")
    (pytester.path / "locks").mkdir()
    status = main(["snapshot", "--out", str(pytester.path / "locks" / "scores.lock"),
                   "--hyp", str(pytester.path / "hyp.txt"), "--ref",
                   str(pytester.path / "ref.txt"), "--impl", "reference", "--metric", "bleu"])
    assert status == 0
    result = pytester.runpytest("--metricdiff-verify=locks/scores.lock")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*hyp.txt is outside the lock's folder*--allow-outside*"])
    result = pytester.runpytest("--metricdiff-verify=locks/scores.lock",
                                "--metricdiff-allow-outside")
    result.assert_outcomes(passed=1)


# Two hypotheses with two references each: a square shape, which reads per
# segment (refs[i]: the references of hyps[i]) in the fixture as in
# metricdiff.score(); read as two sacrebleu streams it is another corpus.
SQUARE_HYPS = ["the cat is on the mat", "there is a dog in the garden"]
SQUARE_REFS = [["the cat is on the mat", "a cat sits on the mat"],
               ["a dog is in the garden", "there is a dog outside"]]

TEST_SQUARE = """
import math

import sacrebleu

import metricdiff as api

HYPS = {hyps!r}
REFS = {refs!r}


def test_refs_are_per_segment(metricdiff):
    got = metricdiff.score("sacrebleu", "bleu", HYPS, REFS).score
    # sacrebleu itself, given the same references as its streams (transposed)
    streams = [list(stream) for stream in zip(*REFS)]
    assert math.isclose(got, sacrebleu.corpus_bleu(HYPS, streams).score, rel_tol=1e-12)
    assert got == api.score("sacrebleu", "bleu", HYPS, REFS).score
    # the same list read as streams is another corpus, with another score
    assert not math.isclose(got, sacrebleu.corpus_bleu(HYPS, REFS).score)
    by_stream = metricdiff.score("sacrebleu", "bleu", HYPS, ref_streams=REFS).score
    assert math.isclose(by_stream, sacrebleu.corpus_bleu(HYPS, REFS).score, rel_tol=1e-12)
    assert by_stream == api.score("sacrebleu", "bleu", HYPS, ref_streams=REFS).score


def test_old_layout_one_stream(metricdiff):
    metricdiff.score("sacrebleu", "bleu", HYPS, [[r[0] for r in REFS]])


def test_old_layout_plain_strings(metricdiff):
    metricdiff.score("sacrebleu", "bleu", HYPS, [r[0] for r in REFS])


def test_old_layout_three_streams(metricdiff):
    metricdiff.score("sacrebleu", "bleu", HYPS, [list(s) for s in zip(*REFS)] + [list(HYPS)])
"""


@pytest.mark.slow
def test_the_fixture_reads_refs_per_segment_as_the_api_does(pytester):
    """Issue 28 item 1: the fixture's ``refs`` is per segment, sacrebleu's streams
    go through ``ref_streams=``; the expected numbers are sacrebleu's own
    ``corpus_bleu``. A test written for the old layout (streams as ``refs``)
    fails, pointing at its own call and naming ``ref_streams=``."""
    require_impl("sacrebleu", "bleu")
    pytester.makepyfile(test_square=TEST_SQUARE.format(hyps=SQUARE_HYPS, refs=SQUARE_REFS))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=3)
    out = result.stdout.str()
    result.stdout.fnmatch_lines([
        "*test_old_layout_one_stream*",
        ">*metricdiff.score(*",
        "E*InputError: refs has 1 entries but hyps has 2: *use ref_streams=",
        "*test_old_layout_plain_strings*",
        ">*metricdiff.score(*",
        "E*InputError: refs[[]0[]] is a string; *(for reference streams use ref_streams=)",
        "*test_old_layout_three_streams*",
        ">*metricdiff.score(*",
        "E*InputError: refs has 3 entries but hyps has 2: *use ref_streams=",
    ])
    # each failure points at the test's own line, not into metricdiff
    assert "per_segment.py" not in out and "pytest_plugin.py" not in out, out
