"""Importing a peer without letting it print on standard output.

A library may print while it is imported: one of jury's dependencies prints
``Error importing huggingface_hub.hf_api: ...`` before it raises.  On standard
output that line would land in the middle of a command's own output and break
``--format json``.  Every import of a peer that metricdiff makes in its own
process goes through here (``Adapter.unavailable_reason``, the isolated peers'
``_isolated.load``): what the import prints is captured and given as one
``MetricdiffWarning`` naming the module, which the command line shows on stderr;
what the import raises is raised as before.  (In a worker process standard
output already goes to stderr: ``scoring/worker.py``.)

What is captured is Python's ``sys.stdout`` (``print``), not the file descriptor:
a C extension writing to it directly is not stopped.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import threading
import warnings
from collections.abc import Iterator
from types import ModuleType

from metricdiff.errors import MetricdiffWarning

#: Longest printed text a warning repeats.
MAX_SAID = 300

#: ``sys.stdout`` is one for the whole process: two threads capturing at once
#: would each put back what the other set.  Re-entrant, for a peer whose import
#: loads another peer.
_LOCK = threading.RLock()


@contextlib.contextmanager
def output_captured(module: str) -> Iterator[None]:
    """What the block prints on ``sys.stdout`` (importing ``module``) kept off it,
    and given as a ``MetricdiffWarning`` once the block is done, raise or not."""
    printed = io.StringIO()
    with _LOCK:
        try:
            with contextlib.redirect_stdout(printed):
                yield
        finally:
            said = " ".join(printed.getvalue().split())
            if said:
                if len(said) > MAX_SAID:
                    said = said[: MAX_SAID - 1] + "…"
                warnings.warn(f"importing {module} printed: {said}", MetricdiffWarning,
                              stacklevel=3)


def import_quietly(module: str) -> ModuleType:
    """``importlib.import_module(module)``, with what it prints captured
    (``output_captured``)."""
    with output_captured(module):
        return importlib.import_module(module)


__all__ = ["MAX_SAID", "import_quietly", "output_captured"]
