"""``metricdiff score``: one implementation on one corpus, one or several
metrics, each with its signature."""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, cast

import attrs

from metricdiff.cases.case import Sample
from metricdiff.cases.escapes import unescape_sentence_breaks
from metricdiff.cases.files import CorpusStream, Segment
from metricdiff.cases.prepared import PreparedTally
from metricdiff.cli._common import (
    Commands,
    add_cache_option,
    add_input_options,
    available_adapter,
    input_name,
    parse_overrides,
    plural,
    score_cache,
    seconds,
    stream_input,
)
from metricdiff.errors import ImplementationFailed, InputError, MetricdiffWarning
from metricdiff.impls import AnyAdapter
from metricdiff.impls.base import Scored
from metricdiff.impls.reference.adapter import Tally
from metricdiff.impls.text.lost_input import LostInput, LostInputTally
from metricdiff.impls.user import LOCAL_VERSION
from metricdiff.profiles import axis_names, profile_of
from metricdiff.profiles.metrics import METRICS, Options, Result, family, paper_options
from metricdiff.scoring import DEFAULT_TIMEOUT, Request, score_requests
from metricdiff.scoring.isolated import IN_PROCESS
from metricdiff.scoring.jobs import INVALID
from metricdiff.scoring.validate import describe, validate
from metricdiff.statistics import BleuResult, statistics_of


def _format_partial(result: Result) -> str:
    """A result with statistics not reported (a user's own implementation): the
    headline, each reported statistic by name, and what is missing."""
    data = statistics_of(result.to_json())
    bleu = isinstance(result, BleuResult)
    decimals = 2 if bleu else 5
    if result.resolution:  # a number read from a program's output: as it printed it
        decimals = max(0, round(-math.log10(result.resolution)))
    headline = f"{'BLEU' if bleu else 'F'} = {result.headline:.{decimals}f}"
    shown = [f"{key} = {value}" for key, value in data.items()
             if value is not None and key not in ("score", "fmeasure")]
    missing = ", ".join(key for key, value in data.items() if value is None)
    return " ".join([headline, *shown, f"(not reported: {missing})"])


