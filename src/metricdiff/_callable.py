"""A package that is also a function: ``metricdiff.audit(...)`` and
``metricdiff.implementations()`` are the Python API (``metricdiff.api``), while
``metricdiff.audit`` and ``metricdiff.implementations`` stay the packages the
code imports from (``import metricdiff.audit.metric`` keeps working).  Python
lets a module's class be a subclass of ModuleType; this one adds ``__call__``."""

from __future__ import annotations

import sys
import types
from typing import Any


def make_callable(package: str, function: str) -> None:
    """Calling the module ``package`` calls ``metricdiff.api.<function>``."""

    class CallablePackage(types.ModuleType):
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            from metricdiff import api

            return getattr(api, function)(*args, **kwargs)

    CallablePackage.__call__.__doc__ = f"metricdiff.api.{function}: see its documentation."
    sys.modules[package].__class__ = CallablePackage
