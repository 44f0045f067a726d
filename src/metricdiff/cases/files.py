"""Reading the user's hypothesis and reference files: one segment per line.

Every problem becomes an InputError whose message starts with ``file:line:``, so
the command line can print it as one line and exit with status 2.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs


class InputError(ValueError):
    """Input that metricdiff refuses; the message names the file and line."""


#: The name of standard input as an input file.
STDIN = "-"
#: U+FEFF in UTF-8: the byte order mark some editors (Windows Notepad) put
#: first in a file.  It is not text: left in, it would glue itself to the first
#: token ("\ufeffthe" matches no "the").
BYTE_ORDER_MARK = b"\xef\xbb\xbf"


def read_segments(name: str) -> list[str]:
    """The lines of ``name`` (``-`` is standard input) decoded as UTF-8.

    The line break (``\\n`` or ``\\r\\n``) is removed, and a byte order mark
    that starts the file, said once on stderr; nothing else is, so leading and
    trailing spaces reach the tokenizer as they are in the file.
    """
    try:
        data = sys.stdin.buffer.read() if name == STDIN else Path(name).read_bytes()
    except OSError as error:
        raise InputError(f"{name}:0: cannot read: {error.strerror or error}") from None
    if data.startswith(BYTE_ORDER_MARK):
        data = data.removeprefix(BYTE_ORDER_MARK)
        print(f"warning: {name}:1: dropped the UTF-8 byte order mark (U+FEFF) the file "
              "starts with: it is not part of the text", file=sys.stderr)
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


#: How a line of a ROUGE input file separates the sentences of one segment: the
#: two characters backslash, n.
SENTENCE_BREAK = "\\n"
#: How such a line writes a backslash followed by n: backslash, backslash, n.
ESCAPED_BACKSLASH_N = "\\\\n"
_ESCAPES = re.compile(r"\\\\n|\\n")


def unescape_sentence_breaks(line: str) -> str:
    """One line of a text file as the ROUGE segment it writes: each ``\\n``
    (backslash, n) a line break between sentences, each ``\\\\n`` (backslash,
    backslash, n) a backslash followed by n, so that ``C:\\\\new`` reads
    ``C:\\new``.  Read left to right; every other backslash stays as it is."""
    if "\\" not in line:
        return line
    return _ESCAPES.sub(lambda m: "\n" if m.group() == SENTENCE_BREAK else "\\n", line)


def escape_sentence_breaks(text: str) -> str:
    """A segment as one line of a text file, the inverse of
    ``unescape_sentence_breaks``: each line break (``\\r\\n``, ``\\r`` or ``\\n``)
    written ``\\n``, each backslash followed by n written ``\\\\n``.  (A backslash
    right before a line break has no spelling: it reads back as backslash, n.)"""
    text = text.replace(SENTENCE_BREAK, ESCAPED_BACKSLASH_N)
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", SENTENCE_BREAK)


@attrs.frozen
class Corpus:
    """Hypotheses and, per segment, its references (one per reference file).

    ``escaped``: the texts are lines of text files, where a ROUGE segment's
    sentences are separated by the escape ``\\n`` (``unescape_sentence_breaks``);
    False when they hold real line breaks already (JSONL, or after
    ``with_sentence_breaks``)."""

    hyps: tuple[str, ...]
    refs: tuple[tuple[str, ...], ...]
    escaped: bool = True

    def with_sentence_breaks(self) -> Corpus:
        """The corpus as ROUGE reads it: the escapes of text-file lines undone
        (``unescape_sentence_breaks``), since summary-level ROUGE-L needs the
        sentences.  A corpus without escapes is returned as it is."""
        if not self.escaped:
            return self
        return Corpus(
            tuple(unescape_sentence_breaks(h) for h in self.hyps),
            tuple(tuple(unescape_sentence_breaks(r) for r in refs) for refs in self.refs),
            escaped=False,
        )


def read_corpus(hyp_file: str, ref_files: Sequence[str]) -> Corpus:
    """The hypothesis file and its reference files, checked to line up."""
    if not ref_files:
        raise InputError(f"{hyp_file}:0: at least one --ref file is needed")
    from_stdin = [f"--{option} -" for option, name in
                  [("hyp", hyp_file), *(("ref", ref) for ref in ref_files)] if name == STDIN]
    if len(from_stdin) > 1:
        raise InputError(
            f"{STDIN}:0: standard input can be read only once, but {' and '.join(from_stdin)} "
            "each name it; save all but one of these inputs to files"
        )
    hyps = read_segments(hyp_file)
    streams = [read_segments(name) for name in ref_files]
    for name, stream in zip(ref_files, streams, strict=True):
        if len(stream) != len(hyps):
            shorter = min(len(stream), len(hyps)) + 1
            raise InputError(
                f"{name}:{shorter}: has {len(stream)} lines but {hyp_file} has {len(hyps)}"
            )
    return Corpus(tuple(hyps), tuple(zip(*streams, strict=True)) if hyps else ())
