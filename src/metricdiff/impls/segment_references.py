"""Which of a segment's references take part, for every implementation alike:
the reference and the adapters that hand a library only the references it
scores.  ``None`` marks a missing reference (how a corpus gives its segments
different numbers of references, as sacrebleu takes them).  The rule lives here
once, below the reference and the peers that share it.
"""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.profiles import BleuOptions


def usable_bleu_references(refs: Sequence[str | None], options: BleuOptions) -> list[str]:
    """The BLEU references that take part: ``None`` never does, and an empty string
    only with ``empty_reference=length-zero`` (spec/bleu.md, BLEU-REFLEN)."""
    keep_empty = options.empty_reference == "length-zero"
    return [ref for ref in refs if ref is not None and (keep_empty or ref != "")]


def usable_rouge_references(refs: Sequence[str | None]) -> list[str]:
    """The ROUGE references that take part: ``None`` marks a missing one and is
    dropped; with none left the hypothesis is scored against one empty
    reference (an empty pair or not: spec/rouge.md, ROUGE-EMPTY)."""
    kept = [ref for ref in refs if ref is not None]
    return kept or [""]


__all__ = ["usable_bleu_references", "usable_rouge_references"]
