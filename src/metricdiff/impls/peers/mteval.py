"""NIST's ``mteval-v13a.pl``, the WMT scorer whose tokenization sacrebleu's
``13a`` imitates.  No package on PyPI, Debian or npm ships it (the Moses
repository does, and Moses is on no registry; PyPI's ``mteval`` is an unrelated
MT-evaluation library), so it is registered as unavailable, with the reason,
and ``metricdiff impls`` lists it that way.  Its profile is declared only as far
as it is documented (the 13a tokenizer): it has never run here.
"""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.impls.base import Adapter, References
from metricdiff.impls.declarations import Declared
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult


class MtevalV13aAdapter(Adapter[BleuOptions, BleuResult]):
    """mteval-v13a.pl: unavailable (no registry package ships it)."""

    name = "mteval-v13a"
    declared = Declared(
        profile={"tokenize": "13a"},
    )

    def version(self) -> str:
        return "not-installed"

    def unavailable_reason(self) -> str | None:
        return (
            f"{self.name}: no PyPI, Debian or npm package ships mteval-v13a.pl (only the "
            "Moses repository does); sacrebleu's default 13a tokenizer imitates it: "
            "use --impl sacrebleu"
        )

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)  # raises AdapterUnavailable
        raise AssertionError("unreachable: prepared() refuses an unavailable adapter")
