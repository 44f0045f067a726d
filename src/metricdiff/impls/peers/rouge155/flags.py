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
