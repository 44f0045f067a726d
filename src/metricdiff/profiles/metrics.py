"""The metric names users write (``--metric``) and what each one selects."""

from __future__ import annotations

import attrs

from metricdiff.profiles import BleuOptions, ConventionError
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import BleuResult, RougeResult

Options = BleuOptions | RougeOptions
Result = BleuResult | RougeResult

#: rouge-1 .. rouge-9 select ROUGE-N; the others select a variant by name.
_ROUGE_VARIANTS = {"rouge-l": "l", "rouge-lsum": "lsum", "rouge-w": "w", "rouge-s": "s",
                   "rouge-su": "su"}
METRICS: tuple[str, ...] = (
    "bleu", *(f"rouge-{n}" for n in range(1, 10)), *_ROUGE_VARIANTS,
)


def family(metric: str) -> str:
    """``bleu`` or ``rouge``."""
    check_metric(metric)
    return "bleu" if metric == "bleu" else "rouge"


def check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise ConventionError(f"unknown metric {metric!r} (known: {', '.join(METRICS)})")


def paper_options(metric: str) -> Options:
    """The paper's profile for ``metric``: BleuOptions() or RougeOptions with the
    variant (and n) the name selects."""
    if family(metric) == "bleu":
        return BleuOptions()
    return with_variant(RougeOptions(), metric)


def with_variant(options: RougeOptions, metric: str) -> RougeOptions:
    """``options`` with the variant and n that the metric name selects."""
    if metric in _ROUGE_VARIANTS:
        return attrs.evolve(options, variant=_ROUGE_VARIANTS[metric])
    return attrs.evolve(options, variant="n", n=int(metric.removeprefix("rouge-")))
