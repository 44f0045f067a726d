"""Options as profiles: overriding axes from ``-o axis=value`` text, listing the
values on every axis, and writing the one-line signature and reading it back."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TypeVar

import attrs

from metricdiff.errors import ConventionError
from metricdiff.profiles.axes import AXES, axis_named

Options = TypeVar("Options", bound=attrs.AttrsInstance)


def axis_names(options_type: type[attrs.AttrsInstance]) -> tuple[str, ...]:
    """The axes an options type has, in signature order."""
    return tuple(field.name for field in attrs.fields(options_type))


def with_overrides(options: Options, overrides: Mapping[str, str]) -> Options:
    """``options`` with the axes in ``overrides`` (axis name -> text) replaced.

    Raises ConventionError naming the axis when a name or value is unknown or the
    result is inconsistent (for instance four weights with max_order=2).
    """
    known = axis_names(type(options))
    changes = {}
    for name, text in overrides.items():
        axis = axis_named(name)
        if name not in known:
            raise ConventionError(f"axis {name!r} does not apply to this metric")
        changes[name] = axis.parse(text)
    try:
        evolved: Options = attrs.evolve(options, **changes)  # type: ignore[misc]
        return evolved
    except (TypeError, ValueError) as error:
        raise ConventionError(str(error)) from None


def profile_of(options: attrs.AttrsInstance) -> dict[str, str]:
    """Every axis of ``options`` with its value written as text."""
    try:
        return dict(_profile_items(options))  # type: ignore[arg-type]
    except TypeError:  # options with an unhashable value: written out afresh
        return dict(_written(options))


def _written(options: attrs.AttrsInstance) -> tuple[tuple[str, str], ...]:
    return tuple(
        (name, AXES[name].format(value))
        for name, value in attrs.asdict(options, recurse=False).items()
    )


# Remembered: the audit writes the same few profiles out thousands of times (the
# explainer's causes, the journal's keys); options are frozen, so the text is
# a function of them.  A fresh dict per call, so callers may change theirs.
_profile_items = lru_cache(maxsize=1 << 12)(_written)


def signature(metric: str, impl: str, options: attrs.AttrsInstance) -> str:
    """The one-line signature, e.g. ``bleu|impl:sacrebleu-2.6.0|tok:13a|...``."""
    parts = [metric, f"impl:{impl}"]
    parts += [f"{AXES[name].short}:{text}" for name, text in profile_of(options).items()]
    return "|".join(parts)


#: The component that stands for every axis when the profile is unknown.
UNKNOWN_PROFILE = "profile:unknown"


def unknown_signature(metric: str, impl: str) -> str:
    """The signature of a score whose conventions nobody declared (a user's own
    implementation without ``-o``): ``bleu|impl:python:my.py:bleu-local|profile:unknown``.
    Stating the paper's axes instead would claim what nobody knows."""
    return f"{metric}|impl:{impl}|{UNKNOWN_PROFILE}"


#: Components a shortened signature may carry in place of the axes it leaves out.
_ELISIONS = ("…", "...")


@attrs.frozen
class ParsedSignature:
    """A signature read back: the metric, the implementation (``name-version``,
    None if the signature omits it) and each axis it states, by axis name, with
    the value in the canonical text ``signature`` writes.  A shortened signature
    (as papers print them) states only some axes.  ``profile_unknown``: the
    signature says ``profile:unknown`` (``unknown_signature``), and ``profile`` is
    empty because there is nothing to state."""

    metric: str
    impl: str | None
    profile: dict[str, str]
    profile_unknown: bool = False
    #: Whose signature it was: ``metricdiff`` or ``sacrebleu``.
    source: str = "metricdiff"
    #: A sacrebleu signature's fields that are no convention axis, with what they
    #: say: ``nrefs``, the resampling's ``bs``/``ar``/``seed``, the test set's name.
    extra: dict[str, str] = attrs.field(factory=dict)


def _short_names() -> dict[str, str]:
    return {axis.short: axis.name for axis in AXES.values()}


