"""Input a tokenizer deletes: rouge-score, py-rouge and the Perl script keep only
ASCII letters and digits, so on Korean, Russian or Japanese text most tokens never
reach the metric.  ``lost_input`` counts them; ``score`` and ``audit`` warn;
``signature --explain`` says what those tokenizers do.  Every expected share
below is counted by hand: tokens are the space-separated pieces with a letter or
digit in them."""

from __future__ import annotations

import json
import re
import string

import pytest

from metricdiff.cli import main
from metricdiff.impls import get_adapter
from metricdiff.impls.text import lost_input as lost_input_module
from metricdiff.impls.text.lost_input import Loss, lost_input
from metricdiff.impls.text.tokenizers import TokenizerUnavailable, get_tokenizer
from metricdiff.profiles import AXES

# Korean: 5 tokens, the 4 Hangul ones lost, "today" kept.
KO_HYP = "나는 오늘 학교에 간다 today"
# 8 tokens: 7 Hangul ones lost; "2024년" keeps "2024" and loses "년": cut.
KO_REF = "그는 2024년 서울에서 열린 회의에 참석했다 그리고 발표했다"
# Russian: 7 tokens, the 6 Cyrillic ones lost, "2024" kept.
RU = "Кошка сидит на ковре в 2024 году"
# Japanese, written without spaces: "東京は日本の首都です。" is one token, lost;
# "Tokyo", "is", "big" are kept: 1 of 4.
JA = "東京は日本の首都です。 Tokyo is big"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_korean_under_rouge_score():
    lost = lost_input("rouge-score", "rouge-score", [KO_HYP], [[KO_REF]])
    assert lost is not None
    assert (lost.hyp, lost.ref) == (Loss(4, 0, 5), Loss(7, 1, 8))
    assert lost.non_ascii
    assert lost.message() == (
        "rouge-score drops non-ASCII text: 80.0% of hypothesis tokens lost; 87.5% of "
        "reference tokens lost and 12.5% cut (tokenize=rouge-score)"
    )


@pytest.mark.parametrize("impl", ["rouge-score", "py-rouge", "rouge155"])
def test_every_ascii_only_tokenizer_loses_russian_and_japanese(impl):
    tokenize = get_adapter(impl, "rouge-1").default_options("rouge-1").tokenize
    lost = lost_input(impl, tokenize, [JA], [[RU], [None]])
    assert lost is not None
    assert (lost.hyp, lost.ref) == (Loss(1, 0, 4), Loss(6, 0, 7))
    assert lost.message() == (
        f"{impl} drops non-ASCII text: 25.0% of hypothesis tokens lost; 85.7% of "
        f"reference tokens lost (tokenize={tokenize})"
    )


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "char", "zh", "nltk-word"])
def test_tokenizers_that_keep_every_letter_lose_nothing(tokenize):
    if tokenize == "nltk-word":
        pytest.importorskip("nltk")
    assert lost_input("x", tokenize, [KO_HYP, JA], [[KO_REF, RU]]) is None


def test_accented_words_are_cut_not_lost():
    # "été" -> "t" (2 of 3 letters gone), "là" -> "l": both cut; "le" kept.
    lost = lost_input("rouge-score", "rouge-score", ["le été là"], [["le"]])
    assert lost is not None
    assert (lost.hyp, lost.ref) == (Loss(0, 2, 3), Loss(0, 0, 1))
    assert lost.message() == ("rouge-score drops non-ASCII text: 66.7% of hypothesis "
                              "tokens cut (tokenize=rouge-score)")


def test_case_folding_and_punctuation_are_not_losses():
    # "İstanbul" lowercases to "i" + U+0307 (a mark, no letter) + "stanbul": rouge-score
    # keeps "i" and "stanbul", all 8 letters.  "—" and "..." have no letter: no tokens.
    assert lost_input("rouge-score", "rouge-score", ["İstanbul — ..."], [["Kelvin"]]) is None


def test_ascii_separators_are_not_losses():
    # rouge155 deletes "_" and "-": "a_b" still gives a and b, "x_" gives x, and "-"
    # has no letter.  Nothing lost.
    assert lost_input("rouge155", "rouge155", ["a_b x_ -"], [["y"]]) is None


