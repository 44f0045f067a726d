"""NLTK's BLEU (``nltk.translate.bleu_score``): ``corpus_bleu`` and ``sentence_bleu``.

NLTK scores lists of tokens, not text, so metricdiff tokenizes for it: every
``tokenize``, ``lowercase`` and ``lowercase_stage`` value goes through
``metricdiff.impls.text.tokenizers.preprocess`` (default ``tokenize=none``, a whitespace
split, which is what NLTK's documentation does with ``str.split()``).

Declared default profile, read from ``nltk/translate/bleu_score.py`` (3.10.4):

* ``max_order=4`` and ``weights`` = (0.25, 0.25, 0.25, 0.25); any weight vector
  works and its length is N.
* ``ref_length=closest`` with ties to the shorter (``closest_ref_length`` takes
  ``min`` over ``(abs(ref_len - hyp_len), ref_len)``).
* ``empty_order=denominator-one``: ``modified_precision`` returns
  ``max(1, count)`` as the denominator of each segment, before pooling.
* ``all_zero=zero``: ``corpus_bleu`` returns 0 when the pooled unigram numerator
  is 0, before any smoothing.
* ``smoothing=float-min``: ``SmoothingFunction().method0`` turns a zero precision
  into ``sys.float_info.min``, so the score is tiny but not 0.
* ``level=corpus``, ``empty_reference=length-zero`` (an empty string is an empty
  token list that takes part in r), ``empty_policy=zero``.

The smoothing methods are ``SmoothingFunction(epsilon, alpha, k)`` with
``smooth_value`` as the one constant each method reads: ``floor`` is method1
(epsilon), ``add-k`` method2 (k is fixed at 1 and unigrams are left alone:
``smooth_orders=n>1``), ``exp`` method3, ``cc4`` method4 (k), ``cc5`` method5,
``cc6`` method6 (alpha) and ``cc7`` method7 (k).  ``empty_order=effective-order``
is NLTK's ``auto_reweigh``, which only acts on the default weights.

Quirks kept as they are, because they are NLTK's behaviour (findings, not bugs of
this adapter; see ``tests/known_findings.py``):

* ``corpus_bleu`` calls the smoothing function with the *last* segment's
  references and hypothesis, so methods 5-7 at corpus level look at that one
  segment (method5's extra order, method6's n-gram count); method5 always uses
  5-grams, whatever N is; method6 asserts that the trigram precision is non-zero.
* method4's smoothed count is 1 / (2^k K / ln c), not Chen & Cherry's
  1 / (K / ln c)^k, and with c <= 1 it leaves zero precisions at 0.
* the score skips every precision that is 0 (``if p_i > 0``), as if it were 1.
* ``auto_reweigh`` looks at the pooled hypothesis length (< 4) rather than at
  which orders are empty, and keeps the ``max(1, count)`` denominators.
* ``brevity_penalty`` is 0 for an empty hypothesis even against empty references
  (``elif c == 0: return 0``): declared ``empty_bp=zero``.

Result fields: ``score`` is what ``corpus_bleu`` / ``sentence_bleu`` return, x 100.
``counts``, ``totals``, ``sys_len``, ``ref_len`` and ``bp`` come from NLTK's own
``modified_precision``, ``closest_ref_length`` and ``brevity_penalty``, pooled as
``corpus_bleu`` pools them.  ``precisions`` are the smoothed precisions x 100,
obtained by making the same smoothing call ``corpus_bleu`` makes (the same
``Fraction`` list, the last segment, the pooled hypothesis length), since NLTK
does not return them; when ``corpus_bleu`` stops early (no unigram match) they are
the unsmoothed ones, all 0.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, Adapter, References, Tolerance
from metricdiff.impls.declarations import Declared, Package
from metricdiff.impls.segment_references import usable_bleu_references
from metricdiff.impls.text.tokenizers import preprocess
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult

#: metricdiff smoothing value -> NLTK SmoothingFunction method.
SMOOTHING_METHODS: dict[str, str] = {
    "float-min": "method0",
    "floor": "method1",
    "add-k": "method2",
    "exp": "method3",
    "cc4": "method4",
    "cc5": "method5",
    "cc6": "method6",
    "cc7": "method7",
}

#: The SmoothingFunction constructor argument that ``smooth_value`` sets.
_SMOOTH_PARAMETER: dict[str, str] = {
    "floor": "epsilon",
    "cc4": "k",
    "cc7": "k",
    "cc6": "alpha",
}

_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)

Tokens = list[str]


class NltkAdapter(Adapter[BleuOptions, BleuResult]):
    """NLTK's ``corpus_bleu`` with ``SmoothingFunction`` methods 0-7."""

    name = "nltk"
    package = Package(
        distribution="nltk",
        modules=("nltk", "nltk.translate.bleu_score"),
        extra="peers",
    )
    declared = Declared(
        # The departures from Papineni et al.'s profile (BleuOptions' defaults); every
        # axis not named here is at the paper's value.
        profile={
            "smoothing": "float-min",
            "empty_order": "denominator-one",
            "all_zero": "zero",
            "empty_bp": "zero",
        },
        settable={
            "tokenize": ANY,
            "lowercase": ANY,
            "lowercase_stage": ANY,
            "max_order": ANY,
            "weights": ANY,
            "smoothing": tuple(SMOOTHING_METHODS),
            "smooth_value": ANY,
            "empty_order": ("denominator-one", "effective-order"),
            "empty_reference": ("length-zero", "dropped"),
            "entities": ANY,
        },
        tolerance=Tolerance(
            absolute=1e-12, reason="its method0 turns a zero precision into "
            "sys.float_info.min, so where BLEU is 0 it gives a float of ~1e-76: no score on "
            "a 0-100 scale states anything below 1e-12"
        ),
    )

    def check(self, default: BleuOptions, options: BleuOptions) -> None:
        """The per-axis check, plus two combinations NLTK cannot honour: method2's
        k is fixed at 1, and ``auto_reweigh`` is ignored unless the weights are
        exactly (0.25, 0.25, 0.25, 0.25)."""
        super().check(default, options)
        if options.smoothing == "add-k" and options.smooth_value not in (None, 1.0):
            raise UnsupportedOption(
                f"nltk cannot honour smooth_value={options.smooth_value:g} with "
                "smoothing=add-k (method2 always adds 1)"
            )
        if (
            options.empty_order == "effective-order"
            and options.order_weights() != _DEFAULT_WEIGHTS
        ):
            raise UnsupportedOption(
                "nltk cannot honour empty_order=effective-order with these weights "
                "(auto_reweigh only acts on the default weights 0.25,0.25,0.25,0.25)"
            )

    def smoothing_function(self, options: BleuOptions) -> Callable[..., Any]:
        """The bound ``SmoothingFunction`` method the options select."""
        from nltk.translate.bleu_score import SmoothingFunction

        parameters: dict[str, float] = {}
        parameter = _SMOOTH_PARAMETER.get(options.smoothing)
        if parameter is not None and options.smooth_value is not None:
            parameters[parameter] = options.smooth_value
        smoother: Callable[..., Any] = getattr(
            SmoothingFunction(**parameters), SMOOTHING_METHODS[options.smoothing]
        )
        return smoother

    def arguments(self, options: BleuOptions) -> dict[str, Any]:
        """What ``corpus_bleu`` and ``sentence_bleu`` take besides the tokens."""
        return {
            "weights": options.order_weights(),
            "smoothing_function": self.smoothing_function(options),
            "auto_reweigh": options.empty_order == "effective-order",
        }

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)
        from nltk.translate.bleu_score import corpus_bleu

        hyp_tokens, ref_tokens = _tokens(hyps, refs, options)
        arguments = self.arguments(options)
        with _quiet():
            score = corpus_bleu(ref_tokens, hyp_tokens, **arguments)
            smoother = arguments["smoothing_function"]
            return _result(float(score), ref_tokens, hyp_tokens, options.max_order, smoother)

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> list[BleuResult]:
        """Each segment through ``sentence_bleu`` (which is ``corpus_bleu`` of one)."""
        self.prepared(metric, options)
        from nltk.translate.bleu_score import sentence_bleu

        hyp_tokens, ref_tokens = _tokens(hyps, refs, options)
        arguments = self.arguments(options)
        results = []
        with _quiet():
            for hyp, seg in zip(hyp_tokens, ref_tokens, strict=True):
                score = sentence_bleu(seg, hyp, **arguments)
                results.append(_result(float(score), [seg], [hyp], options.max_order,
                                       arguments["smoothing_function"]))
        return results


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """NLTK's method0 warns about every order without matches: not ours to show."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _tokens(
    hyps: Sequence[str], refs: References, options: BleuOptions
) -> tuple[list[Tokens], list[list[Tokens]]]:
    """Hypotheses and references as token lists.  ``None`` references are left
    out (NLTK has no "missing reference"), and so are empty strings with
    ``empty_reference=dropped``."""

    def tokens(text: str) -> Tokens:
        return preprocess(text, options.tokenize, options.lowercase, options.lowercase_stage,
                          options.entities)

    hyp_tokens = [tokens(hyp) for hyp in hyps]
    ref_tokens = [[tokens(ref) for ref in usable_bleu_references(seg, options)] for seg in refs]
    if len(hyp_tokens) != len(ref_tokens):
        raise ValueError(f"{len(hyp_tokens)} hypotheses but {len(ref_tokens)} reference sets")
    return hyp_tokens, ref_tokens


def _result(
    score: float,
    ref_tokens: list[list[Tokens]],
    hyp_tokens: list[Tokens],
    orders: int,
    smoother: Callable[..., Any],
) -> BleuResult:
    """The statistics behind an NLTK score, pooled as ``corpus_bleu`` pools them."""
    from nltk.translate.bleu_score import (
        Fraction,
        brevity_penalty,
        closest_ref_length,
        modified_precision,
    )

    numerators = [0] * orders
    denominators = [0] * orders
    hyp_len = ref_len = 0
    for references, hypothesis in zip(ref_tokens, hyp_tokens, strict=True):
        for n in range(1, orders + 1):
            precision = modified_precision(references, hypothesis, n)
            numerators[n - 1] += precision.numerator
            denominators[n - 1] += precision.denominator
        hyp_len += len(hypothesis)
        ref_len += closest_ref_length(references, len(hypothesis))
    bp = brevity_penalty(ref_len, hyp_len)
    p_n = [Fraction(m, t, _normalize=False) for m, t in zip(numerators, denominators, strict=True)]
    if numerators[0] == 0:
        precisions = [float(p) for p in p_n]  # corpus_bleu returns before smoothing
    else:
        # The call corpus_bleu makes: the loop variables still hold the last segment.
        precisions = [
            float(p)
            for p in smoother(
                p_n, references=ref_tokens[-1], hypothesis=hyp_tokens[-1], hyp_len=hyp_len
            )
        ]
    return BleuResult(
        score=100.0 * score,
        precisions=tuple(100.0 * p for p in precisions),
        bp=float(bp),
        sys_len=hyp_len,
        ref_len=float(ref_len),
        counts=tuple(numerators),
        totals=tuple(denominators),
    )
