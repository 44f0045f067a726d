"""The vocabularies of the generated cases (``generate.py``): common words, and the
traps of each failure class with the variants a reference may use instead.

Invisible, combining and compatibility characters are written as escapes, so
that no editor or formatter can normalise them away.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Callable
from typing import Literal


def _nfc(*words: str) -> tuple[str, ...]:
    return tuple(unicodedata.normalize("NFC", word) for word in words)


#: The shared core: the first word is where shrinking ends up.
WORDS = ("the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "park", "and", "it",
          "was", "big", "red", "in")
#: Inflected forms, for the stemmers.
INFLECTED = ("cats", "running", "runs", "played", "playing", "parks", "quickly", "studies",
              "studied", "generously", "organization", "organizes", "happiness", "dogs")
CAPITALISED = ("The", "Cat", "Dog", "John", "Paris", "NASA", "BLEU", "It")
ASCII_VOCAB = WORDS + INFLECTED + CAPITALISED

PUNCT_TRAPS = (
    "2023.", "1,000", "$5.50", "state-of-the-art", '"', "'", "\u201c", "\u201d", "\u2018",
    "\u2019", "\u2014", "\u2013", "-", "--", "e.g.", "U.S.", "i.e.", "don't", "it's", "'s",
    "n't", "(", ")", "[", "]", "3.14", "50%", "10:30", "...", "\u2026", ",", ".", "!", "?",
    ";", ":", "a/b", "&", "#1", "@user", "C++", "co-op", "'90s", "1st", "-5", "+1", "1/2",
    "``", "''", "\u00bd", "\u00b2", "\u0663", "\u0967", "\uff11", "Mr.", "etc.", "p.m.",
    "www.example.com", "<b>", "&amp;", "2.",
)
PUNCT_VARIANTS: dict[str, tuple[str, ...]] = {
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
ATTACH = (".", ",", "!", "?", ";", ":", '"', "'", "\u201d", "\u201c", ")", "(", "'s", "...",
           "\u2026", "-", "\u2014")

CASE_TRAPS = (
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
CASE_VARIANTS: dict[str, tuple[str, ...]] = {
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
CASE_TRANSFORMS: dict[str, Callable[[str], str]] = {
    "lower": str.lower,
    "upper": str.upper,
    "title": str.title,
    "capitalize": str.capitalize,
    "casefold": str.casefold,
    "swapcase": str.swapcase,
    "ascii-lower": lambda text: text.translate(_ASCII_LOWER),
    "ascii-upper": lambda text: text.translate(_ASCII_UPPER),
}
CASE_NAMES = tuple(CASE_TRANSFORMS)

#: (tokens, whether the script separates words by spaces).
SCRIPT_GROUPS: tuple[tuple[tuple[str, ...], bool], ...] = (
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
COMBINING_WORDS = (
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
Form = Literal["NFC", "NFD", "NFKC", "NFKD"]
FORMS: tuple[Form | Literal["keep"], ...] = ("keep", "NFD", "NFC", "NFKC", "NFKD")
COMPOSED_FORMS: tuple[Form, ...] = ("NFC", "NFKC", "NFKD")

FORMAT_CHARS = (
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
WS_SEPARATORS = (
    " ", "  ", "\t", " \t", "   ", "\u00a0", "\u2009", "\u200a", "\u2002", "\u2003", "\u202f",
    "\u205f", "\u3000", "\u1680",
    "\r",  # half a CRLF
    "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029",
)
ROUGE_LINE_BREAKS = ("\n", "\r\n", " \n ", "\n\n", "\n\t")
#: Before the first or after the last word (never a final "\r": a file line loses it).
WS_EDGES = ("", " ", "  ", "\t", "\u00a0", "\u3000", " \t", "\u2028")

EMPTYISH = ("", " ", "  ", "\t", "\u00a0", "\u3000", "\u200b", "\ufeff", ".", "\u2026", " . ",
             "!!", "-", "\u00ad")
ROUGE_EMPTYISH = ("\n", " \n ", "\n\n")

SENTENCE_BREAKS = ("\n", "\n", "\n", "\n\n", " \n", "\n ", "\r\n")
