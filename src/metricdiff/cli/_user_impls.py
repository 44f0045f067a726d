"""What ``metricdiff audit`` checks about a user's own implementations
(``--impl python:...``, ``--impl cmd:...``) before it scores anything, so that a
bad spec is one line and exit status 2 rather than an implementation quietly
left out."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from metricdiff.atomic import write_atomic
from metricdiff.cli._common import computes
from metricdiff.findings.infer import Inference
from metricdiff.implementations import adapter_for_family, families_of, get_adapter
from metricdiff.implementations.user import PYTHON, declared_metrics, is_user_spec
from metricdiff.profiles import ConventionError

#: The file ``--out`` gets the inferred profiles in.
INFERRED_NAME = "inferred.json"


def check_user_impls(
    impls: Sequence[str], metrics: Sequence[str], metric_given: bool,
    user_profile: Mapping[str, str],
) -> None:
    """Raise a one-line error for a spec that cannot be read or run, one that
    computes none of ``metrics``, one that does not say which metrics it computes
    when ``--metric`` is not given, or a declared profile (``-o``) with nothing to
    declare.  A spec takes part only in the metrics it computes (the audit leaves
    it out of the others, as it does any implementation)."""
    specs = [name for name in impls if is_user_spec(name)]
    if user_profile and not specs:
        raise ConventionError(
            "-o declares the profile of your own implementation (--impl python:... or "
            "cmd:...); there is none"
        )
    for name in specs:
        # Loadable first: a function that cannot be imported says nothing either,
        # and "give --metric" would send its author the wrong way.
        for family_name in families_of(name):
            adapter_for_family(name, family_name).ensure_available()
        if not metric_given and declared_metrics(name) is None:
            what = "function" if name.startswith(PYTHON) else "command"
            raise ConventionError(
                f"{name}: give --metric (the {what} does not say which metrics it "
                "implements)"
            )
        offered = [m for m in metrics if computes(name, m)]
        if not offered:
            raise ConventionError(f"{name} implements none of: {', '.join(metrics)}")
        for metric in offered:
            get_adapter(name, metric).options(metric, user_profile)  # an unknown axis or value


def write_inferred(folder: Path, inferred: Sequence[Inference]) -> Path:
    """``inferred.json``: every inferred profile, as ``Inference.to_json``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / INFERRED_NAME
    document = [inference.to_json() for inference in inferred]
    write_atomic(path, json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    return path
