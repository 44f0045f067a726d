"""bleuscore's BLEU (PyPI ``bleuscore``, a Rust port of Hugging Face
``evaluate``'s ``bleu``, itself the TensorFlow NMT ``compute_bleu``).

Declared default profile, read from the type stubs ``bleuscore/__init__.pyi``
(0.2.0) and checked against direct calls (tests/impls/peers/test_bleuscore.py):

* ``tokenize=13a-white-space``: ``compute`` runs its own ``tokenizer_13a`` on
  every line (HF's copy of sacrebleu's 13a, in Rust); there is no switch, so the
  axis is fixed.  Its last step is Rust's ``split_whitespace``, which leaves
  U+001C..U+001F inside tokens where ``str.split()`` cuts: that is the
  difference from ``13a``, found by the audit.
* ``ref_length=shortest`` (``ref_len_method="shortest"``, HF's choice);
  ``closest`` (``"closest"``, ties to the shorter) can be set.
* ``smoothing=none``; ``smooth=True`` adds 1 to the matches and the totals of
  every order, unigrams included: ``add-k`` with k = 1 and ``smooth_orders=all``.
  An order without n-grams then has precision (0 + 1) / (0 + 1) = 1, as the
  reference's add-k gives it.
* Without smoothing an order without n-grams has precision 0 and the score is 0
  (``if min(precisions) > 0``): ``empty_order=zero``, ``all_zero=smooth``.
* ``level=corpus``, ``empty_reference=length-zero``.

``compute`` returns the score on 0-1, the (smoothed) precisions, the brevity
penalty and the pooled lengths, but not the match counts and totals: those are
marked ``unknown`` in the result rather than recomputed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, Adapter, References
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult

#: What ``compute`` does not report.
_UNREPORTED = frozenset({"counts", "totals"})


class BleuscoreAdapter(Adapter[BleuOptions, BleuResult]):
    """bleuscore's ``compute``: corpus BLEU with HF's 13a tokenizer, the shortest
    reference length and optional add-one smoothing of every order."""

    name = "bleuscore"
    package = Package(
        distribution="bleuscore",
        modules=("bleuscore",),
        extra="peers",
    )
    declared = Declared(
        profile={
            "tokenize": "13a-white-space",
            "ref_length": "shortest",
        },
        settable={
            "max_order": ANY,
            "ref_length": ("shortest", "closest"),
            "smoothing": ("none", "add-k"),
            "smooth_value": ("1",),
            "smooth_orders": ("all",),
        },
    )

    def check(self, default: BleuOptions, options: BleuOptions) -> None:
        """The per-axis check, plus: ``smooth=True`` is add-one on every order."""
        super().check(default, options)
        if options.smoothing == "add-k" and (
            options.smooth_orders != "all" or options.smooth_value not in (None, 1.0)
        ):
            raise UnsupportedOption(
                "bleuscore cannot honour smoothing=add-k unless smooth_orders=all and "
                "smooth_value=1 (smooth=True adds 1 to every order, unigrams included)"
            )

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)
        import bleuscore

        result: dict[str, Any] = bleuscore.compute(  # its stubs type every value alike
            [usable_bleu_references(seg, options) for seg in refs],
            list(hyps),
            max_order=options.max_order,
            smooth=options.smoothing == "add-k",
            ref_len_method="closest" if options.ref_length == "closest" else "shortest",
        )
        return BleuResult(
            score=100.0 * float(result["bleu"]),
            precisions=tuple(100.0 * float(p) for p in result["precisions"]),
            bp=float(result["brevity_penalty"]),
            sys_len=int(result["translation_length"]),
            ref_len=float(result["reference_length"]),
            counts=(),
            totals=(),
            unknown=_UNREPORTED,
        )
