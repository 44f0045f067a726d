"""``metricdiff report`` and the reports ``metricdiff audit --out`` writes:
``report.md``, ``report.html`` and ``report.json``.

The golden files ``tests/golden/report_small/report.*`` are the reports of the
committed audit folder ``tests/golden/audit_small/`` (a real audit, made by
``tests/golden/make_audit_small.py``).  They were checked by hand once; after
an intended change of format, regenerate them with

    METRICDIFF_UPDATE_GOLDEN=1 .venv/bin/pytest tests/reports/test_reports.py

and read the diff.  The other tests derive what they expect by hand: the
markers of invisible characters from their code points, the matrices and
patterns from small records whose numbers are chosen here, the conformance
table from the adapters' declared profiles (documented in spec/*.md).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import attrs
import pytest

from helpers import ROOT, TESTS, recorded_backgrounds
from metricdiff.cli import main
from metricdiff.impls.base import Tolerance
from metricdiff.profiles import BleuOptions, RougeOptions, axis_names
from metricdiff.profiles.clauses import SET_BY_NAME, SPEC_CLAUSES, metric_axes
from metricdiff.reports import audit_reports, html_cases, json_report
from metricdiff.reports.cells import listed_cases
from metricdiff.reports.check import render_markdown
from metricdiff.reports.conformance import conformance
from metricdiff.reports.content import metric_report
from metricdiff.reports.markdown import table
from metricdiff.reports.matrix import agreements, case_rows, pattern_groups, quantile
from metricdiff.reports.model import CaseInfo, Implementation, MetricRecord, Run
from metricdiff.reports.reading import load_audit
from metricdiff.reports.visible import visible, visible_html
from metricdiff.scoring.background import CAN_FORK
from metricdiff.statistics import BleuResult

GOLDEN = TESTS / "golden"
AUDIT = GOLDEN / "audit_small"
EXPECTED = GOLDEN / "report_small"
UPDATE = os.environ.get("METRICDIFF_UPDATE_GOLDEN") == "1"
NAMES = ("report.md", "report.html", "report.json", "packages.md")
#: The tags report.html is made of: any other tag would come from the data.
TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p", "nav",
        "a", "section", "table", "tr", "th", "td", "code", "span", "ul", "li", "details",
        "summary", "div", "b", "i", "br"}


# ---------------------------------------------------------------- golden files


@pytest.mark.parametrize("name", NAMES)
def test_golden(name: str) -> None:
    text = audit_reports.render_reports(AUDIT)[name]
    golden = EXPECTED / name
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(text.encode("utf-8"))
    assert text == golden.read_text(encoding="utf-8")


def test_golden_audit_folder_is_what_reports_read(tmp_path: Path) -> None:
    """The golden folder holds a crash, explained and unexplained conformance
    findings, departures, a pair derived from the star and the table of the
    user's corpus: every kind of row the reports have."""
    kinds = {(f["kind"], f["explained"]) for f in
             json.loads((AUDIT / "findings.json").read_text(encoding="utf-8"))}
    assert {("crash", False), ("conformance", True), ("conformance", False),
            ("departure", True)} <= kinds
    pairs = json.loads((AUDIT / "pairs.json").read_text(encoding="utf-8"))
    assert ("sacrebleu", "nltk", "asked") in {(p["impl_a"], p["impl_b"], p["why"])
                                               for p in pairs}
    assert (AUDIT / "compare.json").exists()


# ------------------------------------------------------------------ escaping


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.scripts += tag == "script"
        for name, _ in attrs:
            assert not name.startswith("on"), name


def with_script(tmp_path: Path) -> Path:
    """The golden folder with markup in every kind of text that comes from data: a
    hypothesis, a reference, an error, a case ID."""
    folder = tmp_path / "audit"
    shutil.copytree(AUDIT, folder)
    path = folder / "findings.json"
    findings = json.loads(path.read_text(encoding="utf-8"))
    for finding in findings:
        example = finding["example"]
        example["hypothesis"] = "<script>alert(1)</script>"
        example["references"] = ['<img src=x onerror="alert(2)">']
        example["error"] = "ValueError: </td><script>alert(3)</script>"
        example["case"] = "<b>case</b>"
        example.pop("segments", None)  # one segment now, not an excerpt
        example.pop("shown", None)
    path.write_text(json.dumps(findings), encoding="utf-8")
    return folder


