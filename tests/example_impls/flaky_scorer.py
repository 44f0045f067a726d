"""A program that misbehaves on purpose, for ``tests/impls/user/test_user_impls.py``:
``python flaky_scorer.py HYP REF`` exits with status 3 when a hypothesis
contains CRASH, prints no number when one contains GARBAGE, and otherwise
prints ``BLEU = 100.00`` (it thinks everything is perfect)."""

from __future__ import annotations

import sys

with open(sys.argv[1], encoding="utf-8") as source:
    text = source.read()
if "CRASH" in text:
    print("flaky_scorer: cannot cope", file=sys.stderr)
    sys.exit(3)
print("nothing to see here" if "GARBAGE" in text else "BLEU = 100.00")
