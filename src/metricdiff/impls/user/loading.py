"""Loading the code of a ``python:MODULE:FUNCTION`` implementation, and what it
says about itself (``probe``): whether it loads, the metrics its ``metrics``
attribute names, its module's ``__version__``.

A user's module runs code when it is imported -- it may print, call
``sys.exit``, hang, or raise anything -- so metricdiff's own process never
imports it: a worker process does, to score (``scoring.worker``), and before
that this file runs as a script of its own, in a process of its own
(``python loading.py ANSWER_FD MODULE FUNCTION SYS_PATH``), which writes what it
found as one JSON object to the file descriptor ``ANSWER_FD`` and nothing else:
what the module prints goes to standard error.  It needs only the standard
library, so that starting it costs a Python start and the user's import alone.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

_FILE_MODULES: dict[Path, ModuleType] = {}
#: The longest text an answer carries (a version, an error message).
_TEXT = 300


def import_module(module: str) -> ModuleType:
    """The module named ``module``, or loaded from the ``.py`` file it names."""
    if module.endswith(".py"):
        path = Path(module).resolve()
        if path not in _FILE_MODULES:
            if not path.is_file():
                raise ImportError(f"no such file: {module}")
            digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
            name = f"metricdiff_user_{path.stem}_{digest}"
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            loaded = importlib.util.module_from_spec(spec)
            sys.modules[name] = loaded  # before running it, as import would
            spec.loader.exec_module(loaded)
            _FILE_MODULES[path] = loaded
        return _FILE_MODULES[path]
    # The current directory counts, as with ``python -m``; last, so that it never
    # hides an installed package.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    return importlib.import_module(module)


def load_function(module_name: str, path: str) -> Any:
    """The callable at the dotted ``path`` in the module ``module_name``."""
    target: Any = import_module(module_name)
    for part in path.split("."):
        if not hasattr(target, part):
            raise ImportError(f"{module_name} has no attribute {path!r}")
        target = getattr(target, part)
    if not callable(target):
        raise ImportError(f"{module_name}:{path} is not callable")
    return target


def probe(module_name: str, path: str) -> dict[str, Any]:
    """What the function says about itself, loaded here: ``error`` (why it cannot
    be loaded, or None), ``metrics`` (its ``metrics`` attribute, described:
    ``{"kind": "none"}``, ``{"kind": "names", "names": [...]}`` for a list, tuple
    or set of strings, ``{"kind": "text", "text": ...}`` for one string,
    ``{"kind": "other", "type": ...}``) and ``version`` (its module's
    ``__version__``, or None).  Whatever the import raises is the answer, a
    ``SystemExit`` or a ``BaseException`` of the module's own included."""
    try:
        function = load_function(module_name, path)
        version = getattr(import_module(module_name), "__version__", None)
        declared = getattr(function, "metrics", None)
    except BaseException as error:
        return {"error": _short(_described(error)), "metrics": {"kind": "none"},
                "version": None}
    return {"error": None, "metrics": describe_metrics(declared),
            "version": None if version is None else _short(str(version))}


def describe_metrics(declared: object) -> dict[str, Any]:
    """A function's ``metrics`` attribute as ``probe`` describes it."""
    if declared is None:
        return {"kind": "none"}
    if isinstance(declared, str):
        return {"kind": "text", "text": _short(declared)}
    if isinstance(declared, (list, tuple, set, frozenset)) and all(
            isinstance(name, str) for name in declared):
        return {"kind": "names", "names": [_short(name) for name in declared]}
    return {"kind": "other", "type": type(declared).__name__}


def _described(error: BaseException) -> str:
    try:
        message = " ".join(str(error).split())
    except Exception:  # a __str__ that raises
        message = "(message unavailable)"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _short(text: str) -> str:
    return text if len(text) <= _TEXT else text[: _TEXT - 1] + "…"


def _main(argv: list[str]) -> None:
    answer_fd, module_name, path, sys_path = argv
    sys.path[:] = json.loads(sys_path)
    os.dup2(2, 1)  # what the module prints is no answer
    answer = json.dumps(probe(module_name, path))
    with os.fdopen(int(answer_fd), "w", encoding="utf-8") as out:
        out.write(answer)
    os._exit(0)  # no exit handler the module registered runs


if __name__ == "__main__":
    _main(sys.argv[1:])
