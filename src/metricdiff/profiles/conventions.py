"""The convention vocabulary written out: ``docs/conventions.md`` and the text of
``metricdiff axes``, both generated from the axes themselves so that they can
never say something the code does not do.

Axes are grouped as the options types hold them: those both ``BleuOptions`` and
``RougeOptions`` have, BLEU's own, ROUGE's own; within a group, signature order.
"""

from __future__ import annotations

from metricdiff.profiles.axes import ALL_AXES, Axis
from metricdiff.profiles.bleu import BleuOptions
from metricdiff.profiles.clauses import SPEC_CLAUSES
from metricdiff.profiles.profile import axis_names, signature
from metricdiff.profiles.rouge import RougeOptions

#: How ``docs/conventions.md`` is rebuilt (quoted by its test when it is stale).
REGENERATE = "metricdiff axes --format md > docs/conventions.md"

_FAMILY_TITLES = {"bleu": "BLEU", "rouge": "ROUGE"}

_INTRO = """\
# Convention axes

<!-- Generated from src/metricdiff/profiles/axes*.py by `{regenerate}`;
     edit the axes, not this file. -->

Every BLEU or ROUGE implementation makes choices that the papers leave open or
that differ from them. metricdiff names each such choice an **axis**, with a
fixed set of **values**. These names are public API: they appear in
`-o axis=value` options, in implementations' declared profiles, in signatures,
in findings and in reports. Axes and values are added when new behaviour is
found; none is ever renamed.

The **paper** value follows the papers — Papineni et al. (2002) for BLEU, Lin
(2004) for ROUGE, Chen & Cherry (2014) for smoothing. Where a paper is silent,
it is the value metricdiff's reference takes; the spec clause named with each
axis ([`spec/bleu.md`](../spec/bleu.md), [`spec/rouge.md`](../spec/rouge.md))
says which, and what the peers do. The same text is printed by
`metricdiff axes` (one axis: `metricdiff axes AXIS`).
"""

_SIGNATURES = """\
## Signatures

An implementation plus its values on every axis is a **profile**; written in
one line it is a **signature**: the metric, `impl:` with the implementation's
name and version, then `key:value` for every axis the metric has, in the order
of the table above, with its keys. For example, BLEU with the `13a` tokenizer
and every other axis at its paper value:

```
{example}
```

`metricdiff signature --explain SIGNATURE` reads one back, axis by axis.
"""


def families_of(axis: Axis) -> tuple[str, ...]:
    """The metric families (``bleu``, ``rouge``) whose options have ``axis``."""
    return tuple(
        family for family, options in (("bleu", BleuOptions), ("rouge", RougeOptions))
        if axis.name in axis_names(options)
    )


def axis_groups() -> tuple[tuple[str, tuple[Axis, ...]], ...]:
    """(title, axes) for the shared axes, BLEU's and ROUGE's, in signature order."""
    groups: dict[tuple[str, ...], list[Axis]] = {("bleu", "rouge"): [], ("bleu",): [],
                                                 ("rouge",): []}
    for axis in ALL_AXES:
        groups[families_of(axis)].append(axis)
    return (
        ("Shared by BLEU and ROUGE", tuple(groups["bleu", "rouge"])),
        ("BLEU", tuple(groups["bleu",])),
        ("ROUGE", tuple(groups["rouge",])),
    )


def spec_clauses(axis: Axis) -> tuple[tuple[str, str], ...]:
    """(family, clause ID) of every spec clause that concerns ``axis``."""
    return tuple(
        (family, clause)
        for family, clauses in SPEC_CLAUSES.items()
        for clause, axes in clauses
        if axis.name in axes
    )


def _families_text(axis: Axis) -> str:
    return " and ".join(_FAMILY_TITLES[family] for family in families_of(axis))


# --------------------------------------------------------------------------
# Markdown


def _clause_link(family: str, clause: str) -> str:
    return f"[{clause}](../spec/{family}.md#{clause.lower()})"


def axis_markdown(axis: Axis) -> str:
    """One axis as a section of ``docs/conventions.md``."""
    lines = [f"### `{axis.name}`", "", axis.doc, ""]
    facts = [f"signature key `{axis.short}`", f"used by {_families_text(axis)}",
             f"paper: `{axis.format(axis.paper)}`"]
    clauses = spec_clauses(axis)
    if clauses:
        facts.append("spec: " + ", ".join(_clause_link(f, c) for f, c in clauses))
    lines += ["; ".join(facts) + ".", ""]
    if axis.accepts:
        lines += [f"Values: {axis.accepts}.", ""]
    else:
        lines += ["| value | meaning |", "|---|---|"]
        for value in axis.values:
            mark = " (paper)" if value == axis.paper else ""
            lines.append(f"| `{value}`{mark} | {_cell(axis.value_docs[value])} |")
        lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell."""
    return text.replace("|", "\\|")


def _summary_table() -> str:
    lines = ["| axis | key | used by | paper |", "|---|---|---|---|"]
    for axis in ALL_AXES:
        lines.append(f"| [`{axis.name}`](#{axis.name}) | `{axis.short}` | "
                     f"{_families_text(axis)} | `{axis.format(axis.paper)}` |")
    return "\n".join(lines) + "\n"


def _example_signature() -> str:
    return signature("bleu", "IMPL-VERSION", BleuOptions(tokenize="13a"))


def conventions_markdown() -> str:
    """The whole of ``docs/conventions.md``."""
    parts = [_INTRO.format(regenerate=REGENERATE), _summary_table()]
    for title, axes in axis_groups():
        parts.append(f"## {title}\n")
        parts += [axis_markdown(axis) for axis in axes]
    parts.append(_SIGNATURES.format(example=_example_signature()))
    return "\n".join(parts)


# --------------------------------------------------------------------------
# Plain text (``metricdiff axes``)


def axis_text(axis: Axis) -> str:
    """One axis as ``metricdiff axes`` prints it."""
    lines = [f"{axis.name} (key {axis.short}; {_families_text(axis)}): {axis.doc}",
             f"  paper: {axis.format(axis.paper)}"]
    if axis.accepts:
        lines.append(f"  values: {axis.accepts}")
    else:
        width = max(map(len, axis.values))
        lines += [f"  {value:<{width}}  {axis.value_docs[value]}" for value in axis.values]
    return "\n".join(lines) + "\n"


def axes_text() -> str:
    """Every axis, grouped as in ``docs/conventions.md``."""
    parts = []
    for title, axes in axis_groups():
        parts.append(f"== {title} ==\n")
        parts += [axis_text(axis) for axis in axes]
    return "\n".join(parts)
