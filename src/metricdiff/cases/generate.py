"""Generated audit cases aimed at the known failure classes of BLEU/ROUGE code.

Each failure **class** (``CLASS_NAMES``) is one recipe: a small vocabulary with
its traps, a way to build the hypothesis and a way to derive references from it
(mostly by perturbing the hypothesis, so that matches are common and scores sit
between 0 and 1, where implementations disagree).  A recipe is written once,
against the small ``_Draw`` interface, and runs in two ways:

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

The generator needs nothing but the standard library; Hypothesis is imported
only by ``strategy_for``.

In BLEU texts a segment is one line: no ``"\\n"`` ever appears.  In ROUGE texts a
``"\\n"`` separates the sentences of a segment (``inputs.py``) and appears on
purpose.  No text contains a backslash (ROUGE input files write a sentence break
as ``\\n``) or ends with ``"\\r"`` (a file line loses it).
"""

from __future__ import annotations

import hashlib
import random
import string
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

import attrs

from metricdiff.cases import fixtures
from metricdiff.profiles import metrics

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

T = TypeVar("T")

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
# The generated case


@attrs.frozen
class GeneratedCase:
    """A drawn case: one segment, or 2–4 for the ``corpus`` class.

    ``refs[i]`` holds the references of ``hyps[i]``; every segment has the same
    number of references.  ``family`` is the family it was drawn for and ``seed``
    the seed of ``generate_cases`` (None for a case drawn by Hypothesis).
    """

    klass: str
    hyps: tuple[str, ...]
    refs: tuple[tuple[str, ...], ...]
    family: str | None = attrs.field(default=None, kw_only=True)
    seed: int | None = attrs.field(default=None, kw_only=True)

    def texts(self) -> list[str]:
        """Every hypothesis and reference, in order."""
        return [*self.hyps, *(ref for refs in self.refs for ref in refs)]

    def to_case(self, metric: str, index: int) -> fixtures.Case:
        """The case as a fixture ``Case`` for ``metric``, without expectations.

        Its id is ``conv_generated_<class>_<index>`` and its location
        ``generated:<seed>:<index>`` (``none`` for the seed of a Hypothesis draw).
        """
        family = metrics.family(metric)
        if family == "bleu" and any("\n" in text for text in self.texts()):
            raise ValueError(
                f"generated {self.klass} case {index} has sentence breaks, which BLEU "
                "segments cannot hold; draw it for the bleu family"
            )
        seed = "none" if self.seed is None else str(self.seed)
        slug = self.klass.replace("-", "_")
        drawn_for = f" for {self.family}" if self.family else ""
        return fixtures.Case(
            id=f"conv_generated_{slug}_{index}",
            metric=metric,
            hyps=self.hyps,
            refs=self.refs,
            options={},
            expectations=(),
            description=f"generated {self.klass} case{drawn_for}, seed {seed}, index {index}",
            location=f"generated:{seed}:{index}",
        )


# --------------------------------------------------------------------------------------
# The two ways to make choices


