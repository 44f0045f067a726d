"""What the ROUGE adapters share: the base class, reference handling, the text
pipeline that a library's tokenizer hook is given, and small helpers.

Conventions every ROUGE adapter follows:

* A segment's references: ``None`` marks a missing one and is dropped; a segment
  left with none is scored against one empty reference, as the reference
  implementation does (``segment_references.usable_rouge_references``).  What the
  library makes of that empty reference is its own behaviour and is not hidden.
* The text axes (``tokenize``, ``lowercase``, ``lowercase_stage``, ``stopwords``,
  ``stemmer``, ``stem_min_length``) are honoured through the library's own
  tokenizer hook where it has one: the hook runs ``text_pipeline`` (metricdiff's
  tokenizer, then stopword removal, then stemming of tokens longer than
  ``stem_min_length``).  With the declared text axes the library's own
  tokenization runs and no hook is passed.
* Scores are on 0-1.  ``matches``/``hyp_total``/``ref_total`` come from the
  library where it exposes them, else from its own internal functions; a
  corpus result carries the sums over its segments, as the reference's does.
* Library calls get the input as it is; whatever a library raises is raised.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

import attrs

from metricdiff.errors import AdapterUnavailable, PeerNotInstalled, UnsupportedOption
from metricdiff.impls.base import ANY, Adapter, Cases, References
from metricdiff.impls.declarations import INSTALL_PEERS, Declared, Isolated
from metricdiff.impls.peers import _isolated
from metricdiff.impls.reference import resample
from metricdiff.impls.segment_references import usable_rouge_references
from metricdiff.impls.text.tokenizers import preprocess
from metricdiff.profiles.metrics import family
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult, summed_counts

#: The axes a tokenizer hook can honour.
TEXT_AXES = ("tokenize", "lowercase", "lowercase_stage", "stopwords", "stemmer",
             "stem_min_length")

#: rouge-1 .. rouge-9.
ROUGE_N_METRICS = tuple(f"rouge-{n}" for n in range(1, 10))

Tokenize = Callable[[str], list[str]]


class Matching(Collection[str]):
    """A ``settable`` entry accepting every value that ``accepts`` says yes to;
    it prints as ``description`` in refusals."""

    def __init__(self, description: str, accepts: Callable[[str], bool]) -> None:
        self.description = description
        self.accepts = accepts

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and self.accepts(value)

    def __iter__(self) -> Iterator[str]:
        return iter((self.description,))

    def __len__(self) -> int:
        return 1


#: Any ``f_measure=alpha=A`` (libraries with ROUGE-1.5.5's alpha weighting).
ANY_ALPHA = Matching("alpha=A (any A in [0, 1])", lambda value: value.startswith("alpha="))


def alpha_of(f_measure: str) -> float:
    """The A of ROUGE-1.5.5's F = PR / ((1-A)P + AR) that an ``f_measure`` value
    means: ``alpha=A`` is A; ``beta=B`` is 1 / (1 + B^2), for which it equals
    (1 + B^2)PR / (R + B^2 P)."""
    name, _, number = f_measure.partition("=")
    value = float(number)
    return value if name == "alpha" else 1.0 / (1.0 + value * value)


def macro(results: Sequence[RougeResult]) -> RougeResult:
    """``corpus_average=macro``: mean R, P and F; counts summed (no results: 0)."""
    if not results:
        return RougeResult(0.0, 0.0, 0.0)
    return RougeResult(
        resample.mean([r.recall for r in results]),
        resample.mean([r.precision for r in results]),
        resample.mean([r.fmeasure for r in results]),
        *summed_counts(results),
    )


def text_axes_are(options: RougeOptions, **values: Any) -> bool:
    """Whether the text axes of ``options`` have exactly ``values`` (axes not
    named must be at their paper value: no stopwords, stem_min_length 3)."""
    wanted = {"stopwords": "none", "stem_min_length": 3, **values}
    return all(getattr(options, axis) == value for axis, value in wanted.items())


@cache
def _stopwords(name: str) -> frozenset[str]:
    from metricdiff.impls.text.stopwords import stopword_set

    return stopword_set(name)


@cache
def _stemmer(name: str) -> Callable[[str], str]:
    from metricdiff.impls.text.stemmers import get_stemmer

    return get_stemmer(name)


def lines(text: str) -> list[str]:
    """A segment's sentences as metricdiff marks them (``"\\n"``), empty ones
    dropped; a text without a line break is one piece."""
    if "\n" not in text:
        return [text]
    return [line for line in text.split("\n") if line]


def text_pipeline(options: RougeOptions) -> Tokenize:
    """One text (a sentence, or a whole segment) to tokens as the text axes say:
    tokenize each of its lines with case folding (a line break separates tokens
    whatever the tokenizer, as in the reference), drop stopwords, stem tokens
    longer than ``stem_min_length``."""
    stop = _stopwords(options.stopwords)
    stem = None if options.stemmer == "none" else _stemmer(options.stemmer)
    shortest = options.stem_min_length

    def tokenize(text: str) -> list[str]:
        tokens = [
            token
            for line in lines(text)
            for token in preprocess(line, options.tokenize, options.lowercase,
                                    options.lowercase_stage)
        ]
        if stop:
            tokens = [token for token in tokens if token not in stop]
        if stem is not None:
            tokens = [stem(token) if len(token) > shortest else token for token in tokens]
        return tokens

    return tokenize


_PERIOD = re.compile(r"(?<=\.)")


def split_period(text: str) -> list[str]:
    """``sentence_split=period``: after each '.', which stays with its sentence;
    empty pieces dropped (as the reference splits)."""
    return [piece for piece in _PERIOD.split(text) if piece]


@cache
def punkt_available() -> bool:
    """Whether NLTK and its punkt sentence model (``punkt_tab``, what
    ``nltk.sent_tokenize`` loads since NLTK 3.9) are installed; nothing is
    downloaded.  Asked once per process: adapters ask per call, and NLTK's
    search of its data folders costs about a millisecond each time."""
    try:
        import nltk
    except ImportError:
        return False
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        return False
    return True


def punkt_refusal(name: str, what: str) -> UnsupportedOption:
    return UnsupportedOption(
        f"{name}: {what} needs NLTK's punkt model, which is not installed here and is "
        f"not downloaded by metricdiff (python -m nltk.downloader punkt_tab)"
    )


#: The text-processing axes metricdiff applies before handing text to a peer that
#: scores pre-tokenized text: every such peer can take any value on them.
PREPROCESSING_SETTABLE: Mapping[str, Collection[str] | None] = {
    axis: ANY
    for axis in ("tokenize", "lowercase", "lowercase_stage", "stopwords", "stemmer",
                 "stem_min_length")
}


class PeerRougeAdapter(Adapter[RougeOptions, RougeResult]):
    """A peer's ROUGE: the declared profile is the paper's (RougeOptions'
    defaults) with the departures in ``profile``; ``variant`` and ``n`` come from
    the metric name.  ``metricdiff impls`` prints the profile on every axis."""

    family = "rouge"
    declared = Declared(metrics=())

    def default_options(self, metric: str) -> RougeOptions:
        """The declared profile for ``metric``.  For a ROUGE metric the peer lacks
        (``metricdiff impls`` asks every ROUGE peer about ``rouge-1``) it is the
        profile of the peer's first metric; ``options`` refuses such a metric."""
        if metric not in self.declared.metrics:
            if family(metric) != "rouge":
                self.check_metric(metric)
            metric = self.declared.metrics[0]
        return super().default_options(metric)

    def prepared(self, metric: str, options: RougeOptions) -> None:
        """Refuse what cannot run: what every adapter refuses, and whatever
        ``refuse`` adds."""
        super().prepared(metric, options)
        self.refuse(metric, options)

    def refuse(self, metric: str, options: RougeOptions) -> None:
        """Refusals that depend on this machine (data files) or on two axes."""

    def options(self, metric: str, overrides: Mapping[str, str] | None = None) -> RougeOptions:
        options = super().options(metric, overrides)
        self.refuse(metric, options)
        return options

    @staticmethod
    def segments(hyps: Sequence[str], refs: References) -> list[tuple[str, list[str]]]:
        hyps, refs = list(hyps), list(refs)
        if len(hyps) != len(refs):
            raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
        return [(hyp, usable_rouge_references(seg)) for hyp, seg in zip(hyps, refs, strict=True)]


