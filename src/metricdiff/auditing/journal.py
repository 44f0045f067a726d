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
import os
import shutil
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from metricdiff import limits
from metricdiff.atomic import check_target
from metricdiff.cases.case import Sample
from metricdiff.errors import InputError, MetricdiffWarning, OutputError
from metricdiff.input_files import load_json, open_regular
from metricdiff.profiles import profile_of
from metricdiff.profiles.metrics import METRICS, Result, family
from metricdiff.progress import Phase, Progress, duration
from metricdiff.scoring.jobs import CaseResult, Job
from metricdiff.scoring.rows import encode_row, outcome_from_row
from metricdiff.statistics import BleuResult, RougeResult
from metricdiff.wording import plural

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
    """A journal line read back, checked as every row metricdiff reads back is
    (``scoring.rows``: a NaN score, a string where a number belongs, an unknown
    status, deep nesting or a huge number make it no outcome); None if it is not
    one."""
    try:
        row = load_json(line.decode("utf-8"))
        if not isinstance(row, dict):
            return None
        fields = [row.get(name) for name in ("metric", "impl", "label", "options", "case")]
        texts = [field for field in fields if isinstance(field, str)]
        if len(texts) != len(fields) or texts[0] not in METRICS:
            return None
        key: Key = (texts[0], texts[1], texts[2], texts[3], texts[4])
        return key, outcome_from_row(row, family(texts[0]))
    except (ValueError, UnicodeDecodeError):  # RowError, Unreadable, JSONDecodeError
        return None


def _say(message: str) -> None:
    warnings.warn(message, MetricdiffWarning, stacklevel=3)


class Journal:
    """The journal at ``path``: read back (``resume``) or started afresh.

    Read back, a line that is not an outcome metricdiff writes is ignored (its
    case is scored again), and ``warn`` says how many there were.  Written, a
    write that fails (a full disk) is an ``OutputError``; a journal removed while
    the audit runs (its folder deleted) is written again, whole, from the open
    file, and ``warn`` says so: nothing scored is lost."""

    def __init__(self, path: Path, resume: bool = False,
                 warn: Callable[[str], None] = _say) -> None:
        self.path = path
        self.warn = warn
        self.recorded: dict[Key, CaseResult] = {}
        #: Lines read back that were not outcomes (``_parse``).
        self.ignored = 0
        path.parent.mkdir(parents=True, exist_ok=True)
        check_target(path)  # a FIFO or a device named journal.jsonl is not opened
        try:
            if resume and path.exists():
                whole = self._read()
                self._stream = path.open("r+b")
                self._stream.truncate(whole)  # drop an unfinished last line
                self._stream.seek(0, os.SEEK_END)
            else:
                self._stream = path.open("w+b")
        except OSError as error:
            raise OutputError(f"{path}: cannot write the journal: "
                              f"{error.strerror or error}") from None
        if self.ignored:
            warn(f"{path}: {plural(self.ignored, 'line')} not an outcome metricdiff writes "
                 "(edited, or cut short): their cases are scored again")

    def _read(self) -> int:
        """Load every whole, valid line, one at a time; the length of the whole
        lines (a line past ``limits.max_line_bytes()`` is skipped, not held)."""
        limit = limits.max_line_bytes()
        whole = 0
        with open_regular(self.path, InputError, "journal") as (stream, _size):
            while True:
                line = stream.readline(limit + 1)
                if not line.endswith(b"\n"):
                    if len(line) <= limit:
                        return whole  # the end, or an unfinished last line
                    while line and not line.endswith(b"\n"):  # too long: skip it
                        line = stream.readline(limit + 1)
                    if not line:
                        return whole
                    self.ignored += 1
                elif line.strip():
                    parsed = _parse(line)
                    if parsed is None:
                        self.ignored += 1
                    else:
                        self.recorded.setdefault(*parsed)
                whole = stream.tell()

    def get(self, key: Key) -> CaseResult | None:
        return self.recorded.get(key)

    def record(self, key: Key, outcome: CaseResult, *, known: bool = True) -> None:
        """Append the outcome, unless the key is already there.  ``known=False``:
        the caller records each key once and the journal need not remember it
        (the audit of a large corpus: ``recorded`` would hold every result)."""
        if key in self.recorded:
            return
        line = encode_row(_row(key, outcome)) + "\n"
        try:
            if os.fstat(self._stream.fileno()).st_nlink == 0:
                self._written_again()
            self._stream.write(line.encode("utf-8"))
            self._stream.flush()
        except OSError as error:
            raise OutputError(f"{self.path}: cannot write the journal: "
                              f"{error.strerror or error}; the cases it holds are kept "
                              "(--resume goes on from them once there is room)") from None
        if known:
            self.recorded[key] = outcome

    def _written_again(self) -> None:
        """The journal was removed (its folder deleted) while this run wrote it:
        write it again, whole, from the file still open."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        again = self.path.open("w+b")
        self._stream.flush()
        self._stream.seek(0)
        shutil.copyfileobj(self._stream, again)
        self._stream.close()
        self._stream = again
        self.warn(f"{self.path} was removed while the audit ran; it is written again, "
                  "with every case scored so far")

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
