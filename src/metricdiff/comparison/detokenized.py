"""What detokenizing does to each implementation's score, when the input of
``metricdiff compare`` looks tokenized or escaped already (``cases/prepared.py``).

Post (2018) names tokenized input first among the causes of BLEU scores that
cannot be compared.  Where sacremoses is installed (the ``moses`` extra), the
sides that look tokenized are detokenized with its ``MosesDetokenizer`` (which
unescapes Moses' escapes too), every implementation scores them again under the
same profile, and the notes say by how much each score moves: the effect of the
input's preparation on the same implementation, as one more attribution row.
Without sacremoses, a warning says what installing it would show."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping, Sequence

import attrs

from metricdiff.cases.case import Sample
from metricdiff.cases.prepared import PreparedInput
from metricdiff.comparison.corpus import REFERENCE, entrants, score_of
from metricdiff.comparison.gaps import Comparison, Detokenized
from metricdiff.comparison.scorer import ReferenceScorer
from metricdiff.errors import ConventionError, MetricdiffWarning
from metricdiff.scoring.jobs import Job
from metricdiff.scoring.locating import score_in_workers

#: The language assumed when none is named.
DEFAULT_LANG = "en"
#: What installs the detokenizer.
EXTRA = "metricdiff[moses]"
#: The signs of ``cases/prepared.py`` that Moses' detokenizer undoes, and the
#: name of each side there and here.
UNDONE = ("tokenized", "escaped")
SIDES = {"hypothesis": "hypotheses", "reference": "references"}


def check_lang(lang: str) -> str:
    """``lang`` as Moses names a language (``en``, ``fr``, ``cs``), or a
    ConventionError."""
    if not isinstance(lang, str) or not re.fullmatch(r"[a-z]{2,3}", lang):
        raise ConventionError(f"lang must be a language code such as 'en' or 'fr', "
                              f"not {lang!r}")
    return lang


def undone_sides(prepared: PreparedInput | None) -> tuple[str, ...]:
    """The sides that look tokenized or escaped (``hypotheses``, ``references``)."""
    found = {sign.side for sign in (prepared.signs if prepared else ()) if sign.name in UNDONE}
    return tuple(SIDES[side] for side in SIDES if side in found)


def detokenizer(lang: str) -> tuple[str, Callable[[str], str]] | None:
    """sacremoses' name and version, and a function that detokenizes a text
    (each of its lines: ROUGE's sentences), or None when it is not installed."""
    try:
        import importlib.metadata

        from sacremoses import MosesDetokenizer
    except ImportError:
        return None
    moses = MosesDetokenizer(lang)
    done: dict[str, str] = {}

    def detokenize(text: str) -> str:
        if text not in done:
            done[text] = "\n".join(moses.detokenize(line.split()) for line in text.split("\n"))
        return done[text]

    return f"sacremoses {importlib.metadata.version('sacremoses')}", detokenize


def _detokenized(sample: Sample, sides: Sequence[str], detokenize: Callable[[str], str]
                 ) -> Sample:
    hyps, refs = sample
    if "hypotheses" in sides:
        hyps = tuple(detokenize(hyp) for hyp in hyps)
    if "references" in sides:
        refs = tuple(tuple(None if ref is None else detokenize(ref) for ref in seg)
                     for seg in refs)
    return hyps, refs


def with_detokenized(comparison: Comparison, samples: Mapping[str, Sample],
                     prepared: PreparedInput | None, lang: str | None,
                     impls: Sequence[str] | None, report: str, workers: int, timeout: float
                     ) -> Comparison:
    """``comparison`` (``compare_corpus``'s on ``samples`` with ``impls`` and
    ``report``) with each metric's scores on the input detokenized, when
    ``prepared`` says it looks tokenized or escaped; a warning instead when
    sacremoses is missing.  ``lang``: the input's language (None: English,
    assumed, and said); ``workers``, ``timeout``: as ``compare_corpus``'s."""
    sides = undone_sides(prepared)
    if not sides:
        return comparison
    moses = detokenizer(check_lang(lang or DEFAULT_LANG))
    if moses is None:
        warnings.warn(f"installing {EXTRA} (sacremoses) would show what detokenizing the "
                      "input changes in each implementation's score", MetricdiffWarning,
                      stacklevel=3)
        return comparison
    tool, detokenize = moses
    detok = {metric: _detokenized(sample, sides, detokenize) for metric, sample in samples.items()}
    given = {metric.metric: {s.impl: s.score for s in metric.scores if s.score is not None}
             for metric in comparison.metrics}
    people = {metric: [e for e in entrants(metric, impls, report)
                       if e.options is not None and e.name in given[metric]]
              for metric in detok}
    jobs = [Job(e.name, metric, e.options, (detok[metric],), e.name)
            for metric, those in people.items() for e in those
            if e.name != REFERENCE and e.options is not None]
    outcomes = dict(zip(((job.metric, job.impl) for job in jobs),
                        score_in_workers(jobs, workers, timeout) if jobs else [], strict=True))
    metrics = []
    for found in comparison.metrics:
        reference = ReferenceScorer(found.metric, detok[found.metric])
        scores = tuple(score_of(e, reference, outcomes) for e in people[found.metric])
        metrics.append(attrs.evolve(found, detokenized=Detokenized(
            tool, lang or DEFAULT_LANG, lang is None, sides, scores, given[found.metric])))
    return Comparison(tuple(metrics))


__all__ = ["DEFAULT_LANG", "EXTRA", "check_lang", "detokenizer", "undone_sides",
           "with_detokenized"]
