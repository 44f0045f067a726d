"""Running the script on a batch of segments: the files, the processes (counts,
and for ROUGE-W scores) and their output read back."""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import attrs

from metricdiff.errors import Rouge155ScriptDied
from metricdiff.implementations.peers._rouge_common import alpha_of
from metricdiff.implementations.peers.rouge155 import locate
from metricdiff.implementations.peers.rouge155.flags import method_label, script_flags
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


#: The two runs of a batch (see the package docstring): per-evaluation counts,
#: then R, P and F.
COUNTS_RUN: tuple[str, ...] = ("-t", "2")
SCORES_RUN: tuple[str, ...] = ("-t", "0", "-r", "2")

#: The variants whose R, P and F follow from the counts run alone, as the script
#: forms them (``printed_scores``): their counts are whole numbers, printed
#: exactly, so their batches run the script once instead of twice.  ROUGE-W
#: keeps its scores run: its counts are weighted sums that the script prints to
#: 15 significant digits, and its R and P pass through f^-1 (l. 1594-1617).
COUNTS_SUFFICE = frozenset({"n", "l", "lsum", "s", "su"})


def needs_scores_run(options: RougeOptions) -> bool:
    return options.variant not in COUNTS_SUFFICE


def printed_scores(
    ref_total: float, hyp_total: float, matches: float, alpha: float
) -> tuple[float, float, float]:
    """R, P and F as the script prints them for an evaluation with these counts
    (l. 1199-1220 for ROUGE-N, 1325-1346 for S and SU, 1463-1484 for L): each
    ratio a ``%7.5f`` string, 0 when its total is 0, and F formed from those two
    strings with ``-p``'s alpha, then rounded the same way.  Perl's ``sprintf``
    and numification and Python's agree on every such string and ratio;
    ``tests/test_rouge155_one_run.py`` holds the result to the script's own
    ``-t 0`` scores."""
    recall = float(f"{matches / ref_total if ref_total else 0.0:7.5f}")
    precision = float(f"{matches / hyp_total if hyp_total else 0.0:7.5f}")
    weighted = (1 - alpha) * precision + alpha * recall
    fmeasure = float(f"{precision * recall / weighted if weighted > 0 else 0.0:7.5f}")
    return recall, precision, fmeasure


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
    expect_death: bool = False,
) -> dict[int, RougeResult]:
    release = locate.release_dir()
    perl = locate.perl_path()
    if release is None or perl is None:
        raise Rouge155ScriptDied("the script or perl went missing")
    with tempfile.TemporaryDirectory(prefix="metricdiff-rouge155-") as name:
        tmp = Path(name)
        data_arg = write_inputs(tmp, cases, data)

        def start(key: str, run: Sequence[str]) -> subprocess.Popen[bytes]:
            with (tmp / f"{key}.out").open("wb") as out, (tmp / f"{key}.err").open("wb") as err:
                return subprocess.Popen(
                    [perl, str(release / locate.SCRIPT), *script_arguments(data_arg, options, run)],
                    cwd=tmp,
                    stdout=out,
                    stderr=err,
                    env=locate.perl_env(),
                )

        # The counts run has no bootstrap and ends first; if it dies, so would
        # the scores run (same input, same code path).  A batch expected to die
        # (``expect_death``) starts the scores run only if the counts run lived;
        # otherwise both run side by side and a dying counts run stops the other.
        two_runs = needs_scores_run(options)
        counts = start("counts", COUNTS_RUN)
        scores = start("scores", SCORES_RUN) if two_runs and not expect_death else None
        code = counts.wait()
        if code != 0:
            if scores is not None:
                scores.kill()
                scores.wait()
            raise Rouge155ScriptDied(error_text(tmp / "counts.err", code))
        if two_runs and scores is None:
            scores = start("scores", SCORES_RUN)
        code = scores.wait() if scores is not None else 0
        if code != 0:
            raise Rouge155ScriptDied(error_text(tmp / "scores.err", code))
        return read_results(tmp, cases, options, failures)


def read_results(
    tmp: Path, cases: Sequence[ScriptCase], options: RougeOptions, failures: dict[int, str]
) -> dict[int, RougeResult]:
    """Each case's scores from ``counts.out`` in ``tmp`` and, where the variant
    needs it, ``scores.out``: the output of the runs on what ``write_inputs``
    wrote there."""
    label = method_label(options)
    printed_counts = _parse(tmp / "counts.out", label)
    alpha = alpha_of(options.f_measure)
    if needs_scores_run(options):
        printed = _parse(tmp / "scores.out", label)
    else:
        printed = {key: printed_scores(*count, alpha) for key, count in printed_counts.items()}
    results: dict[int, RougeResult] = {}
    for position, case in enumerate(cases):
        score, count = printed.get(position + 1), printed_counts.get(position + 1)
        if score is None or count is None:
            failures[case.index] = "the script printed no score for this segment"
            continue
        recall, precision, fmeasure = score
        ref_total, hyp_total, matches = count
        results[case.index] = RougeResult(
            recall, precision, fmeasure, matches, hyp_total, ref_total
        )
    return results


def _parse(path: Path, label: str) -> dict[int, tuple[float, float, float]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = {}
    for match in _EVAL_LINE.finditer(text):
        tag = match.group(1)
        if tag == label or (label.endswith("-") and tag.startswith(label)):
            found[int(match.group(2))] = (
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
