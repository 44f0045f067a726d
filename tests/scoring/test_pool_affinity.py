"""Which chunk a free worker takes (``pool.Pool._task_for``): one of an
implementation it has scored for already (its library imported, its adapter
built, its memos filled: pyrouge's one run serves every metric of a text), else
one of an implementation no other worker has, else the first.  The workers here
are stand-ins: no process is started."""

from __future__ import annotations

from typing import Any

import attrs

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
    stand_in.cases_served = set()
    stand_in.task = None
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


def chunked(metric: str, texts: list[str]) -> Job:
    """pyrouge's job of ``metric`` on one case per text (chunks of one case)."""
    return Job("pyrouge", metric, with_variant(RougeOptions(), metric),
               [((text,), ((text,),)) for text in texts],
               adapter_path="fake_adapters:MisbehavingAdapter")


def test_a_worker_takes_the_chunk_of_another_metric_on_the_cases_it_scored() -> None:
    """Issue 26: two workers scored pyrouge's rouge-1, case by case, each taking
    every other case; its rouge-2 then went to whichever worker was free, and
    each case whose run the other worker remembered was run again (pyrouge's
    24 s on the rouge-2 of 300 real pairs, against its own 31.6 CPU-s for every
    metric).  Each worker now takes back the cases it scored."""
    texts = ["a b", "c d", "e f", "g h"]
    first = Pool([chunked("rouge-1", texts)], 2, 60.0, chunking=lambda j: [(0,), (1,), (2,), (3,)])
    first._shutdown(keep=True)
    one, two = worker(), worker()
    first.busy = {"one": one, "two": two}  # type: ignore[dict-item]
    order = [one, two, one, two]
    assert [first._task_for(w).indices for w in order] == [(0,), (1,), (2,), (3,)]
    for w in (one, two):
        w.served.add("pyrouge")
    then = Pool([chunked("rouge-2", texts)], 2, 60.0, chunking=lambda j: [(0,), (1,), (2,), (3,)])
    then._shutdown(keep=True)
    then.busy = {"one": one, "two": two}  # type: ignore[dict-item]
    # ``two`` is free first, then ``one``: each takes its own cases, not the first in line
    assert [then._task_for(w).indices for w in (two, one, two, one)] == [
        (1,), (0,), (3,), (2,)]


def test_the_costliest_chunks_are_first_in_line() -> None:
    """Issue 26: the Perl ROUGE's chunk of 2,000 cases (one run, 25 s that
    cannot be split) started last in the main job's rouge-2 and ran alone for
    16 s while the other worker sat idle.  The line now starts with the chunks
    of an implementation that runs a process per call (rouge155 declares it),
    then those declared costly per case (pyrouge: a Perl run per case), then
    the rest, each in the jobs' order."""
    jobs = [Job(impl, "rouge-1", ROUGE1, [(("a",), (("a",),))] * 3)
            for impl in ("rouge-score", "pyrouge", "sacrerouge", "rouge155")]
    made = Pool(jobs, 2, 60.0, chunking=lambda j: [(0,), (1, 2)])
    made._shutdown(keep=True)
    assert [(made.jobs[t.job].impl, t.indices) for t in made.pending] == [
        ("rouge155", (0,)), ("rouge155", (1, 2)), ("pyrouge", (0,)), ("pyrouge", (1, 2)),
        ("rouge-score", (0,)), ("rouge-score", (1, 2)), ("sacrerouge", (0,)),
        ("sacrerouge", (1, 2))]


def test_each_participant_s_chunk_goes_back_to_the_worker_that_scored_it() -> None:
    """Issue 26: rouge155 and rouge155+stemmed score the same 2,000 cases; the
    ROUGE-1.5.5 script's run of every metric for a text is remembered by the
    worker that made it, under that participant's flags.  With the cases alone
    as the key, both workers held "rouge155's cases" after ROUGE-1, and each
    later metric's two chunks went to whichever worker was free: the run of
    every metric was made again for rouge-l, rouge-w and rouge-s (128 CPU-s of
    the Perl script in the main job, against 67 when each participant's
    metrics run in one process).  The job's label, the participant, is in the
    key."""
    texts = ["a b", "c d"]

    def both(metric: str) -> Pool:
        jobs = [attrs.evolve(chunked(metric, texts), impl="rouge155", label=label)
                for label in ("rouge155", "rouge155+stemmed")]
        made = Pool(jobs, 2, 60.0, chunking=lambda j: [(0, 1)])
        made._shutdown(keep=True)
        return made

    one, two = worker("rouge155"), worker("rouge155")
    first = both("rouge-1")
    first.busy = {"one": one, "two": two}  # type: ignore[dict-item]
    assert [first.jobs[first._task_for(w).job].label for w in (one, two)] == [
        "rouge155", "rouge155+stemmed"]
    for metric in ("rouge-2", "rouge-l"):
        then = both(metric)
        then.busy = {"one": one, "two": two}  # type: ignore[dict-item]
        # ``two`` is free first: it takes the stemmed chunk, not the first in line
        assert [then.jobs[then._task_for(w).job].label for w in (two, one)] == [
            "rouge155+stemmed", "rouge155"]


