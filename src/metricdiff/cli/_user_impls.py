"""What ``metricdiff audit`` checks about the implementations it is given
(``--impl``) before it scores anything, so that a bad spec is one line and exit
status 2 rather than an implementation quietly left out; and writing
``inferred.json``, the profiles it inferred of a user's own implementations."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from metricdiff.atomic import write_atomic
from metricdiff.findings.infer import Inference
from metricdiff.impls import adapter_for_family, computes, families_of, resolve
from metricdiff.impls.settings import parse_spec
from metricdiff.profiles import ConventionError

#: The file ``--out`` gets the inferred profiles in.
INFERRED_NAME = "inferred.json"


def check_impls(
    specs: Sequence[str], metrics: Sequence[str], metric_given: bool,
    user_profile: Mapping[str, str],
) -> list[str]:
    """The specs, each written canonically and once, after a one-line error for:
    an unknown name or axis; a setting one cannot honour on a metric it computes;
    a user's own spec (``python:``, ``cmd:``) that cannot be read or loaded, that
    computes none of ``metrics``, or that does not say which metrics it computes
    when ``--metric`` is not given; a declared profile (``-o``) with no user's
    own implementation to declare it of.  An implementation takes part only in
    the metrics it computes (the audit leaves it out of the others)."""
    canonical = list(dict.fromkeys(parse_spec(spec).text for spec in specs))
    own = []
    for spec in canonical:
        adapters = [adapter_for_family(spec, f) for f in families_of(spec)]
        if any(adapter.declared.user_profile for adapter in adapters):
            own.append(spec)
            # Loadable first: a function that cannot be imported says nothing either,
            # and "give --metric" would send its author the wrong way.
            for adapter in adapters:
                adapter.ensure_available()
            if not metric_given and not all(a.declared.metrics_declared for a in adapters):
                raise ConventionError(
                    f"{spec}: give --metric (the {adapters[0].kind} does not say which "
                    "metrics it implements)"
                )
        offered = [metric for metric in metrics if computes(spec, metric)]
        if not offered and spec in own:
            raise ConventionError(f"{spec} implements none of: {', '.join(metrics)}")
        for metric in offered:  # an axis or value it cannot honour
            resolve(spec, metric).options(metric, user_profile if spec in own else {})
    if user_profile and not own:
        raise ConventionError(
            "-o declares the profile of your own implementation (--impl python:... or "
            "cmd:...); there is none (to set an axis of another implementation, give it "
            "with the name: --impl 'rouge-score[stemmer=porter-nltk]')"
        )
    return canonical


def inferred_text(inferred: Sequence[Inference]) -> str:
    """The text of ``inferred.json``: every inferred profile, as ``Inference.to_json``."""
    document = [inference.to_json() for inference in inferred]
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def write_inferred(folder: Path, inferred: Sequence[Inference]) -> Path:
    """``inferred.json`` in ``folder`` (``inferred_text``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / INFERRED_NAME
    write_atomic(path, inferred_text(inferred))
    return path
