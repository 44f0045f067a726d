"""The command line as a user runs it: outputs, and one-line errors with exit 2."""

from __future__ import annotations

import json
import math

import pytest

import metricdiff
from helpers import run
from metricdiff.cases.fixtures import load_all, load_spec_examples
from metricdiff.cli import build_parser, main
from metricdiff.cli._common import fixtures_folder


@pytest.fixture
def corpus(tmp_path):
    hyp = tmp_path / "hyp.txt"
    ref1 = tmp_path / "ref1.txt"
    ref2 = tmp_path / "ref2.txt"
    hyp.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    ref1.write_text("the cat sat on a mat\nhello there world\n", encoding="utf-8")
    ref2.write_text("a cat sat on the mat\nhello world again\n", encoding="utf-8")
    return hyp, ref1, ref2


def test_score_json_corpus_and_sentences(capsys, corpus):
    hyp, ref1, ref2 = corpus
    status, out, err = run(
        capsys, "score", "--metric", "bleu", "--hyp", hyp, "--ref", ref1, "--ref", ref2,
        "--sentences", "--format", "json", "-o", "max_order=2",
    )
    assert status == 0, err
    doc = json.loads(out)
    assert doc["impl"] == "reference" and doc["metric"] == "bleu"
    assert doc["options"]["max_order"] == "2"
    assert doc["signature"].startswith("bleu|impl:reference-")
    # By hand: segment 1 "the cat sat on the mat": "the" occurs twice but at most once in
    # any one reference, so 5/6 unigrams clip-match; all 5 bigrams occur in ref1 ("the cat",
    # "cat sat", "sat on") or ref2 ("on the", "the mat"): 5/5. Segment 2 "hello world":
    # 2/2 unigrams, 1/1 bigram ("hello world" in ref2). Pooled: 7/8 and 6/6; c = 8,
    # r = 6 + 3 = 9 -> BP = e^(1 - 9/8); BLEU = BP * (7/8 * 6/6)^(1/2).
    corpus_result = doc["corpus"]
    assert corpus_result["counts"] == [7, 6] and corpus_result["totals"] == [8, 6]
    assert corpus_result["sys_len"] == 8 and corpus_result["ref_len"] == 9
    expected = 100 * math.exp(1 - 9 / 8) * math.sqrt(7 / 8)
    assert math.isclose(corpus_result["score"], expected, rel_tol=1e-12)
    assert len(doc["sentences"]) == 2
    # Segment 1 alone: c = r = 6, BLEU = (5/6 * 5/5)^(1/2).
    assert math.isclose(doc["sentences"][0]["score"], 100 * math.sqrt(5 / 6), rel_tol=1e-12)


def test_score_reads_stdin(capsys, corpus, monkeypatch):
    import io
    import sys

    hyp, ref1, _ = corpus
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(hyp.read_bytes())))
    status, out, _ = run(capsys, "score", "--hyp", "-", "--ref", ref1, "--format", "json")
    assert status == 0
    assert json.loads(out)["corpus"]["sys_len"] == 8


def test_score_text_output_carries_the_signature(capsys, corpus):
    hyp, ref1, _ = corpus
    status, out, _ = run(capsys, "score", "--hyp", hyp, "--ref", ref1)
    assert status == 0
    assert out.splitlines()[0].startswith("BLEU = ")
    assert out.splitlines()[-1].startswith("bleu|impl:reference-")