def parse_signature(text: str) -> ParsedSignature:
    """The inverse of ``signature`` and ``unknown_signature``:
    ``bleu|impl:sacrebleu-2.6.0|tok:13a|...`` or ``bleu|impl:...|profile:unknown``;
    and sacrebleu's own signatures, read as our axes (``sacrebleu_signature``):
    ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``, its short form
    ``#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0`` and sacrebleu 1's
    ``BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.4.14``.

    Axes may be missing or elided with ``…``; an unknown key, an unknown value, a
    key given twice, or ``profile:unknown`` together with axes raises
    ConventionError.  Whether the metric name and the axes fit together is left to
    the caller (``metricdiff.profiles.metrics`` knows that).
    """
    if is_sacrebleu_signature(text):
        return sacrebleu_signature(text)
    metric, *components = [part.strip() for part in text.strip().split("|")]
    if not metric or ":" in metric:
        raise ConventionError(
            f"signature {text.strip()[:40]!r} must start with the metric name, e.g. 'bleu|...'"
        )
    shorts = _short_names()
    impl: str | None = None
    profile: dict[str, str] = {}
    unknown = False
    for component in components:
        if component in _ELISIONS:
            continue
        key, sep, value = component.partition(":")
        if not sep:
            raise ConventionError(f"signature component {component!r}: expected KEY:VALUE")
        if key == "impl":
            if impl is not None:
                raise ConventionError("signature gives 'impl' twice")
            impl = value
            continue
        if key == "profile":
            if component != UNKNOWN_PROFILE:
                raise ConventionError(
                    f"signature component {component!r}: the only profile is "
                    f"{UNKNOWN_PROFILE!r}; state axes as KEY:VALUE"
                )
            if unknown:
                raise ConventionError(f"signature gives {UNKNOWN_PROFILE!r} twice")
            unknown = True
            continue
        if key not in shorts:
            raise ConventionError(
                f"unknown signature key {key!r} (known: impl, profile, {', '.join(shorts)})"
            )
        axis = AXES[shorts[key]]
        if axis.name in profile:
            raise ConventionError(f"signature gives {key!r} ({axis.name}) twice")
        profile[axis.name] = axis.format(axis.parse(value))
    if unknown and profile:
        raise ConventionError(
            f"signature says {UNKNOWN_PROFILE!r} but also states "
            f"{', '.join(profile)}: it is one or the other"
        )
    return ParsedSignature(metric, impl, profile, profile_unknown=unknown)


# ---------------------------------------------------------------- sacrebleu's


#: sacrebleu's keys (long and short, sacrebleu 1's too) by the name used here.
_SACREBLEU_KEYS = {
    "nrefs": "nrefs", "#": "nrefs", "numrefs": "nrefs",
    "case": "case", "c": "case",
    "eff": "eff", "e": "eff",
    "tok": "tok",
    "smooth": "smooth", "s": "smooth",
    "version": "version", "v": "version",
    "bs": "bs", "ar": "ar", "seed": "seed", "rs": "seed",
    "test": "test", "t": "test", "lang": "lang", "l": "lang", "subset": "subset",
    "S": "subset", "origlang": "origlang", "o": "origlang",
}
#: sacrebleu's other metrics' keys: chrF (nc, nw, space) and TER (tok is shared).
_OTHER_METRICS = {"nc": "chrF", "nw": "chrF", "space": "chrF", "norm": "TER",
                  "punct": "TER", "asian": "TER"}
#: sacrebleu's tokenizer names -> the tokenize axis (its zh is metricdiff's
#: zh-sacrebleu; the MeCab ones carry their dictionary's version).
_SACREBLEU_TOKENIZERS = {"13a": "13a", "intl": "intl", "zh": "zh-sacrebleu", "char": "char",
                         "none": "none", "ja-mecab": "ja-mecab", "ko-mecab": "ko-mecab"}


