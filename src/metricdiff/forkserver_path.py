"""The first of the forkserver's preloads (``scoring.worker.FORKSERVER_PRELOAD``):
the working directory taken off ``sys.path`` before anything else is imported.

Python before 3.12 starts the forkserver as ``python -c ...`` and does not hand
it the parent's ``sys.path``, so its first entry is ``''``, the folder the user
ran metricdiff in.  A ``timeit.py`` or ``tokenize.py`` of the user's there was
then imported in place of the standard library's by a peer's import (absl's
logging imports ``timeit``), into every worker; and such a file that calls
metricdiff itself started workers from every worker, until the machine ran out
of memory.  Nothing a worker imports needs the entry: each worker is handed the
parent's ``sys.path`` with every chunk (``scoring.worker``), where a user's own
implementation module is found."""

from __future__ import annotations

import sys

if sys.argv[:1] == ["-c"]:  # the forkserver; imported anywhere else, it does nothing
    sys.path[:] = [entry for entry in sys.path if entry != ""]
