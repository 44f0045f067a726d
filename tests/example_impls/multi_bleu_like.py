"""A stand-in for Moses' multi-bleu.perl, for ``tests/impls/user/test_user_impls.py``:
``python multi_bleu_like.py [-lc] REF... < HYP`` prints one line like
``BLEU = 33.93, 58.3/45.5/30.0/16.7 (BP=1.000, ratio=1.091, hyp_len=24, ref_len=22)``.

Written for the tests, not from the Perl script.  Its conventions, in metricdiff's
vocabulary: ``tokenize=none`` (the input is taken as already tokenized: split
on whitespace), case kept unless ``-lc`` (then ``lowercase=unicode``), no
smoothing (an order without matches makes BLEU 0), the closest reference length
with ties to the shorter, pooled over the corpus: the paper's profile.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path


def _ngrams(words: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def main(argv: list[str]) -> int:
    lowercase = "-lc" in argv
    ref_files = [a for a in argv if a != "-lc"]
    if not ref_files:
        print("usage: multi_bleu_like.py [-lc] REF... < HYP", file=sys.stderr)
        return 1
    fold = str.lower if lowercase else str
    # Lines end at \n alone, as metricdiff writes them: str.splitlines would also
    # split at U+2028, U+0085, \v, \f..., which a segment may hold.
    references = [_lines(Path(f).read_text(encoding="utf-8")) for f in ref_files]
    hypotheses = _lines(sys.stdin.buffer.read().decode("utf-8"))
    matches, totals = [0] * 4, [0] * 4
    hyp_len = ref_len = 0
    for index, hypothesis in enumerate(hypotheses):
        words = fold(hypothesis).split()
        refs = [fold(stream[index]).split() for stream in references]
        hyp_len += len(words)
        ref_len += min((len(r) for r in refs), key=lambda r: (abs(r - len(words)), r))
        for n in range(1, 5):
            mine, best = _ngrams(words, n), Counter()
            for ref in refs:
                best |= _ngrams(ref, n)
            matches[n - 1] += sum(min(c, best[g]) for g, c in mine.items())
            totals[n - 1] += sum(mine.values())
    precisions = [m / t if t else 0.0 for m, t in zip(matches, totals, strict=True)]
    bp = 1.0 if hyp_len > ref_len else (math.exp(1 - ref_len / hyp_len) if hyp_len else 0.0)
    score = bp * math.exp(sum(map(math.log, precisions)) / 4) if min(precisions) > 0 else 0.0
    ratio = hyp_len / ref_len if ref_len else 0.0
    print(f"BLEU = {100 * score:.2f}, " + "/".join(f"{100 * p:.1f}" for p in precisions)
          + f" (BP={bp:.3f}, ratio={ratio:.3f}, hyp_len={hyp_len}, ref_len={ref_len})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