def test_markup_in_the_data_is_text_in_the_html(tmp_path: Path) -> None:
    page = audit_reports.render_reports(with_script(tmp_path))["report.html"]
    parser = Tags()
    parser.feed(page)
    assert parser.scripts == 0
    assert parser.tags <= TAGS
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=&quot;alert(2)&quot;&gt;" in page
    assert "&lt;/td&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in page
    assert "<script" not in page.lower()


def test_markup_in_the_data_stays_in_code_spans_in_markdown(tmp_path: Path) -> None:
    text = audit_reports.render_reports(with_script(tmp_path))["report.md"]
    assert "<script>alert(1)</script>" in text
    outside = re.sub(r"``.*?``|`[^`]*`", "", text)
    assert "<" not in outside


# -------------------------------------------------------------- determinism


def test_two_runs_write_the_same_bytes(tmp_path: Path) -> None:
    first = audit_reports.write_reports(AUDIT, tmp_path / "one")
    second = audit_reports.write_reports(AUDIT, tmp_path / "two")
    assert [p.name for p in first] == list(NAMES)
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes()


def test_the_agreement_matrix_is_a_shaded_table() -> None:
    page = audit_reports.render_reports(AUDIT)["report.html"]
    assert "<img" not in page and "data:image" not in page
    # one agreement table per metric, headed by its implementations
    assert page.count("<tr><th></th><th>reference</th>") == 2


# ------------------------------------------------------------ command line


