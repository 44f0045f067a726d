"""Issue 29 item 4: where the input of ``compare`` looks tokenized and sacremoses
is installed, each implementation scores the input detokenized too, and the
output says by how much that moves its score.

The texts are real sentences tokenized here with sacremoses' own
``MosesTokenizer`` (``escape=True``, as Moses' ``tokenizer.perl`` does): English
(the candidates and references of Papineni et al. 2002, section 2, and two
sentences with quotes, contractions and ``&``) and German (the first lines of
the Luther translations of benchmarks/data/translations).  Each tokenized line
is checked to detokenize back to the raw sentence with ``MosesDetokenizer``, so
the expected scores are ``sacrebleu.corpus_bleu`` run directly on the tokenized
lines ("as given") and on the raw sentences ("detokenized"): 13a (sacrebleu's
default) does not undo ``&apos;``, ``tokenize=none`` undoes nothing."""

from __future__ import annotations

import json
import sys
import warnings

import pytest

import metricdiff
from helpers import ROOT, corpus_files, require_impl, run
from metricdiff.comparison.gaps import Comparison, signed
from metricdiff.errors import MetricdiffWarning

EN_HYPS = [
    "It is a guide to action which ensures that the military always obeys the commands of "
    "the party.",
    "It is to insure the troops forever hearing the activity guidebook that party direct.",
    "He said \"we don't know yet\", and left the room.",
    "The company's profits rose by 5% & its shares didn't fall.",
]
EN_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party "
    "commands.",
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party.",
    "\"We don't know yet,\" he said, and he left the room.",
    "The company's profit rose 5% & its shares didn't fall.",
]
TRANSLATIONS = ROOT / "benchmarks" / "data" / "translations"
DE_HYPS = TRANSLATIONS.joinpath("hyp.txt").read_text(encoding="utf-8").splitlines()[:12]
DE_REFS = TRANSLATIONS.joinpath("ref.txt").read_text(encoding="utf-8").splitlines()[:12]
IMPLS = ["sacrebleu", "sacrebleu[tokenize=none]"]


def tokenized(lines: list[str], lang: str) -> list[str]:
    """``lines`` tokenized by sacremoses, each checked to detokenize back."""
    moses = pytest.importorskip("sacremoses")
    tokenizer, detokenizer = moses.MosesTokenizer(lang), moses.MosesDetokenizer(lang)
    found = [tokenizer.tokenize(line, escape=True, return_str=True) for line in lines]
    assert [detokenizer.detokenize(line.split()) for line in found] == lines
    return found


def sacrebleu_scores(hyps: list[str], refs: list[str]) -> dict[str, float]:
    """sacrebleu's own corpus BLEU of ``hyps``, under each implementation of IMPLS."""
    import sacrebleu

    return {"sacrebleu": sacrebleu.corpus_bleu(hyps, [refs]).score,
            "sacrebleu[tokenize=none]": sacrebleu.corpus_bleu(hyps, [refs],
                                                              tokenize="none").score}


def compared(hyps: list[str], refs: list[str], lang: str | None = None) -> Comparison:
    require_impl("sacrebleu", "bleu")
    with pytest.warns(MetricdiffWarning, match="looks prepared already"):
        return metricdiff.compare(hyps, [[ref] for ref in refs], metrics=["bleu"],
                                  impls=IMPLS, lang=lang)


@pytest.mark.parametrize(("raw_hyps", "raw_refs", "lang"),
                         [(EN_HYPS, EN_REFS, None), (DE_HYPS, DE_REFS, "de")],
                         ids=["english", "german"])
def test_each_score_again_on_the_input_detokenized(raw_hyps, raw_refs, lang):
    hyps, refs = tokenized(raw_hyps, lang or "en"), tokenized(raw_refs, lang or "en")
    found = compared(hyps, refs, lang)["bleu"].detokenized
    assert found is not None
    assert (found.lang, found.assumed) == (lang or "en", lang is None)
    assert found.sides == ("hypotheses", "references")
    given, raw = sacrebleu_scores(hyps, refs), sacrebleu_scores(raw_hyps, raw_refs)
    scores = {entry.impl: entry.score for entry in found.scores}
    for impl in IMPLS:
        assert found.as_given[impl] == pytest.approx(given[impl], abs=1e-9), impl
        assert scores[impl] == pytest.approx(raw[impl], abs=1e-9), impl
    # Escapes and split punctuation: both move, tokenize=none the more.
    assert raw["sacrebleu[tokenize=none]"] != given["sacrebleu[tokenize=none]"]
    assert "reference" in scores


