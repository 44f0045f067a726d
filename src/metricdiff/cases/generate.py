"""Generated audit cases aimed at the known failure classes of BLEU/ROUGE code.

Each failure **class** (``CLASS_NAMES``) is one recipe: a small vocabulary with
its traps, a way to build the hypothesis and a way to derive references from it
(mostly by perturbing the hypothesis, so that matches are common and scores sit
between 0 and 1, where implementations disagree).  A recipe is written once,
against the small ``Draw`` interface (``draws.py``), and runs in two ways:

* ``generate_cases(family, count, seed)`` drives it with ``random.Random`` seeded
  from ``(family, seed, index)``.  Only ``Random.random()`` is called, the one
  method Python guarantees to repeat across versions for the same seed, so the
  same arguments give the same cases in every process, whatever the hash seed,
  the Hypothesis version or the modules loaded.  Case ``i`` depends only on
  ``(family, seed, i)``: ``generate_case`` rebuilds one case from its location.
  (Hypothesis's own seeded generation, ``@seed`` with ``@given``, is not used: it
  mixes in constants collected from whichever local modules happen to be
  imported, so the same seed would give other cases under pytest than under the
  command line, and other cases again after a Hypothesis upgrade.)
* ``strategy_for(klass, family)`` turns it into a Hypothesis strategy, with each
  choice a Hypothesis draw (``integers``, ``sampled_from``, ``lists``), so
  ``hypothesis.find`` can shrink a disagreement within its class: lists shrink
  to fewer tokens, choices to the first (simplest) option, perturbations to none.

The recipes are in ``segments.py``, the perturbations that derive references in
``perturb.py``, the vocabularies and their traps in ``vocabulary.py``; this module
assembles cases from them.  The generator needs nothing but the standard library;
Hypothesis is imported only by ``strategy_for``.

In BLEU texts a segment is one line: no ``"\\n"`` ever appears.  In ROUGE texts a
``"\\n"`` separates the sentences of a segment (``files.py``) and appears on
purpose.  No text contains a backslash (ROUGE input files write a sentence break
as ``\\n``) or ends with ``"\\r"`` (a file line loses it).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import attrs

from metricdiff.cases.case import Case
from metricdiff.cases.draws import Draw, HypothesisDraw, RandomDraw
from metricdiff.cases.perturb import ref_count
from metricdiff.cases.segments import SEGMENTS
from metricdiff.profiles import metrics

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

FAMILIES = ("bleu", "rouge")

#: Every failure class, in the round-robin order of ``generate_cases``.
CLASS_NAMES: tuple[str, ...] = (
    "ascii-words",
    "punctuation-numbers",
    "case-traps",
    "scripts",
    "combining-nfc-nfd",
    "format-chars",
    "whitespace",
    "empty",
    "repeats",
    "short",
    "long",
    "multi-ref",
    "multi-sentence",
    "corpus",
)
#: Classes that only make sense for one family.
_ONLY_FOR = {"multi-sentence": "rouge"}


def classes_for(family: str) -> tuple[str, ...]:
    """The classes ``family`` (``bleu`` or ``rouge``) uses, in round-robin order."""
    _check_family(family)
    return tuple(name for name in CLASS_NAMES if _ONLY_FOR.get(name, family) == family)


# --------------------------------------------------------------------------------------
# Assembling the case


def _build(d: Draw, klass: str, family: str) -> Case:
    """One segment, or 2-4 for the ``corpus`` class, every segment with the same
    number of references."""
    if klass == "corpus":
        segment_classes = tuple(name for name in classes_for(family) if name != "corpus")
        n_refs = ref_count(d)
        segments = [SEGMENTS[d.choice(segment_classes)](d, family, n_refs)
                    for _ in range(d.integer(2, 4))]
        hyps = tuple(hyp for hyp, _ in segments)
        refs = tuple(seg_refs for _, seg_refs in segments)
    else:
        n_refs = d.integer(1, 4) if klass == "multi-ref" else ref_count(d)
        hyp, seg_refs = SEGMENTS[klass](d, family, n_refs)
        hyps, refs = (hyp,), (seg_refs,)
    return Case(hyps, refs, origin="generated", klass=klass, family=family)


def as_fixture(case: Case, metric: str, index: int) -> Case:
    """A generated case as a fixture case of ``metric``, without expectations.

    Its id is ``conv_generated_<class>_<index>``; its location and description are
    those ``generate_case`` gave it, or for a case drawn by Hypothesis
    ``generated:none:<index>`` and one that says so.
    """
    if metrics.family(metric) == "bleu" and any("\n" in text for text in case.texts()):
        raise ValueError(
            f"generated {case.klass} case {index} has sentence breaks, which BLEU "
            "segments cannot hold; draw it for the bleu family"
        )
    slug = case.klass.replace("-", "_")
    return attrs.evolve(
        case,
        id=f"conv_generated_{slug}_{index}",
        metric=metric,
        description=case.description or _description(case, "none", index),
        location=case.location or f"generated:none:{index}",
    )


def _description(case: Case, seed: str, index: int) -> str:
    drawn_for = f" for {case.family}" if case.family else ""
    return f"generated {case.klass} case{drawn_for}, seed {seed}, index {index}"


# --------------------------------------------------------------------------------------
# Public entry points


def _check_family(family: str) -> None:
    if family not in FAMILIES:
        raise ValueError(f"unknown metric family {family!r} (known: {', '.join(FAMILIES)})")


def _check_class(klass: str, family: str) -> None:
    _check_family(family)
    if klass not in CLASS_NAMES:
        raise ValueError(f"unknown case class {klass!r} (known: {', '.join(CLASS_NAMES)})")
    if klass not in classes_for(family):
        raise ValueError(f"case class {klass!r} is for {_ONLY_FOR[klass]} only, not {family}")


def _rng(family: str, seed: int, index: int) -> random.Random:
    key = f"metricdiff.generate:{family}:{seed}:{index}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest(), "big"))


def generate_case(family: str, seed: int, index: int) -> Case:
    """Case ``index`` of ``generate_cases(family, count, seed)`` for any larger count,
    rebuilt on its own: its id is ``gen_<seed>_<index>``, its location
    ``generated:<seed>:<index>``."""
    _check_family(family)
    names = classes_for(family)
    klass = names[index % len(names)]
    case = _build(RandomDraw(_rng(family, seed, index)), klass, family)
    return attrs.evolve(case, id=f"gen_{seed}_{index}", location=f"generated:{seed}:{index}",
                        description=_description(case, str(seed), index))


#: ``progress`` is called after every this many cases generated.
PROGRESS_EVERY = 10_000


def generate_cases(family: str, count: int, seed: int,
                   progress: Callable[[int], None] | None = None) -> list[Case]:
    """``count`` cases for ``family`` (``bleu`` or ``rouge``), the classes taken in
    turn (``classes_for(family)``); the same arguments give the same list in every
    process, and a list is a prefix of every longer one with the same seed.
    ``progress(done)`` is called every ``PROGRESS_EVERY`` cases: a million take
    about a minute."""
    _check_family(family)
    if count < 0:
        raise ValueError(f"count must not be negative, not {count}")
    cases = []
    for index in range(count):
        cases.append(generate_case(family, seed, index))
        if progress is not None and (index + 1) % PROGRESS_EVERY == 0:
            progress(index + 1)
    return cases


@cache
def strategy_for(klass: str, family: str) -> SearchStrategy[Case]:
    """The Hypothesis strategy of one class, for ``hypothesis.find`` or ``@given``:
    it draws the cases ``generate_cases`` makes for the class, and shrinks towards
    fewer and plainer tokens and fewer perturbations."""
    _check_class(klass, family)
    from hypothesis import strategies as st

    @st.composite
    def cases(draw: DrawFn) -> Case:
        return _build(HypothesisDraw(draw), klass, family)

    return cases()


def _class_strategy(klass: str) -> Callable[[str], SearchStrategy[Case]]:
    def strategy(family: str) -> SearchStrategy[Case]:
        return strategy_for(klass, family)

    strategy.__name__ = f"strategy_{klass.replace('-', '_')}"
    return strategy


#: Each class's strategy, taking the family (``bleu`` or ``rouge``).
CLASSES: dict[str, Callable[[str], SearchStrategy[Case]]] = {
    name: _class_strategy(name) for name in CLASS_NAMES
}
