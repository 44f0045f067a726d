"""Where ``run_jobs`` runs: this machine's worker processes, or a Ray cluster.

``--executor local`` (the default) is ``execution.run_jobs`` as it is: no
executor object at all.  ``--executor ray`` is a ``RayExecutor``: each chunk
of each job (the same chunks ``run_jobs`` cuts) becomes a Ray task of one CPU,
and the task runs its chunk with ``execution.run_chunk_here``, i.e. in a worker
process of the node it landed on, exactly as a local chunk runs.  Per-call
timeouts, killed process groups, the one-by-one retry of a chunk that failed
as a whole, and the ``crash``/``timeout``/``invalid-output`` outcomes with their
error texts are therefore the local ones, decided on the node; the Ray task
itself never runs an implementation, so nothing an implementation does can kill
it.  The driver keeps at most max(``workers``, the cluster's CPUs) tasks in
flight, calls ``on_result`` as each chunk comes back and returns the results
in input order, so everything written from them (``findings.json``) does not
depend on the executor.  A job whose adapter cannot be built has its remaining
chunks recorded with that reason rather than sent, as locally.  A task that Ray
itself loses (its node died; Ray retries it first) is recorded as a ``crash``
of its cases, with Ray's reason.

Why not ``ray.util.multiprocessing.Pool``: its workers are actors that cannot
be killed one call at a time, so a hang would occupy an actor for good and a
segfault would take the actor (and the pool's bookkeeping) with it; the local
worker processes already solve both, so Ray only has to place chunks.

The cluster: ``--ray-address`` or ``$RAY_ADDRESS``, else a local instance
started here (``num_cpus`` = ``--jobs``, no dashboard, a small object store)
and shut down at the end; a Ray already initialised in this process is used as
it is and left running.  Ray workers must be able to import this metricdiff
(its version is checked once, before any work is sent): locally they run this
interpreter, so an editable install just works.  On a cluster, install
metricdiff and the peers to audit on every node, or submit the audit as a Ray
job that carries them, e.g. ``ray job submit --runtime-env-json
'{"py_modules": ["src/metricdiff"], "pip": ["sacrebleu"]}' -- metricdiff audit
--executor ray ...`` (a job's driver finds the cluster in ``$RAY_ADDRESS``).
When every node is this machine, the workers get this process's environment and
``sys.path`` with every chunk, as local workers do; on other machines they keep
their own, with this process's ``METRICDIFF_*`` variables on top.

The shrinker's many small runs stay on this machine: a Ray round trip per
candidate would cost more than the scoring.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import pickle
import socket
import sys
from collections import deque
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any

import attrs

from metricdiff import _version
from metricdiff.impls import AdapterUnavailable
from metricdiff.scoring import execution, worker
from metricdiff.scoring.jobs import CRASH, CaseResult, Executor, Job, OnResult
from metricdiff.scoring.validate import describe

#: ``--executor`` values.
EXECUTORS = ("local", "ray")
#: How to get Ray.
RAY_INSTALL = "pip install 'metricdiff[ray]'"
#: The object store of a local instance: chunks of cases and their results are
#: small, and Ray spills to disk past this.
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024
#: Seconds the first task may take to start (a fresh worker, a busy cluster).
PROBE_TIMEOUT = 120.0
#: Environment variables sent to nodes on other machines.
SHIPPED_PREFIX = "METRICDIFF_"
#: Seconds to wait for the cluster's port to accept a connection before Ray is
#: asked to join it: ``ray.init`` itself retries a dead address for minutes.
CONNECT_TIMEOUT = 5.0
#: The port of a cluster's GCS (``ray start --head``'s default) and of the Ray
#: Client server (``ray://``), when the address names none.
_DEFAULT_PORTS = {"": 6379, "ray://": 10001}


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """A one-line error unless something accepts a TCP connection at ``address``
    (``HOST:PORT`` or ``ray://HOST:PORT``) within ``timeout`` seconds.  ``local``
    and ``auto`` (found by Ray on this machine) are not probed."""
    if address in ("local", "auto"):
        return
    scheme = "ray://" if address.startswith("ray://") else ""
    host, _, port = address.removeprefix(scheme).rpartition(":")
    if not host or not port.isdigit():
        host, port = address.removeprefix(scheme), str(_DEFAULT_PORTS[scheme])
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return
    except (OSError, ValueError) as error:
        if isinstance(error, TimeoutError):
            why = f"no answer within {timeout:g} s"
        elif isinstance(error, ConnectionRefusedError):
            why = "connection refused: nothing listens there"
        else:
            why = getattr(error, "strerror", None) or describe(error)
        raise AdapterUnavailable(
            f"--executor ray: no Ray cluster at {address} ({why}); "
            "start one there (ray start --head) or give --ray-address HOST:PORT of its head"
        ) from None


def import_ray() -> Any:
    """The ``ray`` module, or a one-line error saying how to install it.

    Imported here and only here, so that metricdiff never needs Ray otherwise
    (and is typed as Any: Ray's own annotations are no part of this module's)."""
    try:
        return importlib.import_module("ray")
    except ImportError as error:
        raise AdapterUnavailable(
            f"--executor ray: cannot import ray ({describe(error)}); install: {RAY_INSTALL}"
        ) from None


@attrs.frozen
class Shipped:
    """What a task's worker process gets: ``environ`` replaces the node's
    environment (``replace``) or is laid over it; ``sys_path`` replaces the
    node's (None: the node's own)."""

    environ: dict[str, str]
    replace: bool
    sys_path: tuple[str, ...] | None


def _score_chunk(job: Job, timeout: float | None, shipped: Shipped
                 ) -> tuple[list[CaseResult], CaseResult | None]:
    """A Ray task: one chunk, in a worker process of this node."""
    # This process's __main__ is Ray's worker script: preloading it would make
    # the forkserver import Ray, and nothing of it is needed in a worker.
    worker.FORKSERVER_PRELOAD = [
        name for name in worker.FORKSERVER_PRELOAD if name != "__main__"
    ]
    environ = shipped.environ if shipped.replace else {**os.environ, **shipped.environ}
    return execution.run_chunk_here(job, timeout, environ, shipped.sys_path)


def _probe() -> str:
    """A Ray task: the metricdiff version the node imports."""
    return _version.__version__


class RayExecutor:
    """``run_jobs`` on a Ray cluster (see the module's docstring).

    ``address``: a Ray address, "local" to start an instance here, None for
    ``$RAY_ADDRESS`` or else "local"; ``num_cpus``: a local instance's CPUs.
    Use as a context manager, or ``start()`` then ``close()``."""

    def __init__(self, address: str | None = None, num_cpus: int = 1) -> None:
        self.address = address or os.environ.get("RAY_ADDRESS") or "local"
        self.num_cpus = max(1, num_cpus)
        self.started = False  # we started Ray, so we shut it down
        self.same_machine = False  # every node is this machine
        self._ray: Any = None
        self._score: Any = None

    def start(self) -> RayExecutor:
        """Start or join the cluster and check that its workers run this metricdiff."""
        if self._ray is not None:
            return self
        ray = import_ray()
        if not ray.is_initialized():
            # Ray's INFO lines ("Started a local Ray instance") and its token
            # warning would land in a text report's stderr on every run.
            options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
            if self.address == "local":
                options.update(num_cpus=self.num_cpus, include_dashboard=False,
                               object_store_memory=LOCAL_OBJECT_STORE_BYTES)
            check_reachable(self.address)
            try:
                ray.init(address=self.address, **options)
            except Exception as error:
                raise AdapterUnavailable(
                    f"--executor ray: cannot start or reach Ray at {self.address}: "
                    f"{describe(error)}"
                ) from None
            self.started = True
        self._ray = ray
        try:
            self.same_machine = (self.address == "local" and self.started) or _all_nodes_here(ray)
            self._score = ray.remote(num_cpus=1)(_score_chunk)
            self._check_workers()
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Shut Ray down if ``start`` started it (its workers' worker processes
        follow, their lifeline closed)."""
        ray, self._ray = self._ray, None
        if ray is not None and self.started:
            ray.shutdown()
            self.started = False

    def __enter__(self) -> RayExecutor:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def _check_workers(self) -> None:
        ray = self._ray
        try:
            theirs = ray.get(ray.remote(num_cpus=0)(_probe).remote(), timeout=PROBE_TIMEOUT)
        except Exception as error:
            raise AdapterUnavailable(
                f"--executor ray: Ray workers cannot run metricdiff ({_ray_reason(error)}); "
                "install it on every node or submit the audit as a Ray job with a runtime_env"
            ) from None
        if theirs != _version.__version__:
            raise AdapterUnavailable(
                f"--executor ray: Ray workers run metricdiff {theirs}, this is "
                f"{_version.__version__}"
            )

    def _shipped(self) -> Shipped:
        if self.same_machine:
            # "" on sys.path is the working directory, which a Ray worker's is not.
            path = tuple(os.path.abspath(entry) for entry in sys.path)
            return Shipped(dict(os.environ), True, path)
        mine = {k: v for k, v in os.environ.items() if k.startswith(SHIPPED_PREFIX)}
        return Shipped(mine, False, None)

    def run(
        self,
        jobs: Sequence[Job],
        workers: int,
        timeout: float | None,
        on_result: OnResult | None,
    ) -> list[list[CaseResult]]:
        """``run_jobs``'s contract, on the cluster."""
        ray = self._ray
        if ray is None:
            raise RuntimeError("RayExecutor.run before start()")
        shipped = ray.put(self._shipped())  # once, not once per chunk
        limit = max(workers, int(ray.cluster_resources().get("CPU", 1)))
        results: list[list[CaseResult | None]] = [[None] * len(job.cases) for job in jobs]
        failed: dict[int, CaseResult] = {}  # job -> why its adapter cannot be built
        pending = deque(
            (number, indices)
            for number, job in enumerate(jobs)
            for indices in execution.chunks(job)
        )
        running: dict[Any, tuple[int, tuple[int, ...]]] = {}  # ObjectRef -> chunk

        def record(number: int, indices: tuple[int, ...], outcomes: Sequence[CaseResult]
                   ) -> None:
            for index, outcome in zip(indices, outcomes, strict=True):
                results[number][index] = outcome
                if on_result is not None:
                    on_result(number, index, outcome)

        def fail(number: int, indices: tuple[int, ...], outcome: CaseResult) -> None:
            failed.setdefault(number, outcome)
            record(number, indices, [failed[number]] * len(indices))

        try:
            while pending or running:
                while pending and len(running) < limit:
                    number, indices = pending.popleft()
                    if number in failed:
                        record(number, indices, [failed[number]] * len(indices))
                        continue
                    job = jobs[number]
                    part = attrs.evolve(job, cases=tuple(job.cases[i] for i in indices))
                    try:
                        ref = self._score.remote(part, timeout, shipped)
                    except (pickle.PicklingError, TypeError, AttributeError) as error:
                        fail(number, indices,
                             CaseResult(CRASH, None, f"cannot send the job: {describe(error)}"))
                        continue
                    running[ref] = (number, indices)
                if not running:
                    continue
                done, _ = ray.wait(list(running), num_returns=1)
                for ref in done:
                    number, indices = running.pop(ref)
                    try:
                        outcomes, failure = ray.get(ref)
                    except ray.exceptions.RayError as error:  # Ray's failure, not the chunk's
                        outcome = CaseResult(CRASH, None, f"ray: {_ray_reason(error)}")
                        record(number, indices, [outcome] * len(indices))
                        continue
                    if failure is not None:
                        fail(number, indices, failure)
                    else:
                        record(number, indices, outcomes)
        except BaseException:
            # Ctrl-C or an on_result that raised: stop what is still running
            # (force kills the Ray worker; its worker process follows).
            for ref in running:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
            raise
        out: list[list[CaseResult]] = []
        for row in results:
            out.append([r for r in row if r is not None])
            assert len(out[-1]) == len(row)
        return out


def _all_nodes_here(ray: Any) -> bool:
    here = ray.util.get_node_ip_address()
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    return bool(nodes) and all(node.get("NodeManagerAddress") == here for node in nodes)


def _ray_reason(error: BaseException) -> str:
    """A Ray error in one line: the exception a task raised, not its traceback."""
    cause = getattr(error, "cause", None)
    return describe(cause if isinstance(cause, BaseException) else error)


@contextlib.contextmanager
def open_executor(name: str, address: str | None = None, workers: int = 1
                  ) -> Iterator[Executor | None]:
    """The executor called ``name`` ("local": None, i.e. ``run_jobs``'s own
    worker processes), started, and closed on leaving."""
    if name == "local":
        yield None
        return
    if name != "ray":
        raise ValueError(f"unknown executor {name!r}: expected one of {', '.join(EXECUTORS)}")
    with RayExecutor(address, num_cpus=workers) as executor:
        yield executor


__all__ = [
    "EXECUTORS",
    "RAY_INSTALL",
    "RayExecutor",
    "Shipped",
    "check_reachable",
    "import_ray",
    "open_executor",
]
