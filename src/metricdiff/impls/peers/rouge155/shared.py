"""One run of the script for several metrics: ROUGE-1.5.5.pl computes ROUGE-N,
L, W, S and SU of the same files in one invocation (l. 540-633), and each
evaluation's counts depend only on its own files and the options every metric
shares (``flags.common_flags``), so what a run prints for one metric is what a
run of that metric alone prints.

An audit, ``compare`` or a lock asks for one metric after another on the same
text.  The first time a segment is asked for, it is run for that metric alone,
as before (a caller that asks for one metric pays nothing more); each
segment's counts are remembered, by its files and the shared options.  When a
segment already seen is asked for another metric, one run gives it every
method at once (``flags.every_method_flags``), and every later metric finds its
counts here.  ROUGE-W goes in that run only for segments whose models all have
a token: a model without one kills the whole run (l. 2454), which must not cost
the other metrics their scores.

The scores are formed from the remembered counts as ``run.run_batch`` forms
them; where they cannot be (ROUGE-W's rare undecided ratio), or the run dies,
the segment takes ``run.run_batch``'s own path, so every number is the one a
run of its metric alone gives (``tests/impls/peers/rouge155/test_shared.py``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

from metricdiff.impls.peers.rouge155 import crash, run
from metricdiff.impls.peers.rouge155.data import stopword_bytes
from metricdiff.impls.peers.rouge155.failures import Rouge155ScriptDied
from metricdiff.impls.peers.rouge155.flags import Method, common_flags, method_of
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult

#: A segment's files and the options its metrics share.
_Key = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...], str]
#: Model total, peer total and hits, as ``-t 2`` prints them.
Counts = tuple[float, float, float]

#: Segments remembered (each ~1 KB: its lines and a few counts per method): an
#: audit's corpus of this many lines has every metric's run shared.
SEGMENTS_REMEMBERED = 16384

_SEEN: OrderedDict[_Key, dict[Method, Counts]] = OrderedDict()

#: ``adapter._robust``: a batch run the way a metric alone is run.
Alone = Callable[[list[run.ScriptCase]], dict[int, RougeResult]]


def _key(case: run.ScriptCase, options: RougeOptions, data: Path) -> _Key:
    return (tuple(case.hyp), tuple(map(tuple, case.refs)), tuple(common_flags(options)),
            str(data))


def _remember(key: _Key, counts: dict[Method, Counts]) -> None:
    _SEEN.setdefault(key, {}).update(counts)
    _SEEN.move_to_end(key)
    while len(_SEEN) > SEGMENTS_REMEMBERED:
        _SEEN.popitem(last=False)


def forget() -> None:
    """Forget every segment (tests)."""
    _SEEN.clear()


def scored(
    cases: list[run.ScriptCase], options: RougeOptions, data: Path, alone: Alone
) -> dict[int, RougeResult]:
    """Each case's result, as ``alone(cases)`` gives it: from the counts
    remembered, from one run of every method for the cases seen before, and
    from ``alone`` for the others."""
    method = method_of(options)
    keys = {case.index: _key(case, options, data) for case in cases}
    again = [case for case in cases
             if keys[case.index] in _SEEN and method not in _SEEN[keys[case.index]]]
    if again:
        _run_every_method(again, keys, options, data)
    found: dict[int, Counts] = {}
    for case in cases:
        counts = _SEEN.get(keys[case.index], {}).get(method)
        if counts is not None:
            found[case.index] = counts
    # Numbered as one run would number them, in the order of ``cases``.
    printed = dict(enumerate(found.values(), start=1))
    scores = run.scores_from_counts(printed, options) if printed else None
    result: dict[int, RougeResult] = {}
    if scores is not None:
        shared = [case for case in cases if case.index in found]
        result = run.results(shared, printed, scores, {})
    rest = [case for case in cases if case.index not in result]
    if rest:
        for index, outcome in alone(rest).items():
            result[index] = outcome
            _remember(keys[index], {method: (outcome.ref_total, outcome.hyp_total,
                                             outcome.matches)})
    return result


def _run_every_method(cases: Sequence[run.ScriptCase], keys: dict[int, _Key],
                      options: RougeOptions, data: Path) -> None:
    """One run of every method for ``cases`` (two: ROUGE-W only for the cases
    whose models all have a token); a run that dies leaves its cases to
    their metric's own run."""
    stop = stopword_bytes(data) if options.stopwords == "smart" else frozenset()
    fatal = {case.index for case in cases
             if any(not any(crash.lcs_sentences(ref, options, stop)) for ref in case.refs)}
    for weighted in (True, False):
        group = [case for case in cases if (case.index in fatal) != weighted]
        if not group:
            continue
        try:
            counts = run.run_every_method(group, options, data, weighted)
        except Rouge155ScriptDied:
            continue
        for case, methods in zip(group, counts, strict=True):
            _remember(keys[case.index], methods)
