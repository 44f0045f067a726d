"""The commands README.md and docs/ show, run as a reader would run them, and
their shown output compared with what they print.

What a page shows:

- In a fenced block, a line ``$ COMMAND`` is a command (a line ending in ``\\``
  goes on to the next); the lines after it, up to the next ``$`` line or the
  block's end, are what it prints: standard output and standard error as a
  terminal shows them, one after the other.
- In a block marked ``sh``, ``console``, ``bash`` or ``shell``, every line
  without ``$`` that is not a comment is a command too, shown printing nothing.
- A command whose line says ``not run by the tests`` (a shell comment such as
  ``# not run by the tests: installs``), or any command of a block with a
  comment line saying so, is not run: those that install, run ``make``, or take
  over a minute.  Whatever it shows is not compared.
- Elided output is marked: a line ``…`` stands for any number of lines, and a
  ``…`` inside a line for any text (so a shown ``tok:13a|…|smooth:exp`` matches
  the full signature).  Trailing spaces are not compared.

How a page runs: in a new empty folder holding copies of the checkout's
``examples/``, ``fixtures/``, ``tests/example_impls/``, ``tests/data/korean_qa/``
and ``benchmarks/data/translations/``
(the paths the pages name) and of the files of ``docs/examples/<page>/`` when
the page has such a folder (the files a page's commands read: ``hyp.txt`` …)
and of the files the page shows whole (a block ````python file=NAME``),
with the virtualenv's ``bin`` first on ``PATH``, one bash process running the
page's commands in order (what one writes, the next reads).

``scripts/sync_docs.py`` rewrites the shown outputs from real runs, keeping the
elisions that still match (see :func:`resynced`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The checkout's folders a page's commands may name, copied into its folder.
SHARED = ("examples", "fixtures", "tests/example_impls", "tests/data/korean_qa",
          "benchmarks/data/translations")
#: Where the files of one page's commands live: docs/examples/<page's stem>/.
PAGE_FILES = ROOT / "docs" / "examples"
#: The words that keep a command from running (and say why, after a colon).
NOT_RUN = "not run by the tests"
ELIDED = "…"
SHELL_BLOCKS = {"sh", "console", "bash", "shell"}
#: Commands that install or run make: a page must mark them not run (the tests
#: refuse to run them, and say so).
MUST_NOT_RUN = re.compile(r"^\s*(make|pip|pip3|python3? -m pip)\b|\binstall-peers(?! --help)\b")


def pages() -> list[str]:
    """Every page whose commands the tests run, relative to the checkout."""
    return ["README.md", *sorted(str(path.relative_to(ROOT))
                                 for path in (ROOT / "docs").rglob("*.md")
                                 if PAGE_FILES not in path.parents)]


@dataclass(frozen=True)
class Shown:
    """One command a page shows, and what it shows it printing."""

    page: str
    #: The command as bash reads it (continuation lines kept).
    command: str
    #: The 0-based line of the page where the command starts.
    line: int
    #: The lines shown after it: page lines [first, first + len(output)).
    first: int
    output: tuple[str, ...]
    #: The comment line of its block that says its commands are not run, if any.
    block_marker: str = ""

    @property
    def marker(self) -> str:
        """What says it is not run (and why): its own line, or its block's."""
        return self.command if NOT_RUN in self.command else self.block_marker

    @property
    def runs(self) -> bool:
        return not self.marker

    def __str__(self) -> str:
        return f"{self.page}:{self.line + 1}: $ {self.command}"


def commands(page: str, text: str | None = None) -> list[Shown]:
    """Every command ``page`` shows, in order."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines() if text is None \
        else text.splitlines()
    found: list[Shown] = []
    for info, start, block in _blocks(lines):
        prompted = any(line.startswith("$ ") for line in block)
        if not prompted and info not in SHELL_BLOCKS:
            continue
        marked = next((line for line in block
                       if line.lstrip("$ ").startswith("#") and NOT_RUN in line), "")
        index = 0
        while index < len(block):
            line = block[index]
            is_command = line.startswith("$ ") or (
                not prompted and line.strip() and not line.lstrip().startswith("#"))
            if not is_command:
                index += 1
                continue
            first_line = start + index
            parts = [line[2:] if line.startswith("$ ") else line]
            while parts[-1].endswith("\\") and index + 1 < len(block):
                index += 1
                parts.append(block[index])
            index += 1
            output: list[str] = []
            while prompted and index < len(block) and not block[index].startswith("$ "):
                output.append(block[index])
                index += 1
            found.append(Shown(page, "\n".join(parts), first_line, start + index - len(output),
                               tuple(output), marked))
    return found


def _blocks(lines: list[str]) -> Iterator[tuple[str, int, list[str]]]:
    """(info string, index of its first line, lines) of each fenced block."""
    index = 0
    while index < len(lines):
        if lines[index].startswith("```"):
            info = lines[index][3:].strip().split(" ")[0]
            start = index + 1
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            yield info, start, lines[start:end]
            index = end + 1
        else:
            index += 1


def line_matches(shown: str, printed: str) -> bool:
    """Whether ``printed`` is ``shown``, each ``…`` in it standing for any text."""
    shown, printed = shown.rstrip(), printed.rstrip()
    if ELIDED not in shown:
        return shown == printed
    pattern = ".*".join(re.escape(part) for part in shown.split(ELIDED))
    return re.fullmatch(pattern, printed, re.DOTALL) is not None


def matches(shown: tuple[str, ...] | list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown``, a line ``…`` standing for any lines."""
    return _cost(tuple(shown), tuple(printed)) == 0


