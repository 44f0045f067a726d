"""A lock against its recomputation: the scores that drifted, the implementations
that cannot run now, what changed in the environment, and the report of it all
(``Verification``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from metricdiff.locks.lockfile import Entry, Lock
from metricdiff.locks.reading import is_number
from metricdiff.wording import plural, printable


@attrs.frozen
class Drift:
    """A recorded value that a recomputation does not reproduce."""

    case: str
    metric: str
    impl: str
    field: str
    old: str
    new: str

    def line(self) -> str:
        where = f"{self.case}  {self.impl}  {self.metric}"
        return f"drift: {where}  {self.field}: {self.old} -> {self.new}"


def _within(old: float, new: float, abs_tol: float, rel_tol: float) -> bool:
    if math.isnan(old) or math.isnan(new):
        return math.isnan(old) and math.isnan(new)
    if old == new:  # also equal infinities
        return True
    return abs(old - new) <= max(abs_tol, rel_tol * abs(old))


def _field_drifts(name: str, old: Any, new: Any, entry: Entry) -> list[tuple[str, str, str]]:
    """(field, old, new) for each part of one result field that moved too far."""
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [
            drift
            for index, (a, b) in enumerate(zip(old, new, strict=True))
            for drift in _field_drifts(f"{name}[{index}]", a, b, entry)
        ]
    if is_number(old) and is_number(new) and _within(old, new, entry.abs_tol, entry.rel_tol):
        return []
    return [(name, str(old), str(new))]


def compare_entries(old: Entry, new: Entry) -> list[Drift]:
    """Where ``new`` departs from ``old`` beyond ``old``'s tolerance, field by
    field over the fields ``old`` records."""
    def drift(field: str, before: str, after: str) -> Drift:
        return Drift(old.case, old.metric, old.impl, field, before, after)

    if old.result is None or new.result is None:
        before = old.error or "scored"
        after = new.error or "scored"
        return [] if before == after else [drift("error", before, after)]
    # Only what the lock recorded: a field it left out (not reported, or new in a
    # later metricdiff) pins nothing.  A recorded field no longer reported drifts.
    absent = "absent"
    return [
        drift(field, before, after)
        for name, value in old.result.items()
        for field, before, after in _field_drifts(name, value, new.result.get(name, absent), old)
    ]


def _signature_change(old: str, new: str) -> str:
    """The components of two signatures that differ, e.g. ``smooth:none -> smooth:exp``."""
    before, after = old.split("|"), new.split("|")
    if len(before) != len(after):
        return f"{old} -> {new}"
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    return ", ".join(f"{a} -> {b}" for a, b in changed)


def environment_changes(old: Lock, new: Lock) -> list[str]:
    """What differs between the environments the two locks were written in."""
    changes = [
        f"{field}: {a} -> {b}"
        for field, a, b in (
            (f, getattr(old.environment, f), getattr(new.environment, f))
            for f in ("metricdiff", "python", "platform")
        )
        if a != b
    ]
    for name, info in old.impls.items():
        current = new.impls.get(name)
        if current is None:
            continue
        if info.version != current.version:
            changes.append(f"{name}: version {info.version} -> {current.version}")
        for metric, text in info.signatures.items():
            now = current.signatures.get(metric)
            if now is not None and now != text:
                changes.append(f"{name} {metric}: signature {_signature_change(text, now)}")
    return changes


@attrs.frozen
class Failure:
    """A score an implementation did not give: its process died, it hung, or it
    returned an invalid result (``reason``, e.g. ``timeout: no result within
    5 s``).  ``snapshot`` refuses to record it; ``verify`` fails on it."""

    case: str
    metric: str
    impl: str
    reason: str

    def line(self, verb: str = "failed") -> str:
        return f"{verb}: {self.case}  {self.impl}  {self.metric}  {self.reason}"


@attrs.frozen
class Missing:
    """An implementation the lock records that cannot run now."""

    impl: str
    reason: str
    scores: int  # how many recorded scores go unchecked

    def line(self) -> str:
        # An adapter's reason already starts with its name.
        reason = self.reason if self.reason.startswith(self.impl) else f"{self.impl}: {self.reason}"
        return f"missing: {reason} ({plural(self.scores, 'score')} not checked)"


@attrs.frozen
class Verification:
    """The outcome of recomputing a lock.  ``checked``: the recorded scores
    compared (all but those of ``missing`` implementations); ``failures``: those
    the implementation did not give again (a crash, a hang, an invalid result)."""

    lock: Path
    checked: int
    drifts: tuple[Drift, ...]
    missing: tuple[Missing, ...]
    environment: tuple[str, ...]
    inputs: tuple[str, ...]
    failures: tuple[Failure, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.drifts and not self.missing and not self.failures

    @property
    def drifted_scores(self) -> int:
        """How many scores drifted (a score drifts in one field or in many)."""
        return len({(drift.case, drift.metric, drift.impl) for drift in self.drifts})

    def summary(self) -> str:
        """``LOCK: all 6 scores reproduce`` (``its 1 score reproduces``), or
        ``LOCK: 3 of 6 scores drifted (26 fields)``, or ``LOCK: 1 of 6 scores
        failed``, with the missing implementations if any."""
        if self.ok:
            if self.checked == 1:
                return f"{self.lock}: its 1 score reproduces"
            return f"{self.lock}: all {plural(self.checked, 'score')} reproduce"
        if self.failures:
            text = f"{self.lock}: {len(self.failures)} of {plural(self.checked, 'score')} failed"
            if self.drifts:
                text += f", {self.drifted_scores} drifted ({plural(len(self.drifts), 'field')})"
        elif self.drifts:
            text = (f"{self.lock}: {self.drifted_scores} of {plural(self.checked, 'score')} "
                    f"drifted ({plural(len(self.drifts), 'field')})")
        elif self.checked:
            text = (f"{self.lock}: {plural(self.checked, 'score')} checked, "
                    + ("it reproduces" if self.checked == 1 else "all reproduce"))
        else:
            text = f"{self.lock}: no score could be checked"
        if self.missing:
            text += f", {plural(len(self.missing), 'implementation')} missing"
        return text

    def lines(self) -> list[str]:
        """The report: a summary, one line per drift, failure or missing
        implementation, then what changed in the environment and the inputs since
        the lock was written.  A lock's names and values are anyone's text: each
        line is printable (``wording.printable``), a terminal escape shown, not
        sent to the terminal."""
        return [printable(line) for line in self._lines()]

    def _lines(self) -> list[str]:
        lines = [self.summary()]
        lines += [drift.line() for drift in self.drifts]
        lines += [failure.line() for failure in self.failures]
        lines += [missing.line() for missing in self.missing]
        if self.environment:
            lines.append("environment changes since the lock was written:")
            lines += [f"  {change}" for change in self.environment]
        if self.inputs:
            lines.append("input changes since the lock was written:")
            lines += [f"  {change}" for change in self.inputs]
        return lines


def compare(
    old: Lock,
    new: Lock,
    lock_path: Path,
    unavailable: Mapping[str, str] | None = None,
    input_changes: Sequence[str] = (),
    failures: Sequence[Failure] = (),
) -> Verification:
    """``new`` (a recomputation of ``old``'s entries) against ``old``.  An entry
    ``new`` lacks is a drift, unless its implementation is ``unavailable`` (name
    -> reason), which is reported once per implementation, or its recomputation
    is one of ``failures``."""
    unavailable = unavailable or {}
    current = {entry.key: entry for entry in new.entries}
    failed = {(failure.case, failure.metric, failure.impl) for failure in failures}
    drifts: list[Drift] = []
    for entry in old.entries:
        if entry.impl in unavailable or entry.key in failed:
            continue
        now = current.get(entry.key)
        if now is None:
            drifts.append(Drift(entry.case, entry.metric, entry.impl, "entry",
                                "recorded", "not recomputed (case or metric gone)"))
        else:
            drifts += compare_entries(entry, now)
    missing = tuple(
        Missing(name, reason, sum(e.impl == name for e in old.entries))
        for name, reason in sorted(unavailable.items())
    )
    checked = sum(entry.impl not in unavailable for entry in old.entries)
    return Verification(lock_path, checked, tuple(drifts), missing,
                        tuple(environment_changes(old, new)), tuple(input_changes),
                        tuple(failures))
