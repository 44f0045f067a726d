"""``python:MODULE:FUNCTION``: a Python function, called with the hypotheses,
references and metric, returning a dict of result fields."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from metricdiff.impls.base import References
from metricdiff.impls.user.base import LOCAL_VERSION, UserAdapter, result_from_fields
from metricdiff.impls.user.spec import split_python
from metricdiff.profiles.metrics import METRICS, Options, Result

_FILE_MODULES: dict[Path, ModuleType] = {}


def _import(module: str) -> ModuleType:
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


def load_function(spec: str) -> Callable[..., Any]:
    """The function a ``python:`` spec (without its prefix) names."""
    module_name, path = split_python(spec)
    target: Any = _import(module_name)
    for part in path.split("."):
        if not hasattr(target, part):
            raise ImportError(f"{module_name} has no attribute {path!r}")
        target = getattr(target, part)
    if not callable(target):
        raise ImportError(f"{module_name}:{path} is not callable")
    return target  # type: ignore[no-any-return]


class PythonFunctionAdapter(UserAdapter):
    """A Python function, called with the hypotheses, references and metric."""

    kind = "function"

    def unavailable_reason(self) -> str | None:
        try:
            load_function(self.spec)
        except Exception as error:  # any import failure makes it unusable
            return f"{self.name}: cannot load it ({type(error).__name__}: {error})"
        return None

    def version(self) -> str:
        try:
            module = _import(split_python(self.spec)[0])
        except Exception:  # unavailable_reason says why
            return LOCAL_VERSION
        return str(getattr(module, "__version__", LOCAL_VERSION))

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: Options
    ) -> Result:
        self.check_metric(metric)
        segments = [[ref for ref in seg if ref is not None] for seg in refs]
        fields = load_function(self.spec)(list(hyps), segments, metric)
        return result_from_fields(self.family, fields)


def declared_metrics(spec: str) -> tuple[str, ...] | None:
    """The metrics the function a ``python:`` spec (without its prefix) names says
    it implements, with its ``metrics`` attribute; None when it says nothing, or
    cannot be loaded (then it is unavailable, and ``unavailable_reason`` says why)."""
    try:
        declared = getattr(load_function(spec), "metrics", None)
    except Exception:  # whatever its import raises
        return None
    return None if declared is None else tuple(m for m in METRICS if m in tuple(declared))
