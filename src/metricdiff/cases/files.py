"""Reading the user's hypothesis and reference files: one segment per line, the
whole corpus as one ``Case``; each segment of a corpus as a case of its own
(``line_cases``, what the audit and a lock score), whether it was read from text
files or JSONL (``jsonl.py``).

Every problem becomes an InputError whose message starts with ``file:line:``, so
the command line can print it as one line and exit with status 2.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from metricdiff.cases.case import Case
from metricdiff.errors import InputError, MetricdiffWarning
from metricdiff.input_files import BYTE_ORDER_MARK, STDIN, lines


def iter_segments(name: str, *, start: int = 0, stop: int | None = None,
                  first: int = 1) -> Iterator[str]:
    """The lines of ``name`` (``-`` is standard input) decoded as UTF-8, one at
    a time (``input_files.lines``: each line bounded, a stray carriage return
    refused): the file is never held whole, so memory does not grow with it.

    The line break (``\\n`` or ``\\r\\n``) is removed, and a byte order mark
    that starts the file, with a ``MetricdiffWarning``; nothing else is, so leading and
    trailing spaces reach the tokenizer as they are in the file.  ``start``,
    ``stop`` and ``first``: a part of the file (``input_files.lines``).
    """
    for number, raw in lines(name, start=start, stop=stop, first=first):
        if number == 1 and not start and raw[:3] == BYTE_ORDER_MARK:
            raw = raw[3:]
            warnings.warn(f"{name}:1: dropped the UTF-8 byte order mark (U+FEFF) the file "
                          "starts with: it is not part of the text", MetricdiffWarning,
                          stacklevel=2)
        try:
            yield str(raw, "utf-8")  # decoded from the bytes read, not from a copy
        except UnicodeDecodeError as error:
            raise InputError(
                f"{name}:{number}: not UTF-8 (byte {raw[error.start]:#04x} at column "
                f"{error.start + 1})"
            ) from None


def read_segments(name: str) -> list[str]:
    """Every line of ``name`` (``iter_segments``), in a list."""
    return list(iter_segments(name))


#: One segment as read: the hypothesis and its references.
Segment = tuple[str, tuple[str, ...]]


@attrs.define
class CorpusStream:
    """A user's corpus read one segment at a time (``iter``), never held whole.

    ``read`` counts the segments given out so far.  Input files that do not line
    up are found only at the end: iterating stops at the shortest, and
    ``problem`` then holds the error (``file:line: has N lines but ...``), for
    the caller to raise once it has said what it made of the segments read.
    ``escaped``: the texts are lines of text files (``Case.escaped``)."""

    segments: Iterator[Segment]
    escaped: bool
    read: int = 0
    problem: InputError | None = None

    def __iter__(self) -> Iterator[Segment]:
        for segment in self.segments:
            self.read += 1
            yield segment

    def check(self) -> None:
        """Raise ``problem``, if there is one (call after iterating)."""
        if self.problem is not None:
            raise self.problem

    def case(self) -> Case:
        """The whole corpus as one case (read, then checked to line up)."""
        hyps, refs = [], []
        for hyp, seg_refs in self:
            hyps.append(hyp)
            refs.append(seg_refs)
        self.check()
        return Case(hyps, refs, escaped=self.escaped)


def stream_corpus(hyp_file: str, ref_files: Sequence[str]) -> CorpusStream:
    """The hypothesis file and its reference files, read line by line in step.
    Their texts are the files' lines, escapes and all (``Case.escaped``;
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
    stream = CorpusStream(iter(()), escaped=True)
    stream.segments = _in_step(stream, hyp_file, list(ref_files))
    return stream


def _in_step(stream: CorpusStream, hyp_file: str, ref_files: list[str]) -> Iterator[Segment]:
    """The files' lines in step; when one ends before the others, the rest of
    every file is counted (not kept) so that ``stream.problem`` can say how
    long each is, as if all had been read first."""
    hyps = iter_segments(hyp_file)
    refs = [iter_segments(name) for name in ref_files]
    lines = 0
    for hyp in hyps:
        segment = tuple(next(ref, None) for ref in refs)
        if any(ref is None for ref in segment):
            ended = [lines + (ref is not None) for ref in segment]
            _count_rest(stream, hyp_file, lines + 1 + sum(1 for _ in hyps), ref_files,
                        [done + sum(1 for _ in ref) for done, ref in zip(ended, refs,
                                                                          strict=True)])
            return
        lines += 1
        yield hyp, segment  # type: ignore[misc]  # no None left: checked above
    _count_rest(stream, hyp_file, lines, ref_files,
                [lines + sum(1 for _ in ref) for ref in refs])


def _count_rest(stream: CorpusStream, hyp_file: str, hyp_lines: int, ref_files: list[str],
                ref_lines: list[int]) -> None:
    for name, count in zip(ref_files, ref_lines, strict=True):
        if count != hyp_lines:
            shorter = min(count, hyp_lines) + 1
            stream.problem = InputError(
                f"{name}:{shorter}: has {count} lines but {hyp_file} has {hyp_lines}")
            return


def read_corpus(hyp_file: str, ref_files: Sequence[str]) -> Case:
    """The hypothesis file and its reference files, checked to line up, as one
    case (``stream_corpus``, read whole)."""
    return stream_corpus(hyp_file, ref_files).case()


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
