"""What the audit scores: the bundled fixtures, a user's own files, generated text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from metricdiff.audit.metric import AuditCase
from metricdiff.cases.files import Corpus
from metricdiff.cases.fixtures import load_all
from metricdiff.profiles.metrics import family

#: The metrics audited when none is named: BLEU and every ROUGE variant (ROUGE-N
#: stands in with n = 1 and 2).
DEFAULT_METRICS = (
    "bleu", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum", "rouge-w", "rouge-s", "rouge-su",
)


def fixture_cases(root: Path, metric: str) -> list[AuditCase]:
    """The texts of every must_ and conv_ fixture of ``metric``'s family.

    The audit compares implementations as their users run them, so it takes the
    fixtures' texts and leaves their pinned options to ``metricdiff check``.
    """
    wanted = family(metric)
    seen: set[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]] = set()
    cases = []
    for case in load_all(root):
        if case.verdict_class == "reject" or family(case.metric) != wanted:
            continue
        if (case.hyps, case.refs) in seen:
            continue
        seen.add((case.hyps, case.refs))
        cases.append(AuditCase(case.id, case.hyps, case.refs, "fixture",
                               case.location.rsplit(":", 1)[0]))
    return cases


def user_cases(corpus: Corpus, source: str, metric: str) -> list[AuditCase]:
    """Each segment of the user's corpus (read from the file ``source``: ``--hyp``
    or ``--jsonl``) as a case, and the whole corpus as one more."""
    if family(metric) == "rouge":
        corpus = corpus.with_sentence_breaks()
    return corpus_cases(Path(source).name, corpus.hyps, corpus.refs)


def corpus_cases(
    name: str, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]
) -> list[AuditCase]:
    """Each segment of a corpus as a case (``name:line``), and the whole corpus as
    one more (``name:corpus``)."""
    cases = [
        AuditCase(f"{name}:{line}", (hyp,), (tuple(seg),), "user", name)
        for line, (hyp, seg) in enumerate(zip(hyps, refs, strict=True), 1)
    ]
    if len(hyps) > 1:
        cases.append(AuditCase(f"{name}:corpus", tuple(hyps), tuple(map(tuple, refs)),
                               "user", name))
    return cases


def generated_cases(metric: str, count: int, seed: int) -> list[AuditCase]:
    """``count`` Hypothesis-generated cases for ``metric``'s family, from ``seed``."""
    from metricdiff.cases.generate import generate_cases

    return [
        AuditCase(f"gen_{seed}_{index}", case.hyps, case.refs, "generated", case.klass)
        for index, case in enumerate(generate_cases(family(metric), count, seed))
    ]
