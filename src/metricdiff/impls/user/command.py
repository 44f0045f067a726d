"""``cmd:COMMAND``: an external program, given files of the hypotheses and
references, its score read from standard output."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
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
from metricdiff.wording import plural

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
DEFAULT_PATTERNS = {
    # multi-bleu.perl's "BLEU = 27.30, ...", "BLEU: 27.3", "BLEU score = 27.3", and
    # sacrebleu 2's -f text line "BLEU|nrefs:1|...|version:2.6.0 = 27.3 ..."
    "bleu": re.compile(rf"\bBLEU(?:\s+score|\|[^\s=]*)?\s*[=:]\s*({_NUMBER})"),
    "rouge": re.compile(
        rf"(?:\bF(?:1|-?measure|-?score)?|\bfmeasure|Average_F)\s*[=:]\s*({_NUMBER})",
        re.IGNORECASE,
    ),
}
_BARE_NUMBER = re.compile(rf"\s*({_NUMBER})\s*")


def tolerance_of(command: CommandLine, family_name: str) -> Tolerance:
    """With ``#digits=N``: half a unit of the N-th decimal (times ``#scale``).
    Without: none here; each score read carries the decimals it was printed with
    (``Result.resolution``), and a comparison allows half a unit of the last one
    (``comparison.stages.printed``): "48.9" stands for 48.85 to 48.95."""
    digits = command.digits
    if digits is None:
        return Tolerance(reason="the score is read as the program prints it, to the "
                         "decimals it prints")
    return Tolerance(
        absolute=0.5 * 10.0**-digits * command.scale,
        reason=f"the score is read as the program prints it, to {plural(digits, 'decimal')}",
    )


def printed_decimals(text: str) -> int:
    """How many decimals a number was printed with: ``48.9`` 1, ``49`` 0,
    ``4.89e1`` 1, ``5e2`` -2 (a unit of 100)."""
    mantissa, _, exponent = text.lower().partition("e")
    _, _, fraction = mantissa.partition(".")
    return len(fraction) - (int(exponent) if exponent else 0)


_LINE_BREAKS = re.compile(r"\r\n|\r|\n")


def segment_line(text: str, family_name: str) -> str:
    """One segment as one line of the files a program is given, as metricdiff
    reads such files back: for ROUGE each line break a literal ``\\n`` (the
    sentence break of docs/inputs.md, ``escapes.py``); for BLEU, where a line
    break is whitespace, a space, and every other character as it is, so that
    the program scores the text the reference scores."""
    if family_name == "rouge":
        return escape_sentence_breaks(text)
    return _LINE_BREAKS.sub(" ", text)


def _reference_streams(refs: References, single: bool, family_name: str
                       ) -> list[list[str]]:
    """One list of lines per reference file; refuse what files cannot hold."""
    widths = {len(seg) for seg in refs}
    if len(widths) != 1 or any(ref is None for seg in refs for ref in seg):
        raise UnsupportedOption("cmd: every segment needs the same number of references")
    (width,) = widths
    if width == 0 or (single and width > 1):
        what = "no reference" if width == 0 else f"{width} references"
        raise UnsupportedOption(f"cmd: the command takes one reference file; the case has {what}")
    return [[segment_line(str(seg[i]), family_name) for seg in refs] for i in range(width)]


def _write(path: Path, lines: Sequence[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def read_score(output: str, pattern: re.Pattern[str] | None, family_name: str) -> float:
    """The score in a program's standard output: the pattern's number, or (no
    ``#score``) sacrebleu 2's JSON, or the whole output if it is one number.
    Output that holds several different scores is invalid: taking the first
    would be a silent guess (``#score`` says which)."""
    return read_printed(output, pattern, family_name)[0]


def read_printed(output: str, pattern: re.Pattern[str] | None, family_name: str
                 ) -> tuple[float, int]:
    """``read_score``'s number, and the decimals it was printed with (the
    fewest, where the output prints it more than once)."""
    found = _scores(output, pattern, family_name)
    if not found:
        shown = " ".join(output.split())[:80] or "(nothing)"
        raise InvalidOutput(f"no score in the output: {shown}")
    values = []
    for text in found:
        try:
            values.append(float(text))
        except (TypeError, ValueError):
            raise InvalidOutput(f"not a number: {text!r}") from None
    if len(set(values)) > 1:
        shown = ", ".join(dict.fromkeys(str(text) for text in found))
        raise InvalidOutput(f"the output holds {len(set(values))} different scores ({shown}); "
                            "give #score=REGEX to say which is the score")
    return values[0], min(printed_decimals(text.strip()) for text in found)


def _scores(output: str, pattern: re.Pattern[str] | None, family_name: str) -> list[str]:
    """The texts of the numbers that stand for the score in ``output``."""
    if pattern is not None:
        return [match.group(1) for match in pattern.finditer(output)]
    found = [match.group(1) for match in DEFAULT_PATTERNS[family_name].finditer(output)]
    if not found and family_name == "bleu" and output.lstrip()[:1] in ("{", "["):
        found = _json_scores(output)
    if not found:
        bare = _BARE_NUMBER.fullmatch(output)
        found = [bare.group(1)] if bare else []
    return found


def _json_scores(output: str) -> list[str]:
    """sacrebleu 2's default output: a JSON object (a list of them for several
    metrics) whose ``name`` is ``BLEU`` and whose ``score`` is the number."""
    try:
        data = json.loads(output)
    except (ValueError, RecursionError):
        return []
    items = data if isinstance(data, list) else [data]
    return [str(item["score"]) for item in items
            if isinstance(item, dict) and str(item.get("name", "")).upper().startswith("BLEU")
            and isinstance(item.get("score"), (int, float))
            and not isinstance(item.get("score"), bool)]


#: Where the worker process running this adapter records the process group of
#: each program it runs (``scoring.worker`` sets it): a program is in a group of
#: its own, which killing the worker's group would miss, so whoever kills the
#: worker kills the groups recorded here too.  None: not in a worker.
PROGRAM_GROUPS: Path | None = None


@contextlib.contextmanager
def _recorded(group: int) -> Iterator[None]:
    """``group`` recorded in ``PROGRAM_GROUPS`` while the block runs."""
    marker = None if PROGRAM_GROUPS is None else PROGRAM_GROUPS / f"group-{group}"
    if marker is not None:
        with contextlib.suppress(OSError):
            marker.touch()
    try:
        yield
    finally:
        if marker is not None:
            marker.unlink(missing_ok=True)


def kill_recorded_groups(folder: Path) -> None:
    """SIGKILL every process group recorded in ``folder`` (``PROGRAM_GROUPS`` of
    a worker that is gone or going): the programs it ran, and what they started."""
    for marker in folder.glob("group-*"):
        with contextlib.suppress(ValueError, ProcessLookupError, PermissionError):
            os.killpg(int(marker.name.removeprefix("group-")), signal.SIGKILL)


def _run_in_own_group(
    argv: list[str], stdin: IO[bytes], timeout: float
) -> tuple[int, bytes, bytes]:
    """Run ``argv`` in a process group of its own; past ``timeout``, kill the whole
    group: a shell's ``sleep`` (a grandchild) would outlive killing the shell alone."""
    process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    with _recorded(process.pid):
        return _wait_for(process, timeout)


def _wait_for(process: subprocess.Popen[bytes], timeout: float) -> tuple[int, bytes, bytes]:
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
    with contextlib.suppress(ProcessLookupError, PermissionError):  # what it left behind
        os.killpg(process.pid, signal.SIGKILL)
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
        number, decimals = read_printed(output, self.command.pattern, self.family)
        command = self.command
        score = number * command.scale
        # ``#digits`` wins over what is printed (a program that drops trailing zeros).
        unit = 10.0 ** -(decimals if command.digits is None else command.digits)
        result = result_from_fields(self.family, {FIELDS[self.family][0]: score})
        return attrs.evolve(result, resolution=unit * command.scale)

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
        streams = _reference_streams(refs, "{refs}" not in command.argv, self.family)
        with tempfile.TemporaryDirectory(prefix="metricdiff-cmd-") as tmp:
            files = {"hyp": _write(Path(tmp, "hyp.txt"),
                                   [segment_line(h, self.family) for h in hyps])}
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