def test_only_the_side_that_looks_tokenized_is_detokenized():
    hyps = tokenized(EN_HYPS, "en")
    found = compared(hyps, EN_REFS)["bleu"].detokenized
    assert found is not None and found.sides == ("hypotheses",)
    raw = sacrebleu_scores(EN_HYPS, EN_REFS)
    assert {e.impl: e.score for e in found.scores}["sacrebleu"] == pytest.approx(
        raw["sacrebleu"], abs=1e-9)


def test_compare_prints_a_line_per_implementation_and_json_a_list(capsys, tmp_path):
    require_impl("sacrebleu", "bleu")
    hyps, refs = tokenized(EN_HYPS, "en"), tokenized(EN_REFS, "en")
    given, raw = sacrebleu_scores(hyps, refs), sacrebleu_scores(EN_HYPS, EN_REFS)
    inputs = corpus_files(tmp_path, "".join(h + "\n" for h in hyps),
                          "".join(r + "\n" for r in refs))
    status, out, err = run(capsys, "compare", "--metric", "bleu", *(f"--impl={i}" for i in IMPLS),
                           *inputs)
    assert status == 0 and "looks prepared already" in err
    assert ("on the hypotheses and references detokenized by sacremoses 0.2.0's "
            "MosesDetokenizer (language en assumed: --lang, or lang= in Python, names "
            "another):") in out.splitlines()
    moved = raw["sacrebleu"] - given["sacrebleu"]
    assert (f"sacrebleu on detokenized input: {raw['sacrebleu']:.2f} (as given: "
            f"{given['sacrebleu']:.2f}; detokenizing moves it {signed(moved)})"
            ) in out.splitlines()
    status, out, _ = run(capsys, "compare", "--metric", "bleu", "--impl", "sacrebleu",
                         "--lang", "en", "--format", "json", *inputs)
    [bleu] = json.loads(out)
    assert bleu["detokenized_with"] == {"tool": "sacremoses 0.2.0", "lang": "en",
                                        "lang_assumed": False,
                                        "sides": ["hypotheses", "references"]}
    entries = {entry["impl"]: entry for entry in bleu["detokenized"]}
    assert set(entries) == {"reference", "sacrebleu"}
    assert entries["sacrebleu"]["score"] == pytest.approx(raw["sacrebleu"], abs=1e-9)
    assert entries["sacrebleu"]["as_given"] == pytest.approx(given["sacrebleu"], abs=1e-9)
    assert entries["sacrebleu"]["moves"] == pytest.approx(moved, abs=1e-9)
    assert Comparison.from_dict({"metrics": [bleu]}).to_dict() == {"metrics": [bleu]}


def test_raw_input_is_scored_once():
    require_impl("sacrebleu", "bleu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = metricdiff.compare(EN_HYPS, [[ref] for ref in EN_REFS], metrics=["bleu"],
                                   impls=["sacrebleu"])
    assert found["bleu"].detokenized is None


def test_without_sacremoses_one_sentence_says_what_installing_it_shows(monkeypatch):
    # A module set to None in sys.modules cannot be imported: sacremoses missing.
    monkeypatch.setitem(sys.modules, "sacremoses", None)
    hyps = ["The cat sat on the mat .", "He left , then .", "It rained ."]
    with pytest.warns(MetricdiffWarning) as said:
        found = metricdiff.compare(hyps, [["The cat sat."], ["He left."], ["It rained."]],
                                   metrics=["bleu"], impls=["reference[tokenize=13a]"])
    assert found["bleu"].detokenized is None
    assert any("installing metricdiff[moses] (sacremoses) would show what detokenizing"
               in str(w.message) for w in said)


def test_a_language_that_is_no_code_is_refused(capsys, tmp_path):
    inputs = corpus_files(tmp_path, "a .\n", "a.\n")
    status, _, err = run(capsys, "compare", "--metric", "bleu", "--lang", "English", *inputs)
    assert status == 2 and "lang must be a language code" in err