def test_a_loss_of_ascii_text_is_not_called_non_ascii(monkeypatch):
    from metricdiff.impls.text import lost_input as module

    class NoDigits:
        keeps_ascii = False  # it drops ASCII digits

        def __call__(self, text):
            return [t for t in text.split() if not t.isdigit()]

    monkeypatch.setattr(module, "get_tokenizer", lambda name: NoDigits())
    module._letters_kept.cache_clear()
    # "12" and "7" lost, "cats" kept: 2 of 3 hypothesis tokens.
    lost = lost_input("mine", "digits-gone", ["12 cats 7"], [["cats"]])
    module._letters_kept.cache_clear()
    assert lost is not None and not lost.non_ascii
    assert lost.message() == ("mine drops part of the input: 66.7% of hypothesis tokens "
                              "lost (tokenize=digits-gone)")


def test_a_tokenizer_that_cannot_run_here_says_nothing(monkeypatch):
    from metricdiff.impls.text import lost_input as module
    from metricdiff.impls.text.tokenizers import TokenizerUnavailable

    def missing(name):
        raise TokenizerUnavailable("MeCab is not installed")

    monkeypatch.setattr(module, "get_tokenizer", missing)
    module._letters_kept.cache_clear()
    assert lost_input("sacrebleu", "ja-mecab", [JA], [[JA]]) is None


# Each ASCII letter and digit, alone and inside words with punctuation, as the
# tokenizers cut them.  (Not mteval's markup: 13a and intl unescape "&quot;".)
ASCII_TEXTS = [
    *string.ascii_letters, *string.digits, string.ascii_letters + string.digits,
    "Don't can't o'clock d'Arc 'tis", "U.S.A. e.g. 3,500.25 1990-1995 45% $40",
    "a-b_c (x) [y] {z} \"Quote\" x86_64 C++ AT&T user@mail.com http://a.b/c?d=1",
    "first line\nsecond-\nline\ttab  two  spaces",
]


@pytest.mark.parametrize("tokenize", AXES["tokenize"].values)
def test_every_tokenizer_keeps_ascii_as_it_claims(tokenize):
    # lost_input skips ASCII text for a tokenizer with keeps_ascii: check the claim.
    try:
        tokenizer = get_tokenizer(tokenize)
    except TokenizerUnavailable as why:
        pytest.skip(str(why))
    assert tokenizer.keeps_ascii
    for text in ASCII_TEXTS:
        kept = "".join(tokenizer(text))
        assert len(re.findall(r"[^\W_]", kept)) == len(re.findall(r"[^\W_]", text)), text


def test_an_ascii_corpus_is_decided_without_tokenizing(monkeypatch):
    from metricdiff.impls.text import lost_input as module

    def unused(tokenize, token):
        raise AssertionError("tokenized")

    monkeypatch.setattr(module, "_letters_kept", unused)
    assert lost_input("rouge-score", "rouge-score", ["plain text."], [["more, text"]]) is None
    # A non-ASCII token is looked at, the ASCII ones still are not.
    with pytest.raises(AssertionError, match="tokenized"):
        lost_input("rouge-score", "rouge-score", ["plain café"], [["text"]])


# --- the commands say so --------------------------------------------------------


