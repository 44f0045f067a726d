"""Hypotheses and references as a Python caller gives them, checked and read
per segment: the one reading of ``refs`` for the API (``api/``) and the pytest
plugin's fixture (``locks/pytest_plugin.py``).

References come per segment, as in Hugging Face ``evaluate``: ``refs[i]`` is the
list of references of ``hyps[i]``.  Reference streams as sacrebleu takes them
(one list per reference set, each as long as ``hyps``) go only through
``ref_streams``.  Nothing is guessed from the shape: a shape that does not fit is
refused with an ``InputError`` that names the other keyword.
"""

from __future__ import annotations

from collections.abc import Sequence

from metricdiff.cases.case import References, Sample
from metricdiff.errors import InputError
from metricdiff.input_files import lone_surrogate


def _preview(text: str) -> str:
    return text if len(text) <= 20 else text[:19] + "…"


def _texts(name: str, values: object) -> tuple[str, ...]:
    """A list of strings, or an InputError naming ``name``."""
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InputError(f"{name} must be a list of strings, one per segment, "
                         f"not {type(values).__name__}")
    for index, value in enumerate(values):
        _text(value, f"{name}[{index}]")
    return tuple(values)


def _text(value: object, name: str) -> str:
    """``value``, a string that UTF-8 can write (no lone surrogate), or an
    InputError naming ``name``."""
    if not isinstance(value, str):
        raise InputError(f"{name} is {type(value).__name__}, not a string")
    at = lone_surrogate(value)
    if at is not None:
        raise InputError(f"{name} holds a lone surrogate (\\u{ord(value[at]):04x}) at "
                         f"character {at + 1}: it is no Unicode text")
    return value


def per_segment(
    hyps: Sequence[str], refs: References | None = None,
    ref_streams: Sequence[Sequence[str]] | None = None,
) -> Sample:
    """``hyps`` and each segment's references, checked: exactly one of ``refs``
    (per segment) and ``ref_streams`` (per reference set), of matching lengths."""
    hyps = _texts("hyps", hyps)
    if (refs is None) == (ref_streams is None):
        raise InputError("give refs (refs[i]: the references of hyps[i]) or ref_streams= "
                         "(one list per reference set, as in sacrebleu), exactly one of them")
    if ref_streams is not None:
        if isinstance(ref_streams, str) or not isinstance(ref_streams, Sequence):
            raise InputError("ref_streams must be a list of reference streams (lists of strings)")
        streams = [_texts(f"ref_streams[{i}]", s) for i, s in enumerate(ref_streams)]
        for i, stream in enumerate(streams):
            if len(stream) != len(hyps):
                raise InputError(f"ref_streams[{i}] has {len(stream)} references but hyps has "
                                 f"{len(hyps)}: every stream has one reference per segment")
        return hyps, tuple(zip(*streams, strict=True)) if streams and hyps else ()
    assert refs is not None
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise InputError("refs must be a list with one list of references per segment")
    if len(refs) != len(hyps):
        raise InputError(
            f"refs has {len(refs)} entries but hyps has {len(hyps)}: refs[i] is the list of "
            "references of hyps[i]; for reference streams as in sacrebleu use ref_streams=")
    checked = []
    for i, seg in enumerate(refs):
        if isinstance(seg, str):
            raise InputError(
                f"refs[{i}] is a string; refs[i] must be the list of references of hyps[i], "
                f"e.g. [{_preview(seg)!r}] (for reference streams use ref_streams=)")
        if not isinstance(seg, Sequence) or any(r is not None and not isinstance(r, str)
                                                for r in seg):
            raise InputError(f"refs[{i}] must be a list of strings (None: a missing reference)")
        for j, ref in enumerate(seg):
            if ref is not None:
                _text(ref, f"refs[{i}][{j}]")
        checked.append(tuple(seg))
    return hyps, tuple(checked)


__all__ = ["per_segment"]
