"""``metricdiff score``: one implementation on one corpus, with its signature."""

from __future__ import annotations

import argparse
import json
from typing import Any

from metricdiff.cases.files import read_corpus
from metricdiff.cli._common import (
    Commands,
    ImplementationFailed,
    add_timeout,
    available_adapter,
    parse_overrides,
)
from metricdiff.implementations import AnyAdapter
from metricdiff.implementations.user import LOCAL_VERSION
from metricdiff.profiles import profile_of
from metricdiff.profiles.metrics import METRICS, Result, family
from metricdiff.scoring import score_cases
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
        return str(adapter.name)
    return f"{adapter.name} {version}"


def run(args: argparse.Namespace) -> int:
    adapter = available_adapter(args.impl, args.metric)
    overrides = parse_overrides(args.option)
    options = adapter.options(args.metric, overrides)
    # A user's own implementation without -o: its profile is unknown, not the paper's.
    unknown_profile = adapter.user_profile and not overrides
    corpus = read_corpus(args.hyp, args.ref)
    if family(args.metric) == "rouge":
        corpus = corpus.with_sentence_breaks()
    # The corpus, then each line as a corpus of one (what a library's sentence
    # score is), all isolated: a peer that crashes or hangs is a one-line error.
    cases = [(corpus.hyps, corpus.refs)]
    if args.sentences:
        cases += [((hyp,), (refs,)) for hyp, refs in zip(corpus.hyps, corpus.refs, strict=True)]
    outcomes = score_cases(adapter, args.metric, cases, options, timeout=args.timeout)
    failed = next((outcome for outcome in outcomes if outcome.result is None), None)
    if failed is not None:  # the peer's own failure, not metricdiff's
        raise ImplementationFailed(f"{_who(adapter)} failed on {args.hyp}: {failed.reason}")
    result, *scored = [outcome.result for outcome in outcomes if outcome.result is not None]
    sentences = scored if args.sentences else None
    signature = adapter.signature(args.metric, options)
    if args.format == "json":
        document: dict[str, Any] = {
            "impl": adapter.name,
            "impl_version": adapter.version(),
            "metric": args.metric,
            "options": None if unknown_profile else profile_of(options),
            "signature": signature,
            "corpus": result.to_json(),
        }
        if sentences is not None:
            document["sentences"] = [s.to_json() for s in sentences]
        print(json.dumps(document, ensure_ascii=False))
        return 0
    for number, sentence in enumerate(sentences or [], start=1):
        print(f"{number}\t{_format_text(sentence)}")
    print(_format_text(result))
    print(signature)
    return 0


def register(commands: Commands) -> None:
    score = commands.add_parser("score", help="score a corpus with one implementation")
    score.add_argument("--impl", default="reference", help="implementation (see `impls`), "
                       "or your own: python:MODULE:FUNCTION, cmd:'PROGRAM {hyp} {ref}' "
                       "(docs/own-implementation.md; -o then declares its profile)")
    score.add_argument("--metric", default="bleu", choices=METRICS,
                       help="bleu, rouge-1 .. rouge-9, rouge-l, rouge-lsum, rouge-w, rouge-s, "
                       "rouge-su; in ROUGE input a literal \\n separates sentences")
    score.add_argument("-o", "--option", action="append", default=[], metavar="AXIS=VALUE",
                       help="set a convention axis (see shared/CONVENTIONS.md)")
    score.add_argument("--hyp", required=True, help="hypotheses, one per line ('-' = stdin)")
    score.add_argument("--ref", action="append", required=True,
                       help="references, one per line; repeat for several per segment")
    score.add_argument("--sentences", action="store_true", help="also score each line")
    score.add_argument("--format", choices=("text", "json"), default="text")
    add_timeout(score)
    score.set_defaults(run=run)
