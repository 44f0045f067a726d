"""metricdiff from Python: ``score``, ``compare``, ``audit``, ``implementations``,
``rank``, ``reproduce``, ``sensitivity`` (``import metricdiff``; see docs/api.md).

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

from metricdiff import limits
from metricdiff.cases.case import References
from metricdiff.cases.per_segment import per_segment
from metricdiff.errors import ConventionError, InputError

if TYPE_CHECKING:
    from metricdiff.comparison.gaps import Comparison
    from metricdiff.conclusions.ranking import Ranking
    from metricdiff.conclusions.reproduce import Reproduction
    from metricdiff.conclusions.sensitivity import Sensitivity
    from metricdiff.findings.finding import Finding
    from metricdiff.findings.infer import Inference
    from metricdiff.findings.pairs import DerivedPair
    from metricdiff.impls.text.lost_input import LostInput


def _names(value: object, what: str, known: Sequence[str] | None = None) -> list[str]:
    """A list of names (``metrics``, ``impls``), checked: not a bare string (whose
    letters would be taken for names), each a string, each one of ``known``."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        example = f"[{value!r}]" if isinstance(value, str) else "[...]"
        raise ConventionError(f"{what} must be a list of names, such as {example}, not "
                              f"{type(value).__name__} {value!r}")
    for item in value:
        if not isinstance(item, str):
            raise ConventionError(f"{what}: {item!r} is not a name (a string)")
        if known is not None and item not in known:
            raise ConventionError(f"{what}: unknown {what.rstrip('s')} {item!r} (known: "
                                  f"{', '.join(known)})")
    return list(value)


def _metrics(metrics: object) -> list[str] | None:
    from metricdiff.profiles.metrics import METRICS

    return None if metrics is None else _names(metrics, "metrics", METRICS)


def _impls(impls: object, metrics: Sequence[str]) -> list[str] | None:
    """``impls`` checked as the command line checks ``--impl``: each known, each
    computing one of ``metrics`` (None: every available implementation)."""
    from metricdiff.impls import check_named

    if impls is None:
        return None
    names = _names(impls, "impls")
    check_named(names, metrics)
    return names


def _workers(jobs: object, timeout: object) -> tuple[int, float]:
    """``jobs`` and ``timeout`` checked as ``--jobs`` and ``--timeout`` are."""
    try:
        workers = limits.whole_number(jobs, 1, limits.MAX_JOBS)
    except ValueError as error:
        raise ConventionError(f"jobs {error}") from None
    try:
        seconds = limits.seconds(timeout)
    except ValueError as error:
        raise ConventionError(f"timeout {error}") from None
    return workers, seconds


def _warn_if_prepared(hyps: Sequence[str], refs: References) -> None:
    """A ``MetricdiffWarning`` when the text looks tokenized, escaped, split
    into subwords or lowercased already (``cases/prepared.py``)."""
    from metricdiff.cases.prepared import warn_if_prepared

    warn_if_prepared(hyps, refs, stacklevel=4)


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
    [metric] = _names([metric], "metric", _metric_names())
    overrides = option_texts(options)
    _warn_if_prepared(hyps, segments)
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

#: What ``report=`` may be: the ROUGE number compared.
REPORTS = ("f", "recall", "precision")
#: What ``rank``'s ``test=`` may be.
TESTS = ("bootstrap", "ar", "both")


