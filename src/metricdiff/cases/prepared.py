"""Text that looks prepared already: tokenized (spaces before punctuation),
escaped as Moses escapes it, split into BPE or SentencePiece subwords, or a
lowercased hypothesis against references in mixed case.

Post (2018, "A Call for Clarity in Reporting BLEU Scores") names this first among
the causes of BLEU scores that cannot be compared: a metric that tokenizes
(sacrebleu's 13a, rouge-score's) must be given the text a reader would read, or
its tokenizer runs on tokens and the number means something else.  What is
looked for, per line:

* a space before ``.`` or ``,`` (at a word's end) or before ``n't``, ``'s``,
  ``'re``, ``'ll``, ``'ve``, ``'m``, ``'d``: Moses and Penn Treebank tokenization.
  ``!``, ``?``, ``;`` and ``:`` are left out: French typography puts a space
  before them;
* ``&apos;``, ``&quot;``, ``&amp;``, ``&lt;``, ``&gt;``, ``&#124;``, ``&#91;``,
  ``&#93;``: Moses' ``escape-special-chars``;
* ``@@ `` or a final ``@@``: subword-nmt's BPE;
* ``▁`` (U+2581): SentencePiece's word boundary;
* a hypothesis without a capital letter whose references have some.

A sign is reported when at least ``SHARE`` of the lines, and ``LEAST_LINES`` of
them, show it (any line at all for BPE and SentencePiece marks, which no real
text has), each with the share of lines and what to do.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

import attrs

from metricdiff.errors import MetricdiffWarning

#: The share of lines from which a sign counts, and the fewest lines: one line
#: of three ending in " ." is a quotation, not a tokenizer's work.
SHARE = 0.1
LEAST_LINES = 3

_SIGNS: dict[str, tuple[re.Pattern[str], str, float]] = {
    "tokenized": (
        re.compile(r" [.,](?= |$)| n't\b| '(?:s|re|ll|ve|m|d)\b"),
        "a space before punctuation (' .', ' ,', \" n't\")", SHARE),
    "escaped": (re.compile(r"&(?:apos|quot|amp|lt|gt|#124|#91|#93);"),
                "Moses escapes ('&apos;', '&quot;')", SHARE),
    "bpe": (re.compile(r"@@(?: |$)"), "BPE marks ('@@ ')", 0.0),
    "sentencepiece": (re.compile("\u2581"), "SentencePiece marks ('\u2581')", 0.0),
}

#: What to do about each sign (Post 2018: score detokenized text).
_ADVICE = {
    "tokenized": "detokenize it (sacremoses' MosesDetokenizer, or the script that undoes "
                 "your tokenizer)",
    "escaped": "unescape it (html.unescape, or sacremoses' detokenizer with unescape)",
    "bpe": "undo the BPE split (sed -r 's/(@@ )|(@@ ?$)//g')",
    "sentencepiece": "decode it (spm_decode, or join the pieces and turn '\u2581' into spaces)",
    "lowercased": "give the cased output, or say that the score is case-insensitive "
                  "(-o lowercase=unicode for both sides)",
}


@attrs.frozen
class Sign:
    """One sign of prepared text: its name, what it is, on which side
    (``hypotheses`` or ``references``) and on what share of the lines."""

    name: str
    what: str
    side: str
    share: float

    def text(self) -> str:
        return f"{self.share:.0%} of {self.side} lines have {self.what}"


@attrs.frozen
class PreparedInput:
    """What looks prepared in a corpus, and what to do about it."""

    signs: tuple[Sign, ...]

    def message(self) -> str:
        """One line: the signs, then what to do (Post 2018)."""
        found = "; ".join(sign.text() for sign in self.signs)
        advice = "; ".join(dict.fromkeys(_ADVICE[sign.name] for sign in self.signs))
        return (f"the input looks prepared already: {found}. Prepared text gives scores "
                f"that cannot be compared with scores of raw text (Post 2018): {advice}, "
                "and score what a reader would read")


class PreparedTally:
    """The signs counted as segments come (``score`` reads a corpus in batches):
    ``add`` each batch, ``result`` at the end."""

    def __init__(self) -> None:
        self.lines = {"hypothesis": 0, "reference": 0}
        self.counts = {(side, name): 0 for side in self.lines for name in _SIGNS}
        self.lowered = 0

    def add(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> None:
        references = [ref for seg in refs for ref in seg if ref is not None]
        for side, lines in (("hypothesis", hyps), ("reference", references)):
            self.lines[side] += len(lines)
            for name, (pattern, _, _) in _SIGNS.items():
                self.counts[(side, name)] += sum(1 for line in lines if pattern.search(line))
        for hyp, seg in zip(hyps, refs, strict=False):
            cased = any(ref is not None and ref != ref.lower() for ref in seg)
            self.lowered += cased and hyp == hyp.lower() and hyp != hyp.upper()

    def result(self) -> PreparedInput | None:
        """The signs of prepared text, or None when the text looks raw."""
        signs = []
        for (side, name), count in self.counts.items():
            share = count / self.lines[side] if self.lines[side] else 0.0
            least = LEAST_LINES if _SIGNS[name][2] else 1
            if count >= least and share >= _SIGNS[name][2]:
                signs.append(Sign(name, _SIGNS[name][1], side, share))
        hyps = self.lines["hypothesis"]
        if self.lowered >= LEAST_LINES and self.lowered / hyps >= 0.5:
            signs.append(Sign("lowercased", "no capital letter where their references have "
                              "some", "hypothesis", self.lowered / hyps))
        return PreparedInput(tuple(signs)) if signs else None


def prepared_input(hyps: Sequence[str], refs: Sequence[Sequence[str | None]]
                   ) -> PreparedInput | None:
    """The signs of prepared text in a corpus, or None when it looks raw."""
    tally = PreparedTally()
    tally.add(hyps, refs)
    return tally.result()


def warn_if_prepared(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                     stacklevel: int = 3, name: str = "") -> PreparedInput | None:
    """``prepared_input``, and a ``MetricdiffWarning`` with its message when
    the text looks prepared (the command line shows it as ``metricdiff:
    warning: ...``); ``name``: the system's, when there are several."""
    found = prepared_input(hyps, refs)
    if found is not None:
        warnings.warn(f"{name + ': ' if name else ''}{found.message()}", MetricdiffWarning,
                      stacklevel=stacklevel)
    return found


__all__ = ["SHARE", "PreparedInput", "PreparedTally", "Sign", "prepared_input",
           "warn_if_prepared"]
