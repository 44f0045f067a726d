"""Score locks: every score of some implementations on some inputs, written down
so that a later run can tell whether the numbers still reproduce.

This module scores (``snapshot``) and recomputes (``verify``); the file and its
TOML format are ``lockfile.py``, the comparison of a lock with its recomputation
``drift.py``.  A lock holds at least one score: an empty one would verify as
"all 0 scores reproduce" and pin nothing.

Everything here returns values; printing is the command line's job.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from metricdiff.cases.case import Case
from metricdiff.cases.files import line_cases, read_corpus
from metricdiff.cases.fixtures import load_all, load_file
from metricdiff.errors import ConventionError, InputError, LockError, UnsupportedOption
from metricdiff.impls import AnyAdapter
from metricdiff.impls.user.python import load_timeout
from metricdiff.locks.drift import (
    Drift,
    Failure,
    Missing,
    Verification,
    compare,
    compare_entries,
    environment_changes,
)
from metricdiff.locks.lockfile import (
    LOCK_FORMAT,
    ROLES,
    Entry,
    Environment,
    ImplInfo,
    InputFile,
    Lock,
    check_writable,
    current_environment,
    dumps,
    input_file,
    sha256_of,
    write,
)
from metricdiff.locks.reading import loads, read
from metricdiff.locks.trust import SAFE, Trust, check_implementations, readable_input
from metricdiff.profiles.metrics import METRICS, Result, family
from metricdiff.scoring import DEFAULT_TIMEOUT, CaseResult, Request, score_requests
from metricdiff.statistics import statistics_of

# --- what is scored ---------------------------------------------------------


def fixture_cases(files: Iterable[Path]) -> list[tuple[Case, str]]:
    """Each must_ and conv_ fixture case with its own metric.  reject_ cases are
    left out: what they test is the options they pin, and a lock scores each
    implementation under its default profile."""
    return [
        (case, case.metric)
        for path in files
        for case in load_file(path)
        if case.verdict_class != "reject"
    ]


def fixture_files(root: Path) -> list[Path]:
    """The fixture files under ``root``, checked to load together (unique IDs)."""
    load_all(root)
    files = sorted(root.rglob("*.toml"))
    if not files:
        raise InputError(f"{root}:0: no fixture files (*.toml) here")
    return files


def corpus_cases(hyp_file: str, ref_files: Sequence[str]) -> list[Case]:
    """Each line of the user's files as a case, and the whole corpus as one more
    (``files.line_cases``)."""
    if hyp_file == "-" or "-" in ref_files:
        raise InputError("-:0: a lock needs files that verify can read again, not stdin")
    return line_cases(read_corpus(hyp_file, ref_files), hyp_file)


def jsonl_cases(path: str, hyp_field: str, ref_field: str) -> list[Case]:
    """Each line of the user's JSONL file as a case, and the whole corpus as one
    more (``files.line_cases``)."""
    from metricdiff.cases.jsonl import read_jsonl

    if path == "-":
        raise InputError("-:0: a lock needs files that verify can read again, not stdin")
    return line_cases(read_jsonl(path, hyp_field, ref_field), path)


# --- scoring ----------------------------------------------------------------

#: Implementation name -> family (``bleu``/``rouge``) -> its adapter.
Impls = Mapping[str, Mapping[str, AnyAdapter]]
#: One score to compute: a case, a metric and an implementation name.
Job = tuple[Case, str, str]


def adapter_of(impls: Impls, name: str, metric: str) -> AnyAdapter | None:
    """``name``'s adapter for ``metric``, or None if it does not implement it."""
    adapter = impls.get(name, {}).get(family(metric))
    return adapter if adapter is not None and metric in adapter.declared.metrics else None


def plan(cases: Iterable[tuple[Case, str]], impls: Impls) -> list[Job]:
    """Every (case, metric) with every implementation that has the metric, in
    input order, then metric order, then implementation name."""
    case_order: dict[str, int] = {}
    unique: dict[tuple[str, str], Case] = {}  # a metric named twice is scored once
    for case, metric in cases:
        case_order.setdefault(case.id, len(case_order))
        unique.setdefault((case.id, metric), case)
    keys = sorted(unique, key=lambda key: (case_order[key[0]], METRICS.index(key[1])))
    return [
        (unique[key], key[1], name)
        for key in keys
        for name in sorted(impls)
        if adapter_of(impls, name, key[1]) is not None
    ]


