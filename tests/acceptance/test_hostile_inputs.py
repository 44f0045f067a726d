"""Hostile and careless inputs, in one place: what a new user (or an attacker
writing the data) might hand metricdiff, and what must come of it.  The next
hostile input has its home here.

Grouped by what the input attacks:

* report.md: data that tries to become live Markdown or HTML;
* output files: a write cut short (Ctrl-C, a full disk) must leave the previous
  complete file, or none;
* option values that make no sense (``--timeout 0``, ``--jobs 0``...): one-line
  errors, not tracebacks;
* input files: standard input named twice, a UTF-8 byte order mark;
* wording: counts of one.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import metricdiff.auditing.output as audit_output
from helpers import TESTS, file_size_limit, sleeping
from metricdiff.cli import main
from metricdiff.cli._user_impls import write_inferred
from metricdiff.comparison.expectations import Outcome
from metricdiff.locks.snapshot import Verification
from metricdiff.reports import audit_reports
from metricdiff.reports import check as check_report

GOLDEN = TESTS / "golden" / "audit_small"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    """The one line a usage error prints (argparse exits with status 2)."""
    with pytest.raises(SystemExit) as exited:
        main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert exited.value.code == 2, err
    assert err.startswith("metricdiff: error: ") and err.count("\n") == 1, err
    return err


# ------------------------------------------------ report.md: data as live markup

#: What each hostile text tries: a double-backtick run closing a single- or
#: double-backtick fence, a text starting and ending with a backtick (which the
#: padding rule of CommonMark code spans must keep), raw HTML outside any span.
HOSTILE_HYP = "x ``<img src=x onerror=alert(1)>`` y"
HOSTILE_REF = "`<b>x</b>`"
HOSTILE_ERROR = "ValueError: ```<img src=x onerror=alert(2)>```"
#: An implementation's name is data too: a ``cmd:`` spec is any text.
HOSTILE_IMPL = "cmd:echo `` <img src=x onerror=alert(3)> `` {hyp}"
HOSTILE_REASON = "<img src=x onerror=alert(4)> [link](javascript:alert(5)) *x*"


def hostile_audit(tmp_path: Path) -> Path:
    """The golden audit folder with hostile text in every kind of data report.md
    shows: texts, an error, an implementation's name, a tolerance's reason and a
    skipped implementation's reason."""
    folder = tmp_path / "audit"
    shutil.copytree(GOLDEN, folder)
    name = json.dumps(HOSTILE_IMPL)[1:-1]  # as it is spelt inside a JSON string
    for path in folder.iterdir():
        path.write_text(path.read_text(encoding="utf-8").replace("crashy", name),
                        encoding="utf-8")
    findings_path = folder / "findings.json"
    findings = json.loads(findings_path.read_text(encoding="utf-8"))
    for finding in findings:
        finding["example"].update(hypothesis=HOSTILE_HYP, references=[HOSTILE_REF],
                                  error=HOSTILE_ERROR if finding["kind"] == "crash" else "")
        finding["example"].pop("segments", None)  # one segment now, not an excerpt
        finding["example"].pop("shown", None)
    findings_path.write_text(json.dumps(findings), encoding="utf-8")
    about_path = folder / "audit.json"
    about = json.loads(about_path.read_text(encoding="utf-8"))
    about["metrics"][0]["skipped"] = [HOSTILE_REASON]
    tolerance = about["metrics"][0]["participants"][1]["tolerance"]
    tolerance.update(absolute=0.5, reason=HOSTILE_REASON)
    about_path.write_text(json.dumps(about), encoding="utf-8")
    return folder


