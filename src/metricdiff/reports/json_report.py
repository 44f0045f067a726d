"""``report.json``: everything ``report.md`` and ``report.html`` show, as data."""

from __future__ import annotations

import json
from typing import Any

from metricdiff.findings.finding import Finding, cause_of
from metricdiff.reports.content import PAPERS, UNITS, MetricReport, Report
from metricdiff.reports.matrix import CaseRow
from metricdiff.reports.visible import visible

FORMAT = 1


def _finding(finding: Finding) -> dict[str, Any]:
    data = finding.to_json()
    data["cause"] = cause_of(finding)
    data["example"]["segments"] = [
        {"hypothesis_visible": visible(hyp), "references_visible": [visible(r) for r in refs]}
        for hyp, refs in zip(finding.example.hyps, finding.example.refs, strict=True)
    ]
    return data


def _row(names: list[str], row: CaseRow) -> dict[str, Any]:
    """One case of the matrix, compactly: its pattern's letters are the cells'
    classes and ``headlines`` their numbers, both in ``case_matrix_columns`` order;
    only the cells that did not score are spelled out, under ``problems`` (the
    committed report has some 17,000 rows)."""
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
    matrix = section.agreement
    return {
        "metric": section.metric,
        "family": section.family,
        "paper": PAPERS[section.family],
        "unit": UNITS[section.family],
        "corpus": None if record.corpus is None else record.corpus.to_dict(),
        "axes": list(section.axes),
        "paper_profile": dict(zip(section.axes, section.paper, strict=True)),
        "implementations": [
            {
                "name": row.person.name,
                "impl": row.person.impl,
                "label": row.person.label,
                "version": row.person.version,
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
        "findings": [_finding(f) for f in section.findings],
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
                 "first_difference": f.first_difference, "cases": list(f.cases)}
                for f in section.unexplained
            ],
        },
        "agreement": {
            "implementations": list(matrix.names),
            "max_delta": [list(row) for row in matrix.max_delta],
            "differing_cases": [list(row) for row in matrix.differing],
            "compared_cases": [list(row) for row in matrix.compared],
        },
        "patterns": [
            {"pattern": group.pattern, "count": len(group.rows), "all_agree": group.agree,
             "cases": [row.case for row in group.rows]}
            for group in section.groups
        ],
        "case_matrix_columns": names,
        "case_matrix": [_row(names, row) for row in section.rows],
    }


def render(report: Report) -> str:
    """The whole of ``report.json``."""
    data: dict[str, Any] = {"format": FORMAT}
    if report.timestamp:
        data["generated"] = report.timestamp
    data["summary"] = report.summary()
    data["metrics"] = [metric_json(section) for section in report.metrics]
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
