"""Settings of one implementation (``--impl 'NAME[AXIS=VALUE,...]'``): how a spec
is read, what is refused and how, and the same implementation taking part twice
in ``audit`` and in a lock.

Expected values come from the spec syntax written down in
``metricdiff.impls.settings`` (worked by hand here), from the peer
libraries called directly (rouge-score's ``use_stemmer``, sacrebleu's
``tokenize``), or from the refusals the peers' adapters document.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import TESTS
from metricdiff.cli import main
from metricdiff.impls import UnsupportedOption, computes, resolve
from metricdiff.impls.settings import ImplSpec, parse_spec
from metricdiff.profiles import ConventionError

#: Inflected words, so that a stemmer changes ROUGE-1 (cats/cat, running/runs).
HYPS = ["the cats were running on the mats", "hello worlds"]
REFS = ["the cat runs on the mat", "hello there world"]


def files(folder: Path) -> list[str]:
    (folder / "hyp.txt").write_text("".join(f"{h}\n" for h in HYPS), encoding="utf-8")
    (folder / "ref.txt").write_text("".join(f"{r}\n" for r in REFS), encoding="utf-8")
    return ["--hyp", str(folder / "hyp.txt"), "--ref", str(folder / "ref.txt")]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize(
    ("text", "name", "settings"),
    [
        ("rouge-score", "rouge-score", ()),
        ("rouge-score[stemmer=porter-nltk]", "rouge-score", (("stemmer", "porter-nltk"),)),
        # Axis order is the vocabulary's (tokenize before lowercase), spaces dropped.
        ("sacrebleu[ lowercase=unicode , tokenize=intl ]", "sacrebleu",
         (("tokenize", "intl"), ("lowercase", "unicode"))),
        # A piece without '=' continues the value before it (two weights).
        ("nltk[weights=0.5,0.5,max_order=2]", "nltk",
         (("max_order", "2"), ("weights", "0.5,0.5"))),
        # Only the first '=' separates: the value of f_measure holds one.
        ("rouge155[f_measure=beta=1.2]", "rouge155", (("f_measure", "beta=1.2"),)),
        # Values as signatures write them: 1.20 is 1.2.
        ("rouge155[weight=1.20]", "rouge155", (("weight", "1.2"),)),
        # A user's spec keeps its own colons; the trailing [...] are settings.
        ("python:my.py:bleu[tokenize=13a]", "python:my.py:bleu", (("tokenize", "13a"),)),
        # Brackets without '=' are part of the name.
        ("cmd:prog [x] {hyp} {ref}", "cmd:prog [x] {hyp} {ref}", ()),
    ],
)
def test_a_spec_is_a_name_and_settings(
    text: str, name: str, settings: tuple[tuple[str, str], ...]
) -> None:
    assert parse_spec(text) == ImplSpec(name, settings)


def test_the_display_name_is_the_canonical_spec() -> None:
    assert parse_spec("sacrebleu[lowercase=unicode,tokenize=intl]").text == (
        "sacrebleu[tokenize=intl,lowercase=unicode]"
    )
    assert parse_spec(" reference ").text == "reference"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rouge-score[stemer=porter-nltk]", "unknown axis 'stemer'"),
        ("rouge-score[stemmer=none,stemmer=porter-nltk]", "stemmer is set twice"),
        ("rouge-score[,stemmer=none]", "expected NAME[AXIS=VALUE,...]"),
        ("[stemmer=none]", "no implementation before '['"),
    ],
)
def test_a_malformed_spec_is_one_line(text: str, message: str) -> None:
    with pytest.raises(ConventionError, match=message.replace("[", r"\[")) as raised:
        parse_spec(text)
    assert "\n" not in str(raised.value) and repr(text) in str(raised.value)


# ------------------------------------------------------------------ resolving


def test_resolve_configures_the_adapter() -> None:
    adapter = resolve("rouge-score[stemmer=porter-nltk]", "rouge-1")
    assert adapter.name == "rouge-score"
    assert adapter.display_name == "rouge-score[stemmer=porter-nltk]"
    assert adapter.options("rouge-1").stemmer == "porter-nltk"
    # rouge-score's own default is no stemming (use_stemmer=False).
    assert resolve("rouge-score", "rouge-1").options("rouge-1").stemmer == "none"


def test_a_setting_outside_the_metric_family_means_it_does_not_take_part() -> None:
    assert computes("reference[stemmer=porter-nltk]", "rouge-1")
    assert not computes("reference[stemmer=porter-nltk]", "bleu")  # BLEU has no stemmer
    with pytest.raises(UnsupportedOption, match="stemmer is not an axis of bleu"):
        resolve("reference[stemmer=porter-nltk]", "bleu")


@pytest.mark.parametrize(
    ("spec", "metric", "message"),
    [
        # sacrebleu's spm/flores tokenizers fetch a SentencePiece model when first used.
        ("sacrebleu[tokenize=spm]", "bleu", "assumes no network (accepts: none, 13a, intl"),
        ("sacrebleu[tokenize=flores101]", "bleu", "assumes no network"),
        ("sacrebleu[tokenize=flores200]", "bleu", "assumes no network"),
        # pycocoevalcap counts up to 4-grams whatever its n (cook_append).
        ("pycocoevalcap[max_order=5]", "bleu",
         "pycocoevalcap cannot honour max_order=5 (its max_order is 4; accepts: 1, 2, 3)"),
        # sacrebleu's lowercase is str.lower() or nothing.
        ("sacrebleu[lowercase=ascii]", "bleu", "accepts: none, unicode"),
        ("rouge-score[stemmer=porter]", "rouge-1", "unknown value 'porter' for axis 'stemmer'"),
        ("rouge-score[variant=l]", "rouge-1", "set by the metric name"),
    ],
)
def test_a_setting_it_cannot_honour_is_refused_naming_what_it_accepts(
    spec: str, metric: str, message: str
) -> None:
    with pytest.raises(ConventionError) as raised:
        resolve(spec, metric)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_score_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = cli(capsys, "score", "--impl", "sacrebleu[tokenize=spm]", *files(tmp_path))
    assert (status, out) == (2, "")
    assert err.startswith("metricdiff: error: sacrebleu cannot honour tokenize=spm: ")
    assert err.count("\n") == 1


# ------------------------------------------------------------------ score


def test_score_with_settings_is_the_library_so_configured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    status, out, err = cli(capsys, "score", "--impl", "rouge-score[stemmer=porter-nltk]",
                           "--metric", "rouge-1", "--sentences", "--format", "json",
                           *files(tmp_path))
    assert status == 0, err
    document = json.loads(out)
    # rouge-score itself with use_stemmer=True, segment by segment.
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    expected = [
        scorer.score(ref, hyp)["rouge1"].fmeasure for hyp, ref in zip(HYPS, REFS, strict=True)
    ]
    assert [s["fmeasure"] for s in document["sentences"]] == pytest.approx(expected, abs=1e-12)
    assert document["options"]["stemmer"] == "porter-nltk"
    assert "|stem:porter-nltk|" in document["signature"]


def test_o_and_settings_must_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = "sacrebleu[tokenize=intl]"
    status, _, err = cli(capsys, "score", "--impl", spec, "-o", "tokenize=13a", *files(tmp_path))
    assert status == 2 and err == (
        "metricdiff: error: sacrebleu[tokenize=intl]: tokenize is set to intl in --impl and "
        "to 13a with -o; set it in one place\n"
    )
    # The same value in both places, or different axes, are fine.
    sacrebleu = pytest.importorskip("sacrebleu")
    for extra in (["-o", "tokenize=intl"], ["-o", "lowercase=unicode"]):
        status, out, err = cli(capsys, "score", "--impl", spec, *extra, "--format", "json",
                               *files(tmp_path))
        assert status == 0, err
        lowercase = extra[1] == "lowercase=unicode"
        # sacrebleu's own corpus_bleu under the same two settings.
        expected = sacrebleu.corpus_bleu(HYPS, [REFS], tokenize="intl", lowercase=lowercase)
        assert json.loads(out)["corpus"]["score"] == pytest.approx(expected.score, abs=1e-9)


# ------------------------------------------------------------------ audit


def test_audit_with_two_settings_of_one_implementation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rouge_score")
    out_dir = tmp_path / "out"
    stemmed = "rouge-score[stemmer=porter-nltk]"
    status, out, err = cli(capsys, "audit", "--metric", "rouge-1", "--impl", "rouge-score",
                           "--impl", stemmed, "--pair", f"rouge-score,{stemmed}",
                           "--no-minimise", "--format", "json", "--out", str(out_dir),
                           *files(tmp_path))
    assert status == 0, err
    findings = json.loads(out)
    # Both declared: their pair is derived from the star, never a finding of its own.
    assert not [f for f in findings if f["kind"] == "agreement"]
    assert stemmed in {f["impl_b"] for f in findings if f["kind"] == "departure"}
    # Stemming turns cats/cat, running/runs, mats/mat, worlds/world into matches:
    # the two take part side by side and part on the stemmer alone.
    [pair] = [p for p in json.loads((out_dir / "pairs.json").read_text(encoding="utf-8"))
              if p["why"] == "asked"]
    assert (pair["impl_a"], pair["impl_b"]) == ("rouge-score", stemmed)
    assert pair["differing"] == pair["predicted"] > 0
    assert [(c["axis"], c["values"]) for c in pair["causes"]] == [
        ("stemmer", ["none", "porter-nltk"])]


def test_audit_o_is_for_your_own_implementation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = cli(capsys, "audit", "--impl", "rouge-score", "-o", "stemmer=porter-nltk",
                         *files(tmp_path))
    assert status == 2
    assert "give it with the name: --impl 'rouge-score[stemmer=porter-nltk]'" in err


# ------------------------------------------------------------------ locks


def test_snapshot_records_settings_and_verify_applies_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    lock = tmp_path / "scores.lock"
    status, out, err = cli(capsys, "snapshot", "--out", lock, "--metric", "rouge-1",
                           "--impl", "rouge-score", "--impl", "rouge-score[ stemmer=porter-nltk ]",
                           *files(tmp_path))
    assert status == 0, err
    assert out.endswith("implementations: rouge-score, rouge-score[stemmer=porter-nltk]\n")
    text = lock.read_text(encoding="utf-8")
    assert '[impl."rouge-score[stemmer=porter-nltk]".signature]' in text
    # Line 1 under rouge-score's own stemmer, computed by the library.
    expected = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score(REFS[0], HYPS[0])
    stemmed = text.split('impl = "rouge-score[stemmer=porter-nltk]"')[1]
    assert f"fmeasure = {expected['rouge1'].fmeasure!r}" in stemmed.split("[[score]]")[0]
    assert cli(capsys, "verify", lock)[0] == 0
    # Verify applies the settings the lock names: other settings, other numbers.
    other = tmp_path / "other.lock"
    other.write_text(text.replace("[stemmer=porter-nltk]", "[stemmer=none]"), encoding="utf-8")
    status, out, _ = cli(capsys, "verify", other)
    assert status == 1
    assert "rouge-score[stemmer=none] rouge-1: signature stem:porter-nltk -> stem:none" in out


def test_snapshot_refuses_a_setting_before_scoring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = tmp_path / "scores.lock"
    status, _, err = cli(capsys, "snapshot", "--out", lock, "--metric", "bleu",
                         "--impl", "sacrebleu[tokenize=spm]", *files(tmp_path))
    assert status == 2 and "assumes no network" in err and not lock.exists()


def test_settings_declare_the_profile_of_your_own_implementation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"python:{TESTS / 'example_impls' / 'my_bleu.py'}:bleu"
    documents = []
    for argv in (["--impl", f"{spec}[lowercase=unicode]"],
                 ["--impl", spec, "-o", "lowercase=unicode"]):
        status, out, err = cli(capsys, "score", *argv, "--format", "json", *files(tmp_path))
        assert status == 0, err
        documents.append(json.loads(out))
    # Declared in the spec as with -o: a profile, not "unknown".
    assert documents[0]["signature"] == documents[1]["signature"]
    assert "|lc:unicode|" in documents[0]["signature"]
    assert documents[0]["options"] == documents[1]["options"] is not None
