"""Deprecated import paths: ``metricdiff.implementations.X`` is ``metricdiff.impls.X``.

The package was renamed so that ``metricdiff.implementations`` can be the API
function it is documented as.  Until the next release, importing a module under
the old name gives the module under the new one (the same object, so classes
keep their identity: an adapter subclassing the old ``base.Adapter`` is an
``Adapter``) with a ``DeprecationWarning``.  Adapter authors import from
``metricdiff.plugin`` instead.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Sequence
from typing import Any

OLD, NEW = "metricdiff.implementations", "metricdiff.impls"


def _warn(name: str) -> None:
    # Point the warning at the importing line, past this module's frames
    # (``warnings`` itself steps over importlib's), so that the default
    # filters, which show it in __main__ and in tests, apply.
    frame, level = sys._getframe(1), 2
    while frame.f_back is not None and (
        frame.f_code.co_filename.startswith("<frozen importlib") or frame.f_globals is globals()
    ):
        if frame.f_globals is globals():
            level += 1
        frame = frame.f_back
    warnings.warn(
        f"{name} is deprecated: import {name.replace(OLD, NEW, 1)} instead "
        "(or, for an adapter, metricdiff.plugin); the old path goes in the next release",
        DeprecationWarning, stacklevel=level,
    )


class _Renamed(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``metricdiff.implementations.X`` as the module ``metricdiff.impls.X``."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(OLD + "."):
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        _warn(spec.name)
        return importlib.import_module(spec.name.replace(OLD, NEW, 1))

    def exec_module(self, module: types.ModuleType) -> None:
        # Importing this shim made ``metricdiff.implementations`` the shim
        # module; hand the name back to the API function it is documented as.
        vars(sys.modules["metricdiff"]).pop("implementations", None)


if not any(isinstance(finder, _Renamed) for finder in sys.meta_path):
    sys.meta_path.append(_Renamed())

#: A package for the import system, so that its submodules are looked for.
__path__: list[str] = []

_warn(OLD)


def __getattr__(name: str) -> Any:
    return getattr(importlib.import_module(NEW), name)