def plain_value(value: Any) -> Any:
    """Numbers as Python int/float (a peer may hand back numpy scalars), lists as lists."""
    if isinstance(value, (list, tuple)):
        return [plain_value(item) for item in value]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return int(value) if isinstance(value, int) else float(value)


def recorded_fields(result: Result) -> dict[str, Any]:
    """The fields of ``result`` a lock records: those the implementation reported.

    A user's own implementation may leave statistics out (``Result.unknown``,
    null in ``to_json``); TOML has no null, and a statistic nobody reported is
    nothing to reproduce, so it is left out, and ``compare_entries`` checks only
    what was recorded."""
    return {key: plain_value(value) for key, value in statistics_of(result.to_json()).items()
            if value is not None}


@attrs.frozen
class Scores:
    """What ``score`` gave: the entries a lock may record, and the scores refused
    (the implementation's process died, it hung, or it returned an invalid
    result), which a lock never records; both in job order."""

    entries: tuple[Entry, ...]
    refused: tuple[Failure, ...]


def _entry(job: Job, outcome: CaseResult, adapter: AnyAdapter) -> Entry | Failure:
    """An implementation that raises answers: it refuses the input, and a lock
    records that (and checks that it still does).  A death, a hang or an invalid
    result is no answer: it gets no entry."""
    case, metric, name = job
    if outcome.raised is None and outcome.result is None:
        return Failure(case.id, metric, name, outcome.reason)
    tolerance = adapter.declared.tolerance
    base = Entry(case.id, metric, name, None, abs_tol=tolerance.absolute,
                 rel_tol=tolerance.relative)
    if outcome.raised is not None:
        return attrs.evolve(base, error=outcome.raised.type, message=outcome.raised.message)
    assert outcome.result is not None
    return attrs.evolve(base, result=recorded_fields(outcome.result))


def score(jobs: Sequence[Job], impls: Impls, *, timeout: float = DEFAULT_TIMEOUT) -> Scores:
    """Each job's entry, or its refusal.  Every implementation but the reference
    runs in a worker process, ``timeout`` seconds per call
    (``scoring.score_requests``); the jobs of one implementation and metric go in
    one request (a process-backed peer starts once)."""
    groups: dict[tuple[str, str], list[int]] = {}
    for index, (_, metric, name) in enumerate(jobs):
        groups.setdefault((name, metric), []).append(index)
    adapters = {key: adapter_of(impls, *key) for key in groups}
    requests = []
    for (name, metric), indices in groups.items():
        adapter = adapters[name, metric]
        assert adapter is not None, f"{name} has no {metric}: plan() leaves such jobs out"
        samples = [jobs[i][0].for_metric(metric).sample for i in indices]
        requests.append(Request(adapter, metric, samples))
    outcomes = score_requests(requests, timeout=timeout)
    made: dict[int, Entry | Failure] = {}
    for (key, indices), results in zip(groups.items(), outcomes, strict=True):
        adapter = adapters[key]
        assert adapter is not None
        for index, outcome in zip(indices, results, strict=True):
            made[index] = _entry(jobs[index], outcome, adapter)
    ordered = [made[index] for index in range(len(jobs))]
    return Scores(tuple(e for e in ordered if isinstance(e, Entry)),
                  tuple(e for e in ordered if isinstance(e, Failure)))


def make_lock(entries: Sequence[Entry], impls: Impls, inputs: Sequence[InputFile]) -> Lock:
    """The lock of ``entries``: each implementation's version and its signature
    under every metric it was scored with (its default profile)."""
    infos: dict[str, ImplInfo] = {}
    for name in sorted({entry.impl for entry in entries}):
        metrics = sorted({e.metric for e in entries if e.impl == name}, key=METRICS.index)
        signatures = {}
        version = ""
        for metric in metrics:
            adapter = adapter_of(impls, name, metric)
            assert adapter is not None
            version = adapter.version()
            signatures[metric] = adapter.signature(metric, adapter.options(metric))
        infos[name] = ImplInfo(version, signatures)
    return Lock(current_environment(), tuple(inputs), infos, tuple(entries))


# --- verifying --------------------------------------------------------------

AdapterLookup = Callable[[str, str], AnyAdapter]