def is_sacrebleu_signature(text: str) -> bool:
    """Whether ``text`` is written the way sacrebleu writes signatures: no metric
    name in front and a key only sacrebleu uses (``nrefs:1|...``, ``case:``,
    ``version:``), or sacrebleu 1's ``BLEU+case.mixed+...``."""
    components = [part.strip() for part in text.strip().split("|")]
    if text.strip().startswith("BLEU+"):
        return True
    ours = {axis.short for axis in AXES.values()}
    theirs = (set(_SACREBLEU_KEYS) | set(_OTHER_METRICS)) - ours
    return ":" in components[0] and any(
        part.partition(":")[0] in theirs for part in components)


def _sacrebleu_fields(text: str) -> list[tuple[str, str]]:
    text = text.strip()
    if text.startswith("BLEU+"):
        return [part.partition(".")[::2] for part in text.split("+")[1:]]
    fields = []
    for component in text.split("|"):
        key, sep, value = component.strip().partition(":")
        if not sep:
            raise ConventionError(f"sacrebleu signature component {component.strip()!r}: "
                                  "expected KEY:VALUE")
        fields.append((key, value))
    return fields


def sacrebleu_signature(text: str) -> ParsedSignature:
    """A sacrebleu BLEU signature read as metricdiff's axes: ``case`` is
    ``lowercase`` (mixed: none, lc: unicode), ``eff`` is ``empty_order`` (no:
    zero, yes: effective-order), ``tok`` is ``tokenize`` (with ``entities=keep``
    for intl, as sacrebleu's intl leaves them), ``smooth`` is ``smoothing`` and,
    in brackets, ``smooth_value``; ``version`` names the implementation
    (``sacrebleu-2.6.0``).  ``nrefs``, ``bs``, ``ar``, ``seed`` and the test set's
    fields are no axis: they are kept in ``extra``.  A chrF or TER signature, an
    unknown key or a tokenizer metricdiff cannot run is a ConventionError."""
    profile: dict[str, str] = {}
    extra: dict[str, str] = {}
    version = None
    for key, value in _sacrebleu_fields(text):
        if key in _OTHER_METRICS:
            raise ConventionError(f"{text.strip()[:40]!r} is a sacrebleu {_OTHER_METRICS[key]} "
                                  "signature; metricdiff knows BLEU and ROUGE")
        name = _SACREBLEU_KEYS.get(key)
        if name is None:
            raise ConventionError(f"unknown sacrebleu signature key {key!r} (known: "
                                  f"{', '.join(sorted(set(_SACREBLEU_KEYS.values())))})")
        if name == "version":
            version = value
        elif name == "case":
            profile["lowercase"] = {"mixed": "none", "lc": "unicode"}.get(value, "")
        elif name == "eff":
            profile["empty_order"] = {"no": "zero", "yes": "effective-order"}.get(value, "")
        elif name == "tok":
            profile.update(_sacrebleu_tokenizer(value))
        elif name == "smooth":
            method, _, number = value.partition("[")
            profile["smoothing"] = method
            if number:
                profile["smooth_value"] = number.rstrip("]")
        else:
            extra[name] = value
    for axis, value in list(profile.items()):
        if value == "":
            raise ConventionError(f"sacrebleu signature: cannot read its {axis} value")
        profile[axis] = AXES[axis].format(AXES[axis].parse(value))
    impl = f"sacrebleu-{version}" if version else "sacrebleu"
    ordered = {axis: profile[axis] for axis in AXES if axis in profile}
    return ParsedSignature("bleu", impl, ordered, source="sacrebleu", extra=extra)


def _sacrebleu_tokenizer(value: str) -> dict[str, str]:
    for prefix in ("ja-mecab", "ko-mecab"):
        if value.startswith(prefix):
            return {"tokenize": prefix}
    if value not in _SACREBLEU_TOKENIZERS:
        raise ConventionError(f"sacrebleu's tokenizer {value!r} has no tokenize value here "
                              f"(known: {', '.join(_SACREBLEU_TOKENIZERS)}; spm and flores "
                              "download a model)")
    chosen = {"tokenize": _SACREBLEU_TOKENIZERS[value]}
    if value == "intl":
        chosen["entities"] = "keep"
    return chosen
