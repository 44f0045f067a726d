"""``metricdiff compare`` as a user runs it: the table (each implementation's gap
to the paper split by axis), the sentences of the pairs asked for, the JSON,
implementations that cannot score, refusals the attribution carries, the
progress line, and one-line errors.

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


def test_text_has_the_table_and_no_pair_unasked(capsys, files):
    hyp, ref = files
    status, out, _ = run(capsys, "compare", "--metric", "bleu", "--impl", "sacrebleu",
                         "--hyp", hyp, "--ref", ref)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "== bleu (BLEU, points 0-100)"
    assert lines[1].split() == ["implementation", "score", "lost", "input", "Δ", "paper",
                                "Δ", "paper", "split", "by", "axis"]
    assert lines[3].split()[:4] == ["reference", lines[3].split()[1], "—", "0.00"]
    # sacrebleu's gap to the paper, split: tokenization and nothing left over
    row = lines[4].split()
    assert row[0] == "sacrebleu" and row[4:] == ["tokenize", row[3], "·", "residual", "0.00"]
    assert not [line for line in lines if " vs " in line]  # the star: no pair unasked


def test_a_pair_is_split_when_asked_for(capsys, files):
    hyp, ref = files
    impls = ["sacrebleu", "nltk", "pycocoevalcap", "sacrebleu", "fast-bleu", "bleuscore"]
    names = [arg for name in dict.fromkeys(impls) for arg in ("--impl", name)]
    # five implementations named (more than four): the star, and the pair asked
    status, out, err = run(capsys, "compare", "--metric", "bleu", *names, "--pair",
                           "nltk,sacrebleu", "--hyp", hyp, "--ref", ref, "--format", "json")
    assert status == 0, err
    [metric] = json.loads(out)
    pairs = [(g["impl_a"], g["impl_b"]) for g in metric["gaps"]]
    scored = [name for name, entry in metric["scores"].items()
              if name != "reference" and entry["score"] is not None]
    assert pairs == [("reference", name) for name in scored] + [("nltk", "sacrebleu")]


def test_a_pair_of_an_implementation_not_named_is_an_error(capsys, files):
    hyp, ref = files
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--impl", "nltk",
                           "--pair", "nltk,sacrebleu", "--hyp", hyp, "--ref", ref)
    assert status == 2 and out == ""
    assert "--pair nltk,sacrebleu: sacrebleu is not among the --impl named" in err


def test_a_refusal_between_two_profiles_is_carried_not_left_unattributed(capsys, tmp_path):
    # rouge-score's tokenizer drops Cyrillic, so line 1 is empty on both sides for
    # it (F 0, empty_policy=zero); pltrdy keeps it (F 1 but for its 1e-8) and
    # refuses a pair with no token (empty_policy=error).  Line 2, by hand: LCS
    # "the cat" = 2 of 3 hypothesis and 4 reference tokens, F = 2PR/(P+R) = 4/7
    # for both.  Corpora: rouge-score (0 + 4/7)/2 = 2/7, pltrdy (1 + 4/7)/2 = 11/14.
    # Between them, rouge-score's tokenizer with pltrdy's empty_policy=error
    # refuses line 1, which counts as 0: v(∅) = v({empty_policy}) = 2/7,
    # v({tokenize}) = v(both) = 11/14, so tokenize gets all 50 points (Shapley)
    # and empty_policy 0.
    pytest.importorskip("rouge_score")
    from helpers import require_impl

    require_impl("rouge-pltrdy", "rouge-l")
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("Привет мир\nthe cat sat\n", encoding="utf-8")
    ref.write_text("Привет мир\nthe cat is here\n", encoding="utf-8")
    status, out, err = run(capsys, "compare", "--metric", "rouge-l", "--impl", "rouge-score",
                           "--impl", "rouge-pltrdy", "--hyp", hyp, "--ref", ref,
                           "--format", "json")
    assert status == 0, err
    [metric] = json.loads(out)
    assert metric["scores"]["rouge-score"]["score"] == pytest.approx(100 * 2 / 7)
    assert metric["scores"]["rouge-pltrdy"]["score"] == pytest.approx(100 * 11 / 14, abs=1e-5)
    [gap] = [g for g in metric["gaps"] if (g["impl_a"], g["impl_b"]) == ("rouge-score",
                                                                        "rouge-pltrdy")]
    assert gap["contributions"]["tokenize"] == pytest.approx(50.0)
    assert gap["contributions"]["empty_policy"] == pytest.approx(0.0, abs=1e-9)
    assert gap["residual"] == pytest.approx(0.0, abs=1e-5)  # pltrdy's 1e-8 in F
    assert math.fsum([*gap["contributions"].values(), gap["residual"]]) == pytest.approx(
        gap["delta"], abs=1e-9)
    assert "refuses 1 segment" in gap["note"] and "tokenize=rouge-score" in gap["note"]


def test_a_progress_line_says_the_phase_and_what_is_done(capsys, files):
    hyp, ref = files
    status, _, err = run(capsys, "compare", "--metric", "bleu", "--impl", "nltk",
                         "--hyp", hyp, "--ref", ref, "--progress")
    assert status == 0
    last = err.strip().splitlines()[-1]
    # one implementation scored in a worker, one gap (nltk's to the paper) split
    assert last == "compare: scoring 1/1 implementation · attributing 1/1 gap"


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


def test_an_implementation_without_a_profile_has_all_its_gap_residual(capsys, files):
    metric = bleu_json(capsys, files, f"python:{ROOT_IMPLS}/my_bleu.py:bleu")
    [gap] = metric["gaps"]
    # no axis to give: the whole gap is what no declared convention explains
    assert gap["contributions"] == {}
    assert gap["residual"] == pytest.approx(gap["delta"], abs=1e-9)
    assert "declares no profile" in gap["note"] and "residual" in gap["sentence"]


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


def test_by_default_sacrebleu_takes_part_as_audit_runs_it_with_intl_too(capsys, files,
                                                                          monkeypatch):
    """`audit` lists sacrebleu+intl (the tokenizer WMT uses for some languages);
    compare's default participants once left it out (issue 28, item 10).  Named
    with --impl, an implementation takes part as named, so its variants do not:
    `sacrebleu[tokenize=intl]` names that one."""
    sacrebleu = pytest.importorskip("sacrebleu")
    import metricdiff.comparison.corpus as corpus

    # Every available implementation, narrowed to sacrebleu to keep this quick.
    monkeypatch.setattr(corpus, "adapter_names", lambda: ["sacrebleu"])
    hyp, ref = files
    status, out, err = run(capsys, "compare", "--metric", "bleu", "--hyp", hyp, "--ref", ref,
                           "--format", "json")
    assert status == 0, err
    [metric] = json.loads(out)
    assert list(metric["scores"]) == ["reference", "sacrebleu", "sacrebleu+intl"]
    # sacrebleu's own corpus BLEU under its intl tokenizer, called directly.
    direct = sacrebleu.corpus_bleu(HYPS, [REFS], tokenize="intl").score
    assert metric["scores"]["sacrebleu+intl"]["score"] == pytest.approx(direct, abs=1e-9)
    assert "tok:intl" in metric["scores"]["sacrebleu+intl"]["signature"]
    named = bleu_json(capsys, files, "sacrebleu")
    assert list(named["scores"]) == ["reference", "sacrebleu"]
