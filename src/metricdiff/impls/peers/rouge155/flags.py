"""Options to the script's command line, and the numbers it prints."""

from __future__ import annotations

from metricdiff.impls.peers._rouge_common import alpha_of
from metricdiff.profiles import RougeOptions


def _joined(options: RougeOptions) -> bool:
    """Whether a segment is written as one line (one LCS sentence)."""
    return options.variant == "l" or (
        options.variant in ("lsum", "w") and options.sentence_split == "none"
    )


def segment_lines(text: str, options: RougeOptions) -> list[str]:
    if _joined(options):
        return [text.replace("\n", " ")]
    return text.split("\n")


def script_flags(options: RougeOptions) -> list[str]:
    """The script's options for ``options`` (without ``-e``, ``-d``, ``-t``, ``-z``)."""
    variant = options.variant
    if variant == "n":
        flags = ["-n", str(options.n), "-x"]
    elif variant in ("l", "lsum"):
        flags = []
    elif variant == "w":
        flags = ["-w", repr(float(options.weight)), "-x"]
    elif variant == "s":
        flags = ["-2", str(options.skip), "-x"]
    else:
        flags = ["-2", str(options.skip), "-u", "-x"]
    return flags + common_flags(options)


def common_flags(options: RougeOptions) -> list[str]:
    """The options every metric of one run shares: stemming, stopwords,
    truncation, the multi-reference rule and F's alpha."""
    flags = []
    if options.stemmer != "none":
        flags.append("-m")
    if options.stopwords == "smart":
        flags.append("-s")
    unit, _, number = options.truncate.partition(":")
    if number:
        flags += ["-l" if unit == "words" else "-b", number]
    flags += ["-f", "B" if options.multi_ref == "best-recall" else "A"]
    flags += ["-p", repr(alpha_of(options.f_measure))]
    return flags


#: A metric's place in one run's output: ("n", 2), ("l",) (ROUGE-L of the lines
#: as written: rouge-l and rouge-lsum), ("w", 1.2), ("s", -1), ("su", -1).
Method = tuple[str] | tuple[str, int] | tuple[str, float]


def method_of(options: RougeOptions) -> Method:
    variant = options.variant
    if variant == "n":
        return ("n", options.n)
    if variant in ("l", "lsum"):
        return ("l",)
    if variant == "w":
        return ("w", float(options.weight))
    return (variant, options.skip)


def every_method_flags(options: RougeOptions, weighted: bool) -> list[str]:
    """The flags of one run that prints ROUGE-1 to ROUGE-max(2, n), ROUGE-L,
    ROUGE-W (``weighted``: a model without tokens kills it, l. 2454),
    ROUGE-S and ROUGE-SU (``-U``, l. 616-633) with ``options``' weight and skip."""
    order = max(2, options.n) if options.variant == "n" else 2
    flags = ["-n", str(order)]
    if weighted:
        flags += ["-w", repr(float(options.weight))]
    return [*flags, "-2", str(options.skip), "-U", *common_flags(options)]


def printed_method(tag: str, options: RougeOptions) -> Method | None:
    """The method of a tag that a run with ``every_method_flags(options, ...)``
    printed (``ROUGE-2``, ``ROUGE-L``, ROUGE-W with its weight, ``ROUGE-SU*``)."""
    name = tag.removeprefix("ROUGE-")
    if name.isdigit():
        return ("n", int(name))
    if name == "L":
        return ("l",)
    if name.startswith("W-"):
        return ("w", float(options.weight))
    if name.startswith("SU"):
        return ("su", options.skip)
    if name.startswith("S"):
        return ("s", options.skip)
    return None


def method_label(options: RougeOptions) -> str:
    """The method tag the script prints (l. 554-633); ROUGE-W's is a prefix."""
    variant = options.variant
    if variant == "n":
        return f"ROUGE-{options.n}"
    if variant in ("l", "lsum"):
        return "ROUGE-L"
    if variant == "w":
        return "ROUGE-W-"
    distance = str(options.skip) if options.skip >= 0 else "*"
    return f"ROUGE-{'SU' if variant == 'su' else 'S'}{distance}"
