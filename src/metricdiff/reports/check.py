"""The report of ``metricdiff check``: every implementation on the bundled fixtures.

Deterministic by construction: rows follow the fixture order, columns the
implementation order, and nothing time- or machine-dependent goes in the body.
Names, case IDs and details come from the data (a ``cmd:`` implementation is
any text, a crash's detail its exception's message): in ``check.md`` they are in
code spans or escaped, as in ``report.md``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from metricdiff.atomic import write_group
from metricdiff.comparison.expectations import DEPARTS, PROBLEMS, Outcome
from metricdiff.markdown_text import code, escape
from metricdiff.reports.markdown import table


def _cell(outcome: Outcome) -> str:
    if outcome.result is None or outcome.status in ("n/a", "crash"):
        return outcome.status
    return f"{outcome.status} {outcome.result.headline:.4f}"


def _when(outcome: Outcome) -> str:
    return ",".join(f"{axis}={value}" for axis, value in outcome.when.items())


def labeller(outcomes: Sequence[Outcome]) -> Callable[[Outcome], str]:
    """How each outcome's expectation is named: ``case [axis=value,...]`` (its
    ``when``), or just ``case`` when it pins nothing; where two expectations of a
    case share that name, their position tells them apart (``case [#2]``,
    ``case [axis=value, #2]``), so that no two rows or problem lines read alike."""
    blocks: dict[tuple[str, str], set[int]] = {}
    for outcome in outcomes:
        blocks.setdefault((outcome.case_id, _when(outcome)), set()).add(outcome.expectation)

    def label(outcome: Outcome) -> str:
        when = _when(outcome)
        parts = [when] if when else []
        if len(blocks[(outcome.case_id, when)]) > 1:
            parts.append(f"#{outcome.expectation + 1}")
        return f"{outcome.case_id} [{', '.join(parts)}]" if parts else outcome.case_id

    return label


def outcome_table(outcomes: Sequence[Outcome], impls: Sequence[str]) -> str:
    """Cases (rows) by implementations (columns), status and score in each cell."""
    label = labeller(outcomes)
    rows: dict[str, dict[str, str]] = {}
    for outcome in outcomes:
        rows.setdefault(label(outcome), {})[outcome.impl] = _cell(outcome)
    return table(["case", *map(code, impls)],
                 [[escape(label), *(cells.get(impl, "") for impl in impls)]
                  for label, cells in rows.items()])


def summary_table(outcomes: Sequence[Outcome], impls: Sequence[str]) -> str:
    """Per implementation, how many outcomes had each status."""
    counts = {impl: Counter(o.status for o in outcomes if o.impl == impl) for impl in impls}
    statuses = sorted({o.status for o in outcomes})
    return table(["implementation", *statuses],
                 [[code(impl), *(str(counts[impl][status]) for status in statuses)]
                  for impl in impls])


def problems(outcomes: Sequence[Outcome]) -> list[Outcome]:
    """Outcomes that mean something is wrong: a failed must_, an accepted
    reject_, a crash."""
    return [o for o in outcomes if o.status in PROBLEMS]


def departure_lines(outcomes: Sequence[Outcome]) -> list[str]:
    """One line per ``must_`` case an implementation misses by a convention it
    declares (``departs``), named as ``problem_lines`` names a problem."""
    label = labeller(outcomes)
    return [f"{o.status}: {o.impl} on {label(o)}: {o.detail}" for o in outcomes
            if o.status == DEPARTS]


def problem_lines(outcomes: Sequence[Outcome]) -> list[str]:
    """One line per problem, ``STATUS: IMPL on CASE [WHEN]: DETAIL``, naming the
    expectation that failed (a case has one per ``[[case.expect]]`` block)."""
    label = labeller(outcomes)
    return [f"{o.status}: {o.impl} on {label(o)}: {o.detail}" for o in problems(outcomes)]


def render_markdown(
    outcomes: Sequence[Outcome], impls: Sequence[str], signatures: dict[str, str]
) -> str:
    lines = [
        "# metricdiff check: implementations on the bundled fixtures",
        "",
        "Statuses: `pass`/`FAIL` for `must_` cases (value fixed by the paper), "
        "`departs` for a `must_` case missed by a convention the implementation declares "
        "(the reference configured as it gives its result; no failure), "
        "`matches`/`differs` for `conv_` cases (value depends on a convention; "
        "never a failure), `refused`/`ACCEPTED` for `reject_` cases, `n/a` where the "
        "implementation cannot honour an axis the case pins, `crash` where it raised.",
        "",
        "## Implementations",
        "",
        table(["implementation", "default signature"],
              [[code(name), code(signature)] for name, signature in sorted(signatures.items())]),
        "",
        "## Summary",
        "",
        summary_table(outcomes, impls),
        "",
        "## Problems",
        "",
    ]
    found = problems(outcomes)
    label = labeller(outcomes)
    if found:
        lines.append(table(["case", "implementation", "status", "detail"],
                           [[escape(label(o)), code(o.impl), o.status, escape(o.detail)]
                            for o in found]))
    else:
        lines.append("None.")
    lines += ["", "## Every case", "", outcome_table(outcomes, impls), ""]
    return "\n".join(lines)


def write_reports(
    out_dir: Path,
    outcomes: Sequence[Outcome],
    impls: Sequence[str],
    signatures: dict[str, str],
) -> list[Path]:
    """Write ``check.md`` and ``check.json`` into ``out_dir``, together
    (``atomic.write_group``); return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    markdown = out_dir / "check.md"
    data = {
        "implementations": signatures,
        "outcomes": [o.to_json() for o in outcomes],
    }
    as_json = out_dir / "check.json"
    write_group({markdown: render_markdown(outcomes, impls, signatures),
                 as_json: json.dumps(data, indent=1, ensure_ascii=False) + "\n"})
    return [markdown, as_json]
