"""Reading a corpus kept as JSON Lines: one JSON object per line, one segment each.

Each object holds the hypothesis under ``hyp_field`` (a string) and the
references under ``ref_field``: a string (one reference) or a list of strings
(several; segments may differ in how many).  A summary's sentences are separated
by line breaks inside the string (``"\\n"`` in the JSON), as rouge-score's
ROUGE-Lsum expects; unlike a text file's lines, nothing else is unescaped, so a
JSON ``"C:\\\\new"`` is the text ``C:\\new``.  Other keys are ignored.

Every problem is an InputError whose message starts with ``file:line:``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from metricdiff.cases.case import Case
from metricdiff.cases.files import CorpusStream, Segment, iter_segments
from metricdiff.errors import InputError
from metricdiff.input_files import Unreadable, load_json, lone_surrogate

#: The keys read when ``--hyp-field`` and ``--ref-field`` are not given.
DEFAULT_HYP_FIELD = "hyp"
DEFAULT_REF_FIELD = "ref"


def read_jsonl(
    name: str, hyp_field: str = DEFAULT_HYP_FIELD, ref_field: str = DEFAULT_REF_FIELD
) -> Case:
    """The corpus of the JSONL file ``name`` (``-`` is standard input), as one
    case (``stream_jsonl``, read whole)."""
    return stream_jsonl(name, hyp_field, ref_field).case()


def stream_jsonl(
    name: str, hyp_field: str = DEFAULT_HYP_FIELD, ref_field: str = DEFAULT_REF_FIELD
) -> CorpusStream:
    """The corpus of the JSONL file ``name`` (``-`` is standard input), read one
    record at a time.

    Empty lines at the end of the file are allowed; an empty line between
    records is an error, so that record *k* is always line *k* (the audit and
    score locks name segments by line).
    """
    return CorpusStream(_records(name, hyp_field, ref_field), escaped=False)


def _records(name: str, hyp_field: str, ref_field: str) -> Iterator[Segment]:
    blank = 0  # the first of the empty lines just read, if any
    for number, line in enumerate(iter_segments(name), start=1):
        if not line.strip():
            blank = blank or number
            continue
        where = f"{name}:{blank or number}"
        record = _record("" if blank else line, where)
        yield _hypothesis(record, hyp_field, where), _references(record, ref_field, where)


def _record(line: str, where: str) -> dict[str, object]:
    if not line.strip():
        raise InputError(f"{where}: empty line (JSONL holds one JSON object per line; "
                         "remove the line)")
    try:
        record = load_json(line, unique_keys=True)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{where}: not JSON ({error.msg} at column {error.colno}); each line must be "
            "one JSON object"
        ) from None
    except Unreadable as error:
        raise InputError(f"{where}: {error}") from None
    if not isinstance(record, dict):
        raise InputError(
            f"{where}: a JSON {_kind(record)}, not an object; each line must be one "
            'JSON object such as {"hyp": "...", "ref": "..."}'
        )
    return record


def _field(record: dict[str, object], field: str, option: str, where: str) -> object:
    if field not in record:
        keys = ", ".join(sorted(record)) or "none"
        raise InputError(
            f"{where}: no field {field!r} (this line has: {keys}); choose the field with "
            f"{option}"
        )
    return record[field]


def _hypothesis(record: dict[str, object], field: str, where: str) -> str:
    value = _field(record, field, "--hyp-field", where)
    if not isinstance(value, str):
        raise InputError(
            f"{where}: field {field!r} is a JSON {_kind(value)}; the hypothesis must be a "
            "string"
        )
    return _text(value, f"field {field!r}", where)


def _references(record: dict[str, object], field: str, where: str) -> tuple[str, ...]:
    value = _field(record, field, "--ref-field", where)
    if isinstance(value, str):
        return (_text(value, f"field {field!r}", where),)
    if not isinstance(value, list):
        raise InputError(
            f"{where}: field {field!r} is a JSON {_kind(value)}; the references must be a "
            "string or a list of strings"
        )
    if not value:
        raise InputError(f"{where}: field {field!r} is an empty list; give at least one "
                         "reference")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise InputError(
                f"{where}: field {field!r}, item {index}, is a JSON {_kind(item)}; every "
                "reference must be a string"
            )
        _text(item, f"field {field!r}, item {index},", where)
    return tuple(value)


def _text(value: str, what: str, where: str) -> str:
    """``value``, unless it holds a lone surrogate (``input_files.lone_surrogate``)."""
    at = lone_surrogate(value)
    if at is not None:
        raise InputError(
            f"{where}: {what} holds a lone surrogate (\\u{ord(value[at]):04x}) at character "
            f"{at + 1}: no Unicode text has one (a \\uXXXX escape of half a UTF-16 pair?)")
    return value


def _kind(value: object) -> str:
    """The JSON name of a decoded value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


__all__ = ["DEFAULT_HYP_FIELD", "DEFAULT_REF_FIELD", "read_jsonl", "stream_jsonl"]
