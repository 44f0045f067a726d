"""``metricdiff compare`` as a user runs it: the table, the sentences, the JSON,
implementations that cannot score, and one-line errors.

Scores are checked against the peer libraries called directly; every gap
against the identity the attribution guarantees (contributions + residual =
delta).  The contributions themselves are derived by hand in
``comparison/test_attribution.py``."""

from __future__ import annotations

import json
import math
import sys

import pytest

from metricdiff.cli import main

ROOT_IMPLS = "tests/example_impls"
HYPS = ["The cat sat on the mat.", "It is a guide to action, which ensures obedience.",
        "Bonjour, «monde»!"]
REFS = ["The cat is on the mat.", "It is a guide to action that ensures obedience.",
        "Bonjour, « monde » !"]


@pytest.fixture
def files(tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    return hyp, ref


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def bleu_json(capsys, files, *impls):
    hyp, ref = files
    impl_args = [arg for name in impls for arg in ("--impl", name)]
    status, out, err = run(capsys, "compare", "--metric", "bleu", *impl_args,
                           "--hyp", hyp, "--ref", ref, "--format", "json")
    assert status == 0, err
    [metric] = json.loads(out)
    return metric


def test_json_scores_match_the_libraries_and_every_gap_adds_up(capsys, files):
    sacrebleu = pytest.importorskip("sacrebleu")
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    metric = bleu_json(capsys, files, "sacrebleu", "nltk")
    assert metric["metric"] == "bleu"
    assert list(metric["scores"]) == ["reference", "sacrebleu", "nltk"]
    # sacrebleu's and NLTK's own corpus BLEU, called directly (NLTK on whitespace
    # tokens, scaled to points as metricdiff reports BLEU).
    direct = sacrebleu.corpus_bleu(HYPS, [REFS]).score
    assert metric["scores"]["sacrebleu"]["score"] == pytest.approx(direct, abs=1e-9)
    nltk = 100 * nltk_bleu.corpus_bleu([[r.split()] for r in REFS], [h.split() for h in HYPS])
    assert metric["scores"]["nltk"]["score"] == pytest.approx(nltk, abs=1e-9)
    assert metric["scores"]["sacrebleu"]["signature"].startswith("bleu|impl:sacrebleu-")
    scores = {name: entry["score"] for name, entry in metric["scores"].items()}
    assert [(g["impl_a"], g["impl_b"]) for g in metric["gaps"]] == [
        ("reference", "sacrebleu"), ("reference", "nltk"), ("sacrebleu", "nltk")]
    for gap in metric["gaps"]:
        assert gap["delta"] == pytest.approx(scores[gap["impl_b"]] - scores[gap["impl_a"]])
        total = math.fsum([*gap["contributions"].values(), gap["residual"]])
        assert total == pytest.approx(gap["delta"], abs=1e-9)
    between = metric["gaps"][2]
    # Their declared profiles part on exactly these four axes (`metricdiff impls`;
    # empty_bp acts only on an empty hypothesis against empty references).
    assert set(between["contributions"]) == {"tokenize", "smoothing", "empty_order",
                                             "empty_bp"}
    assert between["sentence"].startswith(
        f"sacrebleu {scores['sacrebleu']:.2f} vs nltk {scores['nltk']:.2f} (−")


def test_text_has_the_table_and_one_sentence_per_pair(capsys, files):
    hyp, ref = files
    status, out, _ = run(capsys, "compare", "--metric", "bleu", "--impl", "sacrebleu",
                         "--hyp", hyp, "--ref", ref)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "== bleu (BLEU, points 0-100)"
    assert lines[1].split() == ["implementation", "score", "Δ", "paper", "largest",
                                "contribution"]
    assert lines[3].split()[:3] == ["reference", lines[3].split()[1], "0.00"]
    assert lines[4].split()[0] == "sacrebleu"
    [sentence] = [line.strip() for line in lines if " vs " in line]
    assert sentence.startswith("reference ") and "tokenize none→13a" in sentence
    assert sentence.endswith(", residual 0.00")


def test_markdown_and_out_folder(capsys, files, tmp_path):
    hyp, ref = files
    out_dir = tmp_path / "out"
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--impl", "nltk",
                           "--hyp", hyp, "--ref", ref, "--format", "md", "--out", out_dir)
    assert status == 0
    assert out.startswith("## bleu (BLEU, points 0-100)\n\n| implementation ")
    assert (out_dir / "compare.md").read_text(encoding="utf-8") == out
    assert json.loads((out_dir / "compare.json").read_text(encoding="utf-8"))[0]["metric"] \
        == "bleu"
    assert "compare.json" in err


def test_an_implementation_that_crashes_is_reported_not_dropped(capsys, files, tmp_path):
    _, ref = files
    crash = tmp_path / "crash.txt"
    crash.write_text("CRASH\n" * 3, encoding="utf-8")
    flaky = f"cmd:{sys.executable} {ROOT_IMPLS}/flaky_scorer.py {{hyp}} {{ref}}"
    status, out, _ = run(capsys, "compare", "--metric", "bleu", "--impl", flaky,
                         "--impl", "nltk", "--hyp", crash, "--ref", ref, "--format", "json")
    assert status == 0
    [metric] = json.loads(out)
    entry = metric["scores"][flaky]
    assert entry["score"] is None and entry["error"].startswith("crash:")
    assert {(g["impl_a"], g["impl_b"]) for g in metric["gaps"]} == {("reference", "nltk")}
    status, out, _ = run(capsys, "compare", "--metric", "bleu", "--impl", flaky,
                         "--hyp", crash, "--ref", ref)
    assert f"{flaky} could not score: crash:" in out


def test_an_implementation_without_a_profile_has_gaps_but_no_attribution(capsys, files):
    metric = bleu_json(capsys, files, f"python:{ROOT_IMPLS}/my_bleu.py:bleu")
    [gap] = metric["gaps"]
    assert gap["contributions"] == {} and gap["residual"] is None
    assert "declares no profile" in gap["error"] and "could not attribute" in gap["sentence"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--impl", "nope"], "unknown implementation 'nope'"),
    (["--metric", "bleu", "--impl", "rouge-score"], "rouge-score computes none of: bleu"),
])
def test_bad_names_are_one_line_errors(capsys, files, argv, message):
    hyp, ref = files
    status, out, err = run(capsys, "compare", *argv, "--hyp", hyp, "--ref", ref)
    assert status == 2 and out == ""
    assert err.startswith("metricdiff: error: ") and message in err and err.count("\n") == 1


def test_missing_reference_file_is_an_error(capsys, files):
    hyp, _ = files
    status, _, err = run(capsys, "compare", "--metric", "bleu", "--hyp", hyp)
    assert status == 2 and "--hyp needs at least one --ref" in err
