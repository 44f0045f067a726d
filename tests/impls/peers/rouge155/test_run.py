"""ROUGE-1.5.5's R, P and F formed from its counts run alone, against the scores
the script itself prints.

The adapter runs the script once (``-t 2``, the counts) and forms R, P and F
from the counts as the script does: ``run.printed_scores`` for ROUGE-N, L,
Lsum, S and SU, whose counts are whole numbers, and ``run.weighted_scores`` for
ROUGE-W, whose weighted counts are printed to 15 digits, with a second run
(``-t 0``) where those digits leave a score undecided.  The oracle here is the
script's own ``-t 0`` run on the same files: every segment's printed R, P and F
must be what the adapter returns, on real German, French and Russian
translations (bytes outside ASCII included), with several references, several
sentences, empty texts and the options that change the arithmetic (``-f B``,
``-p``, ``-m``, ``-s``, ``-l``, ``-b``, ``-w``).  Skipped, with the reason, when
the script cannot run here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from helpers import translation_pairs
from metricdiff.impls.peers.rouge155 import Rouge155Adapter, locate, run, shared
from metricdiff.impls.peers.rouge155.data import NO_EXCEPTIONS, WORDNET, data_dir
from metricdiff.impls.peers.rouge155.flags import method_label, segment_lines
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
    label = re.escape(method_label(options)) + (r"\S+" if options.variant == "w" else "")
    found = {
        int(number): (float(r), float(p), float(f))
        for number, r, p, f in re.findall(
            rf"^X {label} Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$", printed, re.MULTILINE
        )
    }
    return [found[number] for number in range(1, len(cases) + 1)]


def rpf(result: RougeResult) -> tuple[float, float, float]:
    return (result.recall, result.precision, result.fmeasure)


def script_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The arguments of every process the adapter starts from now on, its
    memo of runs shared between metrics emptied (``shared.py``): the runs of
    one metric alone."""
    shared.forget()
    started: list[list[str]] = []
    real_popen = subprocess.Popen

    def counting_popen(args: list[str], *rest: object, **kwargs: object) -> object:
        if any(str(arg).endswith(locate.SCRIPT) for arg in args):
            started.append(list(args))
        return real_popen(args, *rest, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(run.subprocess, "Popen", counting_popen)
    return started


@pytest.mark.parametrize(("metric", "overrides"), PROFILES, ids=[m for m, _ in PROFILES])
def test_scores_formed_from_counts_are_the_scripts(
    metric: str, overrides: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    adapter = Rouge155Adapter()
    options = adapter.options(metric, overrides)
    hyps, refs = corpus()
    started = script_runs(monkeypatch)
    got = adapter.sentence_scores(metric, hyps, refs, options)
    assert len(started) == 1  # the counts run alone
    expected = scores_the_script_prints(hyps, refs, options, tmp_path)
    assert [rpf(result) for result in got] == expected


def rouge_w_corpus() -> tuple[list[str], list[list[str | None]]]:
    """``corpus()`` without the references that kill ROUGE-W (no ASCII letter
    or digit: no token, l. 2454), and one segment whose recall under ``-w 1.5``
    is a rounding tie: one word of a 16-word reference has hits 1^1.5 = 1 and,
    the model's length being weighted twice (l. 2407, then 1566), a model total
    (16^1.5)^1.5 = 512, so R = (1/512)^(1/1.5) = 1/64 = 0.015625, which the
    script's pow() lands a hair above or below."""
    hyps, refs = corpus()
    kept = [
        (hyp, seg) for hyp, seg in zip(hyps, refs, strict=True)
        if all(re.search("[A-Za-z0-9]", ref or "") for ref in seg)
    ]
    words = [f"w{i}" for i in range(16)]
    kept.append(("w7", [" ".join(words)]))
    return [hyp for hyp, _ in kept], [seg for _, seg in kept]


@pytest.mark.parametrize(
    "overrides",
    [{}, {"stemmer": "porter-rouge155", "multi_ref": "best-recall", "f_measure": "alpha=0.2",
          "truncate": "words:30"}],
)
def test_rouge_w_formed_from_counts_is_the_scripts(
    overrides: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    adapter = Rouge155Adapter()
    options = adapter.options("rouge-w", overrides)  # the script's -w 1.2
    hyps, refs = rouge_w_corpus()
    started = script_runs(monkeypatch)
    got = adapter.sentence_scores("rouge-w", hyps, refs, options)
    # Every score decided by the counts: no second run.
    assert [args[args.index("-t") + 1] for args in started] == ["2"]
    expected = scores_the_script_prints(hyps, refs, options, tmp_path)
    assert [rpf(result) for result in got] == expected


def test_rouge_w_asks_the_script_where_its_counts_cannot_decide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    adapter = Rouge155Adapter()
    options = adapter.options("rouge-w", {"weight": "1.5"})
    hyps, refs = rouge_w_corpus()
    started = script_runs(monkeypatch)
    got = adapter.sentence_scores("rouge-w", hyps, refs, options)
    # The tie (last segment) is undecided by its printed counts (1 and 512),
    # so the scores run is made, and its numbers are the ones returned.
    assert [args[args.index("-t") + 1] for args in started] == ["2", "0"]
    expected = scores_the_script_prints(hyps, refs, options, tmp_path)
    assert [rpf(result) for result in got] == expected
    assert got[-1].ref_total == 512 and got[-1].matches == 1


@pytest.mark.parametrize(
    ("counts", "weight", "alpha", "expected"),
    [
        # Hits 1, totals 4 and 9, weight 2: R = (1/4)^(1/2) = 0.5, P = (1/9)^(1/2)
        # -> "0.33333"; F = 0.5 * 0.33333 / (0.5 * 0.33333 + 0.5 * 0.5)
        # = 0.3999976 -> 0.40000 (bc -l).
        ((4, 9, 1), 2.0, 0.5, (0.5, 0.33333, 0.4)),
        # A run of 2 and a run of 1 against 5 and 4 tokens, as the script prints
        # the weighted sums (15 digits): hits 2^1.2 + 1, totals 5^1.2 and 4^1.2.
        # bc -l: R = (3.297396709994070 / 6.898648307306074)^(1/1.2) = 0.5405543,
        # P = (3.297396709994070 / 5.278031643091577)^(1/1.2) = 0.6756929,
        # F = 0.54055 * 0.67569 / (0.5 * 0.67569 + 0.5 * 0.54055) = 0.6006121.
        ((6.89864830730607, 5.27803164309158, 3.29739670999407), 1.2, 0.5,
         (0.54055, 0.67569, 0.60061)),
        # A zero total gives 0 (l. 1596-1607).
        ((0, 0, 0), 1.2, 0.5, (0.0, 0.0, 0.0)),
        # Hits 1 of 512 (as the tie of rouge_w_corpus prints): R = P =
        # (1/512)^(1/1.5) = 1/64 = 0.015625, a tie at the fifth decimal that 15
        # printed digits cannot break.
        ((512, 512, 1), 1.5, 0.5, None),
    ],
)
def test_weighted_scores_by_hand(
    counts: tuple[float, float, float],
    weight: float,
    alpha: float,
    expected: tuple[float, float, float] | None,
) -> None:
    assert run.weighted_scores(*counts, weight, alpha) == expected


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