def _count(value: float) -> str:
    """A count or length as it is: ``1234567``, not ``%g``'s ``1.23457e+06``; one
    that is not whole (a mean reference length, ROUGE-W's weighted matches) to
    ten significant digits."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.10g}"


def _format_text(result: Result) -> str:
    if result.unknown:
        return _format_partial(result)
    if not isinstance(result, BleuResult):
        return (
            f"R = {result.recall:.5f} P = {result.precision:.5f} F = {result.fmeasure:.5f} "
            f"(matches = {_count(result.matches)} hyp_total = {_count(result.hyp_total)} "
            f"ref_total = {_count(result.ref_total)})"
        )
    precisions = "/".join(f"{p:.1f}" for p in result.precisions)
    ratio = result.sys_len / result.ref_len if result.ref_len else 0.0
    return (
        f"BLEU = {result.score:.2f} {precisions} (BP = {result.bp:.3f} ratio = {ratio:.3f} "
        f"hyp_len = {_count(result.sys_len)} ref_len = {_count(result.ref_len)})"
    )


def _who(adapter: AnyAdapter) -> str:
    """The implementation as a message names it: ``sacrebleu 2.6.0``; a user's
    own by its spec alone, unless its module states a ``__version__`` (``local``
    is metricdiff's placeholder, and "python:f.py:f local failed" reads oddly)."""
    version = adapter.version()
    if adapter.declared.user_profile and version == LOCAL_VERSION:
        return adapter.display_name
    return f"{adapter.display_name} {version}"


@attrs.frozen
class _Group:
    """The metrics of one family, scored by one adapter in one call."""

    adapter: AnyAdapter
    requests: list[tuple[str, Options]]
    #: A user's own implementation without -o or settings: its profile is unknown,
    #: not the paper's.
    unknown_profile: bool


def _groups(impl: str, metrics: Sequence[str], overrides: Mapping[str, str]) -> list[_Group]:
    """The metrics grouped by family, each with its adapter and options.  With
    both families, an axis of one family only (``-o smoothing=exp``) is left out of
    the other's options."""
    families = {family(metric): [m for m in metrics if family(m) == family(metric)]
                for metric in metrics}
    groups = []
    for names in families.values():
        adapter = available_adapter(impl, names[0])
        own = overrides
        if len(families) > 1:
            known = axis_names(type(paper_options(names[0])))
            own = {axis: value for axis, value in overrides.items()
                   if axis in known or not _in_any_family(axis)}
        groups.append(_Group(adapter, [(m, adapter.options(m, own)) for m in names],
                             adapter.declared.user_profile and not (own or adapter.settings)))
    return groups


def _in_any_family(axis: str) -> bool:
    return any(axis in axis_names(type(paper_options(m))) for m in ("bleu", "rouge-1"))


#: Segments read before the tokenizer-loss count and the isolated
#: implementations' lists take them in.
_BATCH = 1024


@attrs.define
class _Run:
    """One group's work on the stream: the reference's running tally, or the
    texts collected for an isolated implementation, and what its tokenizer drops."""

    group: _Group
    rouge: bool
    tally: Tally[Any] | None
    lost: LostInputTally | None
    texts: tuple[list[str], list[tuple[str, ...]]] | None


def _start(group: _Group, sentences: bool) -> _Run:
    adapter = group.adapter
    tally = None
    if type(adapter) in IN_PROCESS:
        tally = cast(Any, adapter).tally(group.requests, sentences=sentences)
    lost = None if group.unknown_profile else LostInputTally(adapter.name,
                                                              group.requests[0][1].tokenize)
    rouge = family(group.requests[0][0]) == "rouge"
    return _Run(group, rouge, tally, lost, None if tally is not None else ([], []))


def _read(runs: list[_Run], stream: CorpusStream, source: str,
          prepared: PreparedTally) -> None:
    """Every segment of ``stream`` to every run, a batch at a time: nothing of the
    corpus is kept but what an isolated implementation must be sent; ``prepared``
    counts the signs of text prepared already."""
    unescape = stream.escaped and any(run.rouge for run in runs)
    batches = iter(lambda: list(itertools.islice(stream, _BATCH)), [])
    for batch in batches:
        prepared.add([hyp for hyp, _ in batch], [refs for _, refs in batch])
        # ROUGE reads a text file's \n escapes as sentence breaks (Case.for_metric).
        sentences = [_unescaped(segment) for segment in batch] if unescape else batch
        for run in runs:
            texts = sentences if run.rouge else batch
            hyps = [hyp for hyp, _ in texts]
            refs = [refs for _, refs in texts]
            if run.lost is not None:
                run.lost.add(hyps, refs)
            if run.texts is not None:
                run.texts[0].extend(hyps)
                run.texts[1].extend(refs)
            if run.tally is not None:
                _tally(run, texts, source)


def _unescaped(segment: Segment) -> Segment:
    hyp, refs = segment
    return unescape_sentence_breaks(hyp), tuple(unescape_sentence_breaks(r) for r in refs)


def _tally(run: _Run, texts: list[Segment], source: str) -> None:
    assert run.tally is not None
    try:
        for hyp, refs in texts:
            run.tally.add(hyp, refs)
    except Exception as error:  # not expected of our own code, but never a traceback
        raise _failed(run.group, source, error) from error


def _failed(group: _Group, source: str, error: Exception) -> ImplementationFailed:
    return ImplementationFailed(
        f"{_who(group.adapter)} failed on {source}{_scoring(group)}: {describe(error)}")


def _scoring(group: _Group) -> str:
    metrics = [metric for metric, _ in group.requests]
    return f" ({', '.join(metrics)})" if len(metrics) > 1 else ""


def _score(run: _Run, sentences: bool, source: str, timeout: float) -> list[Scored[Any]]:
    """Each of the group's metrics on the corpus (and each segment, with
    ``sentences``).  The reference has scored in this process as the segments
    were read, every metric from one tokenization (its ``tally``); any other
    implementation goes the one isolated way every command takes
    (``scoring.score_requests``): a worker process, ``timeout`` seconds a call,
    its result validated, its stdout kept off ours.  There, a segment's score is
    that of the segment as a corpus of one."""
    group = run.group
    if run.texts is not None:
        return _score_isolated(group, run.texts, sentences, source, timeout)
    assert run.tally is not None
    try:
        scored: list[Scored[Any]] = run.tally.scored()
    except Exception as error:  # not expected of our own code, but never a traceback
        raise _failed(group, source, error) from error
    for one in scored:  # what the audit calls invalid-output is no score here either
        for result in [one.corpus, *(one.sentences or [])]:
            problem = validate(result)
            if problem is not None:
                raise ImplementationFailed(f"{_who(group.adapter)} returned an invalid "
                                           f"result on {source}{_scoring(group)}: {problem}")
    return scored


def _score_isolated(group: _Group, texts: tuple[list[str], list[tuple[str, ...]]],
                    sentences: bool, source: str, timeout: float) -> list[Scored[Any]]:
    hyps, refs = tuple(texts[0]), tuple(texts[1])
    whole: Sample = (hyps, refs)
    lines: list[Sample] = [((hyp,), (seg,)) for hyp, seg in zip(hyps, refs, strict=True)]
    requests = [Request(group.adapter, metric, [whole, *(lines if sentences else [])], options)
                for metric, options in group.requests]
    scored = []
    for outcomes in score_requests(requests, timeout=timeout):
        for outcome in outcomes:  # the words of the in-process path, whatever happened
            if outcome.status == INVALID:
                raise ImplementationFailed(f"{_who(group.adapter)} returned an invalid "
                                           f"result on {source}{_scoring(group)}: "
                                           f"{outcome.error}")
            if outcome.result is None:
                raise ImplementationFailed(f"{_who(group.adapter)} failed on {source}"
                                           f"{_scoring(group)}: {outcome.reason}")
        corpus, *each = [outcome.result for outcome in outcomes]
        scored.append(Scored[Any](corpus, tuple(each) if sentences else None))
    return scored


def _document(adapter: AnyAdapter, metric: str, options: Options, scored: Scored[Any],
              unknown_profile: bool, lost: LostInput | None) -> dict[str, Any]:
    document: dict[str, Any] = {
        "impl": adapter.name,
        "impl_version": adapter.version(),
        "metric": metric,
        "options": None if unknown_profile else profile_of(options),
        "signature": adapter.signature(metric, options),
        "corpus": scored.corpus.to_json(),
    }
    if scored.sentences is not None:
        document["sentences"] = [s.to_json() for s in scored.sentences]
    if lost is not None:
        document["lost_input"] = lost.to_json()
    return document


def run(args: argparse.Namespace) -> int:
    metrics = list(dict.fromkeys(args.metric or [DEFAULT_METRIC]))
    groups = _groups(args.impl, metrics, parse_overrides(args.option))
    stream = stream_input(args)
    source = input_name(args)
    runs = [_start(group, args.sentences) for group in groups]
    prepared = PreparedTally()
    _read(runs, stream, source, prepared)
    looks_prepared = prepared.result()
    if looks_prepared is not None:
        warnings.warn(looks_prepared.message(), MetricdiffWarning, stacklevel=1)
    documents: dict[str, dict[str, Any]] = {}
    blocks: dict[str, list[str]] = {}
    with score_cache(args, "score"):
        for run_ in runs:
            group = run_.group
            lost = run_.lost.result() if run_.lost is not None else None
            if lost is not None:
                for text in (lost.message(), lost.verdict()):
                    if text is not None:
                        print(f"metricdiff: warning: {text}", file=sys.stderr)
            results = _score(run_, args.sentences, source, args.timeout)
            for (metric, options), scored in zip(group.requests, results, strict=True):
                documents[metric] = _document(group.adapter, metric, options, scored,
                                              group.unknown_profile, lost)
                blocks[metric] = [
                    *(f"{n}\t{_format_text(s)}" for n, s in enumerate(scored.sentences or [], 1)),
                    _format_text(scored.corpus),
                    documents[metric]["signature"],
                ]
    if args.format == "json":
        # One metric: its object, as before several could be given; several: a list.
        shown: Any = [documents[m] for m in metrics] if len(metrics) > 1 else documents[metrics[0]]
        print(json.dumps(shown, ensure_ascii=False))
    else:
        for metric in metrics:
            if len(metrics) > 1:
                print(f"== {metric}")
            print("\n".join(blocks[metric]))
    if stream.problem is not None:
        sys.stdout.flush()
        raise InputError(f"{stream.problem}: the scores above are of the first "
                         f"{plural(stream.read, 'segment')} only; give every file one line "
                         "per segment")
    return 0


#: The metric scored when no --metric is given.
DEFAULT_METRIC = "bleu"


def register(commands: Commands) -> None:
    score = commands.add_parser(
        "score", help="score a corpus with one implementation, one or several metrics"
    )
    score.add_argument("--impl", default="reference", help="implementation (see `impls`), "
                       "with settings if any: 'rouge-score[stemmer=porter-nltk]'; or your "
                       "own: python:MODULE:FUNCTION, cmd:'PROGRAM {hyp} {ref}' "
                       "(docs/own-implementation.md; settings or -o declare its profile)")
    score.add_argument("--metric", action="append", choices=METRICS,
                       help="bleu, rouge-1 .. rouge-9, rouge-l, rouge-lsum, rouge-w, rouge-s, "
                       "rouge-su (default: bleu); repeat to score several in one pass, each "
                       "text tokenized once")
    score.add_argument("-o", "--option", action="append", default=[], metavar="AXIS=VALUE",
                       help="set a convention axis, for every metric it applies to, as "
                       "--impl's [AXIS=VALUE] does (an axis set in both must have one value; "
                       "see `metricdiff axes`); corpus_average=bootstrap-* keeps each "
                       "segment's R, P and F (~100 bytes per segment and metric)")
    add_input_options(score)
    score.add_argument("--sentences", action="store_true", help="also score each segment "
                       "(keeps every segment's result until the end: memory grows with the "
                       "corpus, about 1 KB per segment and metric; without it the reference "
                       "keeps running sums only)")
    score.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                       help="seconds the implementation may take on one call, in its worker "
                       f"process (default: {DEFAULT_TIMEOUT:g}; the reference runs in this "
                       "process)")
    score.add_argument("--format", choices=("text", "json"), default="text",
                       help="json: one object, or a list of one per metric with several")
    add_cache_option(score)
    score.set_defaults(run=run)