class Rendered(HTMLParser):
    """The tags of rendered Markdown, its text, and the text of each ``<code>``
    element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.text = ""
        self.codes: list[str] = []
        self._code: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag == "code":
            self._code = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "code" and self._code is not None:
            self.codes.append("".join(self._code))
            self._code = None

    def handle_data(self, data: str) -> None:
        self.text += data
        if self._code is not None:
            self._code.append(data)


#: The tags report.md's own Markdown makes: headings, paragraphs, lists, tables,
#: code spans, bold and italic.  Any other tag came from the data.
MARKDOWN_TAGS = {"h1", "h2", "h3", "h4", "p", "ul", "li", "table", "thead", "tbody", "tr", "th",
                 "td", "code", "strong", "em"}


def test_no_data_in_report_md_becomes_raw_html(tmp_path: Path) -> None:
    text = audit_reports.render_reports(hostile_audit(tmp_path))["report.md"]
    page = rendered_markdown(text)
    # Each hostile text shows exactly as written, inside one code span: a fence
    # closed early or padding lost would cut or change it.
    for hostile in (HOSTILE_HYP, HOSTILE_REF, HOSTILE_ERROR, HOSTILE_IMPL):
        assert any(hostile in code for code in page.codes), hostile
    assert "crashy" not in text


def rendered_markdown(text: str) -> Rendered:
    """``text`` rendered as a GitHub-like viewer does (CommonMark with raw HTML
    allowed, GFM's tables and strikethrough), checked to hold no raw HTML and no
    link: only the tags Markdown itself makes."""
    markdown_it = pytest.importorskip("markdown_it")
    renderer = markdown_it.MarkdownIt("commonmark", {"html": True}).enable(
        ["table", "strikethrough"])
    tokens = [t for block in renderer.parse(text) for t in [block, *(block.children or [])]]
    assert [t.content for t in tokens if t.type in ("html_inline", "html_block")] == []
    assert not [t for t in tokens if t.type == "link_open"]
    page = Rendered()
    page.feed(renderer.render(text))
    assert page.tags <= MARKDOWN_TAGS
    return page


def test_no_data_in_check_md_becomes_raw_html() -> None:
    """``check --impl`` takes your own implementation too; a crash's detail is its
    exception's message, and a fixture's case ID any text."""
    crash = Outcome("must_<b>x</b>", HOSTILE_IMPL, {}, "crash", HOSTILE_ERROR)
    fail = Outcome("must_y", "reference", {}, "FAIL", HOSTILE_REASON)
    text = check_report.render_markdown([crash, fail], [HOSTILE_IMPL, "reference"],
                                        {f"{HOSTILE_IMPL} (bleu)": HOSTILE_REF})
    page = rendered_markdown(text)
    for hostile in (HOSTILE_IMPL, HOSTILE_REF):  # names and signatures: code spans
        assert any(hostile in code for code in page.codes), hostile
    for hostile in ("must_<b>x</b>", HOSTILE_ERROR, HOSTILE_REASON):  # escaped text
        assert hostile in page.text, hostile


# ------------------------------------------- output files: a write cut short


#: Smaller than every file the writers below make, larger than what they replace.
LIMIT = 1024
PREVIOUS = "the previous, complete file\n"


def big(text: str) -> str:
    """Text longer than ``LIMIT`` bytes."""
    return text * (2 * LIMIT // len(text) + 1)


def writers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Each output file writer (one call writing into ``tmp_path``), by the name of
    the file whose write fails first; inputs large enough to pass ``LIMIT``."""
    fixture = {"id": "conv_x", "description": big("long "), "hyps": [], "refs": []}
    monkeypatch.setattr(audit_output, "fixture_of", lambda _finding, _witness: fixture)
    audits: Any = [SimpleNamespace(findings=[None], witnesses=[None])]
    inference: Any = SimpleNamespace(to_json=lambda: {"note": big("long ")})
    return {
        "report.md": lambda: audit_reports.write_reports(GOLDEN, tmp_path),
        "check.md": lambda: check_report.write_reports(tmp_path, [], [],
                                                       {"x": big("signature ")}),
        "inferred.json": lambda: write_inferred(tmp_path, [inference]),
        "found.toml": lambda: audit_output.save_fixtures(tmp_path, audits),
    }


@pytest.mark.parametrize("name", ["report.md", "check.md", "inferred.json", "found.toml"])
def test_a_write_cut_short_leaves_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    write = writers(tmp_path, monkeypatch)[name]
    (tmp_path / name).write_text(PREVIOUS, encoding="utf-8")
    with file_size_limit(LIMIT), pytest.raises((OSError, ValueError)):
        write()
    assert (tmp_path / name).read_text(encoding="utf-8") == PREVIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary file left


def test_ctrl_c_while_writing_results_jsonl_leaves_the_previous_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: a SIGINT during the write of a long results.jsonl left it
    at 0 bytes (and no audit.json), after which ``report --from`` failed."""
    for name in ("findings.json", "results.jsonl", "audit.json"):
        (tmp_path / name).write_text(PREVIOUS, encoding="utf-8")

    def rows_then_interrupted(_audit: object) -> Iterator[dict[str, str]]:
        for index in range(1000):
            yield {"row": str(index)}
        raise KeyboardInterrupt

    monkeypatch.setattr(audit_output, "findings_json", lambda _audits: [{"new": True}])
    monkeypatch.setattr(audit_output, "result_rows", rows_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        audit_output.write_findings(tmp_path, [SimpleNamespace()])  # type: ignore[list-item]
    assert (tmp_path / "results.jsonl").read_text(encoding="utf-8") == PREVIOUS
    assert (tmp_path / "audit.json").read_text(encoding="utf-8") == PREVIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "audit.json", "findings.json", "results.jsonl"]


# ----------------------------------------- option values that make no sense


def corpus(tmp_path: Path) -> list[str]:
    hyp = tmp_path / "h.txt"
    hyp.write_text("the cat sat on the mat\n", encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(hyp)]


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--timeout", "0", "a number of seconds greater than 0"),
        ("--timeout", "-1", "a number of seconds greater than 0"),
        ("--timeout", "nan", "a number of seconds greater than 0"),
        ("--jobs", "0", "a whole number, from 1 to 256"),
        ("--generate", "-5", "a whole number, from 0 to 1,000,000"),
    ],
)
def test_a_senseless_audit_option_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, says: str
) -> None:
    err = usage_error(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                      *corpus(tmp_path), option, value)
    assert f"argument {option}: " in err and says in err and repr(value) in err, err


# ------------------------------------------------------------- input files


@pytest.mark.parametrize("inputs", [["--hyp", "-", "--ref", "-"],
                                    ["--hyp", "h.txt", "--ref", "-", "--ref", "-"]])
def test_standard_input_named_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    inputs: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    corpus(tmp_path)
    stdin = io.TextIOWrapper(io.BytesIO(f"{SENTENCE}\n".encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", "reference",
                           *inputs)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "standard input" in err and "only once" in err, err


SENTENCE = "the cat sat on the mat"
BOM = b"\xef\xbb\xbf"


def test_a_byte_order_mark_is_dropped_and_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_bytes(BOM + f"{SENTENCE}\n{SENTENCE}\n".encode())
    ref.write_text(f"{SENTENCE}\n{SENTENCE}\n", encoding="utf-8")
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", "reference",
                           "--hyp", hyp, "--ref", ref)
    # Identical texts: every n-gram precision 1 and BP 1, so BLEU = 100 (Papineni
    # et al. 2002, eq. 1); the mark left in would make "\ufeffthe" a token of its own.
    assert status == 0 and out.startswith("BLEU = 100.00 "), out
    assert err.startswith(f"metricdiff: warning: {hyp}:1: dropped") and "U+FEFF" in err, err
    assert err.count("\n") == 1, err


def test_a_byte_order_mark_before_jsonl_is_dropped_and_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data.jsonl"
    record = json.dumps({"hyp": SENTENCE, "ref": SENTENCE})
    data.write_bytes(BOM + f"{record}\n".encode())
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", "reference",
                           "--jsonl", data)
    # As above: a hypothesis identical to its reference scores 100.
    assert status == 0 and out.startswith("BLEU = 100.00 "), (out, err)
    assert err.startswith(f"metricdiff: warning: {data}:1: dropped") and "U+FEFF" in err, err
    assert err.count("\n") == 1, err


# ------------------------------------- implementations that cannot score

MULTI_BLEU = TESTS / "example_impls" / "multi_bleu_like.py"


def two_references(tmp_path: Path) -> list[str]:
    hyp, ref1, ref2 = (tmp_path / name for name in ("h.txt", "r1.txt", "r2.txt"))
    hyp.write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
    ref1.write_text("the cat sat on a mat\na dog ran fast\n", encoding="utf-8")
    ref2.write_text("a cat sat on the mat\nthe dog ran\n", encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(ref1), "--ref", str(ref2)]


def test_a_command_with_refs_gets_every_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = two_references(tmp_path)
    impl = f"cmd:{sys.executable} {MULTI_BLEU} {{refs}} < {{hyp}}"
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", impl, *inputs)
    # The program run by hand on both reference files prints the expected line.
    with open(inputs[1], "rb") as hyp:
        direct = subprocess.run([sys.executable, str(MULTI_BLEU), inputs[3], inputs[5]],
                                stdin=hyp, capture_output=True, text=True, check=True)
    expected = re.search(r"BLEU = ([\d.]+)", direct.stdout)
    assert expected is not None and status == 0, err
    assert out.startswith(f"BLEU = {expected.group(1)}"), (out, direct.stdout)


def test_an_implementation_that_scores_nothing_is_no_all_clear(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    # `false` exits 1 whatever it is given: every case fails.
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                           "--impl", "cmd:false {hyp} {ref}", *corpus_lines(tmp_path),
                           "--no-minimise", "--out", out_dir)
    said = "could not score cmd:false {hyp} {ref} (no result on any case)"
    assert status == 1 and said in out.splitlines()[-1], (out, err)
    assert said in (out_dir / "report.md").read_text(encoding="utf-8")
    assert said in json.loads((out_dir / "report.json").read_text(encoding="utf-8"))["summary"]

    # Given two references, the command (one {ref} file) refuses every case up
    # front, as documented: not applicable, not a failure (issue 28 item 6).  The
    # bundled fixtures (one reference each) would give it cases it runs and fails:
    # left out, as this is about the user's lines alone.
    out_dir = tmp_path / "out2"
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                           "--impl", "cmd:false {hyp} {ref}", *two_references(tmp_path),
                           "--no-fixtures", "--no-minimise", "--out", out_dir)
    said = ("not applicable to this input: cmd:false {hyp} {ref} (refused every case as it "
            "documents)")
    assert status == 0 and said in out.splitlines()[-1], (out, err)
    assert said in json.loads((out_dir / "report.json").read_text(encoding="utf-8"))["summary"]


# ------------------------------------------------------------------- locks


def three_score_lock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A lock of the reference's BLEU on a two-line corpus: 3 scores (each line and
    the whole corpus)."""
    lock = tmp_path / "scores.lock"
    status, out, err = run(capsys, "snapshot", "--metric", "bleu", "--impl", "reference",
                           *corpus_lines(tmp_path), "--out", lock)
    assert status == 0 and ": 3 scores " in out, (out, err)
    return lock


def corpus_lines(tmp_path: Path) -> list[str]:
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text(f"{SENTENCE}\na dog ran\n", encoding="utf-8")
    ref.write_text(f"{SENTENCE}\nthe dog ran\n", encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(ref)]


def verify_error(capsys: pytest.CaptureFixture[str], lock: Path) -> str:
    status, out, err = run(capsys, "verify", lock)
    assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)
    assert err.startswith(f"metricdiff: error: {lock}:"), err
    return err


