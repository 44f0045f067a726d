"""Adapters that misbehave on purpose, for ``scoring/test_execution.py``.

They are loaded by ``Job.adapter_path`` ("fake_adapters:Class") in worker
processes, which find this module because ``tests/`` is on ``sys.path`` (pytest
puts it there; spawned workers inherit the parent's ``sys.path``).

``MisbehavingAdapter`` scores a case from its first hypothesis: a marker word
makes it misbehave, any other text gets a result computed from the text alone,
so a test can say what every well-behaved case must give.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

from metricdiff.impls.base import ANY, Adapter, References
from metricdiff.impls.declarations import Cost, Declared
from metricdiff.profiles import RougeOptions
from metricdiff.profiles.metrics import with_variant
from metricdiff.statistics import RougeResult

#: marker -> what the adapter does; "FINE" cases are scored normally.
#: A per-call timeout no well-behaved fake case comes near (each answers in
#: milliseconds), even on a loaded machine: only a hang exceeds it.
NO_HANG = 60.0
#: The timeout of a test that waits for a hang to be cut off.  A hang costs about
#: twice this (its chunk, then itself alone), so it is shorter than NO_HANG, yet
#: still far above what a chunk of well-behaved fakes takes.
HANG_TIMEOUT = 10.0

MARKERS = {
    "RAISE": "crash",
    "SYSEXIT": "crash",
    "HANG": "timeout",
    "EXIT": "crash",
    "KILL": "crash",
    "NAN": "invalid-output",
    "RECALL15": "invalid-output",
    "NEGCOUNT": "invalid-output",
}


def expected(hyps: Sequence[str]) -> RougeResult:
    """What a well-behaved case gives."""
    words = sum(len(hyp.split()) for hyp in hyps)
    return RougeResult(1 / (1 + words), 0.5, 0.25, float(words), float(len(hyps)), 1.0)


class MisbehavingAdapter(Adapter[RougeOptions, RougeResult]):
    name = "misbehaving"
    family = "rouge"
    declared = Declared(metrics=("rouge-1",), settable={"stemmer": ANY})
    cost = Cost(batch_size=4)

    def default_options(self, metric: str) -> RougeOptions:
        return with_variant(RougeOptions(), metric)

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        marker = hyps[0].split()[0] if hyps and hyps[0].split() else ""
        if marker == "RAISE":
            raise ValueError("bad input\non two lines")
        if marker == "SYSEXIT":
            sys.exit(2)
        if marker == "HANG":
            time.sleep(3600)
        if marker == "EXIT":
            os._exit(3)
        if marker == "KILL":
            os.kill(os.getpid(), signal.SIGKILL)
        if marker == "NAN":
            return RougeResult(float("nan"), 0.5, 0.5)
        if marker == "RECALL15":
            return RougeResult(1.5, 0.5, 0.5)
        if marker == "NEGCOUNT":
            return RougeResult(0.5, 0.5, 0.5, -1.0, 2.0, 2.0)
        return expected(hyps)


class BigBatchAdapter(MisbehavingAdapter):
    """The same, with every case in one chunk."""

    cost = Cost(batch_size=2000)


class UnavailableAdapter(MisbehavingAdapter):
    def unavailable_reason(self) -> str | None:
        return "unavailable: install: pip install nothing"


class CountingAdapter(MisbehavingAdapter):
    """Reports which process scored each case (in ``hyp_total``)."""

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        return RougeResult(0.5, 0.5, 0.5, 0.0, float(os.getpid()), 1.0)


class EnvAdapter(MisbehavingAdapter):
    """Reports ``$METRICDIFF_FAKE_VALUE`` as its match count (-1 when unset)."""

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        return RougeResult(0.5, 0.5, 0.5, float(os.environ.get("METRICDIFF_FAKE_VALUE", "-1")))


class OddCostAdapter(MisbehavingAdapter):
    """A user's class whose ``cost`` is no ``Cost``."""

    cost = 5  # type: ignore[assignment]


class ThreadsAdapter(MisbehavingAdapter):
    """Reports ``$OMP_NUM_THREADS`` as its match count (-1 when unset)."""

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        return RougeResult(0.5, 0.5, 0.5, float(os.environ.get("OMP_NUM_THREADS", "-1")))


class ChildHangAdapter(MisbehavingAdapter):
    """Starts ``sleep 3600``, writes its pid to ``$METRICDIFF_FAKE_PIDFILE`` and
    hangs: a timeout must take the child along."""

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        child = subprocess.Popen(["sleep", "3600"])
        with open(os.environ["METRICDIFF_FAKE_PIDFILE"], "w") as out:
            out.write(str(child.pid))
        time.sleep(3600)
        raise AssertionError("unreachable")


class PickyAdapter(MisbehavingAdapter):
    """Raises ``KeyError`` on a corpus holding the hypothesis ``BAD``, on one
    holding both ``X`` and ``Y`` (an exception that needs two segments
    together), and on ``Z`` alone; raises ``ZeroDivisionError`` on one holding
    a reference with no ASCII letter (ROUGE-1.5.5 divides by a reference's
    token count, and its tokenizer keeps only ASCII); writes the size of every corpus it is given
    to ``$METRICDIFF_FAKE_CALLS``, one line each, when that is set."""

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        calls = os.environ.get("METRICDIFF_FAKE_CALLS")
        if calls:
            with open(calls, "a", encoding="utf-8") as out:
                out.write(f"{len(hyps)}\n")
        if "BAD" in hyps or {"X", "Y"} <= set(hyps) or list(hyps) == ["Z"]:
            raise KeyError("picky")
        if any(ref is not None and not any(c.isascii() and c.isalpha() for c in ref)
               for segment in refs for ref in segment):
            raise ZeroDivisionError("a reference with no token")
        return expected(hyps)
