"""ROUGE-1.5.5's R, P and F formed from its counts run alone, against the scores
the script itself prints.

For ROUGE-N, L, Lsum, S and SU the adapter runs the script once (``-t 2``, the
counts) and forms R, P and F from the counts as the script does
(``run.printed_scores``).  The oracle here is the script's own ``-t 0`` run on
the same files: every segment's printed R, P and F must be what the adapter
returns, on real German, French and Russian translations (bytes outside ASCII
included), with several references, several sentences, empty texts and the
options that change the arithmetic (``-f B``, ``-p``, ``-m``, ``-s``, ``-l``,
``-b``).  Skipped, with the reason, when the script cannot run here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from helpers import translation_pairs
from metricdiff.implementations.peers.rouge155 import Rouge155Adapter, locate, run
from metricdiff.implementations.peers.rouge155.data import NO_EXCEPTIONS, WORDNET, data_dir
from metricdiff.implementations.peers.rouge155.flags import method_label, segment_lines
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult

UNAVAILABLE = Rouge155Adapter().unavailable_reason()
pytestmark = pytest.mark.skipif(
    UNAVAILABLE is not None, reason=f"ROUGE-1.5.5.pl cannot run here: {UNAVAILABLE}"
)


def corpus() -> tuple[list[str], list[list[str | None]]]:
    """Real translation pairs, every second one given two sentences and a second
    reference, and the texts that make totals zero."""
    hyps, refs = translation_pairs(step=4)
    for i in range(0, len(hyps) - 1, 2):
        hyps[i] = hyps[i] + "\n" + hyps[i + 1]
        refs[i] = [refs[i][0], refs[i + 1][0]]
    hyps += ["", "the cat sat", "...", "the cat sat on the mat"]
    refs += [["a text to recall"], [""], ["the cat"], ["...", "the mat the cat sat on"]]
    return hyps, refs


PROFILES: list[tuple[str, dict[str, str]]] = [
    ("rouge-1", {}),
    ("rouge-2", {"multi_ref": "best-recall", "f_measure": "beta=2"}),
    ("rouge-l", {"f_measure": "alpha=0.2", "stemmer": "porter-rouge155"}),
    ("rouge-lsum", {"stopwords": "smart", "multi_ref": "best-recall"}),
    ("rouge-s", {"skip": "4", "truncate": "words:12"}),
    ("rouge-su", {"f_measure": "alpha=0.9", "truncate": "bytes:60"}),
]


def scores_the_script_prints(
    hyps: list[str], refs: list[list[str | None]], options: RougeOptions, tmp: Path
) -> list[tuple[float, float, float]]:
    """The script's ``-t 0`` run on the files the adapter writes for these
    segments: each evaluation's R, P and F as printed."""
    cases = [
        run.ScriptCase(
            i, segment_lines(hyp, options), [segment_lines(r or "", options) for r in seg]
        )
        for i, (hyp, seg) in enumerate(zip(hyps, refs, strict=True))
    ]
    kind = WORDNET if options.stemmer == "porter-rouge155-wordnet" else NO_EXCEPTIONS
    data_arg = run.write_inputs(tmp, cases, data_dir(kind))
    release = locate.release_dir()
    assert release is not None
    printed = subprocess.run(
        ["perl", str(release / locate.SCRIPT),
         *run.script_arguments(data_arg, options, run.SCORES_RUN)],
        cwd=tmp, capture_output=True, text=True, check=True, env=locate.perl_env(),
    ).stdout
    label = re.escape(method_label(options))
    found = {
        int(number): (float(r), float(p), float(f))
        for number, r, p, f in re.findall(
            rf"^X {label} Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$", printed, re.MULTILINE
        )
    }
    return [found[number] for number in range(1, len(cases) + 1)]


def rpf(result: RougeResult) -> tuple[float, float, float]:
    return (result.recall, result.precision, result.fmeasure)


@pytest.mark.parametrize(("metric", "overrides"), PROFILES, ids=[m for m, _ in PROFILES])
def test_scores_formed_from_counts_are_the_scripts(
    metric: str, overrides: dict[str, str], tmp_path: Path
) -> None:
    adapter = Rouge155Adapter()
    options = adapter.options(metric, overrides)
    assert not run.needs_scores_run(options)  # this path is what is tested
    hyps, refs = corpus()
    got = adapter.sentence_scores(metric, hyps, refs, options)
    expected = scores_the_script_prints(hyps, refs, options, tmp_path)
    assert [rpf(result) for result in got] == expected


def test_rouge_w_still_reads_the_scripts_scores() -> None:
    # Its counts are weighted sums printed to 15 digits: they could not give
    # the script's R and P exactly.
    options = Rouge155Adapter().options("rouge-w")
    assert run.needs_scores_run(options)


@pytest.mark.parametrize(
    ("counts", "alpha", "expected"),
    [
        # R = 3/5 = 0.6, P = 3/4 = 0.75; F = 0.45 / (0.5 * 0.75 + 0.5 * 0.6) = 0.66667.
        ((5, 4, 3), 0.5, (0.6, 0.75, 0.66667)),
        # R = 1/3 -> "0.33333", P = 1/6 -> "0.16667"; F from those strings:
        # 0.33333 * 0.16667 / (0.8 * 0.16667 + 0.2 * 0.33333) = 0.0555561 / 0.200002
        # = 0.277778 -> 0.27778.
        ((3, 6, 1), 0.2, (0.33333, 0.16667, 0.27778)),
        # A zero total gives 0 for its ratio (l. 1199-1211), and F is 0 when
        # both are 0.
        ((0, 4, 0), 0.5, (0.0, 0.0, 0.0)),
        ((0, 0, 0), 0.5, (0.0, 0.0, 0.0)),
    ],
)
def test_printed_scores_by_hand(
    counts: tuple[int, int, int], alpha: float, expected: tuple[float, float, float]
) -> None:
    assert run.printed_scores(*counts, alpha) == expected
