"""Segments expected to kill the script (ROUGE-W's empty models), each run on its
own but all under one Perl process: ``guard.pl`` loads the modules the script
uses once, then forks a child per run that does the unmodified script (its
header says why and how).  Each segment gets exactly what ``run.run_batch``
with ``expect_death`` gives it alone: the counts run, and the scores run only if
the counts run lived; a death is that segment's failure, with the script's
message and exit status."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from metricdiff.implementations.peers.rouge155 import locate, run
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
    the scores, and the cases the driver left undecided (it died, or Perl or the
    script is missing), for the caller to run the slow way."""
    release, perl = locate.release_dir(), locate.perl_path()
    if not cases or release is None or perl is None:
        return {}, list(cases)
    with tempfile.TemporaryDirectory(prefix="metricdiff-rouge155-") as name:
        tmp = Path(name)
        data_arg = ""
        for position, case in enumerate(cases):
            (tmp / f"s{position}").mkdir()
            data_arg = run.write_inputs(tmp / f"s{position}", [case], data)
        (tmp / "dirs").write_text(
            "".join(f"s{position}\n" for position in range(len(cases))), encoding="ascii"
        )
        runs = []
        for key, flags in (("counts", run.COUNTS_RUN), ("scores", run.SCORES_RUN)):
            arguments = run.script_arguments(data_arg, options, flags)
            runs += [key, str(len(arguments)), *arguments]
        driver = subprocess.run(
            [perl, str(DRIVER), str(release / locate.SCRIPT), str(max(workers, 1)), "dirs",
             *runs],
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
            ended = statuses.get(f"s{position}", {})
            counts, scores = ended.get("counts"), ended.get("scores")
            if counts is not None and counts != 0:
                failures[case.index] = run.error_text(folder / "counts.err", counts)
            elif counts is None or scores is None:
                undecided.append(case)
            elif scores != 0:
                failures[case.index] = run.error_text(folder / "scores.err", scores)
            else:
                scored.update(run.read_results(folder, [case], options, failures))
    return scored, undecided


def _statuses(printed: bytes) -> dict[str, dict[str, int]]:
    """The driver's "DIR<TAB>RUN<TAB>STATUS" lines, by directory and run."""
    found: dict[str, dict[str, int]] = {}
    for line in printed.decode("ascii", "replace").splitlines():
        fields = line.split("\t")
        if len(fields) == 3 and fields[2].lstrip("-").isdigit():
            found.setdefault(fields[0], {})[fields[1]] = int(fields[2])
    return found
