"""Segments expected to kill the script (ROUGE-W's empty models), each run on its
own but all under one Perl process: ``guard.pl`` loads the modules the script
uses once, then forks a child per run that does the unmodified script (its
header says why and how).  Each segment gets exactly what ``run.run_batch``
gives it alone: the counts run, whose death is that segment's failure with the
script's message and exit status; a segment whose counts leave its scores
undecided goes back to the caller, for ``run.run_batch``."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from metricdiff.impls.peers.rouge155 import locate, run
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult

DRIVER = Path(__file__).with_name("guard.pl")


def run_alone(
    cases: Sequence[run.ScriptCase],
    options: RougeOptions,
    data: Path,
    failures: dict[int, str],
    workers: int,
) -> tuple[dict[int, RougeResult], list[run.ScriptCase]]:
    """Each case as a batch of its own, at most ``workers`` at a time.  Returns
    the scores, and the cases left undecided (the driver died, Perl or the
    script is missing, or the counts cannot decide the scores), for the caller
    to run the slow way."""
    release, perl = locate.release_dir(), locate.perl_path()
    if not cases or release is None or perl is None:
        return {}, list(cases)
    with run.scratch_folder(cases) as name:
        tmp = Path(name)
        data_arg = ""
        for position, case in enumerate(cases):
            (tmp / f"s{position}").mkdir()
            data_arg = run.write_inputs(tmp / f"s{position}", [case], data)
        (tmp / "dirs").write_text(
            "".join(f"s{position}\n" for position in range(len(cases))), encoding="ascii"
        )
        arguments = run.script_arguments(data_arg, options, run.COUNTS_RUN)
        driver = subprocess.run(
            [perl, str(DRIVER), str(release / locate.SCRIPT), str(max(workers, 1)), "dirs",
             "counts", str(len(arguments)), *arguments],
            cwd=tmp,
            capture_output=True,
            env=locate.perl_env(),
            check=False,
        )
        statuses = _statuses(driver.stdout)
        scored: dict[int, RougeResult] = {}
        undecided = []
        for position, case in enumerate(cases):
            folder = tmp / f"s{position}"
            status = statuses.get(f"s{position}", {}).get("counts")
            if status is None:
                undecided.append(case)
                continue
            if status != 0:
                failures[case.index] = run.error_text(folder / "counts.err", status)
                continue
            counts = run.read_printed(folder / "counts.out", options)
            scores = run.scores_from_counts(counts, options)
            if scores is None:
                undecided.append(case)
            else:
                scored.update(run.results([case], counts, scores, failures))
    return scored, undecided


def _statuses(printed: bytes) -> dict[str, dict[str, int]]:
    """The driver's "DIR<TAB>RUN<TAB>STATUS" lines, by directory and run."""
    found: dict[str, dict[str, int]] = {}
    for line in printed.decode("ascii", "replace").splitlines():
        fields = line.split("\t")
        if len(fields) == 3 and fields[2].lstrip("-").isdigit():
            found.setdefault(fields[0], {})[fields[1]] = int(fields[2])
    return found