class IsolatedPeerAdapter(PeerRougeAdapter):
    """A ROUGE peer loaded by ``_isolated`` (see that module)."""

    # ``package.modules`` (checked by ``Adapter.unavailable_reason``) are the peer's
    # imports from the main environment; the peer itself is loaded by ``_isolated``
    # from the folder ``package.isolated`` names.

    @classmethod
    def isolated(cls) -> Isolated:
        """Its folder of its own (``package.isolated``)."""
        assert cls.package.isolated is not None, f"{cls.name} declares no folder of its own"
        return cls.package.isolated

    def package_version(self) -> str:
        try:
            return _isolated.locate(self.isolated())[1]
        except PeerNotInstalled:
            return "not-installed"

    def version(self) -> str:
        """The peer's version, with where it is loaded from and which ``rouge``
        package the main environment has (if any)."""
        try:
            _, version, from_main = _isolated.locate(self.isolated())
            where = "from the main environment" if from_main else "isolated"
        except PeerNotInstalled:
            version, where = "not-installed", "isolated"
        package = self.isolated().package
        owner = _isolated.main_env_owner(package)
        main = f"main env's {package!r}: {owner}" if owner else f"no {package!r} in main env"
        return f"{version} ({where}; {main})"

    def signature(self, metric: str, options: RougeOptions) -> str:
        """Signatures carry the bare version: where it was loaded from is not a
        convention."""
        from metricdiff.profiles import signature

        return signature(metric, f"{self.name}-{self.package_version()}", options)

    def score_cases(self, metric: str, cases: Cases,
                    options: RougeOptions) -> list[RougeResult | BaseException]:
        """Each case as ``corpus_score`` scores it, with the peer's modules swapped
        in once for the batch (``_isolated.active`` is re-entrant) rather than
        once per case; a peer that cannot load fails case by case, as alone."""
        if self.unavailable_reason() is not None:
            return super().score_cases(metric, cases, options)
        with _isolated.active(self.isolated()):
            return super().score_cases(metric, cases, options)

    def unavailable_reason(self) -> str | None:
        """Whether the peer is installed (its folder and version), without loading
        it: a command choosing who takes part would otherwise import every peer
        in its own process (jury's Hugging Face stack alone takes seconds), and
        then again in the worker that runs it.  Loading is ``ensure_available``'s,
        in the worker that builds the adapter."""
        missing = super().unavailable_reason()
        if missing is not None:
            return missing
        try:
            _isolated.locate(self.isolated())
        except PeerNotInstalled as error:
            return f"{self.name}: {error}"
        return None

    def ensure_available(self) -> None:
        """Installed (``unavailable_reason``) and loadable: a broken install is
        ``AdapterUnavailable`` with the command that mends it."""
        super().ensure_available()
        try:
            _isolated.load(self.isolated())
        except PeerNotInstalled as error:
            raise AdapterUnavailable(f"{self.name}: {error}") from None
        except Exception as error:  # a broken install makes the peer unusable
            raise AdapterUnavailable(
                f"{self.name}: cannot load it ({error}); "
                f"reinstall: {INSTALL_PEERS} --force {self.name}"
            ) from None


def result(recall: Any, precision: Any, fmeasure: Any,
           counts: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> RougeResult:
    """A RougeResult from a library's numbers (ints, numpy or torch scalars)."""
    return RougeResult(float(recall), float(precision), float(fmeasure), *map(float, counts))


def with_counts(scores: RougeResult, counts: tuple[float, float, float]) -> RougeResult:
    return attrs.evolve(scores, matches=counts[0], hyp_total=counts[1], ref_total=counts[2])
