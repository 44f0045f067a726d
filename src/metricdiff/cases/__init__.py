"""What is scored: ``Case`` (``case.py``), read from fixtures (``fixtures.py``) and
the user's files (``files.py``), or generated (``generate.py``)."""

from metricdiff.cases.case import Case, Expectation, References, Sample

__all__ = ["Case", "Expectation", "References", "Sample"]
