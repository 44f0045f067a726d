"""Issue 28 item 2: where an implementation's tokenizer drops most of the text,
``compare`` (text, md, json) and every result of the Python API say so, and,
past half of the tokens, that the score is not about this text.

The text is 20 real Korean question-answer pairs (``tests/data/korean_qa``).
The expected shares are counted here with rouge-score's own tokenizer
(``rouge_score.tokenize.tokenize``, what ``RougeScorer`` calls by default): a
token is a whitespace-separated piece with a letter or digit in it; it is lost
when rouge-score keeps none of its letters and digits, cut when it keeps some."""

from __future__ import annotations

import json
import warnings

import pytest

import metricdiff
from helpers import TESTS, require_impl, require_tokenizer, run
from metricdiff.errors import MetricdiffWarning

DATA = TESTS / "data" / "korean_qa"
HYPS = DATA.joinpath("hyp.txt").read_text(encoding="utf-8").splitlines()
REFS = [[ref] for ref in DATA.joinpath("ref.txt").read_text(encoding="utf-8").splitlines()]
VERDICT = "its score is not about this text"


def alnum(text: str) -> int:
    return sum(character.isalnum() for character in text)


def rouge_score_loss(texts: list[str]) -> tuple[int, int, int]:
    """(lost, cut, tokens) of ``texts`` under rouge-score's own tokenizer."""
    from rouge_score import tokenize

    tokens = [piece for text in texts for piece in text.split() if alnum(piece)]
    kept = [alnum("".join(tokenize.tokenize(token, None))) for token in tokens]
    lost = sum(k == 0 for k in kept)
    cut = sum(0 < k < alnum(token) for token, k in zip(tokens, kept, strict=True))
    return lost, cut, len(tokens)


@pytest.fixture(scope="module")
def expected() -> dict[str, str]:
    """The shares rouge-score loses, as the warning prints them (one decimal)."""
    require_impl("rouge-score", "rouge-l")
    hyp = rouge_score_loss(HYPS)
    ref = rouge_score_loss([refs[0] for refs in REFS])
    assert hyp[0] / hyp[2] > 0.5 and ref[0] / ref[2] > 0.5  # Korean: most tokens lost
    return {f"{side}_{what}": f"{100 * part / counts[2]:.1f}%"
            for side, counts in (("hyp", hyp), ("ref", ref))
            for what, part in (("lost", counts[0]), ("cut", counts[1]),
                               ("damaged", counts[0] + counts[1]))}


def message(e: dict[str, str]) -> str:
    return (f"rouge-score drops non-ASCII text: {e['hyp_lost']} of hypothesis tokens lost and "
            f"{e['hyp_cut']} cut; {e['ref_lost']} of reference tokens lost and {e['ref_cut']} "
            "cut (tokenize=rouge-score)")


def verdict(e: dict[str, str]) -> str:
    return (f"rouge-score lost {e['hyp_damaged']} of the hypothesis tokens and "
            f"{e['ref_damaged']} of the reference tokens (wholly or in part): {VERDICT}")


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_compare_says_the_score_is_not_about_this_text(capsys, expected, fmt):
    status, out, err = run(capsys, "compare", "--metric", "rouge-l", "--impl", "rouge-score",
                           "--hyp", DATA / "hyp.txt", "--ref", DATA / "ref.txt",
                           "--format", fmt, "--no-progress")
    assert status == 0, err
    bullet = "- " if fmt == "md" else ""
    lines = out.splitlines()
    assert f"{bullet}{message(expected)}" in lines, out
    assert f"{bullet}{verdict(expected)}" in lines, out


def test_compare_json_carries_the_loss_and_warns(capsys, expected):
    status, out, err = run(capsys, "compare", "--metric", "rouge-l", "--impl", "rouge-score",
                           "--hyp", DATA / "hyp.txt", "--ref", DATA / "ref.txt",
                           "--format", "json", "--no-progress")
    assert status == 0, err
    [found] = json.loads(out)
    hyp_lost, hyp_cut, hyp_tokens = rouge_score_loss(HYPS)
    lost = found["scores"]["rouge-score"]["lost_input"]
    assert (lost["hyp_lost"], lost["hyp_cut"], lost["hyp_tokens"]) == (hyp_lost, hyp_cut,
                                                                        hyp_tokens)
    assert found["warnings"] == [message(expected), verdict(expected)]
    assert "lost_input" not in found["scores"]["reference"]  # split on spaces: nothing lost
    assert err.splitlines() == [f"metricdiff: warning: {message(expected)}",
                                f"metricdiff: warning: {verdict(expected)}"]


def test_the_api_results_carry_the_loss_and_warn(expected):
    with pytest.warns(MetricdiffWarning) as caught:
        scored = metricdiff.score("rouge-score", "rouge-l", HYPS, REFS)
    assert [str(w.message) for w in caught] == [message(expected), verdict(expected)]
    assert caught[0].filename == __file__  # it points at the caller's line
    assert scored.lost_input is not None
    assert (scored.lost_input.hyp.lost, scored.lost_input.hyp.cut,
            scored.lost_input.hyp.tokens) == rouge_score_loss(HYPS)
    assert scored.to_dict()["lost_input"]["ref_tokens"] == rouge_score_loss(
        [refs[0] for refs in REFS])[2]

    with pytest.warns(MetricdiffWarning) as caught:
        compared = metricdiff.compare(HYPS, REFS, metrics=["rouge-l", "rouge-1"],
                                      impls=["rouge-score"])
    assert [str(w.message) for w in caught] == [message(expected), verdict(expected)]
    assert compared.lost_input == (scored.lost_input,)  # both metrics read the text alike
    assert compared["rouge-l"].score("rouge-score").lost == scored.lost_input

    with pytest.warns(MetricdiffWarning) as caught:
        audited = metricdiff.audit(HYPS, REFS, metrics=["rouge-l"], impls=["rouge-score"],
                                   minimise=False)
    assert [str(w.message) for w in caught] == [message(expected), verdict(expected)]
    assert audited.lost_input == (scored.lost_input,)
    assert audited.to_dict()["lost_input"] == [scored.lost_input.to_json()]


def test_nothing_lost_nothing_said():
    # The paper's profile splits on whitespace: every token reaches the metric.
    with warnings.catch_warnings():
        warnings.simplefilter("error", MetricdiffWarning)
        scored = metricdiff.score("reference", "rouge-l", HYPS, REFS)
    assert scored.lost_input is None and "lost_input" not in scored.to_dict()


def test_under_a_korean_tokenizer_nothing_is_lost(capsys, expected):
    require_tokenizer("ko-mecab")
    status, out, err = run(capsys, "compare", "--metric", "rouge-l", "--impl", "rouge-score",
                           "--impl", "rouge-score[tokenize=ko-mecab]", "--hyp",
                           DATA / "hyp.txt", "--ref", DATA / "ref.txt", "--no-progress")
    assert status == 0, err
    assert verdict(expected) in out.splitlines()
    row = next(line for line in out.splitlines()
               if line.startswith("rouge-score[tokenize=ko-mecab] "))
    assert row.split()[2] == "—", row  # its lost input column: nothing
    assert "rouge-score[tokenize=ko-mecab] lost" not in out