def test_a_free_worker_takes_what_no_other_worker_remembers_first() -> None:
    """Issue 26: in the main job's rouge-2, one worker ran the ROUGE-1.5.5
    script for 46 s; the other, free, took pyrouge's chunks first in line, whose
    Perl runs the busy worker remembered from rouge-1, and ran them again
    (pyrouge's 28 s became 50).  A free worker now takes the chunks nobody
    remembers first, and another's only when nothing else is left."""
    texts = ["a b", "c d"]
    busy, free = worker("sumeval"), worker("pyrouge")
    first = Pool([chunked("rouge-1", texts)], 2, 60.0, chunking=lambda j: [(0, 1)])
    first._shutdown(keep=True)
    first.busy = {"busy": busy}  # type: ignore[dict-item]
    first._task_for(busy)
    busy.served.add("pyrouge")
    then = Pool([chunked("rouge-2", texts), attrs.evolve(chunked("rouge-2", ["e f"]),
                                                        impl="sumeval")],
                2, 60.0, chunking=lambda j: [tuple(range(len(j.cases)))])
    then._shutdown(keep=True)
    then.busy = {"busy": busy}  # type: ignore[dict-item]
    assert [then.jobs[then._task_for(free).job].impl for _ in range(2)] == [
        "sumeval", "pyrouge"]


def real(impl: str, label: str, texts: list[str]) -> Job:
    """``impl``'s own adapter class (its declared ``Cost``) on one case per text."""
    return Job(impl, "rouge-2", with_variant(RougeOptions(), "rouge-2"),
               [((text,), ((text,),)) for text in texts], label=label)


def test_a_free_worker_leaves_pyrouge_s_remembered_runs_to_the_worker_that_made_them() -> None:
    """Issue 26: in the main job's rouge-2 one worker ran the ROUGE-1.5.5
    script for 27 s; the other, free, had only chunks the busy worker had
    scored in rouge-1 left in line, and took pyrouge's first (first in line),
    whose Perl runs, one per text for every metric, the busy worker remembered:
    23 CPU-s run again, while the reference's and rouge-score's chunks, which
    cost the same anywhere, waited.  pyrouge declares that it remembers every
    metric (``Cost.remembers_every_metric``): another worker's such chunk is now
    the free worker's last choice."""
    texts = ["a b", "c d"]
    busy, free = worker("pyrouge", "rouge-score"), worker("pyrouge", "rouge-score")
    then = Pool([real("pyrouge", "pyrouge", texts), real("rouge-score", "rouge-score", texts)],
                2, 60.0, chunking=lambda j: [(0, 1)])
    then._shutdown(keep=True)
    busy.cases_served = {then._cases_key(task) for task in then.pending}
    then.busy = {"busy": busy}  # type: ignore[dict-item]
    assert [then.jobs[then._task_for(free).job].impl for _ in range(2)] == [
        "rouge-score", "pyrouge"]


def test_the_reference_s_chunks_under_every_profile_go_to_the_worker_that_has_their_cases(
) -> None:
    """Issue 26: the audit runs the reference under each participant's profile
    (``reference-as-<name>``), on the same cases; its memos (tokens, pair
    counts, ROUGE-W tables) are keyed by the texts, so a second profile's chunk
    costs a fifth less where the first one's was scored (ROUGE-W under six
    profiles on 2,000 generated cases: 9.0 CPU-s with the memos emptied between
    profiles, 7.4 with them kept).  The reference declares it
    (``Cost.remembers_every_profile``): its chunks are keyed by their cases
    alone, whatever the job's label."""
    texts = ["a b", "c d"]
    one, two = worker("reference"), worker("reference")
    first = Pool([real("reference", "reference-as-x", texts)], 2, 60.0,
                 chunking=lambda j: [(0,), (1,)])
    first._shutdown(keep=True)
    first.busy = {"one": one, "two": two}  # type: ignore[dict-item]
    assert [first._task_for(w).indices for w in (one, two)] == [(0,), (1,)]
    # The next profile's chunks, the second case's first in line.
    then = Pool([real("reference", "reference-as-y", texts)], 2, 60.0,
                chunking=lambda j: [(1,), (0,)])
    then._shutdown(keep=True)
    then.busy = {"one": one, "two": two}  # type: ignore[dict-item]
    assert [then._task_for(w).indices for w in (one, two)] == [(0,), (1,)]


def test_a_free_worker_waits_for_the_pyrouge_run_another_worker_is_making() -> None:
    """Issue 26: ``compare`` looks for the segment that makes pyrouge's Perl
    script die by scoring the segments before it as one corpus, for each ROUGE
    metric.  Both workers ran that corpus at once (198 segments, 2.1 CPU-s
    each), one for rouge-1 and one for rouge-2, where the second would have
    found the first one's run in its memo (one run serves every metric,
    ``Cost.remembers_every_metric``).  A free worker now takes nothing while
    the only chunk left is one whose run another worker is making; once that
    worker is done, the chunk is its own (it remembers it) or anyone's."""
    texts = ["a b", "c d"]
    making, free = worker("pyrouge"), worker("pyrouge")
    rouge_2 = real("pyrouge", "pyrouge", texts)
    rouge_1 = attrs.evolve(rouge_2, metric="rouge-1", options=ROUGE1)
    made = Pool([rouge_1, rouge_2], 2, 60.0, chunking=lambda j: [(0, 1)])
    made._shutdown(keep=True)
    made.busy = {"making": making}  # type: ignore[dict-item]
    making.task = made._task_for(making)
    assert making.task is not None and making.task.job == 0
    assert made._task_for(free) is None
    assert len(made.pending) == 1  # still in line, for the worker that remembers it
    making.task = None  # done: it answers the chunk from its memo
    made.busy, made.idle = {}, [making]
    then = made._task_for(making)
    assert then is not None and then.job == 1