@pytest.mark.parametrize(
    ("make_args", "message"),
    [
        (lambda h, r, t: ["--hyp", h, "--ref", t / "short.txt"], "short.txt:2: has 1 lines"),
        (lambda h, r, t: ["--hyp", t / "bad.txt", "--ref", r], "bad.txt:2: not UTF-8"),
        (lambda h, r, t: ["--hyp", t / "missing.txt", "--ref", r], "missing.txt:0: cannot read"),
        (lambda h, r, t: ["--hyp", h, "--ref", r, "--impl", "nope"], "unknown implementation"),
        (lambda h, r, t: ["--hyp", h, "--ref", r, "-o", "smoothing=bogus"], "unknown value"),
        (lambda h, r, t: ["--hyp", h, "--ref", r, "-o", "nonaxis=1"], "unknown axis"),
        (lambda h, r, t: ["--hyp", h, "--ref", r, "-o", "weights=1,1"], "weights"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, corpus, tmp_path, make_args, message):
    hyp, ref1, _ = corpus
    (tmp_path / "short.txt").write_text("one line\n")
    (tmp_path / "bad.txt").write_bytes(b"fine\nnot \xff utf8\n")
    status, _, err = run(capsys, "score", *make_args(hyp, ref1, tmp_path))
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "--metric", "chrf", "--hyp", "x", "--ref", "y"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_impls_lists_the_reference_with_its_profile(capsys):
    status, out, _ = run(capsys, "impls", "--format", "json")
    assert status == 0
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["reference"]["available"] is True
    assert rows["reference"]["profile"]["bleu"]["smoothing"] == "none"  # the paper's


def test_impls_prints_one_short_line_per_implementation_and_profiles_on_request(capsys):
    """Each line once ran to some 400 characters, the whole profile included
    (issue 28, item 9): now one row per implementation (name, version, metrics,
    whether it runs here or why not) within about 100 characters, and
    ``--profiles`` for the profiles.  Expected: the paper's profile (spec/bleu.md:
    no smoothing) and the reference's metrics, BLEU and ROUGE-1…9, L, Lsum, W, S, SU."""
    status, out, _ = run(capsys, "impls")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["implementation", "version", "metrics", "runs", "here?"]
    reference = next(line for line in lines if line.startswith("reference "))
    assert reference.split() == ["reference", metricdiff.__version__, "bleu,",
                                 "rouge-{1…9,l,lsum,w,s,su}", "yes"]
    assert max(map(len, lines)) <= 105
    assert "smoothing=" not in out
    status, out, _ = run(capsys, "impls", "--profiles")
    assert status == 0
    assert any(line.startswith("  bleu: ") and " smoothing=none " in line
               for line in out.splitlines())


@pytest.mark.parametrize(("metrics", "text"), [
    (["bleu"], "bleu"),
    (["rouge-l"], "rouge-l"),
    (["bleu", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum"], "bleu, rouge-{1,2,l,lsum}"),
    (["rouge-1", "rouge-2", "rouge-3", "rouge-l"], "rouge-{1…3,l}"),
    (["rouge-2", "rouge-4"], "rouge-{2,4}"),
])
def test_impls_shortens_a_run_of_rouge_n(metrics, text):
    from metricdiff.cli.impls import metrics_text

    assert metrics_text(metrics) == text


def test_check_writes_reports(capsys, tmp_path, root):
    status, out, _ = run(
        capsys, "check", "--fixtures", root / "fixtures", "--impl", "reference",
        "--out", tmp_path,
    )
    assert status == 0
    assert (tmp_path / "check.md").read_text().startswith("# metricdiff check")
    data = json.loads((tmp_path / "check.json").read_text())
    assert data["outcomes"] and all(o["impl"] == "reference" for o in data["outcomes"])
    assert " 0 problems" in out


def test_check_outside_the_repository_runs_the_bundled_cases(
    capsys, tmp_path, root, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # no fixtures/ or spec/ here
    status, out, _ = run(capsys, "check", "--impl", "reference", "--out", "out")
    assert status == 0
    # The bundled cases are the repository's fixture files and the specs' worked
    # examples, read here straight from the checkout.
    cases = load_all(root / "fixtures") + [
        case for spec in sorted((root / "spec").glob("*.md")) for case in load_spec_examples(spec)
    ]
    data = json.loads((tmp_path / "out" / "check.json").read_text())
    assert {o["case"] for o in data["outcomes"]} == {case.id for case in cases}
    assert out.splitlines()[-1].startswith(f"{len(cases)} cases, 1 implementation")
    assert " 0 problems" in out


@pytest.mark.parametrize("command", [["audit", "--generate", "3"], ["check"],
                                     ["snapshot", "--out", "x.lock", "--hyp", "h"]])
def test_fixtures_without_a_folder_means_the_bundled_ones(root, command):
    # `--fixtures` followed by another option: the bundled fixtures, which the tests
    # (run on the checkout's source) find in the checkout's fixtures/.
    args = build_parser().parse_args([command[0], "--fixtures", *command[1:]])
    assert args.fixtures == ""
    assert fixtures_folder(args.fixtures) == root / "fixtures"
    assert build_parser().parse_args(command).fixtures is None


#: Two ``must_`` cases whose expected values are wrong on purpose, so that every
#: expectation fails for the reference: one with two ``when`` blocks, one with two
#: blocks that pin nothing (told apart only by their position).
WRONG_TWICE = '''format = 1

[[case]]
id = "must_wrong_per_order"
metric = "bleu"
description = "Two configurations, both expected wrongly."
hyps = ["a b c d"]
refs = [["a b c d"]]
source = "made up"
[[case.expect]]
when = { max_order = "1" }
score = 50.0
[[case.expect]]
when = { max_order = "2" }
score = 50.0

[[case]]
id = "must_wrong_twice"
metric = "bleu"
description = "Two blocks with the same (empty) when."
hyps = ["a b c d"]
refs = [["a b c d"]]
source = "made up"
[[case.expect]]
score = 40.0
[[case.expect]]
sys_len = 5
'''


def test_check_problem_lines_name_the_expectation(capsys, tmp_path):
    fixtures = tmp_path / "fx"
    fixtures.mkdir()
    (fixtures / "wrong.toml").write_text(WRONG_TWICE, encoding="utf-8")
    status, out, _ = run(capsys, "check", "--fixtures", fixtures, "--impl", "reference",
                         "--out", tmp_path / "out")
    # A failure of an implementation is exit status 1, as a test runner's (issue 28).
    assert status == 1
    problems = out.splitlines()[:-1]
    assert problems == [
        "FAIL: reference on must_wrong_per_order [max_order=1]: score: expected 50.0, "
        "got 100.0",
        "FAIL: reference on must_wrong_per_order [max_order=2]: score: expected 50.0, "
        "got 100.0",
        "FAIL: reference on must_wrong_twice [#1]: score: expected 40.0, got 100.0",
        "FAIL: reference on must_wrong_twice [#2]: sys_len: expected 5, got 4",
    ]
    assert out.splitlines()[-1].startswith("2 cases, 1 implementation, 4 outcomes, 4 problems")
    # The same names in check.md's tables, and each block's position in check.json.
    markdown = (tmp_path / "out" / "check.md").read_text(encoding="utf-8")
    assert "| must_wrong_twice [#2]" in markdown
    outcomes = json.loads((tmp_path / "out" / "check.json").read_text())["outcomes"]
    assert [o["expectation"] for o in outcomes] == [0, 1, 0, 1]


def test_check_help_states_the_exit_status(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("The exit status is 1 when a FAIL, ACCEPTED or crash line is printed, 0 "
            "otherwise") in text
