"""A user's own BLEU or ROUGE, driven from a spec string instead of an adapter class
(``--impl python:...`` or ``--impl cmd:...``; see docs/own-implementation.md).

``python:MODULE:FUNCTION``
    MODULE is a dotted module name (importable from ``sys.path`` or the current
    directory) or the path of a ``.py`` file; FUNCTION a function in it (a dotted
    path reaches an attribute: ``Scorer.bleu``).  It is called as::

        FUNCTION(hypotheses: list[str], references: list[list[str]], metric: str) -> dict

    ``hypotheses`` has one segment per item, ``references[i]`` the references of
    segment i (a missing reference is left out), ``metric`` is ``bleu``,
    ``rouge-1`` .. ``rouge-9``, ``rouge-l``, ``rouge-lsum``, ``rouge-w``,
    ``rouge-s`` or ``rouge-su`` (a ROUGE segment may hold several sentences, one
    per line).  It returns the corpus score of all segments together, as a dict
    with the keys of ``metricdiff score --format json``'s ``corpus``:

    * BLEU: ``score`` (0-100, required), ``precisions`` (per order, 0-100),
      ``bp``, ``sys_len``, ``ref_len``, ``counts`` (clipped matches per order,
      before smoothing), ``totals`` (hypothesis n-grams per order);
    * ROUGE: ``fmeasure`` (0-1, required), ``recall``, ``precision``, ``matches``,
      ``hyp_total``, ``ref_total``.

    A key left out is a statistic not reported: never compared, never taken to be
    0.  A key of neither list is refused (a typo would otherwise go unnoticed).
    A sentence score is a call with one segment; the audit calls it once per case.
    An attribute ``metrics`` on the function (a tuple of metric names) says which
    metrics it implements; without one it is offered for every metric.

``cmd:COMMAND [#option=value ...]``
    COMMAND is split into words as a shell would (``shlex``) and run without a
    shell.  Placeholders: ``{hyp}`` is a file of the hypotheses, ``{ref}`` a file
    of the references (one per segment), ``{refs}`` (a word of its own) one file
    per reference, each its own argument; ``< {hyp}`` (or ``< {ref}``) sends that
    file to the program's standard input instead.  The files hold one segment per
    line, the text the reference scores (``command.segment_line``): for ROUGE a
    line break inside a segment written as a literal ``\\n`` and a backslash
    followed by n as ``\\\\n`` (as metricdiff reads ROUGE files), for BLEU a
    line break as a space.  Every segment must have the same number of
    references.  The score is the first group of a regular expression searched
    in standard output (default: the number after ``BLEU =``, ``BLEU:``, ``BLEU
    score =`` or sacrebleu 2's ``BLEU|...|version:2.6.0 =``, or sacrebleu 2's
    JSON; for ROUGE after ``F:``, ``F1 =``, ``F-measure:``, ``fmeasure =`` or
    ``Average_F:``), or the whole output if it is one number; several different
    scores are invalid output, as is one outside its scale.  Words from the
    first one that starts with ``#`` are options:

    * ``#score=REGEX``: the pattern (quote it: ``#score='BLEU = ([0-9.]+)'``);
    * ``#scale=X``: multiply the number read by X (mteval prints BLEU on 0-1:
      ``#scale=100``);
    * ``#digits=N``: the program prints N decimals, so numbers within half a unit
      of the last one are equal (default: the decimals each score is printed
      with: "48.9" stands for 48.85 to 48.95);
    * ``#timeout=S``: seconds the program may take (default 300; at most
      1,000,000).

    An exit status other than 0 is a crash; output without a score is invalid
    output.

A user's implementation has no profile of its own: settings after the spec
(``python:my.py:bleu[tokenize=13a]``, read by ``metricdiff.impls.settings``
before the spec reaches this package) or ``-o axis=value`` declare it, and without
either it is unknown (the paper's stands in, and ``metricdiff audit`` infers the
real one: ``metricdiff.findings.infer``).

The registry asks this package for one thing: ``adapter_class(spec, family)``.
"""

from __future__ import annotations

from typing import Any

import attrs

from metricdiff.errors import BadSpec, CommandFailed
from metricdiff.impls.user.base import (
    LOCAL_VERSION,
    UserAdapter,
    result_from_fields,
)
from metricdiff.impls.user.command import (
    CommandAdapter,
    read_score,
    tolerance_of,
)
from metricdiff.impls.user.python import (
    PythonFunctionAdapter,
    declared_metrics,
    load_function,
)
from metricdiff.impls.user.spec import (
    COMMAND,
    PYTHON,
    is_user_spec,
    parse_command,
    split_python,
)
from metricdiff.profiles.metrics import METRICS, family

_CLASSES: dict[tuple[str, str], type[UserAdapter]] = {}


def _make_class(name: str, family_name: str) -> type[UserAdapter]:
    offered = tuple(m for m in METRICS if family(m) == family_name)
    attributes: dict[str, Any] = {"name": name, "family": family_name}
    if name.startswith(PYTHON):
        spec = name.removeprefix(PYTHON)
        split_python(spec)
        declared = declared_metrics(spec)
        base: type[UserAdapter] = PythonFunctionAdapter
        attributes |= {"spec": spec, "declared": attrs.evolve(
            base.declared, metrics=offered if declared is None else tuple(
                m for m in offered if m in declared), metrics_declared=declared is not None)}
    else:
        spec = name.removeprefix(COMMAND)
        command = parse_command(spec)
        base = CommandAdapter
        attributes |= {"spec": spec, "command": command, "declared": attrs.evolve(
            base.declared, metrics=offered, tolerance=tolerance_of(command, family_name))}
    return type(f"{base.__name__}_{family_name}", (base,), attributes)


def adapter_class(name: str, family_name: str) -> type[UserAdapter] | None:
    """The adapter class of the spec ``name`` for the family ``bleu`` or ``rouge``
    (BadSpec if the spec cannot be read); None if ``name`` is not a ``python:`` or
    ``cmd:`` spec.  One class per spec and family, so that ``type(adapter)()`` --
    how worker processes rebuild an adapter -- gives the same adapter again."""
    if not is_user_spec(name):
        return None
    key = (name, family_name)
    if key not in _CLASSES:
        _CLASSES[key] = _make_class(name, family_name)
    return _CLASSES[key]


__all__ = [
    "COMMAND",
    "LOCAL_VERSION",
    "PYTHON",
    "BadSpec",
    "CommandAdapter",
    "CommandFailed",
    "PythonFunctionAdapter",
    "UserAdapter",
    "adapter_class",
    "is_user_spec",
    "load_function",
    "parse_command",
    "read_score",
    "result_from_fields",
]
