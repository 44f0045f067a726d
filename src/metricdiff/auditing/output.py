"""Writing what an audit found: ``findings.json``, the raw per-case results as JSON
Lines, who took part (``audit.json``), the pairs derived from the star
(``pairs.json``), and minimal counterexamples as fixtures."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import tomli_w

from metricdiff.atomic import atomic_group, write_atomic
from metricdiff.auditing.metric import MetricAudit
from metricdiff.cases.fixtures import FORMAT_VERSION
from metricdiff.errors import MetricdiffError, OutputError
from metricdiff.findings.finding import COMPARED, Finding
from metricdiff.findings.witness import REFERENCE, Participant, Witness
from metricdiff.impls import get_adapter
from metricdiff.impls.settings import parse_spec
from metricdiff.profiles import profile_of
from metricdiff.reports.model import AUDIT_NAME, FINDINGS_NAME, PAIRS_NAME, RESULTS_NAME
from metricdiff.scoring.cache import active as active_cache
from metricdiff.scoring.rows import encode_row
from metricdiff.statistics import statistics_of

#: Axes a fixture never pins: the metric name sets them.
_NOT_PINNED = ("variant", "n")


def findings_json(audits: Sequence[MetricAudit]) -> list[dict[str, Any]]:
    return [finding.to_json() for audit in audits for finding in audit.findings]


def write_findings(out_dir: Path, audits: Sequence[MetricAudit], kept: int = 0,
                   extra: Mapping[str, str] | None = None) -> list[Path]:
    """``findings.json``, ``results.jsonl``, ``audit.json`` and ``pairs.json`` in
    ``out_dir``, and the ``extra`` files (name -> text: ``compare.json``,
    ``inferred.json``), all written together (``atomic.atomic_group``): an
    interruption, even SIGTERM, leaves the files of one run, never findings of one
    beside cases of another.

    ``kept``: how many of ``audits`` (the first ones) the ``results.jsonl``
    already in ``out_dir`` holds, as this function wrote them.  Their rows are
    copied as bytes, not made and encoded again: an audit writes the folder after
    every metric, and encoding every earlier metric's rows each time made the
    writing grow with the square of the metrics."""
    out_dir.mkdir(parents=True, exist_ok=True)
    findings = out_dir / FINDINGS_NAME
    results = out_dir / RESULTS_NAME
    if kept and not results.exists() and any(not a.scores.own for a in audits[:kept]):
        # Their per-case results were dropped once written (``without_results``).
        done = ", ".join(a.metric for a in audits[:kept])
        raise OutputError(
            f"{results}: removed while the audit ran, and the results of {done} are no "
            "longer in memory to write it again; run the same audit again with --resume "
            "(its journal keeps every case scored)")
    kept = kept if results.exists() else 0
    about = out_dir / AUDIT_NAME
    written = [findings, results, about]
    with atomic_group() as open_new:
        open_new(findings).write(_json(findings_json(audits)))
        stream = open_new(results)  # row by row: it can be long
        if kept:
            with results.open("rb") as earlier:
                shutil.copyfileobj(earlier, stream)
        for audit in audits[kept:]:
            for row in result_rows(audit):
                stream.write((encode_row(row) + "\n").encode("utf-8"))
        open_new(about).write(_json(audit_json(audits)))
        pairs = out_dir / PAIRS_NAME
        written.append(pairs)
        open_new(pairs).write(_json([pair.to_json() for audit in audits
                                     for pair in audit.pairs]))
        for name, text in (extra or {}).items():
            written.append(out_dir / name)
            open_new(out_dir / name).write(text.encode("utf-8"))
    return written


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


AUDIT_FORMAT = 1


def _version(person: Participant) -> str:
    """The implementation's version, as its signature gives it (``impl:name-1.2``;
    the name without the settings that ``person.impl`` may carry)."""
    name = parse_spec(person.impl).name
    for part in person.signature.split("|"):
        if part.startswith(f"impl:{name}-"):
            return part.removeprefix(f"impl:{name}-")
    return ""


def _package(person: Participant) -> str:
    """The distribution the implementation comes from (its adapter's), or ``""``
    for one that names none (the reference, a user's own)."""
    try:
        return get_adapter(person.impl, person.metric).package.distribution or ""
    except MetricdiffError:
        return ""


def audit_json(audits: Sequence[MetricAudit]) -> dict[str, Any]:
    """The contents of ``audit.json``; with ``--cache``, how many of the peers'
    scores came from it (``cache``: hits, scored and stored, rows ignored, peer
    scores asked of it, and its folder), which the reports say."""
    cache = active_cache()
    counts = {} if cache is None else {
        "cache": {**attrs.asdict(cache.counts), "folder": str(cache.folder)}}
    return {
        "format": AUDIT_FORMAT,
        **counts,
        "metrics": [
            {
                "metric": audit.metric,
                "participants": [
                    {
                        "name": person.name,
                        "impl": person.impl,
                        "label": person.label,
                        "version": _version(person),
                        "package": _package(person),
                        "signature": person.signature,
                        "profile": profile_of(person.options),
                        "tolerance": {
                            "absolute": person.tolerance.absolute,
                            "relative": person.tolerance.relative,
                            "reason": person.tolerance.reason,
                        },
                    }
                    for person in audit.participants
                ],
                "skipped": list(audit.skipped),
                # findings whose example the shrinking budget left unfinished
                **({"unshrunk": audit.unshrunk} if audit.unshrunk else {}),
                "cases": [
                    {"id": case.id, "source": case.origin, "class": case.klass,
                     **({"segments": len(case.hyps)} if len(case.hyps) != 1 else {})}
                    for case in audit.cases
                ],
            }
            for audit in audits
        ],
    }


def result_rows(audit: MetricAudit) -> Iterator[dict[str, Any]]:
    """One row per participant and case, and per reference run as a participant,
    made as they are written (there are millions for a large corpus)."""
    for person in audit.participants:
        runs = [(person.name, audit.scores.own[person.name])]
        if person.name in audit.scores.reference:
            runs.append((f"{REFERENCE}-as-{person.name}", audit.scores.reference[person.name]))
        for label, outcomes in runs:
            for case, outcome in zip(audit.cases, outcomes, strict=True):
                yield {
                    "metric": audit.metric,
                    "impl": label,
                    "signature": person.signature,
                    "case": case.id,
                    "source": case.origin,
                    "status": outcome.status,
                    "error": outcome.error,
                    "result": None if outcome.result is None else outcome.result.to_json(),
                }


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _reference_gives(finding: Finding, options: dict[str, str], expect: dict[str, Any]) -> bool:
    """Whether the reference, configured as the expectation says, gives its values:
    a saved fixture must hold as a regression test."""
    from metricdiff.cases.case import Expectation
    from metricdiff.comparison.expectations import mismatches
    from metricdiff.impls import get_adapter

    reference = get_adapter(REFERENCE, finding.metric)
    try:
        config = reference.options(finding.metric, {**options, **expect["when"]})
        result = reference.corpus_score(
            finding.metric, finding.example.hyps, finding.example.refs, config
        )
    except Exception:  # the configuration does not run: not a usable fixture
        return False
    values = {k: v for k, v in expect.items() if k not in ("when", "source")}
    return not mismatches(result, Expectation({}, values, "", 1e-6))


def _expect(finding: Finding, side: str) -> dict[str, Any] | None:
    result = finding.example.result_a if side == "a" else finding.example.result_b
    if result is None:
        return None
    axes = finding.axis.split(",")
    values = finding.values[0 if side == "a" else 1].split(",")
    if finding.kind == "conformance":  # a is the implementation = the new values
        values = finding.values[1 if side == "a" else 0].split(",")
    who = finding.impl_a if side == "a" else finding.impl_b
    return {
        "when": dict(zip(axes, values, strict=True)),
        "source": f"metricdiff audit: {who} ({finding.signatures.get(who, 'the reference')})",
        **{k: v for k, v in statistics_of(result.to_json()).items() if v is not None},
    }


def fixture_of(finding: Finding, witness: Witness) -> dict[str, Any] | None:
    """A ``conv_`` fixture recording an explained finding's minimal case: one
    expectation per convention value."""
    if finding.kind not in COMPARED or not finding.explained:
        return None
    if finding.axis in ("", "unexplained"):
        return None
    if set(finding.axis.split(",")) & set(_NOT_PINNED):
        return None  # the metric name sets the variant: no fixture can pin it
    if witness.base is None:
        return None
    options = {k: v for k, v in profile_of(witness.base).items()
               if k not in _NOT_PINNED and k not in finding.axis.split(",")}
    expects = [
        e for e in (_expect(finding, "a"), _expect(finding, "b"))
        if e is not None and _reference_gives(finding, options, e)
    ]
    if len(expects) < 2:
        return None
    return {
        "id": _slug(f"conv_found_{finding.metric}_{finding.axis}_{finding.values[0]}_"
                    f"{finding.values[1]}"),
        "metric": finding.metric,
        "description": (
            f"Found by metricdiff audit ({finding.kind}): {finding.impl_a} vs "
            f"{finding.impl_b} part on {finding.axis} ({finding.values[0]} vs "
            f"{finding.values[1]}); first difference {finding.first_difference}."
        ),
        "hyps": list(finding.example.hyps),
        "refs": [[r or "" for r in refs] for refs in finding.example.refs],
        "options": options,
        "tolerance": 1e-6,
        "expect": expects,
    }


def save_fixtures(directory: Path, audits: Sequence[MetricAudit]) -> Path | None:
    """Write each explained minimal counterexample as a fixture, one per distinct
    cause (metric, axis and values), into ``found.toml``."""
    cases = []
    seen = set()
    for audit in audits:
        for finding, witness in zip(audit.findings, audit.witnesses, strict=True):
            case = fixture_of(finding, witness)
            if case is not None and case["id"] not in seen:
                seen.add(case["id"])
                cases.append(case)
    if not cases:
        return None
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "found.toml"
    write_atomic(path, tomli_w.dumps({"format": FORMAT_VERSION, "case": cases}))
    return path
