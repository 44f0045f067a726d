"""``metricdiff score``: one implementation on one corpus, one or several
metrics, each with its signature."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from metricdiff.cases.case import Case, Sample
from metricdiff.cli._common import (
    Commands,
    add_input_options,
    available_adapter,
    input_name,
    parse_overrides,
    read_input,
    seconds,
)
from metricdiff.errors import ImplementationFailed
from metricdiff.implementations import AnyAdapter
from metricdiff.implementations.base import Scored
from metricdiff.implementations.text.lost_input import LostInput, lost_input
from metricdiff.implementations.user import LOCAL_VERSION
from metricdiff.profiles import axis_names, profile_of
from metricdiff.profiles.metrics import METRICS, Options, Result, family, paper_options
from metricdiff.scoring import DEFAULT_TIMEOUT, Request, score_requests
from metricdiff.scoring.execution import INVALID
from metricdiff.scoring.isolated import IN_PROCESS
from metricdiff.scoring.validate import describe, validate
from metricdiff.statistics import BleuResult


def _format_partial(result: Result) -> str:
    """A result with statistics not reported (a user's own implementation): the
    headline, each reported statistic by name, and what is missing."""
    data = result.to_json()
    bleu = isinstance(result, BleuResult)
    headline = f"BLEU = {result.headline:.2f}" if bleu else f"F = {result.headline:.5f}"
    shown = [f"{key} = {value}" for key, value in data.items()
             if value is not None and key not in ("score", "fmeasure")]
    missing = ", ".join(key for key, value in data.items() if value is None)
    return " ".join([headline, *shown, f"(not reported: {missing})"])


def _format_text(result: Result) -> str:
    if result.unknown:
        return _format_partial(result)
    if not isinstance(result, BleuResult):
        return (
            f"R = {result.recall:.5f} P = {result.precision:.5f} F = {result.fmeasure:.5f} "
            f"(matches = {result.matches:g} hyp_total = {result.hyp_total:g} "
            f"ref_total = {result.ref_total:g})"
        )
    precisions = "/".join(f"{p:.1f}" for p in result.precisions)
    ratio = result.sys_len / result.ref_len if result.ref_len else 0.0
    return (
        f"BLEU = {result.score:.2f} {precisions} (BP = {result.bp:.3f} ratio = {ratio:.3f} "
        f"hyp_len = {result.sys_len} ref_len = {result.ref_len:g})"
    )


def _who(adapter: AnyAdapter) -> str:
    """The implementation as a message names it: ``sacrebleu 2.6.0``; a user's
    own by its spec alone, unless its module states a ``__version__`` (``local``
    is metricdiff's placeholder, and "python:f.py:f local failed" reads oddly)."""
    version = adapter.version()
    if adapter.user_profile and version == LOCAL_VERSION:
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
                             adapter.user_profile and not (own or adapter.settings)))
    return groups


def _in_any_family(axis: str) -> bool:
    return any(axis in axis_names(type(paper_options(m))) for m in ("bleu", "rouge-1"))


def _texts(group: _Group, corpus: Case) -> Case:
    """The corpus as the group's metrics read it: ROUGE undoes the escapes."""
    return corpus.for_metric(group.requests[0][0])


def _score(group: _Group, texts: Case, sentences: bool, source: str,
           timeout: float) -> list[Scored[Any]]:
    """Each of the group's metrics on the corpus (and each segment, with
    ``sentences``).  The reference scores in this process, every metric from one
    tokenization (``score_many``); any other implementation goes the one isolated
    way every command takes (``scoring.score_requests``): a worker process,
    ``timeout`` seconds a call, its result validated, its stdout kept off ours.
    There, a segment's score is that of the segment as a corpus of one."""
    metrics = [metric for metric, _ in group.requests]
    scoring = f" ({', '.join(metrics)})" if len(metrics) > 1 else ""
    if type(group.adapter) not in IN_PROCESS:
        return _score_isolated(group, texts, sentences, source, timeout)
    try:
        scored = group.adapter.score_many(group.requests, texts.hyps, texts.refs,
                                          sentences=sentences)
    except Exception as error:  # not expected of our own code, but never a traceback
        raise ImplementationFailed(
            f"{_who(group.adapter)} failed on {source}{scoring}: {describe(error)}"
        ) from error
    for one in scored:  # what the audit calls invalid-output is no score here either
        for result in [one.corpus, *(one.sentences or [])]:
            problem = validate(result)
            if problem is not None:
                raise ImplementationFailed(f"{_who(group.adapter)} returned an invalid "
                                           f"result on {source}{scoring}: {problem}")
    return scored


def _score_isolated(group: _Group, texts: Case, sentences: bool, source: str,
                    timeout: float) -> list[Scored[Any]]:
    whole: Sample = (texts.hyps, texts.refs)
    lines: list[Sample] = [((hyp,), (refs,)) for hyp, refs in zip(texts.hyps, texts.refs,
                                                                  strict=True)]
    requests = [Request(group.adapter, metric, [whole, *(lines if sentences else [])], options)
                for metric, options in group.requests]
    metrics = [metric for metric, _ in group.requests]
    scoring = f" ({', '.join(metrics)})" if len(metrics) > 1 else ""
    scored = []
    for outcomes in score_requests(requests, timeout=timeout):
        for outcome in outcomes:  # the words of the in-process path, whatever happened
            if outcome.status == INVALID:
                raise ImplementationFailed(f"{_who(group.adapter)} returned an invalid "
                                           f"result on {source}{scoring}: {outcome.error}")
            if outcome.result is None:
                raise ImplementationFailed(
                    f"{_who(group.adapter)} failed on {source}{scoring}: {outcome.reason}")
        corpus, *each = [outcome.result for outcome in outcomes]
        scored.append(Scored[Any](corpus, tuple(each) if sentences else None))
    return scored


def _lost_input(group: _Group, texts: Case) -> LostInput | None:
    """What the group's tokenizer drops from the texts (None for an unknown profile)."""
    if group.unknown_profile:
        return None
    return lost_input(group.adapter.name, group.requests[0][1].tokenize, texts.hyps,
                      texts.refs)


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
    corpus = read_input(args)
    source = input_name(args)
    documents: dict[str, dict[str, Any]] = {}
    blocks: dict[str, list[str]] = {}
    for group in groups:
        texts = _texts(group, corpus)
        lost = _lost_input(group, texts)
        if lost is not None:
            print(f"warning: {lost.message()}", file=sys.stderr)
        results = _score(group, texts, args.sentences, source, args.timeout)
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
        return 0
    for metric in metrics:
        if len(metrics) > 1:
            print(f"== {metric}")
        print("\n".join(blocks[metric]))
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
                       "see `metricdiff axes`)")
    add_input_options(score)
    score.add_argument("--sentences", action="store_true", help="also score each segment")
    score.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                       help="seconds the implementation may take on one call, in its worker "
                       f"process (default: {DEFAULT_TIMEOUT:g}; the reference runs in this "
                       "process)")
    score.add_argument("--format", choices=("text", "json"), default="text",
                       help="json: one object, or a list of one per metric with several")
    score.set_defaults(run=run)