def _cost(shown: tuple[str, ...], printed: tuple[str, ...]) -> int:
    return _align(shown, printed)[0]


def _align(shown: tuple[str, ...], printed: tuple[str, ...]) -> tuple[int, list[str]]:
    """The fewest shown lines to change to make ``shown`` match ``printed``, and
    the shown lines so changed: an edit distance in which a shown line that
    matches its printed line, and a line ``…`` over any run of printed lines,
    cost nothing."""
    rows, cols = len(shown), len(printed)
    inf = rows + cols + 1
    cost = [[inf] * (cols + 1) for _ in range(rows + 1)]
    cost[rows][cols] = 0
    for i in range(rows, -1, -1):
        for j in range(cols, -1, -1):
            if i == rows and j == cols:
                continue
            best = inf
            if i < rows and shown[i].strip() == ELIDED:
                best = min(best, cost[i + 1][j])  # covers nothing more
                if j < cols:
                    best = min(best, cost[i][j + 1])  # covers printed[j] too
            if i < rows and j < cols:
                same = line_matches(shown[i], printed[j])
                best = min(best, cost[i + 1][j + 1] + (0 if same else 1))
            if i < rows:
                best = min(best, cost[i + 1][j] + 1)  # a shown line printed no more
            if j < cols:
                best = min(best, cost[i][j + 1] + 1)  # a printed line not shown
            cost[i][j] = best
    result: list[str] = []
    i = j = 0
    while i < rows or j < cols:
        here = cost[i][j]
        if i < rows and shown[i].strip() == ELIDED:
            if cost[i + 1][j] == here:
                result.append(shown[i])
                i += 1
                continue
            if j < cols and cost[i][j + 1] == here:
                j += 1
                continue
        if i < rows and j < cols:
            same = line_matches(shown[i], printed[j])
            if cost[i + 1][j + 1] + (0 if same else 1) == here:
                result.append(shown[i] if same else printed[j])
                i, j = i + 1, j + 1
                continue
        if i < rows and cost[i + 1][j] + 1 == here:
            i += 1
            continue
        result.append(printed[j])
        j += 1
    return cost[0][0], result


def resynced(shown: tuple[str, ...], printed: list[str]) -> list[str]:
    """``shown`` changed as little as it takes to match ``printed``: the lines
    that still match (elisions included) kept, the others replaced by what was
    printed."""
    return _align(tuple(shown), tuple(printed))[1]


@dataclass(frozen=True)
class Ran:
    """What one command printed when its page ran."""

    shown: Shown
    printed: list[str]

    @property
    def agrees(self) -> bool:
        return matches(self.shown.output, self.printed)


def page_files(page: str) -> dict[str, str]:
    """The files ``page`` shows whole: a fenced block whose info string names
    one (````python file=test_scores.py``), by name."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    found = {}
    for start, line in enumerate(lines):
        named = re.fullmatch(r"```\w* file=(\S+)", line.strip())
        if named:
            end = lines.index("```", start + 1)
            found[named[1]] = "\n".join(lines[start + 1:end]) + "\n"
    return found


def folder_for(page: str, where: Path) -> Path:
    """A new folder in ``where`` set up for ``page``'s commands."""
    folder = where / re.sub(r"[^A-Za-z0-9]+", "-", page)
    folder.mkdir(parents=True)
    for shared in SHARED:
        shutil.copytree(ROOT / shared, folder / shared)
    own = PAGE_FILES / Path(page).stem
    if own.is_dir():
        shutil.copytree(own, folder, dirs_exist_ok=True)
    for name, text in page_files(page).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run_page(page: str, where: Path, timeout: float = 900) -> list[Ran]:
    """Run every command ``page`` shows (but those marked not run), in order, in
    a new folder in ``where``; what each printed."""
    shown = [command for command in commands(page) if command.runs]
    unsafe = [str(command) for command in shown if MUST_NOT_RUN.search(command.command)]
    if unsafe:
        raise ValueError(f"mark these '# {NOT_RUN}: installs': " + "; ".join(unsafe))
    if not shown:
        return []
    folder = folder_for(page, where)
    mark = f"--metricdiff-doc-{uuid.uuid4().hex}--"
    script = ["exec 2>&1"]
    for command in shown:
        script += [command.command, f"_s=$?; echo '{mark}'; (exit $_s)"]
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
           "PYTHONUNBUFFERED": "1", "COLUMNS": "80"}
    env.pop("METRICDIFF_CACHE", None)
    # pytest prints its summary lines whole when CI or BUILD_NUMBER is set, and cut to
    # the terminal's width otherwise; a page shows what a reader's terminal prints.
    for ci_marker in ("CI", "BUILD_NUMBER"):
        env.pop(ci_marker, None)
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False,
                          start_new_session=True)
    pieces = done.stdout.split(mark)
    outputs = [piece.removeprefix("\n").splitlines() for piece in pieces[:len(shown)]]
    outputs += [["(the page stopped before this command)"]] * (len(shown) - len(outputs))
    return [Ran(command, printed) for command, printed in zip(shown, outputs, strict=True)]


def report(ran: list[Ran]) -> str:
    """What a reader would see differ, command by command."""
    said = []
    for one in ran:
        if not one.agrees:
            said.append(f"{one.shown}\n--- the page shows:\n" + "\n".join(one.shown.output)
                        + "\n--- it prints:\n" + "\n".join(one.printed))
    return "\n\n".join(said)
