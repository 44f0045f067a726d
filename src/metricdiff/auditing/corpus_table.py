"""The table an audit of the user's corpus leads with: every implementation's
score on the whole corpus and each gap between two of them split by convention
axis (``metricdiff compare``, ``comparison/corpus.py``), a user's own
implementation under the profile it was declared (``-o``) or inferred to have."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from metricdiff.auditing.metric import Scored
from metricdiff.auditing.pairs import LARGEST_GAPS
from metricdiff.cases.case import Case, Sample
from metricdiff.comparison.corpus import DEFAULT_REPORT, NOT_INFERRED, compare_corpus
from metricdiff.comparison.gaps import MetricComparison
from metricdiff.findings.infer import Inference
from metricdiff.scoring.jobs import CaseResult
from metricdiff.scoring.memos import trim_memos


def corpus_table(scored: Scored, inferred: Sequence[Inference], corpus: Case,
                 impls: Sequence[str] | None, user_profile: Mapping[str, str], workers: int,
                 timeout: float, pairs: Sequence[tuple[str, str]] = ()) -> MetricComparison:
    """``compare`` on ``corpus`` for the metric ``scored``: ``impls`` besides the
    paper's profile (None: every available one), ROUGE as F for every one; a
    participant that declares no profile under the one ``inferred`` for it;
    ``workers`` and ``timeout``: those of the audit.  Each implementation's gap
    to the paper is split, and so are the gaps of the ``pairs`` asked for and
    the ``LARGEST_GAPS`` largest between two implementations (the report's
    detail for them)."""
    claimed = {person.impl: dict(user_profile) for person in scored.participants
               if user_profile and person.label == "declared"}
    claimed.update({inference.impl: inference.changes() for inference in inferred
                    if inference.found})
    sample = corpus.for_metric(scored.metric).sample
    comparison = compare_corpus({scored.metric: sample}, impls, DEFAULT_REPORT, workers,
                                timeout, claimed, _scored_already(scored, sample),
                                pairs=pairs, largest=LARGEST_GAPS, undeclared=NOT_INFERRED)
    trim_memos()  # the attribution filled the reference's memos again (``finish_metric``)
    return comparison[scored.metric]


def _scored_already(scored: Scored, sample: Sample) -> dict[tuple[str, str], CaseResult]:
    """Each implementation's outcome on the whole corpus as the audit scored it (its
    case ``FILE:corpus``, or the one line of a one-line corpus), so that the table
    scores nothing twice and a resumed audit nothing again.  The same result as
    ``compare`` would get: a participant under its own profile differs from the
    table's only in ``report``, which picks the number quoted, not how it is
    computed; a user's own implementation is not told its profile at all."""
    index = next((i for i, case in enumerate(scored.cases) if case.sample == sample), None)
    if index is None:
        return {}
    # By name: a variant (``sacrebleu+intl``) takes part in both under that name.
    return {(scored.metric, person.name): scored.scores.own[person.name][index]
            for person in scored.participants}
