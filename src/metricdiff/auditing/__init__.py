"""The differential audit (``metric.py``, ``cases.py``, ``output.py``,
``journal.py``); the Python API's ``metricdiff.audit(...)`` is ``metricdiff.api.audit``."""