def _one_of(name: str, value: object, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ConventionError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def _metric_names() -> tuple[str, ...]:
    from metricdiff.profiles.metrics import METRICS

    return METRICS


def compare(
    hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metrics: Sequence[str] | None = None,
    impls: Sequence[str] | None = None,
    report: str = "f",
    jobs: int = 2,
    timeout: float = 120.0,
    pairs: Sequence[tuple[str, str]] = (),
) -> Comparison:
    """Every implementation's corpus score on each metric (default: bleu,
    rouge-1, rouge-2, rouge-l, rouge-lsum) and its gap to the paper split by
    axis, as ``metricdiff compare`` (in points: BLEU 0-100, ROUGE × 100); the
    gap of each of ``pairs`` too, and of every pair when at most four ``impls``
    are named.  ``impls``: who takes part besides the paper's profile (default:
    every available implementation); ``report``: the ROUGE number compared (f,
    recall, precision); ``jobs``, ``timeout``: the worker processes' number and
    time allowed per implementation and metric.

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
    from metricdiff.impls import chosen_metrics
    from metricdiff.impls.text.lost_input import warn_lost
    from metricdiff.impls.user.python import load_timeout

    corpus = per_segment(hyps, refs, ref_streams)
    _warn_if_prepared(*corpus)
    requested = _metrics(metrics)
    named = None if impls is None else _names(impls, "impls")
    chosen = chosen_metrics(requested, named, DEFAULT_METRICS)
    named = _impls(named, chosen)
    _one_of("report", report, REPORTS)
    workers, seconds = _workers(jobs, timeout)
    with load_timeout(seconds):
        comparison = compare_corpus(dict.fromkeys(chosen, corpus), named, report, workers,
                                    seconds, pairs=pairs)
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
    _warn_if_prepared(corpus.hyps, corpus.refs)
    requested = _metrics(metrics)
    named = None if impls is None else _names(impls, "impls")
    chosen = chosen_metrics(requested, named, DEFAULT_METRICS)
    impls = _impls(named, chosen)
    jobs, timeout = _workers(jobs, timeout)
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


# ---------------------------------------------------------------- conclusions


def rank(
    systems: Mapping[str, Sequence[str]], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metrics: Sequence[str] | None = None,
    impls: Sequence[str] | None = None,
    test: str = "both",
    all_pairs: bool = False,
    resample: str | None = None,
    seed: int | None = None,
    samples: int = 1000,
    trials: int = 10_000,
    report: str = "f",
    jobs: int = 2,
    timeout: float = 120.0,
) -> Ranking:
    """Several systems on one test set (``systems``: name -> hypotheses; the first
    is the baseline) ranked under every implementation, as ``metricdiff rank``:
    each system's score with its 95% interval, each pair's paired bootstrap and
    approximate randomization p-values (``test``: ``bootstrap``, ``ar``,
    ``both``), and whether each pair's order holds across implementations and
    conventions.  ``resample``: the scheme, a bootstrap value of the
    ``corpus_average`` axis (default: sacrebleu's for BLEU, rouge-score's for
    ROUGE); ``seed`` (default: 12345 under sacrebleu's scheme, else 0),
    ``samples``, ``trials``: its draws."""
    from metricdiff.comparison.corpus import DEFAULT_METRICS
    from metricdiff.conclusions.rank import rank_corpus
    from metricdiff.conclusions.resampling import DEFAULTS, SACREBLEU_SEED, Resampling
    from metricdiff.impls import chosen_metrics
    from metricdiff.impls.user.python import load_timeout

    if isinstance(systems, str) or not isinstance(systems, Mapping) or len(systems) < 2:
        raise InputError("systems must map at least two system names to their hypotheses")
    corpora = {name: per_segment(hyps, refs, ref_streams) for name, hyps in systems.items()}
    for corpus in corpora.values():
        _warn_if_prepared(*corpus)
    requested = _metrics(metrics)
    named = None if impls is None else _names(impls, "impls")
    chosen = chosen_metrics(requested, named, DEFAULT_METRICS)
    named = _impls(named, chosen)
    _one_of("report", report, REPORTS)
    _one_of("test", test, TESTS)
    workers, seconds = _workers(jobs, timeout)
    try:
        trials = limits.whole_number(trials, 1, limits.MAX_TRIALS)
    except ValueError as error:
        raise ConventionError(f"trials {error}") from None
    schemes = {}
    for family, default in DEFAULTS.items():
        scheme = resample or default.scheme
        chosen_seed = seed if seed is not None else (
            SACREBLEU_SEED if scheme == "bootstrap-sacrebleu" else 0)
        schemes[family] = Resampling.parse(scheme, chosen_seed, samples, trials)
    with load_timeout(seconds):
        return rank_corpus({metric: dict(corpora) for metric in chosen}, named,
                           report=report, resampling=schemes, test=test,
                           all_pairs=all_pairs, workers=workers, timeout=seconds)


def reproduce(
    score: str | float, hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metric: str = "bleu",
    impls: Sequence[str] | None = None,
    signature: str | None = None,
    jobs: int = 2,
    timeout: float = 120.0,
) -> Reproduction:
    """Which implementations and profiles give ``score`` as printed (``"27.3"``:
    pass the text, so that its precision is known) on ``hyps``, as ``metricdiff
    reproduce``; ``signature`` (ours or sacrebleu's) is checked against it too."""
    from metricdiff.conclusions.reproduce import reproduce_score
    from metricdiff.impls.user.python import load_timeout

    corpus = per_segment(hyps, refs, ref_streams)
    _warn_if_prepared(*corpus)
    [metric] = _names([metric], "metric", _metric_names())
    named = None if impls is None else _impls(_names(impls, "impls"), [metric])
    workers, seconds = _workers(jobs, timeout)
    with load_timeout(seconds):
        return reproduce_score(str(score), corpus, metric, named, signature, workers, seconds)


def sensitivity(
    hyps: Sequence[str], refs: References | None = None, *,
    ref_streams: Sequence[Sequence[str]] | None = None,
    metric: str = "bleu",
    report: str = "f",
) -> Sensitivity:
    """How far each value of every axis ``metric`` depends on moves the score from
    the paper's profile on this corpus, and which pairs interact, as ``metricdiff
    sensitivity``."""
    from metricdiff.conclusions.sensitivity import sensitivity_of

    corpus = per_segment(hyps, refs, ref_streams)
    _warn_if_prepared(*corpus)
    [metric] = _names([metric], "metric", _metric_names())
    _one_of("report", report, REPORTS)
    return sensitivity_of(corpus, metric, report)


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
    "rank",
    "reproduce",
    "score",
    "sensitivity",
]
