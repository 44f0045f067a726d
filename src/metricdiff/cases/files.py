"""Reading the user's hypothesis and reference files: one segment per line.

Every problem becomes an InputError whose message starts with ``file:line:``, so
the command line can print it as one line and exit with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import attrs

from metricdiff.errors import InputError


def read_segments(name: str) -> list[str]:
    """The lines of ``name`` (``-`` is standard input) decoded as UTF-8.

    The line break (``\\n`` or ``\\r\\n``) is removed; nothing else is, so leading
    and trailing spaces reach the tokenizer as they are in the file.
    """
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as error:
        raise InputError(f"{name}:0: cannot read: {error.strerror or error}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    segments = []
    for number, raw in enumerate(lines, start=1):
        try:
            segments.append(raw.removesuffix(b"\r").decode("utf-8"))
        except UnicodeDecodeError as error:
            raise InputError(
                f"{name}:{number}: not UTF-8 (byte {raw[error.start]:#04x} at column "
                f"{error.start + 1})"
            ) from None
    return segments


#: How a line of a ROUGE input file separates the sentences of one segment.
SENTENCE_BREAK = "\\n"


@attrs.frozen
class Corpus:
    """Hypotheses and, per segment, its references (one per reference file)."""

    hyps: tuple[str, ...]
    refs: tuple[tuple[str, ...], ...]

    def with_sentence_breaks(self) -> Corpus:
        """The corpus with each literal ``\\n`` (backslash, n) turned into a line
        break: ROUGE input files keep one segment per line and mark the sentences
        inside it that way, since summary-level ROUGE-L needs them."""

        def split(text: str) -> str:
            return text.replace(SENTENCE_BREAK, "\n")

        return Corpus(
            tuple(split(h) for h in self.hyps),
            tuple(tuple(split(r) for r in refs) for refs in self.refs),
        )


def read_corpus(hyp_file: str, ref_files: Sequence[str]) -> Corpus:
    """The hypothesis file and its reference files, checked to line up."""
    if not ref_files:
        raise InputError(f"{hyp_file}:0: at least one --ref file is needed")
    hyps = read_segments(hyp_file)
    streams = [read_segments(name) for name in ref_files]
    for name, stream in zip(ref_files, streams, strict=True):
        if len(stream) != len(hyps):
            shorter = min(len(stream), len(hyps)) + 1
            raise InputError(
                f"{name}:{shorter}: has {len(stream)} lines but {hyp_file} has {len(hyps)}"
            )
    return Corpus(tuple(hyps), tuple(zip(*streams, strict=True)) if hyps else ())