@pytest.fixture
def korean(tmp_path):
    data = tmp_path / "ko.jsonl"
    data.write_text(json.dumps({"hyp": KO_HYP, "ref": KO_REF}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    return data


def test_score_warns_with_the_share_lost(capsys, korean):
    pytest.importorskip("rouge_score")
    status, out, err = run(capsys, "score", "--impl", "rouge-score", "--metric", "rouge-1",
                           "--metric", "rouge-l", "--jsonl", korean, "--format", "json")
    assert status == 0
    assert err == ("metricdiff: warning: rouge-score drops non-ASCII text: 80.0% of "
                   "hypothesis tokens lost; 87.5% of reference tokens lost and 12.5% cut "
                   "(tokenize=rouge-score)\n"
                   "metricdiff: warning: rouge-score lost 80.0% of the hypothesis tokens and "
                   "100.0% of the reference tokens (wholly or in part): its score is not about "
                   "this text\n")
    for document in json.loads(out):
        assert document["lost_input"] == {
            "impl": "rouge-score", "tokenize": "rouge-score", "non_ascii": True,
            "hyp_lost": 4, "hyp_cut": 0, "hyp_tokens": 5,
            "ref_lost": 7, "ref_cut": 1, "ref_tokens": 8,
        }


def test_score_under_a_tokenizer_that_keeps_the_text_is_silent(capsys, korean):
    status, out, err = run(capsys, "score", "--metric", "rouge-1", "--jsonl", korean,
                           "--format", "json")
    assert (status, err) == (0, "")
    assert "lost_input" not in json.loads(out)
    # The reference told to tokenize as rouge-score loses what rouge-score loses.
    status, _, err = run(capsys, "score", "--metric", "rouge-1", "-o", "tokenize=rouge-score",
                         "--jsonl", korean)
    assert err.startswith("metricdiff: warning: reference drops non-ASCII text: 80.0% of "
                          "hypothesis")


def test_audit_warns_under_the_metric(capsys, korean):
    pytest.importorskip("rouge_score")
    status, out, err = run(capsys, "audit", "--impl", "reference", "--impl", "rouge-score",
                           "--metric", "rouge-1", "--jsonl", korean, "--no-minimise")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("== rouge-1: ")
    assert lines[1] == ("   warning: rouge-score drops non-ASCII text: 80.0% of hypothesis "
                        "tokens lost; 87.5% of reference tokens lost and 12.5% cut "
                        "(tokenize=rouge-score)")
    # More than half of either side is lost (by hand, as above): the score is not
    # about this text (issue 28 item 2).
    assert lines[2] == ("   warning: rouge-score lost 80.0% of the hypothesis tokens and "
                        "100.0% of the reference tokens (wholly or in part): its score is not "
                        "about this text")
    assert sum("warning:" in line for line in lines) == 2  # +stemmed is the same tokenizer


def test_signature_explain_says_what_the_ascii_only_tokenizers_delete(capsys):
    status, out, _ = run(capsys, "signature", "--impl", "rouge-score", "--metric", "rouge-1",
                         "--explain")
    assert status == 0
    text = " ".join(out.split())  # the table wraps long meanings
    assert "all non-ASCII text included, is deleted" in text
    assert "case is kept; but tokenize=rouge-score lowercases by itself (str.lower())" in text
    status, out, _ = run(capsys, "signature", "--impl", "rouge155", "--metric", "rouge-1",
                         "--explain")
    assert "all non-ASCII text included, are deleted" in " ".join(out.split())


def test_past_half_the_score_is_not_about_the_text():
    # By hand: "나는 today" is 2 tokens, the Hangul one lost: half, not more.
    half = lost_input("rouge-score", "rouge-score", ["나는 today"], [["today is"]])
    assert half is not None and half.verdict() is None
    # "나는 오늘 today": 2 of 3 lost, 66.7%; the reference loses nothing.
    most = lost_input("rouge-score", "rouge-score", ["나는 오늘 today"], [["today is"]])
    assert most is not None
    assert most.verdict() == ("rouge-score lost 66.7% of the hypothesis tokens: its score "
                              "is not about this text")
    assert most.verdict(["rouge-score", "py-rouge"]) == (
        "rouge-score, py-rouge lost 66.7% of the hypothesis tokens: their scores are not "
        "about this text")
    # KO_REF: 7 of 8 tokens lost and "2024년" cut: 100.0% of them, wholly or in part.
    both = lost_input("rouge-score", "rouge-score", [KO_HYP], [[KO_REF]])
    assert both is not None
    assert both.verdict() == ("rouge-score lost 80.0% of the hypothesis tokens and 100.0% of "
                              "the reference tokens (wholly or in part): its score is not "
                              "about this text")


def test_each_implementation_gets_its_tokenizers_loss_counted_once(monkeypatch):
    # Oracle: lost_input per implementation, as compare called it before.
    # Two implementations sharing a tokenizer and a corpus cost one count.
    korean, russian = ((KO_HYP,), ((KO_REF,),)), ((RU,), ((RU,),))
    asked = [("rouge-score", "rouge-score", korean), ("py-rouge", "rouge-score", korean),
             ("rouge155", "rouge155", korean), ("reference", "none", korean),
             ("mine", None, korean), ("rouge-score", "rouge-score", russian)]
    alone = [None if tokenize is None else lost_input(impl, tokenize, *corpus)
             for impl, tokenize, corpus in asked]
    counted = []
    real = lost_input_module.lost_input
    monkeypatch.setattr(lost_input_module, "lost_input",
                        lambda *args: counted.append(args[1]) or real(*args))
    assert lost_input_module.lost_input_each(asked) == alone
    assert sorted(counted) == ["none", "rouge-score", "rouge-score", "rouge155"]
    assert alone[1] is not None and alone[1].impl == "py-rouge"
    assert alone[5] is not None and alone[5].hyp == Loss(6, 0, 7)  # "2024" kept
