"""Input that looks prepared already (Post 2018): each sign on lines made to show
it, none on real translations (benchmarks/data/translations, German, French with
its spaces before ! and ?, Russian), and the warning from the API and the CLI."""

from __future__ import annotations

import warnings

import pytest

import metricdiff
from helpers import corpus_files, run, translation_pairs
from metricdiff.cases.prepared import prepared_input
from metricdiff.errors import MetricdiffWarning

REFS = [["The cat didn't sit on the mat."], ["He said \"yes\", then left."],
        ["It rained."]]


def test_one_line_of_three_is_not_a_tokenizers_work():
    # a quotation that ends in " ." is not tokenized text (LEAST_LINES)
    assert prepared_input(["He said: « non » .", "Yes.", "No."],
                          [["a"], ["b"], ["c"]]) is None


def test_real_text_looks_raw():
    hyps, refs = translation_pairs(step=1)
    assert prepared_input(hyps, refs) is None
    assert prepared_input(["Bonjour ! Ça va ?", "Oui : merci ; au revoir !"],
                          [["Bonjour !"], ["Oui."]]) is None


@pytest.mark.parametrize(("hyps", "sign", "advice"), [
    (["The cat did n't sit on the mat .", "He said &quot; yes &quot; , then left .",
      "It rained ."], "tokenized", "detokenize"),
    (["The cat didn&apos;t sit.", "He said &quot;yes&quot;.", "It&apos;s rain."],
     "escaped", "unescape"),
    (["The cat did@@ n't sit", "He said yes", "It rained"], "bpe", "@@"),
    (["\u2581The \u2581cat \u2581sat", "\u2581He \u2581said", "\u2581It \u2581rained"],
     "sentencepiece", "spm_decode"),
    (["the cat didn't sit on the mat.", "he said \"yes\", then left.", "it rained."],
     "lowercased", "cased"),
])
def test_each_sign_is_named_with_its_share_and_what_to_do(hyps, sign, advice):
    found = prepared_input(hyps, REFS)
    assert found is not None
    named = {s.name: s for s in found.signs}
    assert named[sign].side == "hypothesis"
    assert named[sign].share == (1 / 3 if sign == "bpe" else 1.0)
    assert advice in found.message() and "Post 2018" in found.message()


def test_the_api_warns_and_still_scores():
    hyps = ["The cat did n't sit on the mat .", "He said yes , then left .", "It rained ."]
    with pytest.warns(MetricdiffWarning, match="100% of hypothesis lines"):
        result = metricdiff.score("reference", "bleu", hyps, REFS)
    assert result.score >= 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        metricdiff.score("reference", "bleu", ["The cat sat."], [["The cat sat."]])


def test_score_and_compare_say_it_on_stderr(capsys, tmp_path):
    inputs = corpus_files(tmp_path, "The cat sat .\nHe left , then .\nIt rained .\n",
                          "The cat sat.\nHe left, then.\nIt rained.\n")
    for command in (["score", "--impl", "reference"], ["compare", "--metric", "bleu",
                                                         "--impl", "nltk"]):
        status, _, err = run(capsys, *command, *inputs)
        assert status == 0
        assert err.startswith("metricdiff: warning: the input looks prepared already: 100% of "
                              "hypothesis")
