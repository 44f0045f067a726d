"""A case: hypotheses and, per segment, their references, with where they came from.

Every part of metricdiff that holds texts to score holds a ``Case``: a fixture
(``fixtures.py``), a line of the user's files or their whole corpus (``files.py``),
a generated case (``generate.py``), the audit's inputs and a lock's entries.  What
one role needs beyond the texts is a field with a default: a fixture's metric,
pinned options and expectations; a generated case's class and family; whether its
texts are lines of text files, with their escapes (``escapes.py``).

``Sample`` is the texts alone, ``(hyps, refs)`` as plain tuples: what an
implementation scores (``Adapter.score_cases``), what a worker process is sent, and
what the shrinker reduces (``findings/shrink.py``), where a case's name and origin
mean nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from metricdiff.cases.escapes import unescape_sentence_breaks
from metricdiff.errors import FixtureError
from metricdiff.profiles.metrics import family

#: Each segment's references, in order; ``None`` marks a missing reference
#: (``refs[i]``: the references of hypothesis i).  The one spelling of references
#: everywhere: a case, an implementation, the API.
References = Sequence[Sequence[str | None]]
#: References as a case holds them: tuples, so that a case can be hashed.
FrozenReferences = tuple[tuple[str | None, ...], ...]
#: A case's texts alone: its hypotheses and each segment's references.
Sample = tuple[tuple[str, ...], FrozenReferences]


def size(sample: Sample) -> int:
    """How big a case is, for picking the smallest example: its characters, and 10
    for each text (so that fewer texts count as smaller)."""
    hyps, refs = sample
    texts = [*hyps, *(ref or "" for segment in refs for ref in segment)]
    return sum(len(text) for text in texts) + 10 * len(texts)


def _hypotheses(hyps: Iterable[str]) -> tuple[str, ...]:
    return tuple(hyps)


def _references(refs: Iterable[Iterable[str | None]]) -> FrozenReferences:
    return tuple(tuple(segment) for segment in refs)


@attrs.frozen
class Expectation:
    """What one configuration of a fixture case must give.

    ``when`` holds axis overrides on top of the case's options; ``values`` the
    expected result fields (``score``, ``precisions``, ``bp``, ``counts``, ...);
    ``error`` a substring of the refusal a ``reject_`` case expects.
    """

    when: Mapping[str, str]
    values: Mapping[str, Any]
    source: str
    tolerance: float
    error: str | None = None


@attrs.frozen
class Case:
    """Hypotheses and each segment's references: ``refs[i]`` are those of ``hyps[i]``.

    ``Case(hyps, refs)`` takes any iterables (a list of hypotheses, a list of
    reference lists per segment) and keeps tuples.  The other fields say where the
    case came from, each empty when it does not apply:

    - ``id``: its name, unique among the cases of a run (``h.txt:3``,
      ``must_bleu_cat``, ``gen_0_7``);
    - ``origin``: ``fixture``, ``user`` or ``generated``;
    - ``klass``: the group it belongs to: a fixture's file, a user's file name, a
      generated case's failure class;
    - ``family``: the metric family it was written for, where that matters (a
      generated ROUGE case may hold sentence breaks, which BLEU segments cannot);
    - ``metric``, ``options``, ``expectations``: a fixture's metric, the axis values
      it pins and what each configuration must give;
    - ``description``, ``location``: what it is, and where (``file:line``) for
      error messages;
    - ``escaped``: its texts are lines of text files, where the escape ``\\n``
      separates the sentences of a ROUGE segment (``escapes.py``; ``for_metric``
      undoes it); False when they hold real line breaks already (JSONL).
    """

    hyps: tuple[str, ...] = attrs.field(converter=_hypotheses)
    refs: FrozenReferences = attrs.field(converter=_references)
    id: str = attrs.field(default="", kw_only=True)
    origin: str = attrs.field(default="", kw_only=True)
    klass: str = attrs.field(default="", kw_only=True)
    family: str = attrs.field(default="", kw_only=True)
    metric: str = attrs.field(default="", kw_only=True)
    # Mappings cannot be hashed; a case is hashed by everything else.
    options: Mapping[str, str] = attrs.field(factory=dict, kw_only=True, hash=False)
    expectations: tuple[Expectation, ...] = attrs.field(default=(), kw_only=True, hash=False)
    description: str = attrs.field(default="", kw_only=True)
    location: str = attrs.field(default="", kw_only=True)
    escaped: bool = attrs.field(default=False, kw_only=True)

    @property
    def sample(self) -> Sample:
        """The texts alone, as an implementation scores them."""
        return self.hyps, self.refs

    def texts(self) -> list[str]:
        """Every hypothesis and reference, in order (missing references left out)."""
        return [*self.hyps, *(ref for refs in self.refs for ref in refs if ref is not None)]

    def size(self) -> int:
        """How big the case is (``size``), for picking the smallest example."""
        return size(self.sample)

    @property
    def verdict_class(self) -> str:
        """A fixture's ``must``, ``conv`` or ``reject``, from its ID's prefix."""
        return self.id.split("_", 1)[0]

    def ref_streams(self) -> list[list[str | None]]:
        """References transposed to streams (one list per reference position), as
        the command line and sacrebleu take them; needs the same count per segment."""
        counts = {len(refs) for refs in self.refs}
        if len(counts) != 1:
            raise FixtureError(f"{self.location}: case {self.id} has varying reference counts")
        return [list(stream) for stream in zip(*self.refs, strict=True)]

    def for_metric(self, metric: str) -> Case:
        """The case as ``metric`` is given it: for ROUGE, the escapes of text-file
        lines undone (``unescape_sentence_breaks``), since summary-level ROUGE-L
        needs the sentences; for BLEU, a segment is one line and the texts stay as
        they are.  The case returned says its texts are final (``escaped`` off)."""
        if not self.escaped:
            return self
        if family(metric) != "rouge":
            return attrs.evolve(self, escaped=False)

        def unescape(text: str | None) -> str | None:
            return None if text is None else unescape_sentence_breaks(text)

        return attrs.evolve(
            self,
            hyps=tuple(unescape_sentence_breaks(text) for text in self.hyps),
            refs=tuple(tuple(unescape(ref) for ref in refs) for refs in self.refs),
            escaped=False,
        )
