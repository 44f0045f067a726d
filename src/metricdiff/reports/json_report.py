"""``report.json``: everything ``report.md`` and ``report.html`` show, as data.

Format 3 leads with the package verdict table (``packages``) and gives, per
metric, the departures grouped by cause, the agreement matrices by group of
cases and the pairs derived from the star; each finding has its ``number``,
which the reports' cells cut short refer to.  Format 2 kept it small enough to
commit (format 1 was ten times the size):

- like ``report.html``, the case matrix lists only the first generated case of each
  pattern (and every other case), and a finding lists its first few cases, each
  with a count of the rest -- the audit folder's ``findings.json`` and
  ``results.jsonl`` hold them all;
- a finding leaves out what is elsewhere in the file: its two sides' signatures
  (under ``implementations``), and its texts with invisible characters made
  visible (``metricdiff.reports.visible`` makes them);
- the outer levels are indented, but each finding, implementation and row is one
  line.
"""

from __future__ import annotations

import json
from typing import Any

from metricdiff.findings.finding import Finding, cause_of
from metricdiff.reports.cells import listed_cases
from metricdiff.reports.content import PAPERS, UNITS, MetricReport, Report
from metricdiff.reports.matrix import CaseRow

FORMAT = 3
#: From this depth on (root 0, ``metrics`` 1, a metric 2, its ``findings`` 3) a value
#: is written on one line.
ONE_LINE_DEPTH = 4


def _finding(number: int, finding: Finding) -> dict[str, Any]:
    data = {"number": number, **finding.to_json()}
    del data["signatures"]
    data["cases"], data["cases_not_listed"] = listed_cases(finding)
    data["cause"] = cause_of(finding)
    return data


def _row(names: list[str], row: CaseRow) -> dict[str, Any]:
    """One case of the matrix, compactly: its pattern's letters are the cells'
    classes and ``headlines`` their numbers, both in ``case_matrix_columns`` order;
    only the cells that did not score are spelled out, under ``problems``."""
    data: dict[str, Any] = {
        "case": row.case,
        "source": row.source,
        "pattern": row.pattern,
        "headlines": [cell.headline for cell in row.cells],
    }
    problems = {
        name: {"status": cell.status, "error": cell.error}
        for name, cell in zip(names, row.cells, strict=True)
        if cell.status != "ok"
    }
    if problems:
        data["problems"] = problems
    return data


def metric_json(section: MetricReport) -> dict[str, Any]:
    record = section.record
    names = [p.name for p in record.implementations]
    listed = {row.case for group in section.groups for row in group.listed}
    return {
        "metric": section.metric,
        "family": section.family,
        "paper": PAPERS[section.family],
        "unit": UNITS[section.family],
        "points_per_headline": section.points,
        "corpus": None if record.corpus is None else record.corpus.to_dict(),
        "axes": list(section.axes),
        "paper_profile": dict(zip(section.axes, section.paper, strict=True)),
        "implementations": [
            {
                "name": row.person.name,
                "impl": row.person.impl,
                "label": row.person.label,
                "version": row.person.version,
                "package": row.person.package,
                "signature": row.person.signature,
                "profile": {axis: value for axis, (value, _) in
                            zip(section.axes, row.values, strict=True)},
                "departures": [axis for axis, (_, departs) in
                               zip(section.axes, row.values, strict=True) if departs],
                "tolerance": {"absolute": row.person.tolerance.absolute,
                              "relative": row.person.tolerance.relative,
                              "reason": row.person.tolerance.reason},
            }
            for row in section.profiles
        ],
        "skipped": list(record.skipped),
        "cases": len(record.cases),
        "findings": [_finding(number, f) for number, f in enumerate(section.findings, 1)],
        "departures": [
            {"axis": group.axis, "values": list(group.values), "cases": group.cases,
             "max_delta": group.max_delta, "example": group.shown.number,
             "implementations": [
                 {"name": m.name, "finding": m.number, "cases": m.finding.count,
                  "declared": m.declared, "corpus_contribution": m.corpus}
                 for m in group.members]}
            for group in section.departures
        ],
        "quiet_departures": {name: list(axes) for name, axes in section.quiet},
        "defects": [number for number, _ in section.defects],
        "pairs": [pair.to_json() for pair in section.record.pairs],
        "conformance": {
            "clauses": list(section.clauses),
            "rows": [
                {
                    "implementation": row.implementation,
                    "clauses": [
                        {"clause": status.clause, "member": status.member,
                         "status": status.status, "text": status.text(),
                         "axes": list(status.axes), "declared": dict(status.declared),
                         "found": dict(status.found),
                         "failures": [{"first_difference": difference, "count": count}
                                      for difference, count in status.failures]}
                        for status in row.cells
                    ],
                }
                for row in section.conformance
            ],
            "unexplained": [
                {"implementation": f.impl_a, "count": f.count,
                 "first_difference": f.first_difference, "cases": listed_cases(f)[0]}
                for f in section.unexplained
            ],
        },
        "agreement": [
            {"group": matrix.group, "cases": matrix.cases,
             "implementations": list(matrix.names),
             "compared_cases": [[c.compared for c in row] for row in matrix.cells],
             "differing_cases": [[c.differing for c in row] for row in matrix.cells],
             "median_delta": [[c.median for c in row] for row in matrix.cells],
             "p95_delta": [[c.p95 for c in row] for row in matrix.cells],
             "mean_delta": [[c.mean for c in row] for row in matrix.cells]}
            for matrix in section.matrices
        ],
        "patterns": [
            {"pattern": group.pattern, "count": len(group.rows), "all_agree": group.agree,
             "cases": [row.case for row in group.listed], "not_listed": group.not_listed}
            for group in section.groups
        ],
        "case_matrix_columns": names,
        "case_matrix": [_row(names, row) for row in section.rows if row.case in listed],
    }


def render(report: Report) -> str:
    """The whole of ``report.json``."""
    data: dict[str, Any] = {"format": FORMAT}
    if report.timestamp:
        data["generated"] = report.timestamp
    data["summary"] = report.summary()
    if report.cache is not None:
        data["cache"] = {"hits": report.cache.hits, "asked": report.cache.asked,
                         "folder": report.cache.folder, "sentence": report.cache_sentence()}
    data["packages"] = [
        {"implementation": row.implementation, "package": row.package,
         "version": row.version, "verdict": row.verdict, "metrics": row.metrics,
         "departures": row.departures, "found": row.found, "defects": row.defects}
        for row in report.packages
    ]
    data["metrics"] = [metric_json(section) for section in report.metrics]
    return dumps(data) + "\n"


def dumps(value: Any, depth: int = 0) -> str:
    """``value`` as JSON: lists and objects above ``ONE_LINE_DEPTH`` one item per
    line, indented by one space a level; everything deeper on one line."""
    if depth >= ONE_LINE_DEPTH or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False)
    inner = "\n" + " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{json.dumps(key, ensure_ascii=False)}: {dumps(item, depth + 1)}"
                 for key, item in value.items()]
        opening, closing = "{", "}"
    else:
        items = [dumps(item, depth + 1) for item in value]
        opening, closing = "[", "]"
    return opening + inner + ("," + inner).join(items) + "\n" + " " * depth + closing
