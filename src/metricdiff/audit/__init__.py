"""The differential audit (``metric.py``, ``cases.py``, ``output.py``,
``journal.py``).  The package is also the Python API's ``metricdiff.audit(...)``
(``metricdiff.api.audit``): see ``metricdiff._callable``."""

from metricdiff._callable import make_callable

make_callable(__name__, "audit")
