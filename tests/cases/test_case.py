"""The one ``Case`` type and the one rule for a user's files: each line, and the
whole corpus when there is more than one line."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from metricdiff.auditing.cases import user_cases
from metricdiff.cases import Case
from metricdiff.cases.files import line_cases, read_corpus
from metricdiff.errors import InputError
from metricdiff.locks import snapshot


def write(folder: Path, hyps: str, refs: str) -> tuple[str, list[str]]:
    (folder / "h.txt").write_text(hyps, encoding="utf-8")
    (folder / "r.txt").write_text(refs, encoding="utf-8")
    return str(folder / "h.txt"), [str(folder / "r.txt")]


def test_built_from_lists_it_keeps_tuples() -> None:
    # The constructor a reader of another format (JSONL) calls: a list of
    # hypotheses and, per segment, a list of references.
    case = Case(["a b", "c"], [["a b", None], ["d"]])
    assert case.hyps == ("a b", "c")
    assert case.refs == (("a b", None), ("d",))
    assert case.sample == (("a b", "c"), (("a b", None), ("d",)))
    assert case.texts() == ["a b", "c", "a b", "d"]
    # Every field but the texts is optional and says where the case came from.
    assert (case.id, case.origin, case.klass, case.metric, case.options) == ("", "", "", "", {})


def test_size_counts_characters_and_ten_per_text() -> None:
    # By hand: "a b" (3) + "c" (1) + "a b" (3) + missing (0) + "d" (1) = 8
    # characters, and 5 texts (the missing reference counts as an empty one).
    assert Case(["a b", "c"], [["a b", None], ["d"]]).size() == 8 + 10 * 5


def test_a_fixture_case_with_options_can_be_hashed() -> None:
    one = Case(["a"], [["a"]], id="must_x", options={"tokenize": "13a"})
    same = Case(["a"], [["a"]], id="must_x", options={"tokenize": "13a"})
    assert one == same and hash(one) == hash(same)
    assert one != attrs.evolve(one, options={"tokenize": "none"})


def test_escapes_are_undone_for_rouge_only() -> None:
    # A line of a user's ROUGE file marks its sentences with a literal backslash-n.
    case = Case(["one\\ntwo"], [["one\\nthree", None]], escaped=True)
    rouge = case.for_metric("rouge-lsum")
    assert rouge.sample == (("one\ntwo",), (("one\nthree", None),))
    assert not rouge.escaped
    assert rouge.for_metric("rouge-lsum") == rouge  # undone once, not twice
    bleu = case.for_metric("bleu")
    assert bleu.sample == case.sample and not bleu.escaped
    # Texts that are not lines of a text file (JSONL, fixtures) are left alone.
    plain = Case(["one\\ntwo"], [["x"]])
    assert plain.for_metric("rouge-1") is plain


def test_every_line_and_the_corpus(tmp_path: Path) -> None:
    hyp, refs = write(tmp_path, "a b\nc d\n", "a b\nc e\n")
    cases = line_cases(read_corpus(hyp, refs), hyp)
    assert [(c.id, c.sample) for c in cases] == [
        ("h.txt:1", (("a b",), (("a b",),))),
        ("h.txt:2", (("c d",), (("c e",),))),
        ("h.txt:corpus", (("a b", "c d"), (("a b",), ("c e",)))),
    ]
    assert {(c.origin, c.klass) for c in cases} == {("user", "h.txt")}
    assert [c.location for c in cases] == [f"{hyp}:1", f"{hyp}:2", hyp]


def test_a_one_line_corpus_is_its_line(tmp_path: Path) -> None:
    # The corpus of one line is that line again: scored once, not twice.
    hyp, refs = write(tmp_path, "a b\n", "a b\n")
    assert [c.id for c in line_cases(read_corpus(hyp, refs), hyp)] == ["h.txt:1"]
    hyp, refs = write(tmp_path, "", "")
    assert line_cases(read_corpus(hyp, refs), hyp) == []


@pytest.mark.parametrize("text", ["a\\nb\n", "a\\nb\nc\n"])
def test_audit_and_snapshot_read_the_same_cases(tmp_path: Path, text: str) -> None:
    hyp, refs = write(tmp_path, text, text)
    locked = snapshot.corpus_cases(hyp, refs)
    for metric in ("bleu", "rouge-l"):
        audited = user_cases(read_corpus(hyp, refs), hyp, metric)
        assert audited == [case.for_metric(metric) for case in locked]


def test_a_lock_refuses_standard_input(tmp_path: Path) -> None:
    _, refs = write(tmp_path, "a\n", "a\n")
    with pytest.raises(InputError, match="not stdin"):
        snapshot.corpus_cases("-", refs)
