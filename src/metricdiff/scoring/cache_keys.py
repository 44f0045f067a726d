"""The keys of the score cache (``cache.py``): everything that decides a peer's
answer to a job, hashed, and the case's digest; None for a job that is never
cached (the reference, a user's own implementation, an irreproducible peer).
The adapter's source digest covers its class's module, its bases' and every
``metricdiff.impls`` module they import, transitively, and the code that judges
an answer."""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import json
import platform
from collections.abc import Sequence
from pathlib import Path

from metricdiff.cases.case import Sample
from metricdiff.impls.reference.adapter import ReferenceBleuAdapter, ReferenceRougeAdapter
from metricdiff.profiles import profile_of
from metricdiff.scoring.chunks import adapter_class
from metricdiff.scoring.jobs import Job


def job_prefix(job: Job) -> str | None:
    """Everything but the case that decides the job's answers, hashed; None for
    a job that is never cached (see the module's docstring)."""
    try:
        cls = adapter_class(job.impl, job.metric, job.adapter_path)
    except Exception:  # the worker will say why; nothing to cache
        return None
    # The reference (exactly its classes: a subclass is someone else's code).
    if cls in (ReferenceBleuAdapter, ReferenceRougeAdapter):
        return None
    if cls.declared.user_profile or not cls.declared.reproducible:
        return None
    try:
        identity = _identity(cls)
    except Exception:  # a version or a source that cannot be read: no caching
        return None
    text = json.dumps([identity, job.impl, job.metric, profile_of(job.options)],
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.cache
def _identity(cls: type) -> list[str]:
    return [f"{cls.__module__}:{cls.__qualname__}", cls().version(), source_digest(cls),
            platform.python_version()]


def row_key(prefix: str, case_digest: str) -> str:
    return hashlib.sha256(f"{prefix} {case_digest}".encode()).hexdigest()[:40]


def case_digest(case: Sample) -> str:
    """A hash of a case's hypotheses and references."""
    text = json.dumps([list(case[0]), [list(seg) for seg in case[1]]], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CaseDigests:
    """Each case's digest, made once per tuple of cases (the audit's jobs share one)."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[Sequence[Sample], list[str]]] = {}
        self._one: dict[int, str] = {}

    def of(self, cases: Sequence[Sample]) -> list[str]:
        kept = self._made.get(id(cases))
        if kept is None or kept[0] is not cases:
            kept = (cases, [case_digest(case) for case in cases])
            self._made[id(cases)] = kept
            for case, digest in zip(cases, kept[1], strict=True):
                self._one[id(case)] = digest
        return kept[1]

    def one(self, case: Sample) -> str:
        return self._one.get(id(case)) or case_digest(case)


#: Modules whose source judges every answer, whatever the adapter.
_ALWAYS = ("metricdiff.scoring.validate", "metricdiff.statistics")


def source_digest(cls: type) -> str:
    """A hash of the adapter's source: the modules of ``cls`` and its bases, and
    every ``metricdiff.impls`` module they import, transitively."""
    wanted = [c.__module__ for c in cls.__mro__ if c.__module__.startswith("metricdiff.")]
    wanted.append(cls.__module__)
    digest = hashlib.sha256()
    for name in sorted(_imported_closure([*wanted, *_ALWAYS])):
        digest.update(name.encode() + b"\0" + _source(name) + b"\0")
    return digest.hexdigest()


def _imported_closure(names: Sequence[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            tree = ast.parse(_source(name))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            todo += [f for f in found
                     if f.startswith("metricdiff.impls") and _spec_file(f) is not None]
    return seen


def _spec_file(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None and spec.origin not in (None, "built-in") else None


@functools.cache
def _source(name: str) -> bytes:
    origin = _spec_file(name)
    if origin is None:
        return b""
    return Path(origin).read_bytes() if origin.endswith(".py") else origin.encode()


__all__ = ["CaseDigests", "case_digest", "job_prefix", "row_key", "source_digest"]
