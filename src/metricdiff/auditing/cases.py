"""What the audit scores: the bundled fixtures, a user's own files, generated text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from metricdiff.cases.case import Case, Sample
from metricdiff.cases.files import line_cases
from metricdiff.cases.fixtures import load_all
from metricdiff.profiles.metrics import family

#: The metrics audited when none is named: BLEU and every ROUGE variant (ROUGE-N
#: stands in with n = 1 and 2).
DEFAULT_METRICS = (
    "bleu", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum", "rouge-w", "rouge-s", "rouge-su",
)


def own_implementations(impls: Sequence[str]) -> list[str]:
    """The users' own implementations among ``impls`` (``python:``, ``cmd:``): the
    audit runs the bundled fixtures beside them by default."""
    from metricdiff.impls.settings import parse_spec
    from metricdiff.impls.user.spec import is_user_spec

    return [name for name in impls if is_user_spec(parse_spec(name).name)]


def fixture_cases(root: Path | Sequence[Case], metric: str) -> list[Case]:
    """Every must_ and conv_ fixture of ``metric``'s family, each text once, from
    the folder ``root`` or from its cases already read (``load_all``: reading the
    bundled fixtures and the specs' worked examples takes seconds, so an audit of
    several metrics reads them once).

    The audit compares implementations as their users run them, so it takes the
    fixtures' texts and leaves their pinned options to ``metricdiff check``.
    """
    wanted = family(metric)
    seen: set[Sample] = set()
    cases = []
    for case in load_all(root) if isinstance(root, Path) else root:
        if case.verdict_class == "reject" or family(case.metric) != wanted:
            continue
        if case.sample in seen:
            continue
        seen.add(case.sample)
        cases.append(case)
    return cases


def user_cases(corpus: Case, source: str, metric: str) -> list[Case]:
    """Each segment of the user's corpus (read from the file ``source``: ``--hyp``
    or ``--jsonl``) as a case, and the whole corpus as one more when it has more
    than one (``files.line_cases``), as ``metric`` is given them."""
    return [case.for_metric(metric) for case in line_cases(corpus, source)]


def generated_cases(metric: str, count: int, seed: int,
                    progress: Callable[[str], None] | None = None) -> list[Case]:
    """``count`` generated cases for ``metric``'s family, from ``seed``;
    ``progress`` is told how far the generating is, for a large ``count``."""
    from metricdiff.cases.generate import PROGRESS_EVERY, generate_cases

    if progress is None or count < PROGRESS_EVERY:
        return generate_cases(family(metric), count, seed)
    return generate_cases(family(metric), count, seed,
                          lambda done: progress(f"{metric}: generated {done}/{count} cases"))
