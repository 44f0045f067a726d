"""A pair of implementations derived from their two stars: how often and how
much they differ, and why, found on the reference alone.

Each implementation is explained once, against the paper (``auditing/``).  Where
the reference reproduces both sides of a pair on a case -- each under its own
declared profile, or under the profile a conformance finding names -- their
difference on that case is the reference's under the two profiles: the stars
predict it, and its cause is the fewest axes on which the two profiles part that
turn the reference as one into the other (``findings/cause.py``), searched and
shown on a minimal example with the reference standing in for both sides.  Where
a side is not reproduced, the pair's difference is that side's defect, already
its conformance (or crash) finding: counted here, never a finding of the pair.

``to_json`` is the format of ``pairs.json`` in an audit folder."""

from __future__ import annotations

from typing import Any

import attrs

from metricdiff.findings.finding import Example
from metricdiff.json_values import number as _number
from metricdiff.json_values import text as _text
from metricdiff.wording import plural

#: Why a pair was derived: named with ``--pair``, or one of the largest gaps.
ASKED, LARGEST = "asked", "largest"


@attrs.frozen
class PairCause:
    """One cause of a pair's differences: the axes, the two sides' values, how
    many cases it accounts for and the largest difference among them, shown on
    a minimal example (the reference under the two profiles)."""

    axis: str
    values: tuple[str, str]
    count: int
    max_delta: float
    example: Example

    def describe(self) -> str:
        return f"{self.axis}: {self.values[0]} vs {self.values[1]}"

    def to_json(self) -> dict[str, Any]:
        return {"axis": self.axis, "values": list(self.values), "count": self.count,
                "max_delta": self.max_delta, "example": self.example.to_json()}


@attrs.frozen
class DerivedPair:
    """Two implementations on the cases both scored: on how many they differ,
    how many of those the two stars predict (``predicted``, split by ``causes``)
    and, for the others, which side is not reproduced there (``unpredicted``:
    name -> cases; that side's conformance or crash findings say why)."""

    metric: str
    impl_a: str
    impl_b: str
    why: str
    compared: int
    differing: int
    predicted: int
    unpredicted: dict[str, int]
    causes: tuple[PairCause, ...]

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "impl_a": self.impl_a, "impl_b": self.impl_b,
                "why": self.why, "compared": self.compared, "differing": self.differing,
                "predicted": self.predicted, "unpredicted": dict(self.unpredicted),
                "causes": [cause.to_json() for cause in self.causes]}

    @classmethod
    def from_json(cls, data: dict[str, Any], example: Any) -> DerivedPair:
        """What ``to_json`` wrote; ``example`` reads an example back (the
        report's reader, which knows the metric's result type)."""
        return cls(
            _text(data["metric"]), _text(data["impl_a"]), _text(data["impl_b"]),
            _text(data["why"]), int(_number(data["compared"])),
            int(_number(data["differing"])), int(_number(data["predicted"])),
            {_text(name): int(_number(count)) for name, count in data["unpredicted"].items()},
            tuple(PairCause(_text(cause["axis"]),
                            (_text(cause["values"][0]), _text(cause["values"][1])),
                            int(_number(cause["count"])), _number(cause["max_delta"]),
                            example(cause["example"]))
                  for cause in data["causes"]),
        )


def pair_lines(pair: DerivedPair, causes: int = 5) -> list[str]:
    """A derived pair in a few lines of text: how often the two differ, how much
    of that their profiles predict and by which causes (the ``causes`` most
    frequent), and where a side is not reproduced."""
    head = (f"{pair.impl_a} vs {pair.impl_b} (derived): differ on {pair.differing} of "
            f"{plural(pair.compared, 'case')}")
    if not pair.differing:
        return [head]
    lines = [f"{head}; their profiles predict {pair.predicted}:"]
    lines += [f"  {cause.describe()} ({plural(cause.count, 'case')}, largest difference "
              f"{cause.max_delta:.4g})" for cause in pair.causes[:causes]]
    if len(pair.causes) > causes:
        rest = pair.causes[causes:]
        cases = sum(cause.count for cause in rest)
        lines.append(f"  {plural(len(rest), 'other cause')} ({plural(cases, 'case')})")
    lines += [f"  {plural(count, 'case')} where {name} is not reproduced (its conformance or "
              "crash findings)" for name, count in pair.unpredicted.items()]
    return lines