def test_audit_out_writes_the_reports_report_from_rewrites_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cats sat on the mat\nrunning dogs\n", encoding="utf-8")
    ref.write_text("the cat sat on the mat\nthe dog runs\n", encoding="utf-8")
    out = tmp_path / "out"
    status = main(["audit", "--hyp", str(hyp), "--ref", str(ref), "--metric", "rouge-1",
                   "--impl", "reference", "--no-minimise", "--out", str(out)])
    assert status == 0
    capsys.readouterr()
    for name in NAMES:
        assert (out / name).stat().st_size > 0
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    [metric] = data["metrics"]
    # the reference and the reference with Porter's stemmer: "cats"/"cat" and
    # "dogs"/"dog" match only when stemmed, so they disagree on both lines
    assert [i["name"] for i in metric["implementations"]] == ["reference", "reference+stemmed"]
    assert metric["implementations"][1]["departures"] == ["stemmer"]
    # the matrix of the user's text: the two lines (the whole corpus is no segment)
    [text] = metric["agreement"]
    assert (text["group"], text["differing_cases"][0][1]) == ("your text", 2)

    again = tmp_path / "again"
    assert main(["report", "--from", str(out), "--out", str(again)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {again / 'report.md'}")
    for name in NAMES:
        assert (again / name).read_bytes() == (out / name).read_bytes()


@pytest.mark.skipif(not CAN_FORK, reason="no os.fork on this platform")
def test_report_html_rendered_apart_is_the_same_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From ``RENDER_APART_FROM`` cases on, report.html is rendered by a forked
    process while this one renders the others: the same four files."""
    made = recorded_backgrounds(monkeypatch, audit_reports)
    monkeypatch.setattr(audit_reports, "RENDER_APART_FROM", 1)
    folder = tmp_path / "audit"
    shutil.copytree(AUDIT, folder)
    written = audit_reports.write_reports(folder)
    assert [path.name for path in written] == [
        "report.md", "report.html", "report.json", "packages.md"]
    assert len(made) == 1 and made[0].forked
    for path in written:
        assert path.read_bytes() == (EXPECTED / path.name).read_bytes(), path.name


@pytest.mark.parametrize(("name", "damage", "where"), [
    ("results.jsonl", lambda lines: [*lines[:2], "{not json", *lines[3:]], "results.jsonl:3:"),
    ("results.jsonl", lambda lines: [*lines[:4], '{"metric": "bleu"}', *lines[5:]],
     "results.jsonl:5: malformed result row: missing field 'impl'"),
    ("findings.json", lambda lines: [*lines[:6], "]]", *lines[7:]], "findings.json:7:"),
    ("audit.json", None, "audit.json:0: cannot read"),
])
def test_a_bad_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, damage: object, where: str
) -> None:
    folder = tmp_path / "audit"
    shutil.copytree(AUDIT, folder)
    path = folder / name
    if damage is None:
        path.unlink()
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
        path.write_text("\n".join(damage(lines)) + "\n", encoding="utf-8")  # type: ignore[operator]
    assert main(["report", "--from", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"metricdiff: error: {path}")
    assert where in err
    assert not (folder / "report.md").exists()


# -------------------------------------------------------- invisible characters


@pytest.mark.parametrize(("text", "shown"), [
    ("a\tb", "a⟨TAB⟩b"),
    ("two\nlines", "two⟨LF⟩lines"),
    ("no\u00a0break", "no⟨U+00A0⟩break"),
    ("zero\u200bwidth", "zero⟨U+200B⟩width"),
    ("cafe\u0301", "cafe⟨U+0301⟩"),  # decomposed: the mark on its own
    ("caf\u00e9", "caf\u00e9"),  # precomposed é prints as itself
    ("\ufeffbom", "⟨U+FEFF⟩bom"),
    ("a  b", "a  b"),  # ASCII spaces stay
    ("", "⟨empty⟩"),
    (None, "⟨none⟩"),
])
def test_visible(text: str | None, shown: str) -> None:
    assert visible(text) == shown


def test_visible_cuts_long_text_and_escapes_html() -> None:
    assert visible("abcdef", 3) == "abc…"
    assert visible("abc", 3) == "abc"
    assert visible_html("<b>\t&") == '&lt;b&gt;<span class="inv">⟨TAB⟩</span>&amp;'


# ------------------------------------------------------------------ matrices


def person(name: str, absolute: float = 0.0) -> Implementation:
    return Implementation(name, name, "declared", "1", f"bleu|impl:{name}-1", {},
                          Tolerance(absolute, 1e-9))


def bleu(score: float) -> Run:
    return Run("ok", "", BleuResult(score, (score,) * 4, 1.0, 4, 4.0, (1,) * 4, (4,) * 4))


CRASH = Run("crash", "ValueError: no", None)
NA = Run("crash", "UnsupportedOption: three references", None)


def record() -> MetricRecord:
    """Three implementations on five cases; ``loose`` allows 0.5 either way."""
    people = (person("ref"), person("a"), person("loose", absolute=0.5))
    table = {  # case -> each implementation's run, in the order above
        "c1": (bleu(10.0), bleu(10.0), bleu(12.0)),
        "c2": (bleu(10.0), bleu(11.0), bleu(10.3)),
        "c3": (bleu(5.0), CRASH, bleu(5.0)),
        "c4": (bleu(1.0), bleu(1.0), bleu(3.0)),
        "c5": (bleu(7.0), NA, bleu(7.0)),
    }
    runs = {(p.name, case): run for case, row in table.items()
            for p, run in zip(people, row, strict=True)}
    cases = tuple(CaseInfo(case, "user") for case in table)
    return MetricRecord("bleu", people, (), cases, runs, ())


def test_agreement_matrix() -> None:
    [matrix] = agreements(record())  # every case is a line of the user's: one group
    assert (matrix.group, matrix.cases, matrix.names) == ("your text", 5, ("ref", "a", "loose"))
    cells = matrix.cells
    # ref vs a: c1, c2, c4 compared (a crashed on c3, cannot take c5); |Δ| 0, 1, 0:
    # one differs (c2), by 1; the mean over the three is 1/3
    assert cells[0][1] == cells[1][0]
    assert (cells[0][1].compared, cells[0][1].differing) == (3, 1)
    assert (cells[0][1].median, cells[0][1].p95) == (1.0, 1.0)
    assert cells[0][1].mean == pytest.approx(1 / 3)
    # ref vs loose: all five, |Δ| 2, 0.3, 0, 2, 0; 0.3 is within loose's 0.5
    assert (cells[0][2].compared, cells[0][2].differing) == (5, 2)
    assert (cells[0][2].median, cells[0][2].p95) == (2.0, 2.0)
    assert cells[0][2].mean == pytest.approx(4.3 / 5)
    # a vs loose: c1 2, c2 0.7, c4 2: all three beyond 0.5
    assert (cells[1][2].compared, cells[1][2].differing) == (3, 3)
    assert (cells[1][2].median, cells[1][2].p95) == (2.0, 2.0)
    assert cells[1][2].mean == pytest.approx(4.7 / 3)
    # an implementation against itself: nothing differs
    assert (cells[1][1].differing, cells[1][1].median) == (0, None)


def test_quantile_is_the_nearest_rank() -> None:
    # by hand: the 95th percentile of 1..100 is the 95th value, of 1..20 the 19th
    # (ceil(0.95 * 20) = 19), of one value that value; the median rank of 1..4 is 2
    assert quantile(list(range(1, 101)), 0.95) == 95
    assert quantile(list(range(1, 21)), 0.95) == 19
    assert quantile([7.0], 0.95) == 7.0
    assert quantile([1, 2, 3, 4], 0.5) == 2


def test_generated_cases_have_a_matrix_of_their_own() -> None:
    # mixed_sources: a line of the user's, a fixture, three generated cases
    found = {m.group: m.cases for m in agreements(mixed_sources())}
    assert found == {"your text": 1, "fixtures": 1, "generated edge cases": 3}


def test_patterns_group_cases_by_who_agrees_with_whom() -> None:
    rows = case_rows(record())
    # c2: a's 11 is new (B); loose's 10.3 is within 0.5 of ref's 10 (A)
    assert [row.pattern for row in rows] == ["AAB", "ABA", "A!A", "AAB", "A-A"]
    groups = pattern_groups(rows)
    # the most frequent first, then by pattern ('!' < '-' < 'B')
    assert [(g.pattern, [r.case for r in g.rows]) for g in groups] == [
        ("AAB", ["c1", "c4"]), ("A!A", ["c3"]), ("A-A", ["c5"]), ("ABA", ["c2"]),
    ]
    assert [g.agree for g in groups] == [False, True, True, False]


def mixed_sources() -> MetricRecord:
    """Two implementations agreeing on five cases: three generated, a fixture and a
    line of a user's file, in this order of the audit."""
    people = (person("ref"), person("a"))
    sources = {"g1": "generated", "f1": "fixture", "g2": "generated", "u1": "user",
               "g3": "generated"}
    runs = {(p.name, case): bleu(10.0) for case in sources for p in people}
    cases = tuple(CaseInfo(case, source) for case, source in sources.items())
    return MetricRecord("bleu", people, (), cases, runs, ())


def test_a_pattern_lists_its_first_generated_case_and_every_other() -> None:
    [group] = pattern_groups(case_rows(mixed_sources()))
    # one pattern (AA); g2 and g3 are generated cases after the first
    assert group.pattern == "AA"
    assert [row.case for row in group.listed] == ["g1", "f1", "u1"]
    assert group.not_listed == 2


def test_a_pattern_lists_the_first_three_lines_of_a_users_files() -> None:
    people = (person("ref"), person("a"))
    lines = [f"h.txt:{n}" for n in range(1, 6)]
    runs = {(p.name, case): bleu(10.0) for case in lines for p in people}
    record = MetricRecord("bleu", people, (), tuple(CaseInfo(c, "user") for c in lines),
                          runs, ())
    [group] = pattern_groups(case_rows(record))
    assert [row.case for row in group.listed] == lines[:3] and group.not_listed == 2


def test_the_reports_list_what_the_pattern_lists() -> None:
    section = metric_report(mixed_sources())
    data = json_report.metric_json(section)
    assert data["cases"] == 5
    assert data["patterns"] == [{"pattern": "AA", "count": 5, "all_agree": True,
                                 "cases": ["g1", "f1", "u1"], "not_listed": 2}]
    assert [row["case"] for row in data["case_matrix"]] == ["g1", "f1", "u1"]
    page = html_cases.cases_section(section)
    assert "pattern <code>AA</code>: 5 cases (all agree); 2 not listed" in page
    assert "<code>u1</code>" in page and "<code>g2</code>" not in page


def test_a_finding_lists_its_first_three_cases() -> None:
    finding = load_audit(AUDIT).metrics[0].findings[0]
    many = attrs.evolve(finding, cases=("c1", "c2", "c3", "c4", "c5"))
    assert listed_cases(many) == (("c1", "c2", "c3"), 2)
    assert listed_cases(attrs.evolve(finding, cases=("c1",))) == (("c1",), 0)


def test_report_json_writes_each_finding_on_one_line() -> None:
    value = {"metrics": [{"findings": [{"a": [1, 2]}, {"b": None}]}], "format": 2}
    # by hand: four levels indented one space each, the findings one line each
    assert json_report.dumps(value) == (
        '{\n "metrics": [\n  {\n   "findings": [\n    {"a": [1, 2]},\n    {"b": null}\n'
        '   ]\n  }\n ],\n "format": 2\n}'
    )
    assert json.loads(json_report.dumps(value)) == value


def test_no_cell_holds_more_than_500_characters() -> None:
    from metricdiff.reports import html_report, markdown

    finding = load_audit(AUDIT).metrics[0].findings[0]
    # twenty segments of 100 characters each, two references apiece: 6,000
    # characters of text, far more than a cell may hold
    texts = tuple("word " * 20 for _ in range(20))
    big = attrs.evolve(finding, example=attrs.evolve(
        finding.example, hyps=texts, refs=tuple((t, t) for t in texts)))
    cell = markdown.example_cell(big, 7, ("a", "b"))
    assert len(cell) <= 500 and cell.endswith("#7 in report.json)")
    page_cell = html_report.example_cell(big, 7, ("a", "b"))
    shown = re.sub(r"<[^>]+>", "", page_cell.replace("<br>", " "))
    assert len(shown) <= 500 and "#7 in report.json" in shown
    # a small example is shown whole, both sides' numbers after it
    small = markdown.example_cell(finding, 1, ("a", "b"))
    assert "report.json" not in small and " vs `b` " in small


def test_markdown_tables_are_not_padded() -> None:
    assert table(["a", "long header"], [["1", "x \\| y"]]) == (
        "| a | long header |\n|---|---|\n| 1 | x \\| y |"
    )


def test_check_md_escapes_the_bars_of_a_signature() -> None:
    text = render_markdown([], [], {"ref": "bleu|tok:none"})
    # Both cells are code spans (the data never becomes Markdown); GFM undoes the
    # escaped bar inside them.
    assert "| `ref` | `bleu\\|tok:none` |" in text


# --------------------------------------------------------------- conformance


def test_every_axis_has_its_clause_and_every_clause_is_in_the_spec() -> None:
    root = ROOT
    for family, options in (("bleu", BleuOptions), ("rouge", RougeOptions)):
        mapped = [axis for _, axes in SPEC_CLAUSES[family] for axis in axes]
        assert sorted(mapped) == sorted(a for a in axis_names(options) if a not in SET_BY_NAME)
        spec = (root / "spec" / f"{family}.md").read_text(encoding="utf-8")
        for clause, _ in SPEC_CLAUSES[family]:
            assert f"\n### {clause}\n" in spec


def test_metric_axes() -> None:
    assert "weight" not in metric_axes("rouge-1") and "skip" not in metric_axes("rouge-1")
    assert {"weight", "wlcs", "sentence_split"} <= set(metric_axes("rouge-w"))
    assert "counts" not in metric_axes("rouge-l") and "counts" in metric_axes("rouge-su")
    assert metric_axes("bleu") == axis_names(BleuOptions)


def statuses(metric: int) -> dict[str, dict[str, str]]:
    _clauses, rows = conformance(load_audit(AUDIT).metrics[metric])
    return {row.implementation: {c.clause: c.text() for c in row.cells} for row in rows}


def test_conformance_of_the_bleu_peers() -> None:
    table = statuses(0)
    assert {text.split(": ")[-1] for text in table["reference"].values()} == {"conforms"}
    # sacrebleu's declared defaults (spec/bleu.md appendix): 13a, exp, all_zero zero;
    # one column per clause of spec/bleu.md, the tokenizers and the smoothing
    # methods each one column naming the clause followed
    assert table["sacrebleu"] == {
        "BLEU-TOK-*": "BLEU-TOK-13A: departs on tokenize (13a)", "BLEU-CASE": "conforms",
        "BLEU-NGRAM": "conforms", "BLEU-CLIP": "conforms", "BLEU-STATS": "conforms",
        "BLEU-PN": "conforms", "BLEU-REFLEN": "conforms", "BLEU-BP": "conforms",
        "BLEU-SCORE": "conforms", "BLEU-PRECISION": "conforms",
        "BLEU-EMPTY-ORDER": "conforms", "BLEU-ALL-ZERO": "departs on all_zero (zero)",
        "BLEU-SMOOTH-*": "BLEU-SMOOTH-EXP: departs on smoothing (exp)",
        "BLEU-LEVEL": "conforms", "BLEU-EMPTY": "conforms",
    }
    assert table["reference"]["BLEU-TOK-*"] == "BLEU-TOK-NONE: conforms"
    # NLTK: method0 (float-min), max(1, count) denominators
    assert table["nltk"]["BLEU-SMOOTH-*"] == (
        "BLEU-SMOOTH-FLOAT-MIN: departs on smoothing (float-min)")
    assert table["nltk"]["BLEU-EMPTY-ORDER"] == "departs on empty_order (denominator-one)"
    # NLTK declares empty_bp=zero: BP 0 where c = r = 0 (docs/peers.md)
    assert table["nltk"]["BLEU-BP"] == "departs on empty_bp (zero)"
    # multi-bleu.perl prints BP=0 on empty references (docs/peers.md): the audit's
    # conformance finding, explained by empty_bp=zero, which it does not declare,
    # and its unexplained one ("the cat" against an empty reference: hyp_len 0
    # where the hypothesis has 2 tokens) landing in the clause that counts the
    # hypothesis's tokens: its tokenizer's
    assert table["multi-bleu"]["BLEU-BP"] == "departs on empty_bp (found: zero)"
    assert table["multi-bleu"]["BLEU-TOK-*"].endswith(
        "departs on tokenize (whitespace-ascii); fails: sys_len: 0 vs 2 (1 case)")


def test_conformance_of_rouge_score() -> None:
    table = statuses(1)
    # rouge-score's declared departures from Lin 2004 (impls/peers/rouge_score.py)
    departing = {clause: text for clause, text in table["rouge-score"].items()
                 if text.startswith("departs")}
    assert departing == {
        "ROUGE-TOKENIZE": "departs on tokenize (rouge-score)",
        "ROUGE-MULTI-REF": "departs on multi_ref (best-f)",
        "ROUGE-REPORT": "departs on report (f)",
    }
    # ROUGE-1 reads neither sentences, nor weights, nor skips: no column for them
    for clause in ("ROUGE-LSUM", "ROUGE-W", "ROUGE-S", "ROUGE-SU"):
        assert clause not in table["rouge-score"]
    assert {"ROUGE-N", "ROUGE-COUNTS", "ROUGE-SCORE"} <= set(table["rouge-score"])
    assert table["rouge-score+stemmed"]["ROUGE-STEM"] == "departs on stemmer (porter-nltk)"
