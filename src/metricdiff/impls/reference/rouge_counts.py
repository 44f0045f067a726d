"""What one hypothesis and one reference share, per ROUGE variant: the counts
(matches, hypothesis total, reference total) that R and P are formed from.

N-grams and skip-bigrams are counted and clipped (ROUGE-N, -S, -SU); the LCS
variants use ``lcs`` (ROUGE-L, -Lsum, -W, and ROUGE-1.5.5's ROUGE-W).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence

import attrs

from metricdiff.impls.reference import lcs
from metricdiff.impls.reference.rouge_text import Sentences
from metricdiff.profiles.rouge import RougeOptions

Grams = Counter[Hashable]
#: The reference positions ROUGE-1.5.5 marks in one sentence pair (``lcs.wlcs_marks``).
Marks = Callable[[Sequence[str], Sequence[str], float], Sequence[int]]
#: WLCS(X, Y) of a reference X and a hypothesis Y (``lcs.wlcs``).
Weighted = Callable[[Sequence[str], Sequence[str], float], float]


@attrs.frozen
class PairCounts:
    """What one hypothesis and one reference share (ROUGE-COUNTS).

    ``matches`` is the numerator of R and P, ``hyp_total`` and ``ref_total`` their
    denominators; ROUGE-W's are weighted.  ``empty`` marks a pair where neither
    side has a token, which ``empty_policy`` decides.
    """

    matches: float
    hyp_total: float
    ref_total: float
    empty: bool = False


def _flat(sentences: Sentences) -> list[str]:
    return sentences[0] if len(sentences) == 1 else [t for s in sentences for t in s]


# --------------------------------------------------------------------------
# Counting units: n-grams and skip-bigrams


def ngram_counts(tokens: Sequence[str], n: int) -> Grams:
    """How often each n-gram occurs in ``tokens`` (ROUGE-N, §2); an n-gram is
    a tuple, except that a unigram is the token itself."""
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))


def skip_bigram_counts(tokens: Sequence[str], skip: int) -> Grams:
    """How often each skip-bigram occurs (ROUGE-S, §5): every ordered pair
    (tokens[i], tokens[j]), i < j, with at most ``skip`` tokens between them;
    ``skip = -1`` is unlimited (ROUGE-S*), giving C(len, 2) pairs."""
    size = len(tokens)
    reach = size if skip < 0 else skip + 1
    return Counter(
        (tokens[i], tokens[j]) for i in range(size) for j in range(i + 1, min(size, i + reach + 1))
    )


def su_unigram_counts(tokens: Sequence[str], options: RougeOptions) -> Grams:
    """The unigrams ROUGE-SU adds to the skip-bigrams (ROUGE-SU, §5.1).

    ``su_unigrams=paper``: every token.  ``rouge155``: every token but the last,
    as ROUGE-1.5.5 counts them: ``createSkipBigram`` adds the unigram inside the
    loop ``for($i=0;$i<$#m_tokens;$i++)`` (ROUGE-1.5.5.pl lines 2709-2719), which
    stops before the last index, so a one-token text has no unit at all.
    """
    kept = tokens if options.su_unigrams == "paper" else tokens[:-1]
    return Counter((token,) for token in kept)


def as_set(counts: Grams) -> Grams:
    """Each distinct unit once (ROUGE-COUNTS, ``counts=set``)."""
    return Counter(dict.fromkeys(counts, 1))


def clipped_matches(hyp: Grams, ref: Grams) -> int:
    """Σ Count_match(gram) = Σ min(count in hypothesis, count in reference)
    (ROUGE-N eq. 1's numerator; also SKIP2 of §5)."""
    return sum(min(hyp[gram], ref[gram]) for gram in hyp.keys() & ref.keys())


def gram_counts(hyp: Grams, ref: Grams, options: RougeOptions) -> PairCounts:
    """Clipped matches over the hypothesis and reference unit totals (ROUGE-N
    eq. 1: R = Σ Count_match / Σ Count over reference n-grams; P over the
    hypothesis's)."""
    if options.counts == "set":
        hyp, ref = as_set(hyp), as_set(ref)
    return PairCounts(clipped_matches(hyp, ref), hyp.total(), ref.total())


def units(tokens: Sequence[str], options: RougeOptions) -> Grams:
    """The counting units of ROUGE-N, -S and -SU for one token sequence."""
    if options.variant == "n":
        return ngram_counts(tokens, options.n)
    grams = skip_bigram_counts(tokens, options.skip)
    if options.variant == "su":
        grams.update(su_unigram_counts(tokens, options))
    return grams


# --------------------------------------------------------------------------
# LCS variants


def sentence_lcs_counts(hyp: Sequence[str], ref: Sequence[str]) -> PairCounts:
    """ROUGE-L at sentence level (ROUGE-L, §3.1 eq. 2-4): LCS(X, Y) over
    m = |X| (recall) and n = |Y| (precision), X the reference."""
    return PairCounts(lcs.lcs_length(hyp, ref), len(hyp), len(ref))


def summary_lcs_hits(hyp: Sentences, ref: Sentences) -> int:
    """Σ_i |LCS∪(r_i, C)| with each token counted at most as often as it occurs in
    the candidate and in the reference (ROUGE-L-SUMMARY, §3.2 eq. 5-7).

    The paper sums the union LCS lengths as they are; ROUGE-1.5.5 (``lcs``,
    ROUGE-1.5.5.pl lines 2279-2341) and rouge-score (``_summary_level_lcs``)
    walk the union positions of each reference sentence in order and count a
    position only while its token has occurrences left in both texts, using
    one up on each side, which keeps ROUGE-Lsum <= ROUGE-1.  That is the
    clause here.
    """
    ref_left = Counter(t for s in ref for t in s)
    hyp_left = Counter(t for s in hyp for t in s)
    hits = 0
    for sentence in ref:
        for position in lcs.union_lcs_positions(sentence, hyp):
            token = sentence[position]
            if ref_left[token] > 0 and hyp_left[token] > 0:
                hits += 1
                ref_left[token] -= 1
                hyp_left[token] -= 1
    return hits


def summary_lcs_counts(hyp: Sentences, ref: Sentences) -> PairCounts:
    """ROUGE-L at summary level (ROUGE-L-SUMMARY, §3.2 eq. 5-7): R = Σ LCS∪ / m,
    P = Σ LCS∪ / n, m and n the token counts of the whole texts."""
    return PairCounts(
        summary_lcs_hits(hyp, ref), sum(map(len, hyp)), sum(map(len, ref))
    )


def wlcs_counts(hyp: Sequence[str], ref: Sequence[str], weight: float,
                wlcs: Weighted = lcs.wlcs) -> PairCounts:
    """ROUGE-W as the paper defines it (ROUGE-W, §4): WLCS(X, Y) over f(m) and
    f(n); R = f^-1(WLCS / f(m)), P = f^-1(WLCS / f(n)) are formed from these by
    ``recall_precision``.  ``wlcs`` computes WLCS(X, Y) (``lcs.wlcs``, or a fast
    path equal to it)."""
    return PairCounts(
        wlcs(ref, hyp, weight),
        lcs.wlcs_weight(len(hyp), weight),
        lcs.wlcs_weight(len(ref), weight),
    )


def wlcs_rouge155_hits(hyp: Sentences, ref: Sentences, weight: float,
                       marks: Marks = lcs.wlcs_marks) -> float:
    """ROUGE-1.5.5's weighted hit (ROUGE-W, its ROUGE-1.5.5 part; ``wlcs``, ROUGE-1.5.5.pl lines
    2387-2455).

    For each reference sentence, the positions marked by the WLCS table against
    every hypothesis sentence are united (``lcs.wlcs_marks``).  The marked
    positions are walked in order; a position whose token still has
    occurrences left in both texts (clipping as in ROUGE-L-SUMMARY) extends the
    current run, and the run is closed, adding f(run), when the next position is
    not marked or the sentence ends.  Runs are therefore consecutive on the
    reference side only, whatever the hypothesis positions.  As in the script, a
    marked position that fails the clipping neither extends nor closes the run:
    the run then continues across it, and a run still open when its last
    position failed is dropped at the end of the sentence.  ``marks`` finds the
    marked positions (``lcs.wlcs_marks``, or a fast path equal to it).
    """
    ref_left = Counter(t for s in ref for t in s)
    hyp_left = Counter(t for s in hyp for t in s)
    hits = 0.0
    for sentence in ref:
        marked = [False] * len(sentence)
        for hyp_sentence in hyp:
            for position in marks(sentence, hyp_sentence, weight):
                marked[position] = True
        run = 0
        for j, token in enumerate(sentence):
            if not marked[j] or ref_left[token] <= 0 or hyp_left[token] <= 0:
                continue
            run += 1
            if j + 1 == len(sentence) or not marked[j + 1]:
                hits += lcs.wlcs_weight(run, weight)
                run = 0
            ref_left[token] -= 1
            hyp_left[token] -= 1
    return hits


def wlcs_rouge155_counts(hyp: Sentences, ref: Sentences, weight: float,
                         marks: Marks = lcs.wlcs_marks) -> PairCounts:
    """ROUGE-1.5.5's ROUGE-W denominators (ROUGE-W, its ROUGE-1.5.5 part).

    ``wlcs`` sums f(|r_i|) over the reference sentences (line 2407) and
    ``computeWLCSScore`` weights that sum again (``$totalLCSCount +=
    &wlcsWeight($lcsBase, ...)``, lines 1566, 1574, 1581), so the recall base is
    f(Σ_i f(|r_i|)), for one sentence m^(weight²) instead of the paper's
    f(m).  The precision base is f(n), n the hypothesis's token count (its
    unigram count ``_cn_``).
    """
    base = sum(lcs.wlcs_weight(len(sentence), weight) for sentence in ref)
    return PairCounts(
        wlcs_rouge155_hits(hyp, ref, weight, marks),
        lcs.wlcs_weight(sum(map(len, hyp)), weight),
        lcs.wlcs_weight(base, weight),
    )


# --------------------------------------------------------------------------
# One pair


def _is_empty(sentences: Sentences) -> bool:
    return not any(sentences)


#: The axes ``pair_counts`` reads: two profiles equal on these give the same
#: counts for the same tokens.
COUNT_AXES = ("variant", "n", "skip", "su_unigrams", "counts", "wlcs", "weight")


def pair_counts(hyp: Sentences, ref: Sentences, options: RougeOptions) -> PairCounts:
    """The counts of one hypothesis against one reference, by ``variant``."""
    if _is_empty(hyp) and _is_empty(ref):
        return PairCounts(0, 0, 0, empty=True)
    variant = options.variant
    if variant == "l":
        return sentence_lcs_counts(_flat(hyp), _flat(ref))
    if variant == "lsum":
        return summary_lcs_counts(hyp, ref)
    if variant == "w":
        if options.wlcs == "rouge155":
            return wlcs_rouge155_counts(hyp, ref, options.weight)
        return wlcs_counts(_flat(hyp), _flat(ref), options.weight)
    return gram_counts(units(_flat(hyp), options), units(_flat(ref), options), options)
