"""``cmd:COMMAND``: an external program, given files of the hypotheses and
references, its score read from standard output."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, ClassVar

import attrs

from metricdiff.cases.escapes import escape_sentence_breaks
from metricdiff.errors import CommandFailed, CommandTimedOut, InvalidOutput, UnsupportedOption
from metricdiff.impls.base import Cases, References, Tolerance
from metricdiff.impls.declarations import Cost
from metricdiff.impls.user.base import FIELDS, UserAdapter, result_from_fields
from metricdiff.impls.user.spec import PLACEHOLDER, CommandLine
from metricdiff.profiles.metrics import Options, Result

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
DEFAULT_PATTERNS = {
    "bleu": re.compile(rf"\bBLEU(?:\s+score)?\s*[=:]\s*({_NUMBER})"),
    "rouge": re.compile(
        rf"(?:\bF(?:1|-?measure|-?score)?|\bfmeasure|Average_F)\s*[=:]\s*({_NUMBER})",
        re.IGNORECASE,
    ),
}
_BARE_NUMBER = re.compile(rf"\s*({_NUMBER})\s*")
#: Decimals printed when ``#digits`` does not say: sacrebleu and multi-bleu.perl
#: print BLEU with 2 (on 0-100), and 4 on ROUGE's 0-1 is as many significant ones.
DEFAULT_DIGITS = {"bleu": 2, "rouge": 4}


def tolerance_of(command: CommandLine, family_name: str) -> Tolerance:
    digits = command.digits
    if digits is None:  # the default is on metricdiff's scale, whatever #scale says
        digits, scale = DEFAULT_DIGITS[family_name], 1.0
    else:
        scale = command.scale
    return Tolerance(
        absolute=0.5 * 10.0**-digits * scale,
        reason=f"the score is read as the program prints it, to {digits} decimals",
    )


def _line(text: str) -> str:
    """One segment as one line of a file metricdiff would read back."""
    return escape_sentence_breaks(text)


def _reference_streams(refs: References, single: bool) -> list[list[str]]:
    """One list of lines per reference file; refuse what files cannot hold."""
    widths = {len(seg) for seg in refs}
    if len(widths) != 1 or any(ref is None for seg in refs for ref in seg):
        raise UnsupportedOption("cmd: every segment needs the same number of references")
    (width,) = widths
    if width == 0 or (single and width > 1):
        what = "no reference" if width == 0 else f"{width} references"
        raise UnsupportedOption(f"cmd: the command takes one reference file; the case has {what}")
    return [[_line(str(seg[i])) for seg in refs] for i in range(width)]


def _write(path: Path, lines: Sequence[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def read_score(output: str, pattern: re.Pattern[str] | None, family_name: str) -> float:
    """The score in a program's standard output."""
    found = (pattern or DEFAULT_PATTERNS[family_name]).search(output)
    if found is None and pattern is None:
        found = _BARE_NUMBER.fullmatch(output)
    if found is None:
        shown = " ".join(output.split())[:80] or "(nothing)"
        raise InvalidOutput(f"no score in the output: {shown}")
    try:
        return float(found.group(1))
    except (TypeError, ValueError):
        raise InvalidOutput(f"not a number: {found.group(1)!r}") from None


def _run_in_own_group(
    argv: list[str], stdin: IO[bytes], timeout: float
) -> tuple[int, bytes, bytes]:
    """Run ``argv`` in a process group of its own; past ``timeout``, kill the whole
    group: a shell's ``sleep`` (a grandchild) would outlive killing the shell alone."""
    process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise CommandTimedOut(f"no answer within {timeout:g} s") from None
    except BaseException:  # interrupted: leave nothing running behind
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise
    return process.returncode, stdout, stderr


class CommandAdapter(UserAdapter):
    """An external program, given files, its score read from standard output."""

    kind = "command"
    declared = attrs.evolve(
        UserAdapter.declared,
        # A program never says which metrics it computes: every metric of its family.
        metrics_declared=False,
    )
    cost = Cost(process_per_case=True)  # one run of the program per case
    command: ClassVar[CommandLine]

    def unavailable_reason(self) -> str | None:
        program = self.command.argv[0]
        if shutil.which(program) is None:
            return f"{self.name}: program {program!r} not found"
        return None

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: Options
    ) -> Result:
        self.check_metric(metric)
        output = self._run(hyps, refs)
        score = read_score(output, self.command.pattern, self.family) * self.command.scale
        return result_from_fields(self.family, {FIELDS[self.family][0]: score})

    def score_cases(
        self, metric: str, cases: Cases, options: Options
    ) -> list[Any]:
        """Each case is one run of the program, which mostly waits on its process:
        several run at once (one per CPU), each case still with its own outcome."""

        def outcome(case: tuple[Sequence[str], References]) -> Result | BaseException:
            try:
                return self.corpus_score(metric, case[0], case[1], options)
            except Exception as error:  # recorded as this case's outcome
                return error

        with ThreadPoolExecutor(max_workers=max(1, min(len(cases), os.cpu_count() or 1))) as pool:
            return list(pool.map(outcome, cases))

    def _run(self, hyps: Sequence[str], refs: References) -> str:
        command = self.command
        # argv holds the placeholder word itself; standard input takes one file.
        streams = _reference_streams(refs, single="{refs}" not in command.argv)
        with tempfile.TemporaryDirectory(prefix="metricdiff-cmd-") as tmp:
            files = {"hyp": _write(Path(tmp, "hyp.txt"), [_line(h) for h in hyps])}
            paths = [_write(Path(tmp, f"ref{i}.txt"), s) for i, s in enumerate(streams)]
            files["ref"] = paths[0]
            argv: list[str] = []
            for word in command.argv:
                if word == "{refs}":
                    argv += paths
                else:
                    argv.append(PLACEHOLDER.sub(lambda m: files[m.group(1)], word))
            stdin = files[command.stdin] if command.stdin else os.devnull
            with open(stdin, "rb") as source:
                returncode, stdout, stderr = _run_in_own_group(argv, source, command.timeout)
        out = stdout.decode("utf-8", "replace")
        if returncode != 0:
            errors = stderr.decode("utf-8", "replace").strip().splitlines()
            last = errors[-1] if errors else "(no message)"
            raise CommandFailed(f"exit status {returncode}: {last}")
        return out
