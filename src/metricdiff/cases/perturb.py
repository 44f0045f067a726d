"""Perturbations: how a generated case's reference is made from its hypothesis
(``generate.py``), and the small helpers every recipe shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from metricdiff.cases.draws import Draw
from metricdiff.cases.vocabulary import ATTACH, CASE_NAMES, CASE_TRANSFORMS

Variants = dict[str, tuple[str, ...]]
_Op = Callable[[Draw, list[str], Sequence[str], Variants], list[str]]


def _op_replace(d: Draw, tokens: list[str], pool: Sequence[str], _: Variants) -> list[str]:
    if tokens:
        tokens[d.integer(0, len(tokens) - 1)] = d.choice(pool)
    return tokens


def _op_drop(d: Draw, tokens: list[str], pool: Sequence[str], _: Variants) -> list[str]:
    if tokens:
        del tokens[d.integer(0, len(tokens) - 1)]
    return tokens


def _op_insert(d: Draw, tokens: list[str], pool: Sequence[str], _: Variants) -> list[str]:
    tokens.insert(d.integer(0, len(tokens)), d.choice(pool))
    return tokens


def _op_swap(d: Draw, tokens: list[str], pool: Sequence[str], _: Variants) -> list[str]:
    if len(tokens) >= 2:
        i = d.integer(0, len(tokens) - 2)
        tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
    return tokens


def _op_duplicate(d: Draw, tokens: list[str], pool: Sequence[str], _: Variants) -> list[str]:
    if tokens:
        i = d.integer(0, len(tokens) - 1)
        tokens.insert(i, tokens[i])
    return tokens


def _op_recase(d: Draw, tokens: list[str], pool: Sequence[str], _: Variants) -> list[str]:
    if tokens:
        i = d.integer(0, len(tokens) - 1)
        tokens[i] = CASE_TRANSFORMS[d.choice(CASE_NAMES)](tokens[i])
    return tokens


def _op_variant(d: Draw, tokens: list[str], pool: Sequence[str], variants: Variants) -> list[str]:
    candidates = [i for i, token in enumerate(tokens) if token in variants]
    if candidates:
        i = d.choice(candidates)
        tokens[i] = d.choice(variants[tokens[i]])
    return tokens


def _op_punct(d: Draw, tokens: list[str], pool: Sequence[str], _: Variants) -> list[str]:
    if tokens:
        i = d.integer(0, len(tokens) - 1)
        mark = d.choice(ATTACH)
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
WORD_OPS = ("replace", "drop", "insert", "swap", "duplicate", "recase", "punct")
EDIT_OPS = ("replace", "drop", "insert", "swap")
VARIANT_OPS = ("variant", "replace", "drop", "insert", "swap", "recase", "variant", "punct")
CASE_OPS = ("recase", "variant", "replace", "drop", "swap", "recase", "variant")


def perturb(
    d: Draw,
    tokens: Sequence[str],
    pool: Sequence[str],
    *,
    max_ops: int,
    min_ops: int = 0,
    ops: Sequence[str] = WORD_OPS,
    variants: Variants | None = None,
) -> list[str]:
    """``tokens`` after min_ops..max_ops perturbations."""
    out = list(tokens)
    for _ in range(d.integer(min_ops, max_ops)):
        out = _OPS[d.choice(ops)](d, out, pool, variants or {})
    return out


def reference(
    d: Draw,
    hyp: Sequence[str],
    pool: Sequence[str],
    *,
    lo: int,
    hi: int,
    max_ops: int = 4,
    ops: Sequence[str] = WORD_OPS,
    variants: Variants | None = None,
) -> list[str]:
    """A reference: mostly the hypothesis perturbed, sometimes drawn independently
    from the same small pool, sometimes the hypothesis itself (where shrinking
    ends)."""
    mode = d.choice(_REFERENCE_MODES)
    if mode == "copy":
        return list(hyp)
    if mode == "perturb":
        return perturb(d, hyp, pool, min_ops=1, max_ops=max_ops, ops=ops, variants=variants)
    return d.many(pool, lo, hi)


_REFERENCE_MODES = ("copy", *("perturb",) * 5, "independent", "independent")


def working(
    d: Draw, common: Sequence[str], *, lo: int = 2, hi: int = 6,
) -> tuple[str, ...]:
    """A case's own small vocabulary, so that matches are common."""
    return tuple(d.many(common, lo, hi))


def trap_working(
    d: Draw, traps: Sequence[str], common: Sequence[str], *, traps_hi: int = 4,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """1..traps_hi traps, and the case's vocabulary: those traps and common words."""
    chosen = tuple(d.many(traps, 1, traps_hi))
    return chosen, chosen + working(d, common)


def ref_count(d: Draw) -> int:
    return d.choice((1, 1, 1, 2, 3))


def join_tokens(tokens: Sequence[str], separator: str = " ") -> str:
    return separator.join(tokens)