def recorded_cases(lock: Lock, lock_dir: Path) -> tuple[dict[str, Case], list[str]]:
    """The cases of the lock's inputs as they are now, and how the input files
    changed (their sha256) since the lock was written."""
    changes = []
    for item in lock.inputs:
        digest = sha256_of(item.resolve(lock_dir))
        if digest != item.sha256:
            changes.append(f"{item.path}: sha256 {item.sha256[:12]}… -> {digest[:12]}…")
    fixtures = [item.resolve(lock_dir) for item in lock.inputs if item.role == "fixture"]
    cases = {case.id: case for case, _ in fixture_cases(fixtures)}
    hyps = [item.resolve(lock_dir) for item in lock.inputs if item.role == "hyp"]
    refs = [str(item.resolve(lock_dir)) for item in lock.inputs if item.role == "ref"]
    for hyp in hyps:
        cases.update((case.id, case) for case in corpus_cases(str(hyp), refs))
    for item in lock.inputs:
        if item.role == "jsonl" and item.hyp_field is not None and item.ref_field is not None:
            found = jsonl_cases(str(item.resolve(lock_dir)), item.hyp_field, item.ref_field)
            cases.update((case.id, case) for case in found)
    return cases, changes


def implementations(
    names: Iterable[str], metrics: Iterable[str], lookup: AdapterLookup
) -> tuple[dict[str, dict[str, AnyAdapter]], dict[str, str]]:
    """The adapters of ``names`` for the families of ``metrics`` that can run here,
    and the reason of each name that cannot."""
    families = sorted({family(metric) for metric in metrics})
    impls: dict[str, dict[str, AnyAdapter]] = {}
    unavailable: dict[str, str] = {}
    for name in names:
        for wanted in families:
            try:
                adapter = lookup(name, "bleu" if wanted == "bleu" else "rouge-1")
            except UnsupportedOption:  # it has no such family: nothing to score
                continue
            except ConventionError as error:  # a name that metricdiff no longer knows
                unavailable[name] = str(error)
                break
            reason = adapter.unavailable_reason()
            if reason is not None:
                unavailable[name] = reason
            else:
                impls.setdefault(name, {})[wanted] = adapter
    return impls, unavailable


def default_lookup(name: str, metric: str) -> AnyAdapter:
    from metricdiff.impls import get_adapter

    return get_adapter(name, metric)


def verify(
    path: Path, lookup: AdapterLookup = default_lookup, *, timeout: float = DEFAULT_TIMEOUT,
    trust: Trust = SAFE,
) -> Verification:
    """Recompute every score ``path`` records, from the same inputs, with the
    implementations installed now (isolated as ``score`` isolates them, a
    ``python:`` module's loading bounded by ``timeout`` too), and compare; what
    runs and what is read is bounded by ``trust`` (locks/trust.py), checked
    before anything is."""
    with load_timeout(timeout):
        return _verify(path, lookup, timeout, trust)


def _verify(path: Path, lookup: AdapterLookup, timeout: float, trust: Trust) -> Verification:
    old = read(path)
    check_implementations(old.impls, trust, path)
    for item in old.inputs:
        readable_input(item.path, path, trust)
    cases, input_changes = recorded_cases(old, path.parent)
    impls, unavailable = implementations(
        old.impls, {entry.metric for entry in old.entries}, lookup
    )
    # An entry whose case left the inputs, or whose metric the implementation
    # dropped, is not recomputed; compare() reports it as a drift.
    jobs = [
        (cases[entry.case], entry.metric, entry.impl)
        for entry in old.entries
        if entry.case in cases and entry.impl not in unavailable
        and adapter_of(impls, entry.impl, entry.metric) is not None
    ]
    scores = score(jobs, impls, timeout=timeout)
    new = make_lock(scores.entries, impls, old.inputs)
    return compare(old, new, path, unavailable, input_changes, scores.refused)


__all__ = [
    "LOCK_FORMAT",
    "ROLES",
    "AdapterLookup",
    "Drift",
    "Entry",
    "Environment",
    "Failure",
    "ImplInfo",
    "Impls",
    "InputFile",
    "Job",
    "Lock",
    "LockError",
    "Missing",
    "Scores",
    "Verification",
    "adapter_of",
    "check_writable",
    "compare",
    "compare_entries",
    "corpus_cases",
    "current_environment",
    "default_lookup",
    "dumps",
    "environment_changes",
    "fixture_cases",
    "fixture_files",
    "implementations",
    "input_file",
    "loads",
    "make_lock",
    "plain_value",
    "plan",
    "read",
    "recorded_cases",
    "recorded_fields",
    "score",
    "sha256_of",
    "verify",
    "write",
]
