"""What ``metricdiff compare`` finds, as typed values: each implementation's
corpus score, and each pair's gap with the contribution of every axis and the
residual (``corpus.py`` computes them).  ``to_dict`` gives the JSON that
``compare --format json`` prints; its keys are a stable interface."""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

from metricdiff.comparison.attribution import Attribution, Contribution
from metricdiff.impls.text.lost_input import LostInput
from metricdiff.json_values import number as _number
from metricdiff.json_values import text as _text


def signed(value: float) -> str:
    """``+1.25``, ``−4.75`` (a real minus sign), or ``0.00`` for anything that
    rounds to zero, so that float noise never prints as ``−0.00``."""
    text = f"{abs(value):.2f}"
    if text == "0.00":
        return text
    return ("+" if value > 0 else "−") + text


@attrs.frozen
class CorpusScore:
    """One implementation's corpus score (None if it could not score: ``error``
    says why), the signature of the profile it was scored under, and what its
    tokenizer drops of the corpus (``lost``: None if nothing).  ``not_applicable``:
    it has no score because it refuses this input by a documented inability
    (``UnsupportedOption``, e.g. it takes one reference), not because it failed;
    ``error`` then says what it cannot take."""

    impl: str
    signature: str
    score: float | None
    error: str = ""
    lost: LostInput | None = None
    not_applicable: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"score": self.score, "signature": self.signature}
        if self.error:
            data["error"] = self.error
        if self.not_applicable:
            data["not_applicable"] = True
        if self.lost is not None:
            data["lost_input"] = self.lost.to_json()
        return data

    @classmethod
    def from_dict(cls, impl: str, data: dict[str, Any]) -> CorpusScore:
        score = data["score"]
        lost = data.get("lost_input")
        return cls(impl, _text(data["signature"]), None if score is None else _number(score),
                   _text(data.get("error", "")),
                   None if lost is None else LostInput.from_json(lost),
                   data.get("not_applicable") is True)

    def describe(self) -> str:
        """The score as text: ``75.65``, ``could not score: <why>``, or ``not
        applicable: <what it cannot take>``."""
        if self.score is not None:
            return f"{self.score:.2f}"
        return f"{'not applicable' if self.not_applicable else 'could not score'}: {self.error}"


@attrs.frozen
class Gap:
    """``impl_b``'s score minus ``impl_a``'s, attributed to the axes on which
    their profiles differ.  ``attribution`` is None only in a comparison read
    from an older file, where the reference could not be configured as one of
    them (``error`` says why); ``note`` says what the attribution carried (a
    profile between them the reference refuses, a side that declares no
    profile, whose gap is all residual)."""

    impl_a: str
    impl_b: str
    score_a: float
    score_b: float
    attribution: Attribution | None
    error: str = ""
    note: str = ""

    @property
    def delta(self) -> float:
        return self.score_b - self.score_a

    @property
    def residual(self) -> float | None:
        """``(B − ref(B's profile)) − (A − ref(A's profile))``: the part of the
        gap that no declared convention explains."""
        if self.attribution is None:
            return None
        return (self.score_b - self.attribution.end) - (self.score_a - self.attribution.start)

    @property
    def contributions(self) -> dict[str, float]:
        """Axis (or comma-separated group) -> points, largest magnitude first."""
        if self.attribution is None:
            return {}
        return {c.axis: c.points for c in self.attribution.contributions}

    def sentence(self) -> str:
        """The gap in one sentence a paper can quote: ``sacrebleu 75.65 vs nltk
        70.90 (−4.75): tokenize 13a→none −4.75, ..., residual 0.00``."""
        head = (f"{self.impl_a} {self.score_a:.2f} vs {self.impl_b} {self.score_b:.2f} "
                f"({signed(self.delta)})")
        if self.attribution is None:
            return f"{head}: could not attribute: {self.error}"
        parts = [f"{c.axis} {c.before}→{c.after} {signed(c.points)}"
                 for c in self.attribution.contributions] or ["no axis differs"]
        parts.append(f"residual {signed(self.residual or 0.0)}")
        text = f"{head}: {', '.join(parts)}"
        if self.note:
            text += f" ({self.note})"
        if self.attribution.method == "sampled":
            text += (f" (sampled: each contribution within ±{self.attribution.error_bound:.2f} "
                     "with 95% probability)")
        return text

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "impl_a": self.impl_a,
            "impl_b": self.impl_b,
            "delta": self.delta,
            "contributions": self.contributions,
            "residual": self.residual,
            "sentence": self.sentence(),
        }
        found = self.attribution
        if found is not None:
            data["values"] = {c.axis: [c.before, c.after] for c in found.contributions}
            data["reference_a"], data["reference_b"] = found.start, found.end
            if found.method != "exact":
                data["method"] = found.method
                data["error_bound"] = found.error_bound
        if self.error:
            data["error"] = self.error
        if self.note:
            data["note"] = self.note
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], scores: dict[str, CorpusScore]) -> Gap:
        """The gap ``to_dict`` wrote; ``scores``: each implementation's, by name."""
        impl_a, impl_b = _text(data["impl_a"]), _text(data["impl_b"])
        score_a, score_b = scores[impl_a].score, scores[impl_b].score
        if score_a is None or score_b is None:
            raise ValueError(f"a gap between {impl_a} and {impl_b}, one of which has no score")
        attribution = None
        if "reference_a" in data:
            values = data["values"]
            attribution = Attribution(
                _number(data["reference_a"]), _number(data["reference_b"]),
                tuple(Contribution(_text(axis), _text(values[axis][0]), _text(values[axis][1]),
                                   _number(points))
                      for axis, points in data["contributions"].items()),
                _text(data.get("method", "exact")), _number(data.get("error_bound", 0.0)))
        return cls(impl_a, impl_b, score_a, score_b, attribution, _text(data.get("error", "")),
                   _text(data.get("note", "")))


