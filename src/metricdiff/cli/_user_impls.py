"""What ``metricdiff audit`` checks about a user's own implementations
(``--impl python:...``, ``--impl cmd:...``) before it scores anything, so that a
bad spec is one line and exit status 2 rather than an implementation quietly
left out."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from metricdiff.adapters import get_adapter
from metricdiff.adapters.user import is_user_spec
from metricdiff.conventions import ConventionError
from metricdiff.infer import Inference

#: The file ``--out`` gets the inferred profiles in.
INFERRED_NAME = "inferred.json"


def check_user_impls(
    impls: Sequence[str], metrics: Sequence[str], metric_given: bool,
    user_profile: Mapping[str, str],
) -> None:
    """Raise a one-line error for a spec that cannot be read or run, a metric it
    does not implement, or a declared profile (``-o``) with nothing to declare."""
    specs = [name for name in impls if is_user_spec(name)]
    if user_profile and not specs:
        raise ConventionError(
            "-o declares the profile of your own implementation (--impl python:... or "
            "cmd:...); there is none"
        )
    for name in specs:
        offered = [m for m in metrics if m in get_adapter(name, m).metrics]
        if not offered:
            raise ConventionError(f"{name} implements none of: {', '.join(metrics)}")
        if not metric_given and len(offered) > 1:
            raise ConventionError(
                f"--impl {name}: say which metric it computes with --metric"
            )
        for metric in offered:
            adapter = get_adapter(name, metric)
            adapter.ensure_available()
            adapter.options(metric, user_profile)  # an unknown axis or value


def write_inferred(folder: Path, inferred: Sequence[Inference]) -> Path:
    """``inferred.json``: every inferred profile, as ``Inference.to_json``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / INFERRED_NAME
    document = [inference.to_json() for inference in inferred]
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path
