"""What keeps a long audit going: a journal of every scored case, so that an
interrupted run resumes where it stopped, and a progress line.

The journal (``journal.jsonl`` in the ``--out`` folder) has one JSON line per
job and case, appended and flushed as soon as the case has its outcome::

    {"metric": "bleu", "impl": "sacrebleu", "label": "sacrebleu",
     "options": "<hash of profile_of(options)>", "case": "<hash of hyps and refs>",
     "status": "ok", "error": "", "result": {...}}

The first five fields are the key: the same implementation, under the same
profile, on the same hypotheses and references, is the same job-case, whatever
its position among the cases.  A line is written once per key.  Reading the
journal back ignores a line that is not whole (the process was killed while
writing it) or not valid, and cuts an unfinished last line off the file before
anything is appended to it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from metricdiff.cases.case import Sample
from metricdiff.profiles import profile_of
from metricdiff.profiles.metrics import Result
from metricdiff.progress import Phase, Progress, duration
from metricdiff.scoring.jobs import CaseResult, Job
from metricdiff.statistics import BleuResult, RougeResult

#: The name of the journal in the ``--out`` folder.
JOURNAL_NAME = "journal.jsonl"

Key = tuple[str, str, str, str, str]


def _digest(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def case_digest(hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> str:
    """The journal's name for a case: a hash of its hypotheses and references."""
    return _digest([list(hyps), [list(seg) for seg in refs]])


def job_key(job: Job) -> tuple[str, str, str, str]:
    """The job's part of its cases' keys: metric, impl, label, hash of the profile."""
    return job.metric, job.impl, job.label, _digest(profile_of(job.options))


def job_case_key(job: Job, case: Sample) -> Key:
    """metric, impl, label, hash of the profile, hash of the case."""
    return (*job_key(job), case_digest(*case))


def result_from_json(data: dict[str, Any]) -> Result:
    """A ``BleuResult`` or ``RougeResult`` from its ``to_json``."""
    if "score" in data:
        return BleuResult.from_json(data)
    return RougeResult.from_json(data)


def _row(key: Key, outcome: CaseResult) -> dict[str, Any]:
    metric, impl, label, options, case = key
    return {
        "metric": metric,
        "impl": impl,
        "label": label,
        "options": options,
        "case": case,
        "status": outcome.status,
        "error": outcome.error,
        "result": None if outcome.result is None else outcome.result.to_json(),
    }


def _parse(line: bytes) -> tuple[Key, CaseResult] | None:
    try:
        row = json.loads(line.decode("utf-8"))
        key: Key = (
            str(row["metric"]), str(row["impl"]), str(row["label"]),
            str(row["options"]), str(row["case"]),
        )
        raw = row["result"]
        result = None if raw is None else result_from_json(raw)
        return key, CaseResult(row["status"], result, str(row["error"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


class Journal:
    """The journal at ``path``: read back (``resume``) or started afresh."""

    def __init__(self, path: Path, resume: bool = False) -> None:
        self.path = path
        self.recorded: dict[Key, CaseResult] = {}
        path.parent.mkdir(parents=True, exist_ok=True)
        if resume and path.exists():
            whole = self._read()
            with path.open("r+b") as stream:  # drop an unfinished last line
                stream.truncate(whole)
            self._stream = path.open("ab")
        else:
            self._stream = path.open("wb")

    def _read(self) -> int:
        """Load every whole, valid line; the length of the whole lines."""
        data = self.path.read_bytes()
        whole = data.rfind(b"\n") + 1
        for line in data[:whole].split(b"\n"):
            if not line.strip():
                continue
            parsed = _parse(line)
            if parsed is not None:
                self.recorded.setdefault(*parsed)
        return whole

    def get(self, key: Key) -> CaseResult | None:
        return self.recorded.get(key)

    def record(self, key: Key, outcome: CaseResult, *, known: bool = True) -> None:
        """Append the outcome, unless the key is already there.  ``known=False``:
        the caller records each key once and the journal need not remember it
        (the audit of a large corpus: ``recorded`` would hold every result)."""
        if key in self.recorded:
            return
        line = json.dumps(_row(key, outcome), ensure_ascii=False) + "\n"
        self._stream.write(line.encode("utf-8"))
        self._stream.flush()
        if known:
            self.recorded[key] = outcome

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.close()


class ProgressLine(Progress):
    """``bleu: scoring 120/300 (case, implementation) runs, 41.2 runs/s, about
    4 s left`` on ``stream`` (``progress.Progress``: redrawn in place on a
    terminal, a line now and then elsewhere, once more at the end).

    What it counts is job-cases: one case scored by one participant, or by the
    reference configured as one -- not cases, of which there are several times
    fewer.  The rate and the time left count the runs of this process, not
    resumed ones."""

    PHASE = "scoring"

    def __init__(
        self, label: str, total: int, done: int, stream: TextIO, interval: float = 0.25
    ) -> None:
        super().__init__(label, stream, interval)
        self.phases[self.PHASE] = Phase(total, done, "(case, implementation) run")

    @property
    def done(self) -> int:
        return self.phases[self.PHASE].done

    def advance(self, count: int = 1, phase: str = PHASE) -> None:  # type: ignore[override]
        super().advance(phase, count)

    def text(self, now: float) -> str:
        phase = self.phases[self.PHASE]
        elapsed = max(now - phase.start, 1e-9)
        text = (f"{phase.describe(self.label + ': ' + self.PHASE)}, "
                f"{(phase.done - phase.resumed) / elapsed:.1f} runs/s")
        left = phase.left(now)
        if left:
            text += f", about {duration(left)} left"
        if phase.resumed:
            text += f" ({phase.resumed} from the journal)"
        return text