@attrs.frozen
class Detokenized:
    """Each implementation's score on the input detokenized (``detokenized.py``),
    beside its score on the input as given: ``scores``' ``score`` is on the
    detokenized text, ``as_given`` maps each name to the other.  ``tool``,
    ``lang``: the detokenizer and the language it assumed (``assumed``: nobody
    named one); ``sides``: what it detokenized (``hypotheses``, ``references``)."""

    tool: str
    lang: str
    assumed: bool
    sides: tuple[str, ...]
    scores: tuple[CorpusScore, ...]
    as_given: dict[str, float] = attrs.field(hash=False)

    def lines(self) -> list[str]:
        """What the notes say: how, then one line per implementation, e.g.
        ``sacrebleu on detokenized input: 27.31 (as given: 29.02; detokenizing
        moves it −1.71)``."""
        lang = (f"language {self.lang} assumed: --lang, or lang= in Python, names another"
                if self.assumed else f"language {self.lang}")
        lines = [f"on the {' and '.join(self.sides)} detokenized by {self.tool}'s "
                 f"MosesDetokenizer ({lang}):"]
        for entry in self.scores:
            given = self.as_given[entry.impl]
            if entry.score is None:
                lines.append(f"{entry.impl} on detokenized input: {entry.describe()} "
                             f"(as given: {given:.2f})")
            else:
                lines.append(f"{entry.impl} on detokenized input: {entry.score:.2f} (as given: "
                             f"{given:.2f}; detokenizing moves it {signed(entry.score - given)})")
        return lines

    def to_dict(self) -> dict[str, Any]:
        """``detokenized``: one entry per implementation; ``detokenized_with``: how."""
        return {
            "detokenized": [{"impl": entry.impl, **entry.to_dict(),
                             "as_given": self.as_given[entry.impl],
                             "moves": None if entry.score is None
                             else entry.score - self.as_given[entry.impl]}
                            for entry in self.scores],
            "detokenized_with": {"tool": self.tool, "lang": self.lang,
                                 "lang_assumed": self.assumed, "sides": list(self.sides)},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Detokenized | None:
        """What ``to_dict`` wrote into a metric's object, or None when it has none."""
        if "detokenized" not in data:
            return None
        how = data["detokenized_with"]
        entries = data["detokenized"]
        return cls(_text(how["tool"]), _text(how["lang"]), how["lang_assumed"] is True,
                   tuple(_text(side) for side in how["sides"]),
                   tuple(CorpusScore.from_dict(_text(e["impl"]), e) for e in entries),
                   {_text(e["impl"]): _number(e["as_given"]) for e in entries})


@attrs.frozen
class MetricComparison:
    """Every implementation's score on one metric, and every pair's gap."""

    metric: str
    scores: tuple[CorpusScore, ...]
    gaps: tuple[Gap, ...]
    #: What a ROUGE score is here (``f``, ``recall`` or ``precision``); None for BLEU.
    report: str | None = None
    #: Each score again on the input detokenized, when it looked tokenized.
    detokenized: Detokenized | None = None

    def score(self, impl: str) -> CorpusScore:
        found = {entry.impl: entry for entry in self.scores}
        return _named(found, impl, f"took no part in {self.metric}")

    def gap(self, impl_a: str, impl_b: str) -> Gap:
        """The gap from ``impl_a`` to ``impl_b`` (either order)."""
        for found in self.gaps:
            if (found.impl_a, found.impl_b) == (impl_a, impl_b):
                return found
            if (found.impl_b, found.impl_a) == (impl_a, impl_b):
                return _reversed(found)
        raise KeyError(f"no gap between {impl_a!r} and {impl_b!r} in {self.metric}")

    def lost_input_lines(self) -> list[str]:
        """What the tokenizers drop of the corpus: a line per loss, naming who
        suffers it (``rouge-score drops non-ASCII text: ...``), and where more
        than half of a side is lost, that the score is not about this text."""
        losing: dict[str, list[LostInput]] = {}
        for entry in self.scores:
            if entry.lost is not None:
                losing.setdefault(entry.lost.message().removeprefix(entry.impl + " "),
                                  []).append(entry.lost)
        lines = []
        for what, found in losing.items():
            names = [lost.impl for lost in found]
            lines.append(f"{', '.join(names)} "
                         f"{what if len(names) == 1 else what.replace('drops ', 'drop ', 1)}")
            verdict = found[0].verdict(names)
            if verdict is not None:
                lines.append(verdict)
        return lines

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "metric": self.metric,
            "report": self.report,
            "scores": {entry.impl: entry.to_dict() for entry in self.scores},
            "gaps": [gap.to_dict() for gap in self.gaps],
        }
        warnings = self.lost_input_lines()
        if warnings:
            data["warnings"] = warnings
        if self.detokenized is not None:
            data.update(self.detokenized.to_dict())
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MetricComparison:
        scores = {_text(impl): CorpusScore.from_dict(impl, entry)
                  for impl, entry in data["scores"].items()}
        report = data.get("report")
        return cls(_text(data["metric"]), tuple(scores.values()),
                   tuple(Gap.from_dict(gap, scores) for gap in data["gaps"]),
                   None if report is None else _text(report), Detokenized.from_dict(data))


