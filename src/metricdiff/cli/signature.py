"""``metricdiff signature``: an implementation's signature, or what a signature means.

``--impl I --metric M [-o AXIS=VALUE]`` prints the signature ``metricdiff score``
would print with the score.  ``--explain SIG`` reads a signature (a full one, or
a shortened one as papers quote it, with ``…`` for left-out axes) and prints a
table: each axis it states, its value, whether that is the paper's value and the
implementation's default, and what the value means.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from metricdiff.cli._common import Commands, available_adapter, parse_overrides
from metricdiff.impls import AnyAdapter, adapter_names, families_of, get_adapter, split_impl
from metricdiff.profiles import AXES, ConventionError, axis_names, profile_of
from metricdiff.profiles.metrics import METRICS, check_metric, paper_options
from metricdiff.profiles.profile import ParsedSignature, parse_signature

#: Width of the "meaning" column; longer descriptions wrap.
MEANING_WIDTH = 56


def _metric_of(args: argparse.Namespace) -> str:
    """``--metric``, or the implementation's first metric (``bleu`` if it has BLEU)."""
    if args.metric:
        return str(args.metric)
    families = families_of(args.impl)
    if "bleu" in families:
        return "bleu"
    return str(get_adapter(args.impl, "rouge-1").declared.metrics[0])


def _adapter_defaults(parsed: ParsedSignature) -> tuple[str | None, dict[str, str] | None]:
    """The implementation's name and declared default profile for the metric, if
    the signature names an implementation metricdiff knows."""
    if parsed.impl is None:
        return None, None
    name, _ = split_impl(parsed.impl)
    if name not in adapter_names():
        return None, None
    adapter: AnyAdapter = get_adapter(name, parsed.metric)
    adapter.check_metric(parsed.metric)
    return name, profile_of(adapter.default_options(parsed.metric))


def _verdict(value: str, reference: str) -> str:
    return "yes" if value == reference else f"no ({reference})"


def explain_rows(
    parsed: ParsedSignature, defaults: Mapping[str, str] | None
) -> list[list[str]]:
    """One row per stated axis: axis (key), value, paper's?, default?, meaning."""
    check_metric(parsed.metric)
    paper = profile_of(paper_options(parsed.metric))
    rows = []
    for name, value in parsed.profile.items():
        axis = AXES[name]
        if name not in paper:
            raise ConventionError(
                f"signature key {axis.short!r} ({name}) does not apply to {parsed.metric}"
            )
        row = [f"{name} ({axis.short})", value, _verdict(value, paper[name])]
        if defaults is not None:
            row.append(_verdict(value, defaults[name]))
        rows.append([*row, _meaning(name, value, parsed.profile)])
    return rows


def _meaning(name: str, value: str, profile: Mapping[str, str]) -> str:
    """What ``value`` of axis ``name`` means within ``profile``: the ``lowercase``
    axis says nothing of a tokenizer that folds case by itself, so that is said."""
    from metricdiff.impls.text.tokenizers import FOLDS_CASE

    axis = AXES[name]
    meaning = axis.value_docs.get(value, axis.doc)
    tokenize = profile.get("tokenize", "")
    if name == "lowercase" and tokenize in FOLDS_CASE:
        meaning += f"; but tokenize={tokenize} lowercases by itself ({FOLDS_CASE[tokenize]})"
    return meaning


#: What ``--explain`` says of a ``profile:unknown`` signature.
_UNKNOWN_PROFILE_LINE = (
    "profile: unknown (the implementation declared no conventions, so there is nothing "
    "to explain axis by axis; declare them with -o AXIS=VALUE, or let `metricdiff audit` "
    "infer them)"
)


#: What a sacrebleu signature's fields that are no axis say.
_EXTRA_MEANINGS = {
    "nrefs": "references per segment (no convention)",
    "bs": "bootstrap resamples of its paired test (bootstrap_samples; `rank --samples`)",
    "ar": "approximate randomization trials (`rank --trials`)",
    "seed": "the resampling's seed, SACREBLEU_SEED (bootstrap_seed; `rank --seed`)",
    "test": "the test set sacrebleu downloaded (-t)",
    "lang": "the language pair (-l)",
    "subset": "the test set's subset",
    "origlang": "the test set's original language",
}


def explain(text: str) -> str:
    """The table ``--explain`` prints for signature ``text``."""
    from tabulate import tabulate

    parsed = parse_signature(text)
    check_metric(parsed.metric)
    head = [f"metric: {parsed.metric}"]
    if parsed.source == "sacrebleu":
        head[0] += " (a sacrebleu signature, each field read as metricdiff's axis)"
    if parsed.impl is not None:
        name, version = split_impl(parsed.impl)
        head.append(f"implementation: {name}" + (f", version {version}" if version else ""))
    if parsed.profile_unknown:
        # Not an error: it is what `score` prints for a user's own implementation
        # without -o, and saying so is the whole explanation.
        return "\n".join([*head, _UNKNOWN_PROFILE_LINE])
    impl_name, defaults = _adapter_defaults(parsed)
    rows = explain_rows(parsed, defaults)
    headers = ["axis (key)", "value", "paper's value?"]
    if impl_name is not None:
        headers.append(f"{impl_name}'s default?")
    headers.append("meaning")
    widths = [None] * (len(headers) - 1) + [MEANING_WIDTH]
    lines = [*head, tabulate(rows, headers, tablefmt="simple", maxcolwidths=widths)]
    unstated = [a for a in axis_names(type(paper_options(parsed.metric)))
                if a not in parsed.profile]
    if unstated:
        lines.append(f"not stated in this signature: {', '.join(unstated)}")
    lines += [f"{key}: {value} — {_EXTRA_MEANINGS[key]}" for key, value in parsed.extra.items()]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.explain is not None and args.explain != _FROM_OPTIONS:
        print(explain(args.explain))
        return 0
    if args.impl is None:
        raise ConventionError("give --impl (and --metric), or --explain SIGNATURE")
    metric = _metric_of(args)
    adapter = available_adapter(args.impl, metric)
    signature = adapter.signature(metric, adapter.options(metric, parse_overrides(args.option)))
    print(explain(signature) if args.explain == _FROM_OPTIONS else signature)
    return 0


#: ``--explain`` given without a signature: explain the one --impl/--metric/-o make.
_FROM_OPTIONS = "\0from-options"


def register(commands: Commands) -> None:
    sig = commands.add_parser(
        "signature", help="print an implementation's signature, or explain one"
    )
    sig.add_argument("--impl", help="implementation (see `impls`), with settings if any: "
                     "'rouge-score[stemmer=porter-nltk]'")
    sig.add_argument("--metric", choices=METRICS,
                     help="metric (default: bleu, or the implementation's first metric)")
    sig.add_argument("-o", "--option", action="append", default=[], metavar="AXIS=VALUE",
                     help="set a convention axis (see `metricdiff axes`)")
    sig.add_argument("--explain", nargs="?", const=_FROM_OPTIONS, metavar="SIGNATURE",
                     help="print what each axis of SIGNATURE means; without SIGNATURE, "
                     "explain the one --impl, --metric and -o give")
    sig.set_defaults(run=run)
