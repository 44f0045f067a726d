"""metricdiff from Python, the scores and their differences: ``score``,
``compare``, ``audit``, ``implementations`` (``import metricdiff``; see docs/api.md).

References come per segment, as in Hugging Face ``evaluate``: ``refs[i]`` is the
list of references of ``hyps[i]``, so ``len(refs) == len(hyps)``.  Reference
streams as sacrebleu takes them (one list per reference set, each as long as
``hyps``) go only through the keyword ``ref_streams=``.  Nothing is transposed
behind the caller's back: a shape that fits neither is refused with an
``InputError`` that says which one was meant.  A ROUGE segment's sentences are
separated by line breaks (``"First.\\nSecond."``), as rouge-score expects.

Every result is a frozen value with ``to_dict()``, the JSON the command line
prints for the same question.

The ``Example:`` of each function is run by the test suite
(``tests/test_api_examples.py``).  The examples share one segment whose numbers
can be worked out by hand: "The cat sat on the mat." against "The cat sat on the
mat .".  Split on whitespace (``tokenize=none``, the paper's profile) the
hypothesis has 6 tokens and the reference 7; "mat." matches nothing, so the
clipped n-gram precisions are 5/6, 4/5, 3/4 and 2/3, whose geometric mean is
(1/3)^(1/4) = 0.7598, and the brevity penalty is e^(1 - 7/6) = 0.8465: BLEU =
64.32 (Papineni et al. 2002, eq. 1).  Under ``tokenize=13a`` the final full stop
is split off, the two texts are the same and BLEU is 100.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from metricdiff.api.arguments import (
    REPORTS,
    impl_list,
    metric_list,
    metric_names,
    names,
    one_of,
    warn_if_prepared_input,
    workers_and_timeout,
)
from metricdiff.cases.case import References
from metricdiff.cases.per_segment import per_segment
from metricdiff.errors import ConventionError

if TYPE_CHECKING:
    from metricdiff.comparison.gaps import Comparison
    from metricdiff.findings.finding import Finding
    from metricdiff.findings.infer import Inference
    from metricdiff.findings.pairs import DerivedPair
    from metricdiff.impls.text.lost_input import LostInput


# ---------------------------------------------------------------- score


@attrs.frozen
class Score:
    """One implementation's corpus score with its signature; ``corpus`` holds the
    statistics behind it (as ``score --format json`` prints them).  ``lost_input``:
    what the implementation's tokenizer drops of the text (None: nothing), said
    by a ``MetricdiffWarning`` too."""

    impl: str
    impl_version: str
    metric: str
    score: float
    signature: str
    options: dict[str, str] | None
    corpus: dict[str, Any]
    lost_input: LostInput | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {"impl": self.impl, "impl_version": self.impl_version, "metric": self.metric,
                "options": self.options, "signature": self.signature, "corpus": self.corpus}
        if self.lost_input is not None:
            data["lost_input"] = self.lost_input.to_json()
        return data


def score(
    impl: str, metric: str, hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    options: Mapping[str, str] | None = None,
) -> Score:
    """The corpus score of ``hyps`` by implementation ``impl`` (see
    ``implementations()``) under its declared profile, with ``options``
    (axis -> value) changed.  ``score`` is BLEU on 0-100, ROUGE's F on 0-1, as
    the implementations report them; ``corpus`` has the rest.  A peer or your own
    implementation runs in a worker process: one that raises, dies, hangs or
    returns an invalid result raises ``ImplementationFailed`` saying which.

    Example:
        >>> import metricdiff
        >>> hyps, refs = ["The cat sat on the mat."], [["The cat sat on the mat ."]]
        >>> result = metricdiff.score("reference", "bleu", hyps, refs)
        >>> round(result.score, 2), result.corpus["counts"], result.corpus["totals"]
        (64.32, [5, 4, 3, 2], [6, 5, 4, 3])
        >>> metricdiff.score("reference", "bleu", hyps, refs, options={"tokenize": "13a"}).score
        100.0
    """
    from metricdiff import scoring
    from metricdiff.impls import get_adapter
    from metricdiff.impls.settings import option_texts
    from metricdiff.impls.text.lost_input import lost_input, warn_lost
    from metricdiff.profiles import profile_of

    hyps, segments = per_segment(hyps, refs, ref_streams)
    if not isinstance(impl, str):
        raise ConventionError(f"impl must be an implementation's name, such as 'sacrebleu' "
                              f"(see implementations()), not {type(impl).__name__} {impl!r}")
    [metric] = names([metric], "metric", metric_names())
    overrides = option_texts(options)
    warn_if_prepared_input(hyps, segments)
    adapter = get_adapter(impl, metric)
    adapter.ensure_available()
    chosen = adapter.options(metric, overrides)
    result = scoring.score(adapter, metric, hyps, segments, chosen).result_or_raise(
        f"{adapter.display_name} {metric}")
    known = not (adapter.declared.user_profile and not options)
    lost = lost_input(adapter.name, chosen.tokenize, hyps, segments) if known else None
    warn_lost([lost] if lost is not None else [])
    return Score(adapter.name, adapter.version(), metric, result.headline,
                 adapter.signature(metric, chosen), profile_of(chosen) if known else None,
                 result.to_json(), lost)


# ---------------------------------------------------------------- compare

def compare(
    hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metrics: Sequence[str] | None = None,
    impls: Sequence[str] | None = None,
    report: str = "f",
    jobs: int = 2,
    timeout: float = 120.0,
    pairs: Sequence[tuple[str, str]] = (),
    lang: str | None = None,
) -> Comparison:
    """Every implementation's corpus score on each metric (default: bleu,
    rouge-1, rouge-2, rouge-l, rouge-lsum) and its gap to the paper split by
    axis, as ``metricdiff compare`` (in points: BLEU 0-100, ROUGE × 100); the
    gap of each of ``pairs`` too, and of every pair when at most four ``impls``
    are named.  ``impls``: who takes part besides the paper's profile (default:
    every available implementation); ``report``: the ROUGE number compared (f,
    recall, precision); ``jobs``, ``timeout``: the worker processes' number and
    time allowed per implementation and metric.  When the input looks
    tokenized and sacremoses is installed (``metricdiff[moses]``), each metric's
    ``detokenized`` has every score again on the input detokenized, in ``lang``
    (None: English, assumed and said).

    Example:
        >>> import metricdiff
        >>> hyps, refs = ["The cat sat on the mat."], [["The cat sat on the mat ."]]
        >>> comparison = metricdiff.compare(hyps, refs, metrics=["bleu"],
        ...                                 impls=["reference[tokenize=13a]"])
        >>> gap = comparison["bleu"].gap("reference", "reference[tokenize=13a]")
        >>> round(gap.delta, 2), {axis: round(part, 2) for axis, part in gap.contributions.items()}
        (35.68, {'tokenize': 35.68})

        Only ``tokenize`` differs between the two, so it carries the whole gap,
        100 - 64.32.
    """
    from metricdiff.comparison.corpus import DEFAULT_METRICS, compare_corpus
    from metricdiff.comparison.detokenized import check_lang, with_detokenized
    from metricdiff.impls import chosen_metrics
    from metricdiff.impls.text.lost_input import warn_lost
    from metricdiff.impls.user.python import load_timeout

    corpus = per_segment(hyps, refs, ref_streams)
    if lang is not None:
        check_lang(lang)
    prepared = warn_if_prepared_input(*corpus)
    requested = metric_list(metrics)
    named = None if impls is None else names(impls, "impls")
    chosen = chosen_metrics(requested, named, DEFAULT_METRICS)
    named = impl_list(named, chosen)
    one_of("report", report, REPORTS)
    workers, seconds = workers_and_timeout(jobs, timeout)
    with load_timeout(seconds):
        samples = dict.fromkeys(chosen, corpus)
        comparison = compare_corpus(samples, named, report, workers, seconds, pairs=pairs)
        comparison = with_detokenized(comparison, samples, prepared, lang, named, report,
                                      workers, seconds)
    warn_lost(comparison.lost_input)
    return comparison


# ---------------------------------------------------------------- audit


@attrs.frozen
class AuditResult:
    """What ``metricdiff audit`` finds on a corpus: each finding (a disagreement
    and its cause, on a minimal example), and first the table it leads with,
    ``comparison``: every implementation's score on the whole corpus and each gap
    split by axis, as ``metricdiff.compare`` gives it.  ``to_dict()["findings"]``
    is ``findings.json``, ``to_dict()["comparison"]`` is ``compare.json``.
    ``lost_input``: what each implementation's tokenizer drops of the corpus,
    said by a ``MetricdiffWarning`` too."""

    metrics: tuple[str, ...]
    findings: tuple[Finding, ...]
    comparison: Comparison | None = None
    #: The pairs derived from the star: those asked for, and the largest gaps.
    pairs: tuple[DerivedPair, ...] = ()
    lost_input: tuple[LostInput, ...] = ()
    #: The profile inferred of each of your own implementations that declares
    #: none, per metric (``inferred.json``): ``describe()`` is the audit's line.
    inferred: tuple[Inference, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"metrics": list(self.metrics),
                                "findings": [finding.to_json() for finding in self.findings],
                                "pairs": [pair.to_json() for pair in self.pairs],
                                "inferred": [i.to_json() for i in self.inferred]}
        if self.comparison is not None:
            data["comparison"] = self.comparison.to_dict()["metrics"]
        if self.lost_input:
            data["lost_input"] = [lost.to_json() for lost in self.lost_input]
        return data


def audit(
    hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metrics: Sequence[str] | None = None,
    impls: Sequence[str] | None = None,
    jobs: int = 1,
    timeout: float = 120.0,
    minimise: bool = True,
    pairs: Sequence[tuple[str, str]] = (),
    fixtures: bool | None = None,
) -> AuditResult:
    """The differential audit of every implementation (or ``impls``) on each
    segment and on the whole corpus, as ``metricdiff audit --hyp ... --ref ...``;
    ``pairs`` as its ``--pair``; ``fixtures``: the bundled fixtures too (None:
    when one of ``impls`` is your own, ``python:`` or ``cmd:``, as the command
    does; their cases tell a defect from a convention that fits your few lines).

    Example:
        >>> import metricdiff
        >>> hyps, refs = ["The cat sat on the mat."], [["The cat sat on the mat ."]]
        >>> result = metricdiff.audit(hyps, refs, metrics=["bleu"], minimise=False,
        ...                           impls=["reference", "reference[tokenize=13a]"])
        >>> [(f.kind, f.impl_a, f.impl_b, f.axis, f.values) for f in result.findings]
        [('departure', 'reference', 'reference[tokenize=13a]', 'tokenize', ('none', '13a'))]
        >>> result.findings[0].first_difference
        'sys_len: 6 vs 7'

        The hypothesis is 6 tokens long split on whitespace, 7 under ``13a``.
        Without ``minimise=False`` the finding is shown on a smaller example
        that still has its cause.
    """
    from metricdiff.auditing.cases import (
        DEFAULT_METRICS,
        fixture_cases,
        own_implementations,
        user_cases,
    )
    from metricdiff.auditing.config import AuditConfig
    from metricdiff.auditing.corpus_table import corpus_table
    from metricdiff.auditing.run import audit_metrics
    from metricdiff.cases import Case, bundled
    from metricdiff.cases.fixtures import load_all
    from metricdiff.comparison.gaps import Comparison
    from metricdiff.impls import chosen_metrics
    from metricdiff.impls.text.lost_input import warn_lost
    from metricdiff.impls.user.python import load_timeout

    corpus = Case(*per_segment(hyps, refs, ref_streams))
    warn_if_prepared_input(corpus.hyps, corpus.refs)
    requested = metric_list(metrics)
    named = None if impls is None else names(impls, "impls")
    chosen = chosen_metrics(requested, named, DEFAULT_METRICS)
    impls = impl_list(named, chosen)
    jobs, timeout = workers_and_timeout(jobs, timeout)
    config = AuditConfig(impls, workers=jobs, timeout=timeout, minimise=minimise, pairs=pairs)
    if fixtures is None:
        fixtures = bool(own_implementations(impls or []))
    # The fixture files alone, as the command's --fixtures reads them.
    shipped = load_all(bundled.fixtures_folder()) if fixtures else []
    plan = {metric: fixture_cases(shipped, metric) + user_cases(corpus, "input", metric)
            for metric in chosen}
    table = functools.partial(corpus_table, corpus=corpus, impls=impls, user_profile={},
                              workers=jobs, timeout=timeout, pairs=pairs)
    findings: list[Finding] = []
    derived: list[DerivedPair] = []
    inferred: list[Inference] = []
    tables = []
    with load_timeout(timeout):
        for done, made in audit_metrics(plan, config, table):
            findings += done.findings
            derived += done.pairs
            inferred += done.inferred
            assert made is not None  # a table was asked for
            tables.append(made)
    comparison = Comparison(tuple(tables))
    warn_lost(comparison.lost_input)
    return AuditResult(tuple(chosen), tuple(findings), comparison, tuple(derived),
                       comparison.lost_input, tuple(inferred))


# ---------------------------------------------------------------- implementations


@attrs.frozen
class Implementation:
    """An implementation metricdiff can drive: whether it can run here (and why
    not), the metrics it computes, its declared profile per family."""

    name: str
    version: str
    available: bool
    reason: str
    metrics: tuple[str, ...]
    profile: dict[str, dict[str, str]]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "available": self.available,
                "reason": self.reason, "metrics": list(self.metrics), "profile": self.profile}


def implementations() -> list[Implementation]:
    """Every implementation metricdiff knows, installed or not (``metricdiff impls``).

    Example:
        >>> import metricdiff
        >>> found = {implementation.name: implementation
        ...          for implementation in metricdiff.implementations()}
        >>> reference = found["reference"]
        >>> reference.available, reference.profile["bleu"]["tokenize"], reference.metrics[:2]
        (True, 'none', ('bleu', 'rouge-1'))
    """
    from metricdiff.impls import adapter_for_family, adapter_names, families_of
    from metricdiff.profiles import profile_of

    found = []
    for name in adapter_names():
        adapters = [adapter_for_family(name, f) for f in families_of(name)]
        reasons = [a.unavailable_reason() for a in adapters]
        found.append(Implementation(
            # available when a family can run (sumeval's ROUGE, not its BLEU); the
            # reason still names what cannot
            name, adapters[0].version(), any(reason is None for reason in reasons),
            "; ".join(dict.fromkeys(reason for reason in reasons if reason)),
            tuple(metric for a in adapters for metric in a.declared.metrics),
            {a.family: profile_of(a.default_options(a.declared.metrics[0])) for a in adapters},
        ))
    return found


__all__ = [
    "AuditResult",
    "Implementation",
    "Score",
    "audit",
    "compare",
    "implementations",
    "per_segment",
    "score",
]
