"""Longest common subsequences for ROUGE-L and ROUGE-W (Lin 2004 §3 and §4).

Two LCS lengths are here: ``lcs_length``, the bit-parallel one that scoring uses
(the hot path), and ``lcs_length_dp``, the textbook dynamic programme it is
property-tested against.  Summary-level ROUGE-L needs *which* positions are in an
LCS; ``lcs_alignment`` reads one out of the DP table and ``lcs_alignment_bits``
reads the same one out of the bit-parallel rows.  ``wlcs`` is the weighted LCS
of §4 and ``wlcs_marks`` the reference positions that ROUGE-1.5.5 reads off
its WLCS table.

Which LCS is read out when there are several is not in the paper.  Every
function here takes the one both ROUGE-1.5.5 (``markLCS``, ROUGE-1.5.5.pl lines
2523-2546) and rouge-score (``_backtrack_norec``) take: walking back from the
end, a pair of equal tokens is always taken; otherwise the walk moves back in the
reference unless that loses LCS length and moving back in the hypothesis does
not (``c(i-1, j) >= c(i, j-1)`` moves back in the reference).

Tokens can be any hashable values; equality is ``==``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence

Tokens = Sequence[Hashable]


def _position_masks(tokens: Tokens) -> dict[Hashable, int]:
    """Bit i of ``masks[t]`` is set when ``tokens[i] == t`` (ROUGE-L)."""
    masks: dict[Hashable, int] = {}
    bit = 1
    for token in tokens:
        masks[token] = masks.get(token, 0) | bit
        bit <<= 1
    return masks


def lcs_length(a: Tokens, b: Tokens) -> int:
    """|LCS(a, b)| by the bit-parallel recurrence (ROUGE-L; Allison & Dix 1986,
    Crochemore et al. 2001, Hyyrö 2004).

    Row j of the LCS table, c(·, j), is encoded in a bit vector V over the
    positions of ``a``: bit i of V is 0 exactly when c(i + 1, j) = c(i, j) + 1,
    so c(|a|, j) is the number of zero bits.  Reading b[j] with match mask
    M = M[b[j]], the next row is

        U = V & M
        V' = (V + U) | (V - U)

    (the addition lets each run of ones of V that contains a match move its
    lowest match up to the next zero; V - U = V & ~M keeps the rest).  V starts
    as all ones.  A Python int with infinitely many leading ones (-1) holds V:
    the carry out of the top of V + U clears the high ones, and OR-ing with
    V - U, whose high bits are all ones, restores them, so no mask is needed and
    the answer is the number of one bits of ~V.  Tokens of ``b`` that do not
    occur in ``a`` leave V unchanged and are skipped.
    """
    if len(a) < len(b):
        a, b = b, a  # the longer one in the bits: fewer iterations
    last = deque(_bit_rows(a, b), maxlen=1)
    return (~last[0]).bit_count() if last else 0


def _bit_rows(a: Tokens, b: Tokens) -> Iterator[int]:
    """V after each token of ``b``, its bits over the positions of ``a``
    (ROUGE-L; ``lcs_length`` says how)."""
    masks = _position_masks(a)
    v = -1
    for token in b:
        match = masks.get(token)
        if match is not None:
            u = v & match
            v = (v + u) | (v - u)
        yield v


def lcs_table(ref: Tokens, hyp: Tokens) -> list[list[int]]:
    """The DP table c(i, j) = |LCS(ref[:i], hyp[:j])| (ROUGE-L; Cormen et al., as
    Lin 2004 §3.1 refers to it)::

        c(i, j) = c(i-1, j-1) + 1                if ref[i-1] == hyp[j-1]
                = max(c(i-1, j), c(i, j-1))      otherwise
    """
    previous = [0] * (len(hyp) + 1)
    table = [previous]
    for ref_token in ref:
        row = [0]
        for j, hyp_token in enumerate(hyp, start=1):
            if ref_token == hyp_token:
                row.append(previous[j - 1] + 1)
            else:
                row.append(max(previous[j], row[j - 1]))
        table.append(row)
        previous = row
    return table


def lcs_length_dp(ref: Tokens, hyp: Tokens) -> int:
    """|LCS(ref, hyp)| read from the DP table (ROUGE-L)."""
    return lcs_table(ref, hyp)[-1][-1]


def lcs_alignment(ref: Tokens, hyp: Tokens) -> list[tuple[int, int]]:
    """One LCS as (reference position, hypothesis position) pairs in order
    (ROUGE-L-SUMMARY), read back from the DP table with the tie rule of the module
    docstring."""
    table = lcs_table(ref, hyp)
    return _walk_back(ref, hyp, lambda i, j: table[i][j])


def _walk_back(ref: Tokens, hyp: Tokens, c: Callable[[int, int], int]) -> list[tuple[int, int]]:
    """The LCS pairs read back from (|ref|, |hyp|) given the table's c(i, j)
    (ROUGE-L-SUMMARY), by the tie rule of the module docstring: a match is a
    diagonal step; else back in ``hyp`` when c(i, j-1) > c(i-1, j), back in
    ``ref`` otherwise."""
    i, j = len(ref), len(hyp)
    pairs: list[tuple[int, int]] = []
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            i, j = i - 1, j - 1
            pairs.append((i, j))
        elif c(i, j - 1) > c(i - 1, j):
            j -= 1
        else:
            i -= 1
    pairs.reverse()
    return pairs


def lcs_alignment_bits(ref: Tokens, hyp: Tokens) -> list[tuple[int, int]]:
    """The same LCS as ``lcs_alignment``, from the bit-parallel rows (ROUGE-L-SUMMARY).

    The bits run over ``hyp`` and one row is kept per reference prefix: after
    ref[:i], c(i, j) is the number of zero bits of V_i below bit j, i.e. the
    popcount of ~V_i & (2^j - 1).  The walk back reads c(i, j-1) and c(i-1, j)
    that way, so it takes exactly the steps ``lcs_alignment`` takes.
    """
    # ~V_0 = 0: no zero bits before any reference token.
    rows = [0, *(~v for v in _bit_rows(hyp, ref))]
    return _walk_back(ref, hyp, lambda i, j: (rows[i] & ((1 << j) - 1)).bit_count())


def union_lcs_positions(ref: Tokens, hyp_sentences: Sequence[Tokens]) -> list[int]:
    """The reference positions of LCS∪(r_i, C), in order (ROUGE-L-SUMMARY, Lin 2004
    §3.2): the union, over the candidate sentences c_j, of the positions of
    ``ref`` that are in the LCS of ``ref`` and c_j."""
    positions: set[int] = set()
    for hyp in hyp_sentences:
        if ref and hyp:
            positions.update(i for i, _ in lcs_alignment_bits(ref, hyp))
    return sorted(positions)


def wlcs_weight(k: float, weight: float) -> float:
    """f(k) = k^weight, the weighting function (ROUGE-W, Lin 2004 §4)."""
    return float(k**weight)


def wlcs_weight_inverse(k: float, weight: float) -> float:
    """f^-1(k) = k^(1/weight) (ROUGE-W, Lin 2004 §4)."""
    return float(k ** (1.0 / weight))


#: The move each cell of the WLCS table records (ROUGE-1.5.5 follows them back).
DIAGONAL, UP, LEFT = 1, 2, 3


def _wlcs_rows(
    ref: Tokens, hyp: Tokens, weight: float, *, up_on_tie: bool
) -> Iterator[tuple[list[float], list[int]]]:
    """The rows c(i, ·) of the WLCS table (ROUGE-W), i = 1..m, each with the move
    of every cell: DIAGONAL where x_i = y_j, UP where c(i-1, j) > c(i, j-1) (or
    equal, with ``up_on_tie``), LEFT otherwise.  Ties give c the same value either way;
    only the moves differ (see ``wlcs`` and ``wlcs_marks``)."""
    n = len(hyp)
    c_prev = [0.0] * (n + 1)
    w_prev = [0] * (n + 1)
    for ref_token in ref:
        c_row = [0.0] * (n + 1)
        w_row = [0] * (n + 1)
        move_row = [0] * (n + 1)
        for j in range(1, n + 1):
            if ref_token == hyp[j - 1]:
                k = w_prev[j - 1]
                c_row[j] = c_prev[j - 1] + wlcs_weight(k + 1, weight) - wlcs_weight(k, weight)
                w_row[j] = k + 1
                move_row[j] = DIAGONAL
            elif c_prev[j] >= c_row[j - 1] if up_on_tie else c_prev[j] > c_row[j - 1]:
                c_row[j] = c_prev[j]
                move_row[j] = UP
            else:
                c_row[j] = c_row[j - 1]
                move_row[j] = LEFT
        yield c_row, move_row
        c_prev, w_prev = c_row, w_row


def wlcs(ref: Tokens, hyp: Tokens, weight: float) -> float:
    """WLCS(X, Y) by the algorithm of Lin 2004 §4 (ROUGE-W), X = ``ref``.

    c holds the weighted score and w the length of the run of consecutive
    matches that ends at (i, j)::

        if x_i = y_j:  k = w(i-1, j-1)
                       c(i, j) = c(i-1, j-1) + f(k+1) - f(k);  w(i, j) = k + 1
        elif c(i-1, j) > c(i, j-1):  c(i, j) = c(i-1, j);  w(i, j) = 0
        else:                        c(i, j) = c(i, j-1);  w(i, j) = 0

    WLCS(X, Y) = c(m, n).  The recurrence is the paper's, including that a run
    is extended whenever the diagonal matches, so it is not always the largest
    Σ f(run) over all common subsequences.
    """
    c_last = [0.0] * (len(hyp) + 1)  # c(0, ·), for an empty reference
    for c_row, _ in _wlcs_rows(ref, hyp, weight, up_on_tie=False):
        c_last = c_row
    return c_last[len(hyp)]


def wlcs_marks(ref: Tokens, hyp: Tokens, weight: float) -> list[int]:
    """The reference positions ROUGE-1.5.5 marks as hits from its WLCS table
    (ROUGE-W, its ROUGE-1.5.5 part; ``wlcs_inner`` and ``markLCS``, ROUGE-1.5.5.pl lines
    2471-2546).

    The table is the paper's c/w table, but each cell also records its move:
    diagonal when the tokens are equal, up (back in the reference) when
    c(i-1, j) >= c(i, j-1), left otherwise; note ``>=`` where the paper's
    algorithm writes ``>``, which changes no value of c but changes the path.
    The path from (m, n) is followed and every diagonal step marks its
    reference position.  The weighted value c(m, n) itself is never used by the
    script; only these marks are.
    """
    n = len(hyp)
    moves = [[0] * (n + 1)]
    moves += [move_row for _, move_row in _wlcs_rows(ref, hyp, weight, up_on_tie=True)]
    i, j = len(ref), n
    marks: list[int] = []
    while i > 0 and j > 0:
        move = moves[i][j]
        if move == DIAGONAL:
            i, j = i - 1, j - 1
            marks.append(i)
        elif move == UP:
            i -= 1
        else:
            j -= 1
    marks.reverse()
    return marks
