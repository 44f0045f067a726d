"""The PyPI package ``bleu`` (0.3, Zhijing Jin's wrapper: ``bleu.list_bleu``),
registered so that ``metricdiff impls`` says why it cannot run.

``list_bleu(refs, hyp)`` writes the lines to files, runs Moses'
``detokenizer.perl -l en`` on each and scores them with Moses'
``multi-bleu-detok.perl`` (``detok=False``: ``multi-bleu.perl``).  It does not ship
those scripts: ``bleu/download.py`` fetches all three from GitHub into
``<tempdir>/tmp_bleu`` when the package is imported.  metricdiff runs without a
network (and its workers must not reach one), so the adapter is always
unavailable, with that reason.  Its dependency ``efficiency`` also pins pandas 3,
which vizseq's ``pandas<3`` excludes from the same environment.

What it would compute, read from the scripts: the detokenized text tokenized by
mteval-v13a's rules (``tokenize=13a``), closest reference length with ties to
the shorter, no smoothing, an order without n-grams making the score 0, the score
printed to 2 decimals.  Moses' detokenizer runs first, which no axis describes.
"""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.impls.base import Adapter, References
from metricdiff.impls.declarations import Declared, Package
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult

REASON = (
    "bleu: PyPI bleu 0.3 downloads Moses' detokenizer.perl and multi-bleu-detok.perl "
    "from GitHub when it is imported; metricdiff runs without network, and no registry "
    "package ships those two scripts (the nearest runnable peer: multi-bleu)"
)


class PypiBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """PyPI ``bleu``: Moses' detokenizer and multi-bleu-detok.perl; never runnable here."""

    name = "bleu"
    package = Package(
        distribution="bleu",
    )
    declared = Declared(
        profile={"tokenize": "13a"},
    )

    def unavailable_reason(self) -> str | None:
        return REASON

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)  # raises AdapterUnavailable with REASON
        raise AssertionError("unreachable: the adapter is never available")
