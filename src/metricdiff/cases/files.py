"""Reading the user's hypothesis and reference files: one segment per line, the
whole corpus as one ``Case``; each segment of a corpus as a case of its own
(``line_cases``, what the audit and a lock score), whether it was read from text
files or JSONL (``jsonl.py``).

Every problem becomes an InputError whose message starts with ``file:line:``, so
the command line can print it as one line and exit with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import attrs

from metricdiff.cases.case import Case
from metricdiff.errors import InputError

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


def read_corpus(hyp_file: str, ref_files: Sequence[str]) -> Case:
    """The hypothesis file and its reference files, checked to line up, as one
    case.  Its texts are the files' lines, escapes and all (``Case.escaped``;
    ``Case.for_metric`` undoes them for ROUGE)."""
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
    refs = tuple(zip(*streams, strict=True)) if hyps else ()
    return Case(hyps, refs, escaped=True)


def line_cases(corpus: Case, source: str) -> list[Case]:
    """Each segment of a user's corpus as a case, named after its line in the file
    ``source`` (``h.txt:3``), and the whole corpus (``h.txt:corpus``) as one more
    when it has more than one segment: a corpus of one is that segment again, and
    an empty one has nothing to score.  What the audit and a lock score."""
    name = Path(source).name
    whole = attrs.evolve(corpus, id=f"{name}:corpus", origin="user", klass=name,
                         location=source)
    cases = [
        attrs.evolve(whole, hyps=(hyp,), refs=(refs,), id=f"{name}:{line}",
                     location=f"{source}:{line}")
        for line, (hyp, refs) in enumerate(zip(corpus.hyps, corpus.refs, strict=True), 1)
    ]
    return [*cases, whole] if len(cases) > 1 else cases
