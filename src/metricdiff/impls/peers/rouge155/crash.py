"""Predicting which references make ROUGE-W divide by zero, so that the segments
with one run each on its own (``guarded``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from metricdiff.impls.peers.rouge155.flags import segment_lines
from metricdiff.profiles import RougeOptions


def _perl_split(text: bytes) -> list[bytes]:
    """Perl's ``split(/\\s+/, $text)``: a leading empty field is kept, trailing
    empty fields are dropped."""
    fields = re.split(rb"\s+", text)
    while fields and fields[-1] == b"":
        fields.pop()
    return fields


def lcs_sentences(
    lines: Sequence[str], options: RougeOptions, stop: frozenset[bytes]
) -> list[list[bytes]]:
    """The model sentences as ``readText_LCS`` (l. 2024-2121) and
    ``tokenizeText_LCS`` (l. 2892-2937) make them, without stemming (which never
    empties a token): what decides whether ``wlcs`` divides by zero."""
    sentences = [line.encode("utf-8", "replace").lower() for line in lines]
    sentences = [s for s in sentences if s]
    unit, _, number = options.truncate.partition(":")
    limit = int(number) if number else 0
    if limit and unit == "words":
        kept, used = [], 0
        for s in sentences:
            words = _perl_split(s)
            if used + len(words) < limit:
                used += len(words)
                kept.append(s)
            else:
                kept.append(b" ".join(words[: limit - used]))
                break
        sentences = kept
    elif limit and unit == "bytes":
        kept = []
        for s in sentences:  # the script never adds to $tmpTextLen here (l. 2095-2106)
            if len(s) < limit:
                kept.append(s)
            else:
                kept.append(s[:limit])
                break
        sentences = kept
    result = []
    for s in sentences:
        s = re.sub(rb"[^A-Za-z0-9\-]", b" ", s.replace(b"-", b" - "))
        result.append(
            [t for t in s.split() if t not in stop and re.match(rb"[a-z0-9$]", t)]
        )
    return result


def wlcs_would_die(ref: str, options: RougeOptions, stop: frozenset[bytes]) -> bool:
    """Whether ``ref`` as a model makes ``wlcs`` divide by zero (l. 2454)."""
    return not any(lcs_sentences(segment_lines(ref, options), options, stop))
