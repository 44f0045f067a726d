"""Which chunk a free worker takes (``pool.Pool._task_for``): one of an
implementation it has scored for already (its library imported, its adapter
built, its memos filled: pyrouge's one run serves every metric of a text), else
one of an implementation no other worker has, else the first.  The workers here
are stand-ins: no process is started."""

from __future__ import annotations

from typing import Any

from metricdiff.profiles import RougeOptions
from metricdiff.profiles.metrics import with_variant
from metricdiff.scoring.jobs import Job
from metricdiff.scoring.pool import Pool
from metricdiff.scoring.pool_workers import Worker

ROUGE1 = with_variant(RougeOptions(), "rouge-1")


def job(impl: str) -> Job:
    return Job(impl, "rouge-1", ROUGE1, [(("a",), (("a",),))],
               adapter_path="fake_adapters:MisbehavingAdapter")


def worker(*served: str) -> Any:
    stand_in = Worker.__new__(Worker)
    stand_in.served = set(served)
    return stand_in


def pool(*impls: str) -> Pool:
    made = Pool([job(impl) for impl in impls], 2, 60.0, chunking=lambda j: [(0,)])
    made._shutdown(keep=True)  # the kept workers it took go back, untouched
    return made


def taken(made: Pool, chosen: Any) -> str:
    return made.jobs[made._task_for(chosen).job].impl


def test_a_worker_takes_the_implementation_it_has_served_first() -> None:
    made = pool("sacrebleu", "pyrouge", "rouge155", "pyrouge")
    mine = worker("pyrouge")
    assert [taken(made, mine) for _ in range(2)] == ["pyrouge", "pyrouge"]
    assert [made.jobs[t.job].impl for t in made.pending] == ["sacrebleu", "rouge155"]


def test_a_new_worker_takes_what_no_other_worker_has_served() -> None:
    made = pool("pyrouge", "pyrouge", "nltk")
    made.busy = {"conn": worker("pyrouge")}  # type: ignore[dict-item]
    assert taken(made, worker()) == "nltk"


def test_otherwise_the_first_in_line() -> None:
    made = pool("pyrouge", "nltk")
    made.busy = {"conn": worker("pyrouge", "nltk")}  # type: ignore[dict-item]
    assert taken(made, worker("sacrebleu")) == "pyrouge"