def test_a_lock_cut_short_fails_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = three_score_lock(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    third = text.index("[[score]]", text.index("[[score]]", text.index("[[score]]") + 1) + 1)
    lock.write_text(text[:third], encoding="utf-8")
    err = verify_error(capsys, lock)
    assert "holds 2 of the 3 scores" in err and "metricdiff snapshot" in err, err


def test_a_lock_with_an_entry_swapped_fails_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = three_score_lock(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    lock.write_text(text.replace('case = "h.txt:1"', 'case = "h.txt:7"', 1), encoding="utf-8")
    err = verify_error(capsys, lock)
    assert "not the ones it was written with" in err, err


def test_a_lock_without_its_count_fails_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = three_score_lock(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    lock.write_text(re.sub(r"(?m)^score_count = .*\n", "", text), encoding="utf-8")
    assert "has no score_count" in verify_error(capsys, lock)


def test_verify_runs_no_code_the_lock_names_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pwned = tmp_path / "PWNED"  # the trace the command leaves, besides a score
    impl = f"cmd:sh -c 'touch {pwned}; echo BLEU = 1' sh {{hyp}} {{ref}}"
    lock = tmp_path / "scores.lock"
    status, _out, err = run(capsys, "snapshot", "--metric", "bleu", "--impl", impl,
                           *corpus_lines(tmp_path), "--out", lock)
    assert status == 0, err
    pwned.unlink()  # snapshot ran it: the user named it there
    err = verify_error(capsys, lock)
    assert "--trust-lock" in err and repr(impl) in err, err
    assert not pwned.exists()
    for allowed in (["--impl", impl], ["--trust-lock"]):
        assert run(capsys, "verify", lock, *allowed)[0] == 0
        assert pwned.exists(), allowed
        pwned.unlink()


def outside_lock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A lock in a folder of its own, of inputs outside that folder."""
    (tmp_path / "locks").mkdir()
    lock = tmp_path / "locks" / "scores.lock"
    status, _out, err = run(capsys, "snapshot", "--metric", "bleu", "--impl", "reference",
                           *corpus_lines(tmp_path), "--out", lock)
    assert status == 0, err
    assert err.count("is outside the lock's folder") == 2 and "--allow-outside" in err, err
    return lock


def test_verify_reads_inputs_outside_the_lock_folder_only_when_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = outside_lock(tmp_path, capsys)
    err = verify_error(capsys, lock)
    assert f"input {tmp_path / 'h.txt'} is outside" in err and "--allow-outside" in err, err
    assert run(capsys, "verify", lock, "--allow-outside")[0] == 0
    # A relative path climbing out is outside too.
    text = lock.read_text(encoding="utf-8")
    lock.write_text(text.replace(f'"{tmp_path / "h.txt"}"', '"../h.txt"'), encoding="utf-8")
    assert "input ../h.txt is outside" in verify_error(capsys, lock)


def test_verify_reads_only_regular_files_of_bounded_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = outside_lock(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    lock.write_text(text.replace(f'"{tmp_path / "h.txt"}"', '"/dev/zero"'), encoding="utf-8")
    status, out, err = run(capsys, "verify", lock, "--allow-outside")
    assert status == 2 and out == "", out
    assert err == ("metricdiff: error: /dev/zero:0: not a regular file; a lock's inputs "
                   "are files (write the lock again with `metricdiff snapshot` on files)\n")
    lock.write_text(text, encoding="utf-8")
    monkeypatch.setattr("metricdiff.locks.trust.MAX_INPUT_BYTES", 10)
    status, out, err = run(capsys, "verify", lock, "--allow-outside")
    # h.txt holds the two lines of corpus_lines: 23 + 10 bytes.
    assert status == 2 and out == "", out
    assert "h.txt:0: 33 bytes is more than verify reads (10 bytes)" in err, err


# ---------------------------------------------------------- hanging commands


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="lists processes through /proc")
def test_a_hanging_command_is_a_timeout_and_leaves_no_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The hang is certain (sleep 777), so a short per-call limit loses nothing.
    impl = "cmd:sh -c 'sleep 777; echo BLEU = 1' sh {hyp} {ref} #timeout=0.5"
    out_dir = tmp_path / "out"
    before = set(sleeping("777"))
    status, out, err = run(capsys, "audit", "--metric", "bleu", "--impl", "reference",
                           "--impl", impl, *corpus(tmp_path), "--no-minimise", "--no-fixtures",
                           "--out", out_dir)
    rows = [json.loads(line) for line in
            (out_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    mine = [row for row in rows if row["impl"] == impl]
    assert mine and {row["status"] for row in mine} == {"timeout"}, mine
    assert set(sleeping("777")) <= before, "the command's sleep outlived the timeout"
    assert status == 1 and "could not score" in out, (out, err)


# ------------------------------------------------- what `score` is given back

EVIL = """
class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no message")

def nan(hyps, refs, metric): return {"score": float("nan")}
def inf(hyps, refs, metric): return {"score": float("inf")}
def negative(hyps, refs, metric): return {"score": -5.0}
def huge(hyps, refs, metric): return {"score": 10**400}
def unprintable(hyps, refs, metric): raise Unprintable()
"""


@pytest.mark.parametrize(("function", "says"), [
    ("nan", "returned an invalid result on h.txt: score is NaN"),
    ("inf", "returned an invalid result on h.txt: score is inf"),
    ("negative", "returned an invalid result on h.txt: score -5 is negative"),
    ("huge", "returned an invalid result on h.txt: score is too large for a float"),
    ("unprintable", "failed on h.txt: Unprintable: (message unavailable)"),
])
def test_score_refuses_what_the_audit_calls_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    function: str, says: str,
) -> None:
    (tmp_path / "evil.py").write_text(EVIL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    corpus(tmp_path)
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl",
                           f"python:evil.py:{function}", "--hyp", "h.txt", "--ref", "h.txt")
    assert status == 1 and out == "" and err.count("\n") == 1, (status, out, err)
    assert err.startswith("metricdiff: error: python:evil.py:") and says in err, err


# -------------------------------------------------- tolerances that hide all


@pytest.mark.parametrize("digits", ["-3", "-400", "18"])
def test_a_command_tolerance_out_of_range_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], digits: str
) -> None:
    # -3 decimals would be a tolerance of 0.5e3 = 500 BLEU points; -400 overflows.
    impl = f"cmd:echo BLEU = 3 {{hyp}} {{ref}} #digits={digits}"
    status, out, err = run(capsys, "score", "--metric", "bleu", "--impl", impl,
                           *corpus(tmp_path))
    assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)
    assert f"#digits={digits}: it must be a whole number from 0 to 17" in err, err


@pytest.mark.parametrize(("old", "new", "says"), [
    ("abs_tol = 0.0", "abs_tol = inf", "abs_tol = a number from 0 to 100"),
    ("abs_tol = 0.0", "abs_tol = 500.0", "abs_tol = a number from 0 to 100"),
    ("rel_tol = 1e-09", "rel_tol = nan", "rel_tol = a number from 0 to 1"),
])
def test_a_lock_tolerance_out_of_range_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, says: str
) -> None:
    lock = three_score_lock(tmp_path, capsys)
    text = lock.read_text(encoding="utf-8")
    assert old in text
    lock.write_text(text.replace(old, new, 1), encoding="utf-8")
    err = verify_error(capsys, lock)
    line = int(err.split(f"{lock}:")[1].split(":")[0])
    assert text.replace(old, new, 1).splitlines()[line - 1] == new and says in err, err


# ----------------------------------------------------------------- wording


def verification(checked: int) -> Verification:
    return Verification(Path("scores.lock"), checked, (), (), (), ())


def test_verify_counts_one_score_in_the_singular() -> None:
    assert verification(1).summary() == "scores.lock: its 1 score reproduces"
    assert verification(2).summary() == "scores.lock: all 2 scores reproduce"


def test_snapshot_counts_one_score_and_case_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "one.toml").write_text(
        'format = 1\n[[case]]\nid = "must_one"\nmetric = "bleu"\ndescription = "one"\n'
        f'hyps = ["{SENTENCE}"]\nrefs = [["{SENTENCE}"]]\nsource = "hand: identical"\n'
        "[[case.expect]]\nscore = 100.0\n", encoding="utf-8")
    status, out, _ = run(capsys, "snapshot", "--fixtures", fixtures, "--impl", "reference",
                         "--out", tmp_path / "one.lock")
    assert status == 0 and ": 1 score (0 raised), 1 case, " in out, out


# --- issue 12, items 7 and 8: `score` runs a user's implementation isolated ----------

MISBEHAVING_SCORE = '''
import ctypes
import os


def exits(hyps, refs, metric):
    os._exit(3)


def system_exit(hyps, refs, metric):
    raise SystemExit(4)


def chatty(hyps, refs, metric):
    print("hello from the implementation")
    return {"score": 12.5}


def segfault(hyps, refs, metric):
    ctypes.string_at(0)
'''


def _misbehaving_files(folder: Path) -> tuple[Path, Path, Path]:
    """The module of misbehaving functions, and a one-line corpus to score."""
    module = folder / "misbehaving_score.py"
    module.write_text(MISBEHAVING_SCORE, encoding="utf-8")
    hyp, ref = folder / "h.txt", folder / "r.txt"
    hyp.write_text("a b c\n", encoding="utf-8")
    ref.write_text("a b d\n", encoding="utf-8")
    return module, hyp, ref


@pytest.mark.parametrize(("function", "said"), [
    ("exits", "crash: process died with exit code 3"),
    ("system_exit", "crash: SystemExit: 4"),
    ("segfault", "crash: process killed by signal SIGSEGV"),
])
def test_score_survives_an_implementation_that_ends_its_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], function: str, said: str
) -> None:
    # Before: metricdiff itself ended with the implementation's status (3, 4, 139)
    # and no message.  Now the implementation runs in a worker process: one line,
    # exit status 1 (an implementation failed).
    module, hyp, ref = _misbehaving_files(tmp_path)
    status = main(["score", "--impl", f"python:{module}:{function}", "-o", "tokenize=none",
                   "--hyp", str(hyp), "--ref", str(ref)])
    err = capsys.readouterr().err
    assert status == 1
    assert err.count("\n") == 1 and said in err, err


def test_score_keeps_what_an_implementation_prints_out_of_its_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module, hyp, ref = _misbehaving_files(tmp_path)
    status = main(["score", "--impl", f"python:{module}:chatty", "-o", "tokenize=none",
                   "--hyp", str(hyp), "--ref", str(ref), "--format", "json"])
    out = capsys.readouterr().out
    assert status == 0
    assert json.loads(out)["corpus"]["score"] == 12.5  # the value chatty returns
