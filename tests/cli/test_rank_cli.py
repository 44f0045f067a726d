"""``metricdiff rank`` and ``metricdiff.rank`` on their input: the systems as
``--hyp NAME=FILE`` or ``--jsonl`` keys, the same numbers either way and from
Python, and one-line errors for what cannot be ranked."""

from __future__ import annotations

import json

import pytest

import metricdiff
from helpers import ROOT, run

SYSTEMS = ROOT / "examples" / "systems"


def lines(name: str) -> list[str]:
    return (SYSTEMS / f"{name}.txt").read_text(encoding="utf-8").splitlines()


def test_files_jsonl_and_python_give_the_same_ranking(capsys, tmp_path):
    argv = ["rank", "--metric", "bleu", "--impl", "nltk", "--test", "bootstrap",
            "--format", "json"]
    status, out, _ = run(capsys, *argv, "--hyp", f"baseline={SYSTEMS / 'baseline.txt'}",
                         "--hyp", f"tuned={SYSTEMS / 'tuned.txt'}",
                         "--ref", SYSTEMS / "ref.txt")
    assert status == 0
    from_files = json.loads(out)
    records = [{"baseline": b, "tuned": t, "ref": [r]}
               for b, t, r in zip(lines("baseline"), lines("tuned"), lines("ref"), strict=True)]
    data = tmp_path / "systems.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    status, out, _ = run(capsys, *argv, "--jsonl", data, "--hyp-field", "baseline",
                         "--hyp-field", "tuned")
    assert status == 0 and json.loads(out) == from_files
    ranked = metricdiff.rank({"baseline": lines("baseline"), "tuned": lines("tuned")},
                             [[r] for r in lines("ref")], metrics=["bleu"], impls=["nltk"],
                             test="bootstrap")
    assert ranked.to_dict()["metrics"] == from_files
    assert ranked["bleu"]["nltk"].test("baseline", "tuned").verdict == "better"


@pytest.mark.parametrize(("argv", "message"), [
    (["--hyp", "a=x.txt", "--ref", "r.txt"], "at least two systems"),
    (["--hyp", "x.txt", "--hyp", "b=y.txt", "--ref", "r.txt"], "expected NAME=FILE"),
    (["--hyp", "a=x.txt", "--hyp", "a=y.txt", "--ref", "r.txt"], "given twice"),
    (["--hyp", "a=x.txt", "--hyp", "b=y.txt"], "no references"),
    (["--resample", "bootstrap-fast"], "unknown value 'bootstrap-fast'"),
])
def test_what_cannot_be_ranked_is_one_line(capsys, tmp_path, argv, message):
    for name in ("x.txt", "y.txt", "r.txt"):
        (tmp_path / name).write_text("a b c\n", encoding="utf-8")
    argv = [a.replace("x.txt", str(tmp_path / "x.txt")).replace("y.txt", str(tmp_path / "y.txt"))
            .replace("r.txt", str(tmp_path / "r.txt")) for a in argv]
    if argv[0] == "--resample":
        argv += ["--hyp", f"a={tmp_path / 'x.txt'}", "--hyp", f"b={tmp_path / 'y.txt'}",
                 "--ref", str(tmp_path / "r.txt")]
    status, out, err = run(capsys, "rank", "--metric", "bleu", "--impl", "nltk", *argv)
    assert status == 2 and out == ""
    assert err.startswith("metricdiff: error: ") and message in err and err.count("\n") == 1


def test_systems_of_different_lengths_are_refused(capsys, tmp_path):
    (tmp_path / "a.txt").write_text("a b\nc d\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("a b\n", encoding="utf-8")
    status, _, err = run(capsys, "rank", "--metric", "bleu", "--hyp", f"a={tmp_path / 'a.txt'}",
                         "--hyp", f"b={tmp_path / 'b.txt'}", "--ref", tmp_path / "a.txt")
    assert status == 2
    assert "different numbers of segments" in err or "lines" in err


def test_by_default_rank_takes_the_variants_compare_takes(capsys, tmp_path, monkeypatch):
    """Every available implementation, as compare takes them, includes the named
    variants (``sacrebleu+intl``); rank once asked the registry for an
    implementation of that name and stopped with a usage error (exit 2)."""
    sacrebleu = pytest.importorskip("sacrebleu")
    import metricdiff.comparison.corpus as corpus

    # Every available implementation, narrowed to sacrebleu to keep this quick.
    monkeypatch.setattr(corpus, "adapter_names", lambda: ["sacrebleu"])
    hyps_a = ["The cat sat on the mat.", "It is raining today."]
    hyps_b = ["The cat is on the mat.", "Today it rains."]
    refs = ["The cat is on the mat.", "Today it is raining."]
    files = {}
    for name, lines in (("a", hyps_a), ("b", hyps_b), ("ref", refs)):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "rank", "--metric", "bleu", "--hyp", f"a={files['a']}",
                           "--hyp", f"b={files['b']}", "--ref", files["ref"],
                           "--samples", "10", "--trials", "10", "--format", "json")
    assert status == 0, err
    [metric] = json.loads(out)
    rows = metric["implementations"]
    assert list(rows) == ["reference", "sacrebleu", "sacrebleu+intl"]
    # sacrebleu's own corpus BLEU of system b under its intl tokenizer.
    direct = sacrebleu.corpus_bleu(hyps_b, [refs], tokenize="intl").score
    assert rows["sacrebleu+intl"]["scores"]["b"]["score"] == pytest.approx(direct, abs=1e-9)
