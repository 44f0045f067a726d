"""Running the script on a batch of segments: the files, the process (the counts,
and the scores only where the counts leave one undecided) and its output read
back."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import attrs

from metricdiff.impls.peers._rouge_common import alpha_of
from metricdiff.impls.peers.rouge155 import locate
from metricdiff.impls.peers.rouge155.failures import Rouge155ScriptDied
from metricdiff.impls.peers.rouge155.flags import (
    Method,
    every_method_flags,
    method_of,
    printed_method,
    script_flags,
)
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult

_EVAL_LINE = re.compile(
    r"^X (ROUGE-\S+) Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$", re.MULTILINE
)
#: stderr lines the script prints for every empty text; not errors.
_NOISE = re.compile(r"^(readText|readText_LCS): .* -> empty text$")


@attrs.frozen
class ScriptCase:
    index: int
    hyp: list[str]
    refs: list[list[str]]


def _write(path: Path, lines: Sequence[str]) -> None:
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8", "replace"))


#: The two runs a batch can need (see the package docstring): per-evaluation
#: counts, always; R, P and F as the script prints them, only where the counts
#: cannot decide them (``scores_from_counts``).
COUNTS_RUN: tuple[str, ...] = ("-t", "2")
SCORES_RUN: tuple[str, ...] = ("-t", "0", "-r", "2")

#: Each evaluation's three printed numbers, by evaluation number.
Printed = dict[int, tuple[float, float, float]]

#: How far ROUGE-W's R or P formed from the printed counts may be, relatively,
#: from the script's own.  Perl prints each weighted count to 15 significant
#: digits (relative error <= 5e-15); their ratio and its 1/weight-th power add
#: (1/weight) times that and a few roundings.  This is a hundred times more.
_W_SLACK = 1e-12


def _five(value: float) -> float:
    """``sprintf("%7.5f", value)`` read back as a number, as the script does."""
    return float(f"{value:7.5f}")


def _f_from_printed(recall: float, precision: float, alpha: float) -> float:
    """F formed from the printed R and P strings and rounded again (l. 1214-1218,
    1340-1344, 1478-1482, 1608-1612)."""
    weighted = (1 - alpha) * precision + alpha * recall
    return _five(precision * recall / weighted if weighted > 0 else 0.0)


def printed_scores(
    ref_total: float, hyp_total: float, matches: float, alpha: float
) -> tuple[float, float, float]:
    """R, P and F as the script prints them for an evaluation with these counts
    (l. 1199-1220 for ROUGE-N, 1325-1346 for S and SU, 1463-1484 for L): each
    ratio a ``%7.5f`` string, 0 when its total is 0, and F formed from those two
    strings with ``-p``'s alpha, then rounded the same way.  Perl's ``sprintf``
    and numification and Python's agree on every such string and ratio;
    ``tests/impls/peers/rouge155/test_run.py`` holds the result to the script's own
    ``-t 0`` scores."""
    recall = _five(matches / ref_total if ref_total else 0.0)
    precision = _five(matches / hyp_total if hyp_total else 0.0)
    return recall, precision, _f_from_printed(recall, precision, alpha)


def _weighted_ratio(hits: float, total: float, weight: float) -> float | None:
    """``sprintf("%7.5f", f^-1(hits / total))`` (l. 1596-1608), or None when the
    printed digits of ``hits`` and ``total`` leave the fifth decimal undecided."""
    if total == 0:
        return 0.0
    value = (hits / total) ** (1 / weight)
    slack = value * _W_SLACK * max(1.0, 1 / weight)
    low, high = _five(value - slack), _five(value + slack)
    return low if low == high else None


def weighted_scores(
    ref_total: float, hyp_total: float, matches: float, weight: float, alpha: float
) -> tuple[float, float, float] | None:
    """ROUGE-W's R, P and F as the script prints them, from its printed weighted
    counts, or None where those 15 digits cannot decide a five-decimal string
    (a ratio within ``_W_SLACK`` of a rounding tie, as nice weights such as 1.5
    produce; the caller then asks the script)."""
    recall = _weighted_ratio(matches, ref_total, weight)
    precision = _weighted_ratio(matches, hyp_total, weight)
    if recall is None or precision is None:
        return None
    return recall, precision, _f_from_printed(recall, precision, alpha)


def scores_from_counts(counts: Printed, options: RougeOptions) -> Printed | None:
    """Each evaluation's R, P and F formed from its printed counts, as the
    script forms them; None if any of them is undecided (ROUGE-W only), for
    the caller to run ``SCORES_RUN``."""
    alpha = alpha_of(options.f_measure)
    if options.variant != "w":
        return {key: printed_scores(*count, alpha) for key, count in counts.items()}
    weight = float(options.weight)
    formed = {key: weighted_scores(*count, weight, alpha) for key, count in counts.items()}
    decided = {key: scores for key, scores in formed.items() if scores is not None}
    return decided if len(decided) == len(formed) else None


#: A memory file system, where a batch's files go when it has room: the script
#: reads a file per text, and creating a small file there took 0.02 ms of CPU
#: against 0.47 ms on this machine's ext4 /tmp (5,000 files), which made
#: writing the files cost more than the script's own work on them.
MEMORY_FOLDER = Path("/dev/shm")
#: The most a batch puts there (each file takes at least a page): a corpus of
#: 100,000 lines, some 200,000 files, is written to disk as before.
MEMORY_AT_MOST = 256 * 1024 * 1024
_PAGE = 4096


def scratch_folder(cases: Sequence[ScriptCase]) -> tempfile.TemporaryDirectory[str]:
    """A fresh temporary folder for the files of ``cases``: in ``MEMORY_FOLDER``
    when no ``TMPDIR`` (``TEMP``, ``TMP``) names another place and it has room
    for twice what they take, up to ``MEMORY_AT_MOST``; else where ``tempfile``
    puts it."""
    prefix = "metricdiff-rouge155-"
    chosen = any(name in os.environ for name in ("TMPDIR", "TEMP", "TMP"))
    if chosen or not hasattr(os, "statvfs"):  # the user's place, or Windows
        return tempfile.TemporaryDirectory(prefix=prefix)
    files = sum(1 + len(case.refs) for case in cases) + 1
    characters = sum(len(line) + 1 for case in cases for text in (case.hyp, *case.refs)
                     for line in text)
    need = files * _PAGE + 4 * characters  # UTF-8 takes at most 4 bytes a character
    if need <= MEMORY_AT_MOST:
        try:
            room = os.statvfs(MEMORY_FOLDER)
            if room.f_bavail * room.f_frsize >= 2 * need and os.access(MEMORY_FOLDER, os.W_OK):
                return tempfile.TemporaryDirectory(prefix=prefix, dir=MEMORY_FOLDER)
        except OSError:  # no such file system here
            pass
    return tempfile.TemporaryDirectory(prefix=prefix)


def write_inputs(tmp: Path, cases: Sequence[ScriptCase], data: Path) -> str:
    """Write ``cases`` as the files and ``-z SPL`` list of one run in ``tmp``;
    returns the ``-e`` argument (a link to ``data`` where possible)."""
    try:
        (tmp / "data").symlink_to(data, target_is_directory=True)
        data_arg = "data"
    except OSError:
        data_arg = str(data)
    listing = []
    for position, case in enumerate(cases):
        _write(tmp / f"p{position}", case.hyp)
        models = []
        for j, ref in enumerate(case.refs):
            _write(tmp / f"m{position}.{j}", ref)
            models.append(f"m{position}.{j}")
        listing.append(f"p{position} {' '.join(models)}\n")
    (tmp / "list").write_text("".join(listing), encoding="ascii")
    return data_arg


def script_arguments(data_arg: str, options: RougeOptions, run: Sequence[str]) -> list[str]:
    """The script's command-line arguments for one run (``COUNTS_RUN`` or
    ``SCORES_RUN``) on the list ``write_inputs`` wrote."""
    return ["-e", data_arg, "-d", *script_flags(options), *run, "-z", "SPL", "list"]


def run_batch(
    cases: list[ScriptCase],
    options: RougeOptions,
    data: Path,
    failures: dict[int, str],
) -> dict[int, RougeResult]:
    """Each case's result from one run of the script on the lot (``COUNTS_RUN``),
    and a second (``SCORES_RUN``) only where its counts leave a score undecided;
    raises ``Rouge155ScriptDied`` if a run dies."""
    with scratch_folder(cases) as name:
        tmp = Path(name)
        data_arg = write_inputs(tmp, cases, data)
        counts = read_printed(
            run_script(tmp, "counts", script_arguments(data_arg, options, COUNTS_RUN)), options)
        scores = scores_from_counts(counts, options)
        if scores is None:
            scores = read_printed(
                run_script(tmp, "scores", script_arguments(data_arg, options, SCORES_RUN)),
                options)
        return results(cases, counts, scores, failures)


def run_every_method(
    cases: Sequence[ScriptCase], options: RougeOptions, data: Path, weighted: bool
) -> list[dict[Method, tuple[float, float, float]]]:
    """Each case's counts of every method one run gives (``every_method_flags``),
    by method; raises ``Rouge155ScriptDied`` if the run dies."""
    with scratch_folder(cases) as name:
        tmp = Path(name)
        data_arg = write_inputs(tmp, cases, data)
        arguments = ["-e", data_arg, "-d", *every_method_flags(options, weighted),
                     *COUNTS_RUN, "-z", "SPL", "list"]
        printed = read_every_method(run_script(tmp, "counts", arguments), options)
    return [{method: found[position] for method, found in printed.items()
             if position in found}
            for position in range(1, len(cases) + 1)]


def run_script(tmp: Path, key: str, arguments: Sequence[str]) -> Path:
    """Run the script with ``arguments`` in ``tmp``; the file of what it printed,
    or ``Rouge155ScriptDied``."""
    release, perl = locate.release_dir(), locate.perl_path()
    if release is None or perl is None:
        raise Rouge155ScriptDied("the script or perl went missing")
    with (tmp / f"{key}.out").open("wb") as out, (tmp / f"{key}.err").open("wb") as err:
        code = subprocess.Popen(
            [perl, str(release / locate.SCRIPT), *arguments],
            cwd=tmp,
            stdout=out,
            stderr=err,
            env=locate.perl_env(),
        ).wait()
    if code != 0:
        raise Rouge155ScriptDied(error_text(tmp / f"{key}.err", code))
    return tmp / f"{key}.out"


def results(
    cases: Sequence[ScriptCase], counts: Printed, scores: Printed, failures: dict[int, str]
) -> dict[int, RougeResult]:
    """Each case's result from the evaluations' printed ``counts`` and ``scores``
    (numbered from 1 in the order of ``cases``); a case the script printed
    nothing for is a failure."""
    found: dict[int, RougeResult] = {}
    for position, case in enumerate(cases):
        score, count = scores.get(position + 1), counts.get(position + 1)
        if score is None or count is None:
            failures[case.index] = "the script printed no score for this segment"
            continue
        recall, precision, fmeasure = score
        ref_total, hyp_total, matches = count
        found[case.index] = RougeResult(
            recall, precision, fmeasure, matches, hyp_total, ref_total
        )
    return found


def read_printed(path: Path, options: RougeOptions) -> Printed:
    """The three numbers each evaluation of ``options``' method printed in one
    run's output file, by evaluation number."""
    return _read(path, options).get(method_of(options), {})


def read_every_method(path: Path, options: RougeOptions) -> dict[Method, Printed]:
    """What each method printed in a run with ``every_method_flags(options)``."""
    return _read(path, options)


def _read(path: Path, options: RougeOptions) -> dict[Method, Printed]:
    text = path.read_text(encoding="utf-8", errors="replace")
    found: dict[Method, Printed] = {}
    for match in _EVAL_LINE.finditer(text):
        method = printed_method(match.group(1), options)
        if method is not None:
            found.setdefault(method, {})[int(match.group(2))] = (
                float(match.group(3)),
                float(match.group(4)),
                float(match.group(5)),
            )
    return found


def error_text(path: Path, code: int) -> str:
    lines = [
        line
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip() and not _NOISE.match(line)
    ]
    detail = " ".join(lines[-3:]) if lines else "no message"
    return f"ROUGE-1.5.5.pl exited with status {code}: {detail}"
