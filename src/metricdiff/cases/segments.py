"""The recipes of the generated failure classes (``generate.py``): each builds
one segment, a hypothesis and its references."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from metricdiff.cases.draws import Draw
from metricdiff.cases.perturb import (
    CASE_OPS,
    EDIT_OPS,
    VARIANT_OPS,
    WORD_OPS,
    Variants,
    join_tokens,
    perturb,
    reference,
    trap_working,
    working,
)
from metricdiff.cases.vocabulary import (
    ASCII_VOCAB,
    CASE_NAMES,
    CASE_TRANSFORMS,
    CASE_TRAPS,
    CASE_VARIANTS,
    COMBINING_WORDS,
    COMPOSED_FORMS,
    EMPTYISH,
    FORMAT_CHARS,
    FORMS,
    INFLECTED,
    PUNCT_TRAPS,
    PUNCT_VARIANTS,
    ROUGE_EMPTYISH,
    ROUGE_LINE_BREAKS,
    SCRIPT_GROUPS,
    SENTENCE_BREAKS,
    WORDS,
    WS_EDGES,
    WS_SEPARATORS,
)

Segment = tuple[str, tuple[str, ...]]


def _simple(
    d: Draw, n_refs: int, work: Sequence[str], *, lo: int = 1, hi: int = 12, max_ops: int = 4,
    ops: Sequence[str] = WORD_OPS, variants: Variants | None = None,
    traps: Sequence[str] = (),
) -> tuple[list[str], list[list[str]]]:
    """A hypothesis of lo..hi words from ``work`` (one of them from ``traps``, if
    given) and ``n_refs`` references."""
    if traps:
        hyp = d.many(work, max(0, lo - 1), hi - 1)
        hyp.insert(d.integer(0, len(hyp)), d.choice(traps))
    else:
        hyp = d.many(work, lo, hi)
    refs = [reference(d, hyp, work, lo=lo, hi=hi, max_ops=max_ops, ops=ops, variants=variants)
            for _ in range(n_refs)]
    return hyp, refs


def _seg_ascii_words(d: Draw, family: str, n_refs: int) -> Segment:
    hyp, refs = _simple(d, n_refs, working(d, ASCII_VOCAB, hi=10))
    return join_tokens(hyp), tuple(join_tokens(ref) for ref in refs)


def _seg_punctuation(d: Draw, family: str, n_refs: int) -> Segment:
    traps, work = trap_working(d, PUNCT_TRAPS, WORDS)
    hyp, refs = _simple(d, n_refs, work, ops=VARIANT_OPS, variants=PUNCT_VARIANTS,
                        traps=traps)
    return join_tokens(hyp), tuple(join_tokens(ref) for ref in refs)


def _seg_case(d: Draw, family: str, n_refs: int) -> Segment:
    traps, work = trap_working(d, CASE_TRAPS, WORDS)
    hyp, refs = _simple(d, n_refs, work, ops=CASE_OPS, variants=CASE_VARIANTS,
                        traps=traps)

    def whole(text: str) -> str:
        transform = d.choice(("keep", "keep", "keep", *CASE_NAMES))
        return text if transform == "keep" else CASE_TRANSFORMS[transform](text)

    return whole(join_tokens(hyp)), tuple(whole(join_tokens(ref)) for ref in refs)


def _seg_scripts(d: Draw, family: str, n_refs: int) -> Segment:
    group, spaced = d.choice(SCRIPT_GROUPS)
    native = tuple(d.many(group, 1, 6))
    work = native + working(d, WORDS, lo=0, hi=2)  # sometimes mixed with English
    separator = " " if spaced else d.choice((" ", ""))
    hyp, refs = _simple(d, n_refs, work, ops=(*EDIT_OPS, "recase", "punct"), traps=native)
    return join_tokens(hyp, separator), tuple(join_tokens(ref, separator) for ref in refs)


def _forms(word: str) -> tuple[str, ...]:
    decomposed = unicodedata.normalize("NFD", word)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    others = (decomposed, *(unicodedata.normalize(form, word) for form in COMPOSED_FORMS),
              stripped)
    return tuple(dict.fromkeys(form for form in others if form != word))


_COMBINING_VARIANTS: Variants = {
    word: forms for word in COMBINING_WORDS if (forms := _forms(word))
}


def _normalised(d: Draw, text: str) -> str:
    form = d.choice(FORMS)
    return text if form == "keep" else unicodedata.normalize(form, text)


def _seg_combining(d: Draw, family: str, n_refs: int) -> Segment:
    traps, work = trap_working(d, COMBINING_WORDS, WORDS)
    hyp, refs = _simple(d, n_refs, work, ops=VARIANT_OPS, variants=_COMBINING_VARIANTS,
                        traps=traps)
    return _normalised(d, join_tokens(hyp)), tuple(_normalised(d, join_tokens(ref)) for ref in refs)


def _with_format_chars(d: Draw, text: str) -> str:
    for _ in range(d.integer(1, 3)):
        char = d.choice(FORMAT_CHARS)
        if d.choice(("insert", "replace-space")) == "replace-space" and " " in text:
            spaces = [i for i, ch in enumerate(text) if ch == " "]
            i = d.choice(spaces)
            text = text[:i] + char + text[i + 1:]
        else:
            i = d.integer(0, len(text))
            text = text[:i] + char + text[i:]
    return text


def _seg_format(d: Draw, family: str, n_refs: int) -> Segment:
    hyp, refs = _simple(d, n_refs, working(d, WORDS), hi=10, max_ops=2,
                           ops=EDIT_OPS)
    target = d.choice(("hyp", "refs", "both"))
    hyp_text = join_tokens(hyp)
    if target != "refs":
        hyp_text = _with_format_chars(d, hyp_text)
    ref_texts = tuple(join_tokens(ref) for ref in refs)
    if target != "hyp":
        ref_texts = tuple(_with_format_chars(d, ref) if d.chance(0.7) or i == 0 else ref
                          for i, ref in enumerate(ref_texts))
    return hyp_text, ref_texts


def _ws_join(d: Draw, family: str, tokens: Sequence[str]) -> str:
    separators = WS_SEPARATORS + (ROUGE_LINE_BREAKS if family == "rouge" else ())
    edges = WS_EDGES + (("\n",) if family == "rouge" else ())
    pieces = [d.choice(edges) if d.chance(0.3) else ""]
    for i, token in enumerate(tokens):
        if i:
            pieces.append(d.choice(separators) if d.chance(0.35) else " ")
        pieces.append(token)
    pieces.append(d.choice(edges) if d.chance(0.3) else "")
    return "".join(pieces)


def _seg_whitespace(d: Draw, family: str, n_refs: int) -> Segment:
    hyp, refs = _simple(d, n_refs, working(d, WORDS), hi=10, max_ops=2,
                           ops=EDIT_OPS)
    return _ws_join(d, family, hyp), tuple(_ws_join(d, family, ref) for ref in refs)


def _seg_empty(d: Draw, family: str, n_refs: int) -> Segment:
    emptyish = EMPTYISH + (ROUGE_EMPTYISH if family == "rouge" else ())
    work = working(d, WORDS, hi=4)

    def text() -> str | None:
        """An empty-looking text, or None for ordinary words."""
        return d.choice(emptyish) if d.chance(0.6) else None

    hyp, refs = text(), [text() for _ in range(n_refs)]
    if hyp is None and all(ref is None for ref in refs):
        hyp = ""  # at least one text must be empty-looking
    words = d.many(work, 1, 4)
    ref_texts = tuple(
        join_tokens(perturb(d, words, work, max_ops=2, ops=EDIT_OPS)) if ref is None else ref
        for ref in refs
    )
    return join_tokens(words) if hyp is None else hyp, ref_texts


def _seg_repeats(d: Draw, family: str, n_refs: int) -> Segment:
    work = working(d, WORDS, lo=1, hi=5)
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
            ref = perturb(d, hyp, work, max_ops=4, ops=(*EDIT_OPS, "duplicate"))
        else:
            ref = d.many(work, 1, 12)
        refs.append(ref)
    return join_tokens(hyp), tuple(join_tokens(ref) for ref in refs)


def _seg_short(d: Draw, family: str, n_refs: int) -> Segment:
    work = working(d, (*WORDS, ".", ","), hi=5)
    hyp = d.many(work, 0, 3)
    refs = [reference(d, hyp, work, lo=0, hi=6, max_ops=3, ops=EDIT_OPS)
            for _ in range(n_refs)]
    return join_tokens(hyp), tuple(join_tokens(ref) for ref in refs)


def _long_join(d: Draw, family: str, tokens: Sequence[str]) -> str:
    """Words; for ROUGE sometimes with a sentence break after each period."""
    if family == "rouge" and d.chance(0.5):
        return " ".join(tokens).replace(" . ", " .\n").replace(". ", ".\n")
    return " ".join(tokens)


def _seg_long(d: Draw, family: str, n_refs: int) -> Segment:
    work = working(d, (*ASCII_VOCAB, ".", ",", "."), lo=5, hi=20)
    hyp = d.many(work, 80, 300)
    refs = [reference(d, hyp, work, lo=80, hi=300, max_ops=40, ops=WORD_OPS)
            for _ in range(n_refs)]
    return _long_join(d, family, hyp), tuple(_long_join(d, family, ref) for ref in refs)


def _with_length(d: Draw, tokens: Sequence[str], pool: Sequence[str], length: int) -> list[str]:
    out = perturb(d, tokens, pool, max_ops=3, ops=("replace", "swap"))
    while len(out) > length:
        del out[d.integer(0, len(out) - 1)]
    while len(out) < length:
        out.insert(d.integer(0, len(out)), d.choice(pool))
    return out


def _seg_multi_ref(d: Draw, family: str, n_refs: int) -> Segment:
    # Plain lowercase words only, so every tokenizer sees the same lengths and a
    # length tie stays a tie.
    work = working(d, WORDS + INFLECTED, lo=3, hi=8)
    hyp = d.many(work, 1, 12)
    deltas = [d.choice((0, 1, -1, 2, -2, 3, -3, 5, -5)) for _ in range(n_refs)]
    if n_refs >= 2 and d.chance(0.5):  # one shorter and one longer, equally close
        k = d.integer(1, 3)
        pair = [k, -k] if d.chance(0.5) else [-k, k]
        at = d.integer(0, n_refs - 2)
        deltas[at:at + 2] = pair
    refs = [_with_length(d, hyp, work, max(0, len(hyp) + delta)) for delta in deltas]
    return join_tokens(hyp), tuple(join_tokens(ref) for ref in refs)


def _sentences_text(d: Draw, sentences: Sequence[Sequence[str]]) -> str:
    lines = [join_tokens(sentence) for sentence in sentences]
    text = lines[0] if lines else ""
    for line in lines[1:]:
        text += d.choice(SENTENCE_BREAKS) + line
    return text


def _seg_multi_sentence(d: Draw, family: str, n_refs: int) -> Segment:
    work = working(d, ASCII_VOCAB, lo=3, hi=10)
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
                    ref[i] = perturb(d, ref[i], work, max_ops=3, ops=EDIT_OPS) or ref[i]
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


SegmentBuilder = Callable[[Draw, str, int], Segment]
SEGMENTS: dict[str, SegmentBuilder] = {
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
