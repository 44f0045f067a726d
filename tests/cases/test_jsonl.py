"""Inputs as people keep them: JSONL (``--jsonl``) for score, audit and snapshot;
the escapes of text files (``\\n`` a sentence break, ``\\\\n`` a backslash and n);
errors naming file and line with exit 2."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metricdiff.cases import Case
from metricdiff.cases.escapes import escape_sentence_breaks, unescape_sentence_breaks
from metricdiff.cases.files import read_corpus
from metricdiff.cases.jsonl import read_jsonl
from metricdiff.cli import main

BS = "\\"  # one backslash, to keep the escapes below readable


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


# --- the escapes of text files ----------------------------------------------


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("one sentence", "one sentence"),
        (f"first{BS}nsecond", "first\nsecond"),  # \n: a sentence break
        (f"C:{BS}{BS}new", f"C:{BS}new"),  # \\n: a backslash, then n
        # No match starts at the first backslash; "\\n" starts at the second.
        (f"C:{BS}{BS}{BS}new", f"C:{BS}{BS}new"),
        (f"a{BS}tb", f"a{BS}tb"),  # other backslashes stay
        (f"{BS}{BS}", f"{BS}{BS}"),
        (f"end{BS}n", "end\n"),
    ],
)
def test_unescape_examples(line, text):
    # Each expected text is the rule applied by hand, left to right: "\\n" (three
    # characters) is backslash + n, "\n" (two) a line break, anything else as is.
    assert unescape_sentence_breaks(line) == text


def test_a_backslash_and_n_survives_the_round_trip():
    assert escape_sentence_breaks(f"C:{BS}new\nnext") == f"C:{BS}{BS}new{BS}nnext"


@given(st.text(alphabet=["a", "n", BS, "\n", " "], max_size=30))
def test_escape_then_unescape_gives_the_text_back(text):
    # The one text with no spelling: a backslash right before a line break.
    if f"{BS}\n" in text:
        return
    assert unescape_sentence_breaks(escape_sentence_breaks(text)) == text


def test_escapes_apply_to_rouge_only(tmp_path, capsys):
    # By hand, reference ROUGE-1 recall (tokenize=none, one reference):
    # hyp line "C:\\new file" is the text "C:\new file": tokens "C:\new", "file".
    # ref line "C:\new file" is "C:" + line break + "ew file": tokens "C:", "ew", "file".
    # One shared token ("file") of 3 in the reference: R = 1/3.
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text(f"C:{BS}{BS}new file\n", encoding="utf-8")
    ref.write_text(f"C:{BS}new file\n", encoding="utf-8")
    status, out, err = run(capsys, "score", "--metric", "rouge-1", "--hyp", hyp, "--ref", ref,
                           "--format", "json")
    assert status == 0, err
    corpus = json.loads(out)["corpus"]
    assert (corpus["matches"], corpus["ref_total"], corpus["hyp_total"]) == (1, 3, 2)
    assert math.isclose(corpus["recall"], 1 / 3)
    # BLEU reads the characters as they are: "C:\\new" vs "C:\new" differ, "file" matches:
    # unigram precision 1/2 (sacrebleu-free by hand: two hypothesis tokens, one match).
    status, out, _ = run(capsys, "score", "--hyp", hyp, "--ref", ref, "-o", "max_order=1",
                         "--format", "json")
    assert json.loads(out)["corpus"]["precisions"] == [50.0]


# --- JSONL and text files give the same numbers ------------------------------


def test_jsonl_corpus_equals_the_text_files(tmp_path):
    (tmp_path / "hyp.txt").write_text(f"a b{BS}nc d\nx y\n", encoding="utf-8")
    (tmp_path / "r1.txt").write_text("a b c d\nx\n", encoding="utf-8")
    (tmp_path / "r2.txt").write_text("d c\ny\n", encoding="utf-8")
    data = write_jsonl(tmp_path / "data.jsonl", [
        {"hyp": "a b\nc d", "ref": ["a b c d", "d c"], "id": 1},
        {"hyp": "x y", "ref": ["x", "y"]},
    ])
    texts = read_corpus(str(tmp_path / "hyp.txt"),
                        [str(tmp_path / "r1.txt"), str(tmp_path / "r2.txt")])
    jsonl = read_jsonl(str(data))
    assert jsonl == Case(("a b\nc d", "x y"), (("a b c d", "d c"), ("x", "y")), escaped=False)
    assert texts.for_metric("rouge-lsum") == jsonl
    assert jsonl.for_metric("rouge-lsum") is jsonl  # nothing to unescape in JSON strings


@pytest.mark.parametrize("impl", ["reference", "rouge-score"])
def test_score_gives_the_same_numbers_from_jsonl(tmp_path, capsys, impl):
    if impl == "rouge-score":
        pytest.importorskip("rouge_score")
    (tmp_path / "hyp.txt").write_text(f"c d{BS}na b\nthe cat sat\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("a b c d\nthe cat ran\n", encoding="utf-8")
    data = write_jsonl(tmp_path / "d.jsonl", [{"prediction": "c d\na b", "target": "a b c d"},
                                             {"prediction": "the cat sat",
                                              "target": "the cat ran"}])
    # ROUGE only: BLEU takes a text file's characters as they are (backslash, n).
    metrics = ["--metric", "rouge-1", "--metric", "rouge-lsum"]
    common = ["score", "--impl", impl, *metrics, "--format", "json", "--sentences"]
    status, from_text, err = run(capsys, *common, "--hyp", tmp_path / "hyp.txt",
                                 "--ref", tmp_path / "ref.txt")
    assert status == 0, err
    status, from_jsonl, err = run(capsys, *common, "--jsonl", data, "--hyp-field",
                                  "prediction", "--ref-field", "target")
    assert status == 0, err
    text_docs, jsonl_docs = json.loads(from_text), json.loads(from_jsonl)
    assert [d["corpus"] for d in text_docs] == [d["corpus"] for d in jsonl_docs]
    assert [d["sentences"] for d in text_docs] == [d["sentences"] for d in jsonl_docs]
    # By hand, ROUGE-Lsum of segment 1 (Lin 2004 §3.2): the reference sentence
    # "a b c d" against the hypothesis sentences "c d" and "a b": the union of the two
    # LCSs covers a, b, c, d: 4 hits of 4 reference and 4 hypothesis tokens, R = P = 1.
    lsum = jsonl_docs[1]["sentences"][0]
    assert (lsum["recall"], lsum["precision"], lsum["matches"]) == (1.0, 1.0, 4)


def test_bleu_from_jsonl_by_hand(tmp_path, capsys):
    # The corpus of test_cli.test_score_json_corpus_and_sentences, as JSONL with two
    # references per line; derived there by hand: counts 7/8 and 6/6, c = 8, r = 9.
    data = write_jsonl(tmp_path / "d.jsonl", [
        {"hyp": "the cat sat on the mat", "ref": ["the cat sat on a mat", "a cat sat on the mat"]},
        {"hyp": "hello world", "ref": ["hello there world", "hello world again"]},
    ])
    status, out, err = run(capsys, "score", "--jsonl", data, "-o", "max_order=2",
                           "--format", "json")
    assert status == 0, err
    corpus = json.loads(out)["corpus"]
    assert corpus["counts"] == [7, 6] and corpus["totals"] == [8, 6]
    assert (corpus["sys_len"], corpus["ref_len"]) == (8, 9)
    assert math.isclose(corpus["score"], 100 * math.exp(1 - 9 / 8) * math.sqrt(7 / 8))


def test_segments_may_have_different_numbers_of_references(tmp_path, capsys):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    records = [
        {"hyp": "the cat sat on the mat", "ref": "a cat sat on a mat"},
        {"hyp": "police arrested three men",
         "ref": ["three men were arrested", "police held 3 men", "arrests made"]},
    ]
    data = write_jsonl(tmp_path / "d.jsonl", records)
    status, out, err = run(capsys, "score", "--impl", "rouge-score", "--metric", "rouge-1",
                           "--jsonl", data, "--format", "json")
    assert status == 0, err
    # Expected: rouge-score itself, score_multi per segment (best F of the
    # references), then the mean F over segments.
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    refs = [[r["ref"]] if isinstance(r["ref"], str) else r["ref"] for r in records]
    expected = [scorer.score_multi(ref, r["hyp"])["rouge1"].fmeasure
                for r, ref in zip(records, refs, strict=True)]
    assert math.isclose(json.loads(out)["corpus"]["fmeasure"], sum(expected) / 2)


# --- errors: file and line, exit 2 --------------------------------------------


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        ('{"hyp": "a", "ref": "b"}\n{"hyp": "a", "ref": }\n', [],
         "d.jsonl:2: not JSON (Expecting value at column 21)"),
        ('{"hyp": "a", "ref": "b"}\n{"hyp": "a"}\n', [],
         "d.jsonl:2: no field 'ref' (this line has: hyp); choose the field with --ref-field"),
        ('{"text": "a", "ref": "b"}\n', [],
         "d.jsonl:1: no field 'hyp' (this line has: ref, text); choose the field with "
         "--hyp-field"),
        ('{"hyp": 3, "ref": "b"}\n', [],
         "d.jsonl:1: field 'hyp' is a JSON number; the hypothesis must be a string"),
        ('{"hyp": "a", "ref": {"x": 1}}\n', [],
         "d.jsonl:1: field 'ref' is a JSON object; the references must be a string or a "
         "list of strings"),
        ('{"hyp": "a", "ref": ["b", null]}\n', [],
         "d.jsonl:1: field 'ref', item 1, is a JSON null; every reference must be a string"),
        ('{"hyp": "a", "ref": []}\n', [],
         "d.jsonl:1: field 'ref' is an empty list; give at least one reference"),
        ('["a", "b"]\n', [], "d.jsonl:1: a JSON array, not an object"),
        ('{"hyp": "a", "ref": "b"}\n\n{"hyp": "a", "ref": "b"}\n', [],
         "d.jsonl:2: empty line"),
        ('{"h": "a", "r": "b"}\n', ["--hyp-field", "h"], "d.jsonl:1: no field 'ref'"),
        (b'{"hyp": "a", "ref": "\xff"}\n', [], "d.jsonl:1: not UTF-8"),
    ],
)
def test_bad_jsonl_is_one_line_naming_file_and_line(tmp_path, capsys, content, extra, message):
    path = tmp_path / "d.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    for command in (["score"], ["audit", "--impl", "reference", "--metric", "bleu"]):
        status, out, err = run(capsys, *command, "--jsonl", path, *extra)
        assert status == 2, (command, err)
        assert err.startswith(f"metricdiff: error: {path}") and message in err, err
        assert len(err.splitlines()) == 1 and out == ""


def test_empty_lines_at_the_end_are_allowed(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('{"hyp": "a", "ref": "b"}\n\n  \n', encoding="utf-8")
    assert read_jsonl(str(path)).hyps == ("a",)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jsonl", "d.jsonl", "--hyp", "h.txt", "--ref", "r.txt"],
         "d.jsonl:0: --jsonl replaces --hyp and --ref; give one or the other"),
        (["--hyp", "h.txt", "--ref", "r.txt", "--ref-field", "x"],
         "--ref-field names a key of --jsonl's objects; give --jsonl FILE"),
        (["--hyp", "h.txt"], "h.txt:0: --hyp needs at least one --ref"),
        (["--ref", "r.txt"], "r.txt:0: --ref needs --hyp"),
        ([], "no input: give --hyp FILE --ref FILE, or --jsonl FILE"),
    ],
)
def test_input_options_that_do_not_fit_together(capsys, args, message):
    status, _, err = run(capsys, "score", *args)
    assert status == 2
    assert err == f"metricdiff: error: {message}" + (" (the hypotheses)" if "--ref needs" in
                                                     message else "") + "\n"


# --- audit and snapshot read JSONL too --------------------------------------------


def test_audit_takes_each_jsonl_line_as_a_case(tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", [{"hyp": "a b c", "ref": "a b c"},
                                              {"hyp": "x y", "ref": ["x z", "y"]}])
    status, out, err = run(capsys, "audit", "--impl", "reference", "--metric", "rouge-1",
                           "--jsonl", data, "--format", "json", "--no-minimise")
    assert status == 0, err
    assert json.loads(out) == []  # the reference alone cannot disagree with itself


def test_snapshot_of_jsonl_verifies_and_records_the_fields(tmp_path, capsys):
    data = write_jsonl(tmp_path / "d.jsonl", [{"p": "a b c d", "t": ["a b c d"]},
                                              {"p": "w x y z", "t": "w x y q"}])
    lock = tmp_path / "scores.lock"
    status, out, err = run(capsys, "snapshot", "--out", lock, "--jsonl", data,
                           "--hyp-field", "p", "--ref-field", "t", "--impl", "reference",
                           "--metric", "rouge-1")
    assert status == 0, err
    text = lock.read_text(encoding="utf-8")
    assert 'role = "jsonl"\npath = "d.jsonl"\n' in text
    assert 'hyp_field = "p"\nref_field = "t"\n' in text
    assert 'case = "d.jsonl:2"' in text
    assert run(capsys, "verify", lock)[:2] == (0, f"{lock}: all 3 scores reproduce\n")
    # An edit of the data is a drift: line 2's hypothesis now matches its reference.
    write_jsonl(data, [{"p": "a b c d", "t": ["a b c d"]}, {"p": "w x y q", "t": "w x y q"}])
    status, out, _ = run(capsys, "verify", lock)
    assert status == 1 and "d.jsonl:2" in out