T = TypeVar("T")


def _named(items: dict[str, T], name: str, missing: str) -> T:
    """``items[name]``, or a KeyError that lists the names there are."""
    if name not in items:
        raise KeyError(f"{name!r} {missing} (there are: {', '.join(items)})")
    return items[name]


def _reversed(gap: Gap) -> Gap:
    """The same gap seen from the other side: every sign flips."""
    found = gap.attribution
    if found is not None:
        flipped = tuple(attrs.evolve(c, before=c.after, after=c.before, points=-c.points)
                        for c in found.contributions)
        found = attrs.evolve(found, start=found.end, end=found.start, contributions=flipped)
    return attrs.evolve(gap, impl_a=gap.impl_b, impl_b=gap.impl_a, score_a=gap.score_b,
                        score_b=gap.score_a, attribution=found)


@attrs.frozen
class Comparison:
    """``metricdiff compare``'s answer, metric by metric.  ``to_dict()["metrics"]``
    is what ``compare --format json`` prints."""

    metrics: tuple[MetricComparison, ...]

    def __getitem__(self, metric: str) -> MetricComparison:
        return _named({found.metric: found for found in self.metrics}, metric,
                      "was not compared")

    @property
    def lost_input(self) -> tuple[LostInput, ...]:
        """What each implementation's tokenizer drops of the corpus, once each
        (the ROUGE metrics read the same text alike)."""
        found = (entry.lost for metric in self.metrics for entry in metric.scores)
        return tuple(dict.fromkeys(lost for lost in found if lost is not None))

    def to_dict(self) -> dict[str, Any]:
        return {"metrics": [found.to_dict() for found in self.metrics]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Comparison:
        """What ``to_dict`` gave, read back (a KeyError, TypeError or ValueError
        when it is malformed)."""
        return cls(tuple(MetricComparison.from_dict(found) for found in data["metrics"]))


__all__ = ["Comparison", "CorpusScore", "Detokenized", "Gap", "MetricComparison", "signed"]
