"""Which implementations ``compare`` expects to crash on the corpus
(``comparison.corpus._refused``): those whose declared profile refuses an empty
pair (``empty_policy=error``) where the reference under that profile refuses
the corpus.  For them the search for the segment that kills them starts with
the corpus (``scoring.locating.first_checks``).

By hand: the rouge-score tokenizer keeps ``[a-z0-9]`` runs after lowercasing,
so a segment in Cyrillic on both sides has no token on either side, an empty
pair, which ``empty_policy=error`` refuses (ROUGE-EMPTY)."""

from __future__ import annotations

import attrs

from metricdiff.comparison.corpus import Entrant, _refused
from metricdiff.comparison.scorer import ReferenceScorer
from metricdiff.profiles import with_overrides
from metricdiff.profiles.metrics import paper_options

ASCII = (("the cat sat on the mat", "a dog ran"), (("the cat is on the mat",), ("a dog runs",)))
CYRILLIC = (("the cat sat on the mat", "Кошка сидит"),
            (("the cat is on the mat",), ("Собака бежит",)))


def entrant(empty_policy: str, declared: bool = True) -> Entrant:
    options = with_overrides(paper_options("rouge-1"),
                             {"tokenize": "rouge-score", "empty_policy": empty_policy})
    return Entrant("some-rouge", "rouge-1", options, declared=declared)


def test_a_profile_that_refuses_an_empty_pair_is_expected_to_crash_where_one_is() -> None:
    assert _refused(entrant("error"), ReferenceScorer("rouge-1", CYRILLIC))


def test_nothing_is_expected_where_no_pair_is_empty_or_the_profile_scores_it() -> None:
    assert not _refused(entrant("error"), ReferenceScorer("rouge-1", ASCII))
    assert not _refused(entrant("zero"), ReferenceScorer("rouge-1", CYRILLIC))


def test_a_profile_nobody_declared_foresees_nothing() -> None:
    # a user's implementation without settings: its options are no promise
    assert not _refused(entrant("error", declared=False), ReferenceScorer("rouge-1", CYRILLIC))
    assert not _refused(attrs.evolve(entrant("error"), options=None),
                        ReferenceScorer("rouge-1", CYRILLIC))
