"""``python:MODULE:FUNCTION``: a Python function, called with the hypotheses,
references and metric, returning a dict of result fields.

Its module is never imported in metricdiff's own process: what metricdiff needs
to know before scoring (whether it loads, the metrics it declares, its version)
comes from ``loading.py`` run as a process of its own, bounded by
``load_timeout`` (a command's ``--timeout``), and the function itself runs in a
worker process (``scoring``), which alone imports it (``LOAD_HERE``).  So
``sys.exit`` or a ``print`` at import, a hang, a ``BaseException`` of the
module's own, are one line about the implementation, never metricdiff exiting,
corrupting its JSON, hanging or printing a traceback.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import math
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from metricdiff.errors import BadSpec
from metricdiff.impls.base import References
from metricdiff.impls.user import loading
from metricdiff.impls.user.base import LOCAL_VERSION, UserAdapter, result_from_fields
from metricdiff.impls.user.spec import PYTHON, split_python
from metricdiff.profiles.metrics import METRICS, Options, Result
from metricdiff.wording import process_end

#: Whether this process may import a user's module itself: a worker process
#: (``scoring.worker`` sets it), which is there to run such code.
LOAD_HERE = False

#: Seconds a user's module may take to load before it counts as hanging: the
#: scoring timeout by default; a command sets its own ``--timeout``.
DEFAULT_LOAD_TIMEOUT = 120.0
_LOAD_TIMEOUT: contextvars.ContextVar[float] = contextvars.ContextVar(
    "metricdiff_load_timeout", default=DEFAULT_LOAD_TIMEOUT)


@contextlib.contextmanager
def load_timeout(seconds: float | None) -> Iterator[None]:
    """Within the block, a user's module that takes longer than ``seconds`` to
    load is unavailable (None: the default)."""
    if seconds is None:
        yield
        return
    token = _LOAD_TIMEOUT.set(seconds)
    try:
        yield
    finally:
        _LOAD_TIMEOUT.reset(token)


@attrs.frozen
class Probe:
    """What loading a ``python:`` spec's function found: ``error`` (None if it
    loads), its ``metrics`` attribute as ``loading.describe_metrics`` describes
    it, its module's ``version`` (None: it states none)."""

    error: str | None
    metrics: dict[str, Any]
    version: str | None


_PROBES: dict[tuple[str, str, tuple[str, ...]], Probe] = {}


def probe(spec: str) -> Probe:
    """What the function the spec (without its prefix) names says about itself:
    loaded here in a worker process, else in a process of its own; remembered."""
    key = (spec, os.getcwd(), tuple(sys.path))
    if key not in _PROBES:
        module, path = split_python(spec)
        found = loading.probe(module, path) if LOAD_HERE else _probe_apart(module, path)
        _PROBES[key] = Probe(found.get("error"), found.get("metrics") or {"kind": "none"},
                             found.get("version"))
    return _PROBES[key]


def _probe_apart(module: str, path: str) -> dict[str, Any]:
    """``loading.probe`` in a process of its own, in a session of its own, killed
    with whatever it started if it does not answer within the load timeout."""
    timeout = _LOAD_TIMEOUT.get()
    wait = None if math.isinf(timeout) else timeout  # --timeout inf: no limit
    read_end, write_end = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", loading.__file__, str(write_end), module, path,
             json.dumps(sys.path)],
            pass_fds=(write_end,), stdin=subprocess.DEVNULL, stdout=2,
            start_new_session=True)
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    with os.fdopen(read_end, "rb") as answer:
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return {"error": f"its import did not finish within {timeout:g} s"}
        finally:  # also when interrupted: nothing is left running
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # and what its import started
            process.wait()
        data = answer.read()
    try:
        found: dict[str, Any] = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {"error": _death(process.returncode)}
    return found


def _death(code: int) -> str:
    return f"{process_end(code)} while loading it"


def load_function(spec: str) -> Callable[..., Any]:
    """The function a ``python:`` spec (without its prefix) names, imported in
    this process: for a worker process, or a caller that chooses to."""
    function: Callable[..., Any] = loading.load_function(*split_python(spec))
    return function


class PythonFunctionAdapter(UserAdapter):
    """A Python function, called with the hypotheses, references and metric."""

    kind = "function"

    def unavailable_reason(self) -> str | None:
        error = probe(self.spec).error
        return None if error is None else f"{self.name}: cannot load it ({error})"

    def version(self) -> str:
        return probe(self.spec).version or LOCAL_VERSION

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: Options
    ) -> Result:
        self.check_metric(metric)
        segments = [[ref for ref in seg if ref is not None] for seg in refs]
        fields = load_function(self.spec)(list(hyps), segments, metric)
        return result_from_fields(self.family, fields)


def declared_metrics(spec: str) -> tuple[str, ...] | None:
    """The metrics the function a ``python:`` spec (without its prefix) names says
    it implements, with its ``metrics`` attribute: a tuple (or list, or set) of
    metric names; None when it says nothing, or cannot be loaded (then it is
    unavailable, and ``unavailable_reason`` says why).  BadSpec, one line, for
    an attribute that is not such a collection (``f.metrics = 5``), a bare string
    (``f.metrics = "bleu"``, whose letters would be taken for names) or a name
    that is no metric (a typo would drop the metric silently)."""
    found = probe(spec)
    if found.error is not None:
        return None
    described, where = found.metrics, f"{PYTHON}{spec}: its metrics attribute"
    kind = described.get("kind")
    if kind == "none":
        return None
    if kind == "text":
        text = described.get("text")
        raise BadSpec(f"{where} is the string {text!r}; give a tuple of metric names, "
                      f"such as ({text!r},)")
    if kind != "names":
        raise BadSpec(f"{where} must be a tuple of metric names, such as ('bleu',), not "
                      f"{described.get('type', 'something else')}")
    names = [str(name) for name in described.get("names", [])]
    unknown = [name for name in names if name not in METRICS]
    if unknown:
        raise BadSpec(f"{where} names {unknown[0]!r}, which is no metric (known: "
                      f"{', '.join(METRICS)})")
    return tuple(metric for metric in METRICS if metric in names)


__all__ = ["DEFAULT_LOAD_TIMEOUT", "LOAD_HERE", "Probe", "PythonFunctionAdapter",
           "declared_metrics", "load_function", "load_timeout", "probe"]
