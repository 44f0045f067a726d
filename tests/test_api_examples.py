"""The ``Example:`` of each function of the Python API (``metricdiff.api``) runs,
and prints what its docstring shows.  The numbers come from one segment worked
out by hand in ``api/scores.py``'s module docstring (Papineni et al. 2002, eq. 1: BLEU
64.32 under whitespace tokens, 100 under ``tokenize=13a``)."""

from __future__ import annotations

import doctest
import io
from collections.abc import Callable
from typing import Any

import pytest

from metricdiff import api

FUNCTIONS: list[Callable[..., Any]] = [api.score, api.compare, api.audit, api.implementations]


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda function: function.__name__)
def test_the_example_runs_as_shown(function: Callable[..., Any]) -> None:
    assert "\n    Example:\n" in (function.__doc__ or ""), f"{function.__name__} has no Example:"
    [test] = doctest.DocTestFinder(recurse=False).find(function, function.__name__)
    assert len(test.examples) >= 3, test.examples
    said = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=said.write)
    assert result.failed == 0, said.getvalue()