class _Draw(Protocol):
    """The choices a recipe makes; each shrinks towards its smallest value."""

    def integer(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi``; shrinks to ``lo``."""

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options``; shrinks to the first."""

    def chance(self, p: float) -> bool:
        """True with probability ``p``; shrinks to False."""

    def many(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        """``lo..hi`` items from ``options``; shrinks to fewer, earlier items."""


class _RandomDraw:
    """Choices from a seeded ``random.Random``, using only ``random()``."""

    def __init__(self, rng: random.Random) -> None:
        self._random = rng.random

    def integer(self, lo: int, hi: int) -> int:
        return lo + min(int(self._random() * (hi - lo + 1)), hi - lo)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.integer(0, len(options) - 1)]

    def chance(self, p: float) -> bool:
        return self._random() < p

    def many(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        return [self.choice(options) for _ in range(self.integer(lo, hi))]


class _HypothesisDraw:
    """Choices as Hypothesis draws, so that a failing case can be shrunk."""

    def __init__(self, draw: DrawFn) -> None:
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(_integers(lo, hi))

    def choice(self, options: Sequence[T]) -> T:
        strategy: SearchStrategy[T] = _sampled(tuple(options))
        return self._draw(strategy)

    def chance(self, p: float) -> bool:
        return self._draw(_integers(0, 99)) >= 100 - round(p * 100)

    def many(self, options: Sequence[T], lo: int, hi: int) -> list[T]:
        from hypothesis import strategies as st

        items: SearchStrategy[T] = _sampled(tuple(options))
        return self._draw(st.lists(items, min_size=lo, max_size=hi))


@lru_cache(maxsize=256)
def _integers(lo: int, hi: int) -> SearchStrategy[int]:
    from hypothesis import strategies as st

    return st.integers(lo, hi)


@lru_cache(maxsize=1024)
def _sampled(options: tuple[T, ...]) -> SearchStrategy[T]:
    from hypothesis import strategies as st

    return st.sampled_from(options)


# --------------------------------------------------------------------------------------
# Vocabularies.  Invisible, combining and compatibility characters are written as
# escapes, so that no editor or formatter can normalise them away.


def _nfc(*words: str) -> tuple[str, ...]:
    return tuple(unicodedata.normalize("NFC", word) for word in words)


#: The shared core: the first word is where shrinking ends up.
_WORDS = ("the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "park", "and", "it",
          "was", "big", "red", "in")
#: Inflected forms, for the stemmers.
_INFLECTED = ("cats", "running", "runs", "played", "playing", "parks", "quickly", "studies",
              "studied", "generously", "organization", "organizes", "happiness", "dogs")
_CAPITALISED = ("The", "Cat", "Dog", "John", "Paris", "NASA", "BLEU", "It")
_ASCII_VOCAB = _WORDS + _INFLECTED + _CAPITALISED

_PUNCT_TRAPS = (
    "2023.", "1,000", "$5.50", "state-of-the-art", '"', "'", "\u201c", "\u201d", "\u2018",
    "\u2019", "\u2014", "\u2013", "-", "--", "e.g.", "U.S.", "i.e.", "don't", "it's", "'s",
    "n't", "(", ")", "[", "]", "3.14", "50%", "10:30", "...", "\u2026", ",", ".", "!", "?",
    ";", ":", "a/b", "&", "#1", "@user", "C++", "co-op", "'90s", "1st", "-5", "+1", "1/2",
    "``", "''", "\u00bd", "\u00b2", "\u0663", "\u0967", "\uff11", "Mr.", "etc.", "p.m.",
    "www.example.com", "<b>", "&amp;", "2.",
)
_PUNCT_VARIANTS: dict[str, tuple[str, ...]] = {
    "\u201c": ('"', "``"),
    "\u201d": ('"', "''"),
    "\u2018": ("'", "`"),
    "\u2019": ("'",),
    "\u2014": ("--", "-", "\u2013"),
    "\u2013": ("-", "\u2014"),
    "\u2026": ("...", ". . ."),
    "...": ("\u2026",),
    "1,000": ("1000", "1 000", "1.000"),
    "$5.50": ("5.50", "$ 5.50", "$5.5"),
    "state-of-the-art": ("state of the art", "state-of-the art", "state\u2011of\u2011the\u2011art"),
    "co-op": ("coop", "co op", "co\u2010op"),
    "e.g.": ("eg", "e.g", "e. g."),
    "i.e.": ("ie", "i.e"),
    "U.S.": ("US", "U.S", "U. S."),
    "2023.": ("2023", "2023 ."),
    "don't": ("do not", "do n't", "dont", "don\u2019t"),
    "it's": ("it 's", "its", "it\u2019s"),
    "50%": ("50 %", "50 percent"),
    "3.14": ("3,14", "3 . 14"),
    "10:30": ("10.30", "10 : 30"),
    '"': ("\u201c", "\u201d", "''"),
    "'": ("\u2019", "`"),
    "-": ("\u2010", "\u2212", "\u2013"),
    "``": ('"',),
    "''": ('"',),
}
#: What the ``punct`` perturbation glues to a word or puts beside it.
_ATTACH = (".", ",", "!", "?", ";", ":", '"', "'", "\u201d", "\u201c", ")", "(", "'s", "...",
           "\u2026", "-", "\u2014")

_CASE_TRAPS = (
    "\u0130stanbul",  # İstanbul: lower() gives i + combining dot, one code point more
    "\u0130",  # İ
    "\u0131",  # dotless ı
    "I",
    "\u212a",  # Kelvin sign K: lower() is ASCII k, NFKC is K
    "5\u212a",
    "Stra\u00dfe",  # Straße: upper() is STRASSE, longer
    "\u00df",  # ß
    "\u1e9e",  # capital sharp s ẞ
    "STRASSE",
    "\ufb01le",  # ﬁle ligature: upper() is FILE, NFKC is file
    "\ufb00",  # ﬀ
    "file",
    "\u039f\u0394\u039f\u03a3",  # ΟΔΟΣ: lower() ends in final sigma ς
    "\u03bf\u03b4\u03cc\u03c2",  # οδός
    "\u03c3",  # σ
    "\u03c2",  # ς
    "\u03a3",  # Σ
    "\u01c5",  # ǅ titlecase digraph
    "\u01c4",  # Ǆ
    "\u0149",  # ŉ: upper() is two code points
    "\u01f0",  # ǰ: upper() is J + combining caron
    "\u2160",  # Roman numeral one Ⅰ
    "\u24b6",  # circled A Ⓐ
    "Cat", "CAT", "cAt", "McDonald", "iPhone", "NASA", "THE",
)
_CASE_VARIANTS: dict[str, tuple[str, ...]] = {
    "\u0130stanbul": ("istanbul", "Istanbul", "ISTANBUL", "i\u0307stanbul", "\u0131stanbul"),
    "\u0130": ("i", "I", "i\u0307"),
    "\u0131": ("i", "I"),
    "\u212a": ("K", "k"),
    "5\u212a": ("5K", "5k"),
    "Stra\u00dfe": ("STRASSE", "strasse", "Strasse", "STRA\u1e9eE"),
    "\u00df": ("ss", "SS", "\u1e9e"),
    "\ufb01le": ("file", "FILE", "fi le"),
    "\ufb00": ("ff", "FF"),
    "\u039f\u0394\u039f\u03a3": ("\u03bf\u03b4\u03bf\u03c2", "\u03bf\u03b4\u03bf\u03c3",
                                 "\u039f\u0394\u038c\u03a3"),
    "\u03c2": ("\u03c3", "\u03a3"),
    "\u01c5": ("\u01c4", "\u01c6", "Dz\u030c"),
    "\u2160": ("I", "\u2170"),
}
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_ASCII_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_CASE_TRANSFORMS: dict[str, Callable[[str], str]] = {
    "lower": str.lower,
    "upper": str.upper,
    "title": str.title,
    "capitalize": str.capitalize,
    "casefold": str.casefold,
    "swapcase": str.swapcase,
    "ascii-lower": lambda text: text.translate(_ASCII_LOWER),
    "ascii-upper": lambda text: text.translate(_ASCII_UPPER),
}
_CASE_NAMES = tuple(_CASE_TRANSFORMS)

#: (tokens, whether the script separates words by spaces).
_SCRIPT_GROUPS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (_nfc("caf\u00e9", "na\u00efve", "\u00fcber", "se\u00f1or", "fa\u00e7ade", "\u00d8rsted",
          "\u0141\u00f3d\u017a", "\u017c\u00f3\u0142w", "cr\u00e8me", "br\u00fbl\u00e9e",
          "Z\u00fcrich", "S\u00e3o", "Vi\u1ec7t", "\u00c9cole"), True),
    (("\u043a\u043e\u0448\u043a\u0430", "\u0441\u0438\u0434\u0435\u043b\u0430", "\u043d\u0430",
      "\u043a\u043e\u0432\u0440\u0438\u043a\u0435", "\u041c\u043e\u0441\u043a\u0432\u0430",
      "\u0438", "\u0441\u043e\u0431\u0430\u043a\u0430", "\u041a\u041e\u0428\u041a\u0410",
      "\u0451\u043b\u043a\u0430"), True),
    (("\u03b7", "\u03b3\u03ac\u03c4\u03b1", "\u03ba\u03ac\u03b8\u03b9\u03c3\u03b5",
      "\u03c3\u03c4\u03bf", "\u03c7\u03b1\u03bb\u03af", "\u0391\u03b8\u03ae\u03bd\u03b1",
      "\u0393\u0386\u03a4\u0391", "\u03bb\u03cc\u03b3\u03bf\u03c2"), True),
    (("\uace0\uc591\uc774\uac00", "\ub9e4\ud2b8", "\uc704\uc5d0", "\uc549\uc558\ub2e4",
      "\uace0\uc591\uc774", "\uac1c\uac00", "\uacf5\uc6d0\uc5d0\uc11c",
      "\ub6f0\uc5c8\ub2e4"), True),
    (("\u732b\u304c", "\u30de\u30c3\u30c8\u306e", "\u4e0a\u306b", "\u5ea7\u3063\u305f",
      "\u306d\u3053", "\u72ac", "\u306f", "\u516c\u5712\u3067", "\u8d70\u3063\u305f",
      "\u3002", "\uff76\uff80\uff76\uff85"), False),
    (("\u732b", "\u5750\u5728", "\u57ab\u5b50", "\u4e0a", "\u72d7", "\u5728", "\u516c\u56ed",
      "\u91cc", "\u8dd1", "\u3002", "\uff0c", "\u6211\u4eec", "\u4e2d\u56fd"), False),
    (("\u0627\u0644\u0642\u0637", "\u062c\u0644\u0633", "\u05d7\u05ea\u05d5\u05dc",
      "\u0936\u092c\u094d\u0926", "\u092c\u093f\u0932\u094d\u0932\u0940"), True),
    (("\u0e41\u0e21\u0e27", "\u0e19\u0e31\u0e48\u0e07", "\u0e1a\u0e19",
      "\u0e40\u0e2a\u0e37\u0e48\u0e2d"), False),
    (("\U0001f431", "\U0001f44d\U0001f3fd", "\U0001f468\u200d\U0001f469\u200d\U0001f467",
      "\U0001f1eb\U0001f1f7", "\u2764\ufe0f", "\uff23\uff21\uff34", "\uff11\uff12\uff13",
      "\U0001d41c\U0001d41a\U0001d42d"), True),
)

#: Words whose NFC and NFD (or NFKC) forms differ, and marks that never compose.
_COMBINING_WORDS = (
    *_nfc("caf\u00e9", "na\u00efve", "r\u00e9sum\u00e9", "\u00c5ngstr\u00f6m", "\u00fcber",
          "S\u00e3o", "Vi\u1ec7t", "Nguy\u1ec5n", "jalape\u00f1o", "\u00e9t\u00e9"),
    "\ud55c\uad6d\uc5b4",  # 한국어: NFD splits each syllable into jamo
    "\u304c",  # が: NFD is か + combining voiced mark
    "\u30dd",  # ポ
    "cafe\u0301",  # café already decomposed
    "e\u0301\u0323",  # marks in non-canonical order
    "x\u0304",  # no precomposed form: NFC and NFD agree
    "\u0301a",  # a token starting with a combining mark
    "a\u0308\u0308",  # stacked marks
    "\u2126",  # Ohm sign: NFC makes it Greek Omega
    "\u212b",  # Angstrom sign: NFC makes it Å
    "\ufb01",  # ﬁ: only NFKC changes it
    "\u00bd",  # ½: NFKD is 1⁄2
)
_Form = Literal["NFC", "NFD", "NFKC", "NFKD"]
_FORMS: tuple[_Form | Literal["keep"], ...] = ("keep", "NFD", "NFC", "NFKC", "NFKD")
_COMPOSED_FORMS: tuple[_Form, ...] = ("NFC", "NFKC", "NFKD")

_FORMAT_CHARS = (
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner
    "\u200d",  # zero-width joiner
    "\u2060",  # word joiner
    "\u00ad",  # soft hyphen
    "\ufeff",  # BOM / zero-width no-break space
    "\u200e",  # left-to-right mark
    "\u200f",  # right-to-left mark
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",  # bidi embeddings and overrides
    "\u2066", "\u2067", "\u2068", "\u2069",  # bidi isolates
    "\u061c",  # Arabic letter mark
    "\u180e",  # Mongolian vowel separator (whitespace before Unicode 6.3)
    "\ufe0f",  # variation selector 16
    "\u034f",  # combining grapheme joiner
    "\u2062",  # invisible times
)

#: Separators between words; the first is the plain space shrinking ends at.
_WS_SEPARATORS = (
    " ", "  ", "\t", " \t", "   ", "\u00a0", "\u2009", "\u200a", "\u2002", "\u2003", "\u202f",
    "\u205f", "\u3000", "\u1680",
    "\r",  # half a CRLF
    "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029",
)
_ROUGE_LINE_BREAKS = ("\n", "\r\n", " \n ", "\n\n", "\n\t")
#: Before the first or after the last word (never a final "\r": a file line loses it).
_WS_EDGES = ("", " ", "  ", "\t", "\u00a0", "\u3000", " \t", "\u2028")

_EMPTYISH = ("", " ", "  ", "\t", "\u00a0", "\u3000", "\u200b", "\ufeff", ".", "\u2026", " . ",
             "!!", "-", "\u00ad")
_ROUGE_EMPTYISH = ("\n", " \n ", "\n\n")

_SENTENCE_BREAKS = ("\n", "\n", "\n", "\n\n", " \n", "\n ", "\r\n")


# --------------------------------------------------------------------------------------
# Perturbations: how a reference is made from the hypothesis


_Variants = dict[str, tuple[str, ...]]
_Op = Callable[[_Draw, list[str], Sequence[str], _Variants], list[str]]


def _op_replace(d: _Draw, tokens: list[str], pool: Sequence[str], _: _Variants) -> list[str]:
    if tokens:
        tokens[d.integer(0, len(tokens) - 1)] = d.choice(pool)
    return tokens


def _op_drop(d: _Draw, tokens: list[str], pool: Sequence[str], _: _Variants) -> list[str]:
    if tokens:
        del tokens[d.integer(0, len(tokens) - 1)]
    return tokens


def _op_insert(d: _Draw, tokens: list[str], pool: Sequence[str], _: _Variants) -> list[str]:
    tokens.insert(d.integer(0, len(tokens)), d.choice(pool))
    return tokens


def _op_swap(d: _Draw, tokens: list[str], pool: Sequence[str], _: _Variants) -> list[str]:
    if len(tokens) >= 2:
        i = d.integer(0, len(tokens) - 2)
        tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
    return tokens


def _op_duplicate(d: _Draw, tokens: list[str], pool: Sequence[str], _: _Variants) -> list[str]:
    if tokens:
        i = d.integer(0, len(tokens) - 1)
        tokens.insert(i, tokens[i])
    return tokens


def _op_recase(d: _Draw, tokens: list[str], pool: Sequence[str], _: _Variants) -> list[str]:
    if tokens:
        i = d.integer(0, len(tokens) - 1)
        tokens[i] = _CASE_TRANSFORMS[d.choice(_CASE_NAMES)](tokens[i])
    return tokens


def _op_variant(d: _Draw, tokens: list[str], pool: Sequence[str], variants: _Variants) -> list[str]:
    candidates = [i for i, token in enumerate(tokens) if token in variants]
    if candidates:
        i = d.choice(candidates)
        tokens[i] = d.choice(variants[tokens[i]])
    return tokens


def _op_punct(d: _Draw, tokens: list[str], pool: Sequence[str], _: _Variants) -> list[str]:
    if tokens:
        i = d.integer(0, len(tokens) - 1)
        mark = d.choice(_ATTACH)
        where = d.choice(("end", "apart", "start"))
        if where == "end":
            tokens[i] += mark
        elif where == "start":
            tokens[i] = mark + tokens[i]
        else:
            tokens.insert(i + 1, mark)
    return tokens


_OPS: dict[str, _Op] = {
    "replace": _op_replace,
    "drop": _op_drop,
    "insert": _op_insert,
    "swap": _op_swap,
    "duplicate": _op_duplicate,
    "recase": _op_recase,
    "variant": _op_variant,
    "punct": _op_punct,
}
_WORD_OPS = ("replace", "drop", "insert", "swap", "duplicate", "recase", "punct")
_EDIT_OPS = ("replace", "drop", "insert", "swap")
_VARIANT_OPS = ("variant", "replace", "drop", "insert", "swap", "recase", "variant", "punct")
_CASE_OPS = ("recase", "variant", "replace", "drop", "swap", "recase", "variant")


def _perturb(
    d: _Draw,
    tokens: Sequence[str],
    pool: Sequence[str],
    *,
    max_ops: int,
    min_ops: int = 0,
    ops: Sequence[str] = _WORD_OPS,
    variants: _Variants | None = None,
) -> list[str]:
    """``tokens`` after min_ops..max_ops perturbations."""
    out = list(tokens)
    for _ in range(d.integer(min_ops, max_ops)):
        out = _OPS[d.choice(ops)](d, out, pool, variants or {})
    return out


def _reference(
    d: _Draw,
    hyp: Sequence[str],
    pool: Sequence[str],
    *,
    lo: int,
    hi: int,
    max_ops: int = 4,
    ops: Sequence[str] = _WORD_OPS,
    variants: _Variants | None = None,
) -> list[str]:
    """A reference: mostly the hypothesis perturbed, sometimes drawn independently
    from the same small pool, sometimes the hypothesis itself (where shrinking
    ends)."""
    mode = d.choice(_REFERENCE_MODES)
    if mode == "copy":
        return list(hyp)
    if mode == "perturb":
        return _perturb(d, hyp, pool, min_ops=1, max_ops=max_ops, ops=ops, variants=variants)
    return d.many(pool, lo, hi)


_REFERENCE_MODES = ("copy", *("perturb",) * 5, "independent", "independent")


def _working(
    d: _Draw, common: Sequence[str], *, lo: int = 2, hi: int = 6,
) -> tuple[str, ...]:
    """A case's own small vocabulary, so that matches are common."""
    return tuple(d.many(common, lo, hi))


def _trap_working(
    d: _Draw, traps: Sequence[str], common: Sequence[str], *, traps_hi: int = 4,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """1..traps_hi traps, and the case's vocabulary: those traps and common words."""
    chosen = tuple(d.many(traps, 1, traps_hi))
    return chosen, chosen + _working(d, common)


def _ref_count(d: _Draw) -> int:
    return d.choice((1, 1, 1, 2, 3))


def _join(tokens: Sequence[str], separator: str = " ") -> str:
    return separator.join(tokens)


# --------------------------------------------------------------------------------------
# The classes.  Each builds one segment: (hypothesis, references).

_Segment = tuple[str, tuple[str, ...]]


def _simple(
    d: _Draw, n_refs: int, work: Sequence[str], *, lo: int = 1, hi: int = 12, max_ops: int = 4,
    ops: Sequence[str] = _WORD_OPS, variants: _Variants | None = None,
    traps: Sequence[str] = (),
) -> tuple[list[str], list[list[str]]]:
    """A hypothesis of lo..hi words from ``work`` (one of them from ``traps``, if
    given) and ``n_refs`` references."""
    if traps:
        hyp = d.many(work, max(0, lo - 1), hi - 1)
        hyp.insert(d.integer(0, len(hyp)), d.choice(traps))
    else:
        hyp = d.many(work, lo, hi)
    refs = [_reference(d, hyp, work, lo=lo, hi=hi, max_ops=max_ops, ops=ops, variants=variants)
            for _ in range(n_refs)]
    return hyp, refs


def _seg_ascii_words(d: _Draw, family: str, n_refs: int) -> _Segment:
    hyp, refs = _simple(d, n_refs, _working(d, _ASCII_VOCAB, hi=10))
    return _join(hyp), tuple(_join(ref) for ref in refs)


def _seg_punctuation(d: _Draw, family: str, n_refs: int) -> _Segment:
    traps, work = _trap_working(d, _PUNCT_TRAPS, _WORDS)
    hyp, refs = _simple(d, n_refs, work, ops=_VARIANT_OPS, variants=_PUNCT_VARIANTS,
                        traps=traps)
    return _join(hyp), tuple(_join(ref) for ref in refs)


def _seg_case(d: _Draw, family: str, n_refs: int) -> _Segment:
    traps, work = _trap_working(d, _CASE_TRAPS, _WORDS)
    hyp, refs = _simple(d, n_refs, work, ops=_CASE_OPS, variants=_CASE_VARIANTS,
                        traps=traps)

    def whole(text: str) -> str:
        transform = d.choice(("keep", "keep", "keep", *_CASE_NAMES))
        return text if transform == "keep" else _CASE_TRANSFORMS[transform](text)

    return whole(_join(hyp)), tuple(whole(_join(ref)) for ref in refs)


def _seg_scripts(d: _Draw, family: str, n_refs: int) -> _Segment:
    group, spaced = d.choice(_SCRIPT_GROUPS)
    native = tuple(d.many(group, 1, 6))
    work = native + _working(d, _WORDS, lo=0, hi=2)  # sometimes mixed with English
    separator = " " if spaced else d.choice((" ", ""))
    hyp, refs = _simple(d, n_refs, work, ops=(*_EDIT_OPS, "recase", "punct"), traps=native)
    return _join(hyp, separator), tuple(_join(ref, separator) for ref in refs)


def _forms(word: str) -> tuple[str, ...]:
    decomposed = unicodedata.normalize("NFD", word)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    others = (decomposed, *(unicodedata.normalize(form, word) for form in _COMPOSED_FORMS),
              stripped)
    return tuple(dict.fromkeys(form for form in others if form != word))


_COMBINING_VARIANTS: _Variants = {
    word: forms for word in _COMBINING_WORDS if (forms := _forms(word))
}


def _normalised(d: _Draw, text: str) -> str:
    form = d.choice(_FORMS)
    return text if form == "keep" else unicodedata.normalize(form, text)


def _seg_combining(d: _Draw, family: str, n_refs: int) -> _Segment:
    traps, work = _trap_working(d, _COMBINING_WORDS, _WORDS)
    hyp, refs = _simple(d, n_refs, work, ops=_VARIANT_OPS, variants=_COMBINING_VARIANTS,
                        traps=traps)
    return _normalised(d, _join(hyp)), tuple(_normalised(d, _join(ref)) for ref in refs)


def _with_format_chars(d: _Draw, text: str) -> str:
    for _ in range(d.integer(1, 3)):
        char = d.choice(_FORMAT_CHARS)
        if d.choice(("insert", "replace-space")) == "replace-space" and " " in text:
            spaces = [i for i, ch in enumerate(text) if ch == " "]
            i = d.choice(spaces)
            text = text[:i] + char + text[i + 1:]
        else:
            i = d.integer(0, len(text))
            text = text[:i] + char + text[i:]
    return text


def _seg_format(d: _Draw, family: str, n_refs: int) -> _Segment:
    hyp, refs = _simple(d, n_refs, _working(d, _WORDS), hi=10, max_ops=2,
                           ops=_EDIT_OPS)
    target = d.choice(("hyp", "refs", "both"))
    hyp_text = _join(hyp)
    if target != "refs":
        hyp_text = _with_format_chars(d, hyp_text)
    ref_texts = tuple(_join(ref) for ref in refs)
    if target != "hyp":
        ref_texts = tuple(_with_format_chars(d, ref) if d.chance(0.7) or i == 0 else ref
                          for i, ref in enumerate(ref_texts))
    return hyp_text, ref_texts


def _ws_join(d: _Draw, family: str, tokens: Sequence[str]) -> str:
    separators = _WS_SEPARATORS + (_ROUGE_LINE_BREAKS if family == "rouge" else ())
    edges = _WS_EDGES + (("\n",) if family == "rouge" else ())
    pieces = [d.choice(edges) if d.chance(0.3) else ""]
    for i, token in enumerate(tokens):
        if i:
            pieces.append(d.choice(separators) if d.chance(0.35) else " ")
        pieces.append(token)
    pieces.append(d.choice(edges) if d.chance(0.3) else "")
    return "".join(pieces)


def _seg_whitespace(d: _Draw, family: str, n_refs: int) -> _Segment:
    hyp, refs = _simple(d, n_refs, _working(d, _WORDS), hi=10, max_ops=2,
                           ops=_EDIT_OPS)
    return _ws_join(d, family, hyp), tuple(_ws_join(d, family, ref) for ref in refs)


def _seg_empty(d: _Draw, family: str, n_refs: int) -> _Segment:
    emptyish = _EMPTYISH + (_ROUGE_EMPTYISH if family == "rouge" else ())
    work = _working(d, _WORDS, hi=4)

    def text() -> str | None:
        """An empty-looking text, or None for ordinary words."""
        return d.choice(emptyish) if d.chance(0.6) else None

    hyp, refs = text(), [text() for _ in range(n_refs)]
    if hyp is None and all(ref is None for ref in refs):
        hyp = ""  # at least one text must be empty-looking
    words = d.many(work, 1, 4)
    ref_texts = tuple(
        _join(_perturb(d, words, work, max_ops=2, ops=_EDIT_OPS)) if ref is None else ref
        for ref in refs
    )
    return _join(words) if hyp is None else hyp, ref_texts


def _seg_repeats(d: _Draw, family: str, n_refs: int) -> _Segment:
    work = _working(d, _WORDS, lo=1, hi=5)
    if d.choice(("runs", "pattern")) == "runs":
        base = d.many(work, 1, 3)
        hyp = d.many(base, 1, 11)
        hyp.insert(d.integer(0, len(hyp)), d.choice(hyp))  # at least one word twice
    else:
        pattern = d.many(work, 1, 3)
        hyp = pattern * d.integer(2, 5)
    refs = []
    for _ in range(n_refs):
        kind = d.choice(("some", "perturb", "independent"))
        if kind == "some":  # the repeated words fewer times: clipping decides
            ref = d.many(work, 1, 8)
            ref.insert(d.integer(0, len(ref)), d.choice(hyp))
        elif kind == "perturb":
            ref = _perturb(d, hyp, work, max_ops=4, ops=(*_EDIT_OPS, "duplicate"))
        else:
            ref = d.many(work, 1, 12)
        refs.append(ref)
    return _join(hyp), tuple(_join(ref) for ref in refs)


def _seg_short(d: _Draw, family: str, n_refs: int) -> _Segment:
    work = _working(d, (*_WORDS, ".", ","), hi=5)
    hyp = d.many(work, 0, 3)
    refs = [_reference(d, hyp, work, lo=0, hi=6, max_ops=3, ops=_EDIT_OPS)
            for _ in range(n_refs)]
    return _join(hyp), tuple(_join(ref) for ref in refs)


def _long_join(d: _Draw, family: str, tokens: Sequence[str]) -> str:
    """Words; for ROUGE sometimes with a sentence break after each period."""
    if family == "rouge" and d.chance(0.5):
        return " ".join(tokens).replace(" . ", " .\n").replace(". ", ".\n")
    return " ".join(tokens)


def _seg_long(d: _Draw, family: str, n_refs: int) -> _Segment:
    work = _working(d, (*_ASCII_VOCAB, ".", ",", "."), lo=5, hi=20)
    hyp = d.many(work, 80, 300)
    refs = [_reference(d, hyp, work, lo=80, hi=300, max_ops=40, ops=_WORD_OPS)
            for _ in range(n_refs)]
    return _long_join(d, family, hyp), tuple(_long_join(d, family, ref) for ref in refs)


def _with_length(d: _Draw, tokens: Sequence[str], pool: Sequence[str], length: int) -> list[str]:
    out = _perturb(d, tokens, pool, max_ops=3, ops=("replace", "swap"))
    while len(out) > length:
        del out[d.integer(0, len(out) - 1)]
    while len(out) < length:
        out.insert(d.integer(0, len(out)), d.choice(pool))
    return out


def _seg_multi_ref(d: _Draw, family: str, n_refs: int) -> _Segment:
    # Plain lowercase words only, so every tokenizer sees the same lengths and a
    # length tie stays a tie.
    work = _working(d, _WORDS + _INFLECTED, lo=3, hi=8)
    hyp = d.many(work, 1, 12)
    deltas = [d.choice((0, 1, -1, 2, -2, 3, -3, 5, -5)) for _ in range(n_refs)]
    if n_refs >= 2 and d.chance(0.5):  # one shorter and one longer, equally close
        k = d.integer(1, 3)
        pair = [k, -k] if d.chance(0.5) else [-k, k]
        at = d.integer(0, n_refs - 2)
        deltas[at:at + 2] = pair
    refs = [_with_length(d, hyp, work, max(0, len(hyp) + delta)) for delta in deltas]
    return _join(hyp), tuple(_join(ref) for ref in refs)


def _sentences_text(d: _Draw, sentences: Sequence[Sequence[str]]) -> str:
    lines = [_join(sentence) for sentence in sentences]
    text = lines[0] if lines else ""
    for line in lines[1:]:
        text += d.choice(_SENTENCE_BREAKS) + line
    return text


def _seg_multi_sentence(d: _Draw, family: str, n_refs: int) -> _Segment:
    work = _working(d, _ASCII_VOCAB, lo=3, hi=10)
    period = d.chance(0.5)
    hyp = [d.many(work, 1, 8) + (["."] if period else []) for _ in range(d.integer(2, 5))]
    refs = []
    for _ in range(n_refs):
        if d.choice(("perturb", "perturb", "independent")) == "independent":
            ref = [d.many(work, 1, 8) + (["."] if period else [])
                   for _ in range(d.integer(1, 5))]
        else:
            ref = [list(sentence) for sentence in hyp]
            for _ in range(d.integer(0, 3)):
                op = d.choice(("words", "swap", "merge", "split", "drop", "duplicate"))
                i = d.integer(0, len(ref) - 1)
                if op == "words":
                    ref[i] = _perturb(d, ref[i], work, max_ops=3, ops=_EDIT_OPS) or ref[i]
                elif op == "swap" and len(ref) >= 2:
                    j = d.integer(0, len(ref) - 1)
                    ref[i], ref[j] = ref[j], ref[i]
                elif op == "merge" and i + 1 < len(ref):
                    ref[i:i + 2] = [ref[i] + ref[i + 1]]
                elif op == "split" and len(ref[i]) >= 2:
                    at = d.integer(1, len(ref[i]) - 1)
                    ref[i:i + 1] = [ref[i][:at], ref[i][at:]]
                elif op == "drop" and len(ref) >= 2:
                    del ref[i]
                elif op == "duplicate":
                    ref.insert(i, list(ref[i]))
        refs.append(ref)
    return _sentences_text(d, hyp), tuple(_sentences_text(d, ref) for ref in refs)


_SegmentBuilder = Callable[[_Draw, str, int], _Segment]
_SEGMENTS: dict[str, _SegmentBuilder] = {
    "ascii-words": _seg_ascii_words,
    "punctuation-numbers": _seg_punctuation,
    "case-traps": _seg_case,
    "scripts": _seg_scripts,
    "combining-nfc-nfd": _seg_combining,
    "format-chars": _seg_format,
    "whitespace": _seg_whitespace,
    "empty": _seg_empty,
    "repeats": _seg_repeats,
    "short": _seg_short,
    "long": _seg_long,
    "multi-ref": _seg_multi_ref,
    "multi-sentence": _seg_multi_sentence,
}


def _build(d: _Draw, klass: str, family: str) -> GeneratedCase:
    if klass == "corpus":
        segment_classes = tuple(name for name in classes_for(family) if name != "corpus")
        n_refs = _ref_count(d)
        segments = [_SEGMENTS[d.choice(segment_classes)](d, family, n_refs)
                    for _ in range(d.integer(2, 4))]
        hyps = tuple(hyp for hyp, _ in segments)
        refs = tuple(seg_refs for _, seg_refs in segments)
    else:
        n_refs = d.integer(1, 4) if klass == "multi-ref" else _ref_count(d)
        hyp, seg_refs = _SEGMENTS[klass](d, family, n_refs)
        hyps, refs = (hyp,), (seg_refs,)
    return GeneratedCase(klass, hyps, refs, family=family)


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


def generate_case(family: str, seed: int, index: int) -> GeneratedCase:
    """Case ``index`` of ``generate_cases(family, count, seed)`` for any larger count,
    rebuilt on its own (``generated:<seed>:<index>`` names it)."""
    _check_family(family)
    names = classes_for(family)
    klass = names[index % len(names)]
    case = _build(_RandomDraw(_rng(family, seed, index)), klass, family)
    return attrs.evolve(case, seed=seed)


def generate_cases(family: str, count: int, seed: int) -> list[GeneratedCase]:
    """``count`` cases for ``family`` (``bleu`` or ``rouge``), the classes taken in
    turn (``classes_for(family)``); the same arguments give the same list in every
    process, and a list is a prefix of every longer one with the same seed."""
    _check_family(family)
    if count < 0:
        raise ValueError(f"count must not be negative, not {count}")
    return [generate_case(family, seed, index) for index in range(count)]


@cache
def strategy_for(klass: str, family: str) -> SearchStrategy[GeneratedCase]:
    """The Hypothesis strategy of one class, for ``hypothesis.find`` or ``@given``:
    it draws the cases ``generate_cases`` makes for the class, and shrinks towards
    fewer and plainer tokens and fewer perturbations."""
    _check_class(klass, family)
    from hypothesis import strategies as st

    @st.composite
    def cases(draw: DrawFn) -> GeneratedCase:
        return _build(_HypothesisDraw(draw), klass, family)

    return cases()


def _class_strategy(klass: str) -> Callable[[str], SearchStrategy[GeneratedCase]]:
    def strategy(family: str) -> SearchStrategy[GeneratedCase]:
        return strategy_for(klass, family)

    strategy.__name__ = f"strategy_{klass.replace('-', '_')}"
    return strategy


#: Each class's strategy, taking the family (``bleu`` or ``rouge``).
CLASSES: dict[str, Callable[[str], SearchStrategy[GeneratedCase]]] = {
    name: _class_strategy(name) for name in CLASS_NAMES
}
