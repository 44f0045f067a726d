"""The score cache (``scoring/cache.py``, ``--cache DIR``): a peer's answer is
given again instead of running the peer, and only where it is the same answer.

The adapters are ``fake_adapters.MisbehavingAdapter`` (a score made from the
text alone, or a marker word that makes it raise or return garbage), run in this
process (``timeout=None``, one worker) so that a test can count the calls; and
sacrebleu and NLTK through the command line, whose scores with the cache must be
those without it, byte for byte."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import fake_adapters
from fake_adapters import expected
from helpers import ROOT, require_impl, run
from metricdiff.errors import InputError
from metricdiff.profiles import RougeOptions
from metricdiff.profiles.metrics import with_variant
from metricdiff.scoring.cache import CACHE_NAME, ScoreCache, using
from metricdiff.scoring.cache_keys import case_digest, job_prefix, row_key
from metricdiff.scoring.cache_rows import decode, encode
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CaseResult, Job, Raised
from metricdiff.statistics import MISSING, BleuResult, RougeResult

OPTIONS = with_variant(RougeOptions(), "rouge-1")


class CountingAdapter(fake_adapters.MisbehavingAdapter):
    """``MisbehavingAdapter``, remembering every case it is asked to score."""

    name = "counting"
    asked: list[str] = []  # noqa: RUF012 -- the test's record, reset by each test

    def corpus_score(self, metric: str, hyps: Any, refs: Any, options: Any) -> RougeResult:
        CountingAdapter.asked.append(hyps[0])
        return super().corpus_score(metric, hyps, refs, options)


def job(*hyps: str) -> Job:
    return Job("counting", "rouge-1", OPTIONS, [((h,), (("ref",),)) for h in hyps],
               adapter_path="test_cache:CountingAdapter")


def scored(jobs: list[Job], cache: ScoreCache | None) -> list[list[CaseResult]]:
    CountingAdapter.asked = []
    with using(cache):
        return run_jobs(jobs, timeout=None, workers=1)


# ---------------------------------------------------------------- rows


@pytest.mark.parametrize("outcome", [
    CaseResult("ok", RougeResult(0.5, 1 / 3, 0.4, 1, 3, 2)),  # ints stay ints
    CaseResult("ok", RougeResult(-0.0, 0.0, 0.0, 0.0, 0.0, 2.0)),  # a signed zero
    CaseResult("ok", BleuResult(27.3, (60.0, 30.0, 20.0, 10.0), 1.0, 10, 12.0,
                                (6, 3, 2, 1), (10, 9, 8, 7))),
    CaseResult("ok", RougeResult(0.5, 0.5, 0.5, MISSING, 2, 2, unknown=frozenset({"matches"}))),
    CaseResult("crash", None, "ValueError: bad input", Raised("ValueError", "bad input")),
    CaseResult("crash", None, "UnsupportedOption: no", Raised("UnsupportedOption", "no", True)),
    CaseResult("invalid-output", None, "recall 1.5 outside [0, 1]"),
])
def test_a_row_gives_back_the_outcome_it_was_made_of(outcome: CaseResult) -> None:
    metric = "bleu" if isinstance(outcome.result, BleuResult) else "rouge-1"
    back = decode(encode(outcome), metric)
    # repr, not ==: a NaN placeholder (a statistic not reported) equals nothing;
    # repr also tells ints from floats and -0.0 from 0.0.
    assert repr(back) == repr(outcome)


@pytest.mark.parametrize("text", [
    "not json",
    "[]",
    '{"status": "ok", "error": "", "raised": null}',  # a field missing
    '{"status": "timeout", "error": "no result", "raised": null, "result": null}',
    '{"status": "ok", "error": "", "raised": null, "result": {"recall": 1.5, "precision": 0.5,'
    ' "fmeasure": 0.5, "matches": 1, "hyp_total": 2, "ref_total": 2}}',  # validate says no
    '{"status": "ok", "error": "", "raised": null, "result": {"recall": NaN, "precision": 0.5,'
    ' "fmeasure": 0.5, "matches": 1, "hyp_total": 2, "ref_total": 2}}',
    '{"status": "ok", "error": "", "raised": null, "result": {"recall": true, "precision": 0.5,'
    ' "fmeasure": 0.5, "matches": 1, "hyp_total": 2, "ref_total": 2}}',
    '{"status": "ok", "error": "", "raised": null, "result": {"recall": "0.5", "precision": 0.5,'
    ' "fmeasure": 0.5, "matches": 1, "hyp_total": 2, "ref_total": 2}}',
    '{"status": "ok", "error": "", "raised": null, "result": {"score": 20.0, "precisions": [],'
    ' "bp": 1.0, "sys_len": 1, "ref_len": 1, "counts": [], "totals": []}}',  # BLEU for ROUGE
    '{"status": "crash", "error": "ValueError: x", "raised": null, "result": null}',
    '{"status": "crash", "error": "", "raised": ["ValueError", "x", false], "result": null}',
    '{"status": "crash", "error": "' + "x" * 301 + '", "raised": ["E", "x", false], '
    '"result": null}',
    '{"status": "crash", "error": "E: x", "raised": ["E", "x", 1], "result": null}',
    '{"status": "ok", "error": "", "raised": null, "result": {"recall": 0.5, "precision": 0.5,'
    ' "fmeasure": 0.5, "matches": 1, "hyp_total": 2, "ref_total": 2, "extra": 1}}',
])
def test_a_row_the_cache_does_not_write_is_refused(text: str) -> None:
    assert decode(text, "rouge-1") is None


# ---------------------------------------------------------------- jobs


def test_a_second_run_asks_the_peer_nothing_and_gets_the_same_outcomes(tmp_path: Path) -> None:
    jobs = [job("a b", "RAISE x", "c d e", "RECALL15 y", "a b")]
    without = scored(jobs, None)
    first = scored(jobs, ScoreCache(tmp_path))
    assert CountingAdapter.asked == ["a b", "RAISE x", "c d e", "RECALL15 y", "a b"]
    again = ScoreCache(tmp_path)
    second = scored(jobs, again)
    assert CountingAdapter.asked == []
    assert without == first == second
    assert second[0][0].result == expected(["a b"])  # fake_adapters' own formula
    assert second[0][1].raised == Raised("ValueError", "bad input\non two lines")
    assert second[0][3].status == "invalid-output"
    assert (again.counts.hits, again.counts.stored, again.counts.ignored) == (5, 0, 0)


def test_only_the_cases_the_cache_lacks_are_scored(tmp_path: Path) -> None:
    scored([job("a b", "c d")], ScoreCache(tmp_path))
    cache = ScoreCache(tmp_path)
    seen: list[tuple[int, int]] = []
    CountingAdapter.asked = []
    with using(cache):
        results = run_jobs([job("x", "a b", "y y", "c d")], timeout=None, workers=1,
                           on_result=lambda j, i, _: seen.append((j, i)))
    assert CountingAdapter.asked == ["x", "y y"]
    assert [r.result for r in results[0]] == [expected([h]) for h in ("x", "a b", "y y", "c d")]
    assert sorted(seen) == [(0, 0), (0, 1), (0, 2), (0, 3)]  # every case reported once
    assert cache.counts.hits == 2 and cache.counts.stored == 2


def test_another_profile_or_metric_is_another_key(tmp_path: Path) -> None:
    scored([job("a b")], ScoreCache(tmp_path))
    stemmed = Job("counting", "rouge-1", with_variant(RougeOptions(stemmer="porter-original"),
                                                      "rouge-1"),
                  [(("a b",), (("ref",),))], adapter_path="test_cache:CountingAdapter")
    scored([stemmed], ScoreCache(tmp_path))
    assert CountingAdapter.asked == ["a b"]


def test_what_the_machine_did_is_not_kept(tmp_path: Path) -> None:
    """A timeout or a dead process says nothing of the implementation's answer."""
    cache = ScoreCache(tmp_path)
    for outcome in (CaseResult("timeout", None, "no result within 5 s"),
                    CaseResult("crash", None, "process killed by signal SIGKILL")):
        cache.store("k", outcome)
    cache.flush()
    assert cache.counts.stored == 0


def test_the_reference_and_irreproducible_peers_are_never_cached() -> None:
    reference = Job("reference", "rouge-1", OPTIONS, [(("a",), (("a",),))])
    assert job_prefix(reference) is None
    jury = Job("jury", "rouge-1", OPTIONS, [(("a",), (("a",),))])
    assert job_prefix(jury) is None  # its adapter says reproducible = False
    assert job_prefix(job("a")) is not None


# ---------------------------------------------------------------- bad files and rows


def test_a_hostile_row_is_ignored_scored_again_and_replaced(tmp_path: Path) -> None:
    jobs = [job("a b", "c d")]
    scored(jobs, ScoreCache(tmp_path))
    key = row_key(job_prefix(jobs[0]) or "", case_digest(jobs[0].cases[0]))
    forged = json.dumps({"status": "ok", "error": "", "raised": None, "result": {
        "recall": 7.0, "precision": 0.5, "fmeasure": 0.5, "matches": 1, "hyp_total": 2,
        "ref_total": 2}})
    with sqlite3.connect(tmp_path / CACHE_NAME) as db:
        assert db.execute("UPDATE scores SET value = ? WHERE key = ?", (forged, key)).rowcount
    cache = ScoreCache(tmp_path)
    results = scored(jobs, cache)
    assert CountingAdapter.asked == ["a b"]
    assert results[0][0].result == expected(["a b"])
    assert (cache.counts.hits, cache.counts.stored, cache.counts.ignored) == (1, 1, 1)
    assert scored(jobs, ScoreCache(tmp_path)) == results and CountingAdapter.asked == []


def test_a_file_that_is_not_the_cache_is_one_line_error(tmp_path: Path) -> None:
    (tmp_path / CACHE_NAME).write_bytes(b"results of something else\n" * 100)
    with pytest.raises(InputError, match=r"scores.sqlite is not a metricdiff score cache"):
        ScoreCache(tmp_path)


def test_another_sqlite_database_is_one_line_error(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / CACHE_NAME) as db:
        db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('format', 'something else')")
    with pytest.raises(InputError, match="not a metricdiff score cache of this version"):
        ScoreCache(tmp_path)


def test_a_fifo_in_the_files_place_is_refused_without_opening_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / CACHE_NAME)
    with pytest.raises(InputError, match="is not a regular file"):
        ScoreCache(tmp_path)


def test_a_folder_that_cannot_be_made_is_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="cannot create the folder"):
        ScoreCache(tmp_path / "file" / "cache")


# ---------------------------------------------------------------- two runs at once


def _write_rows(folder: str, first: int, count: int) -> int:
    cache = ScoreCache(Path(folder))
    for number in range(first, first + count):
        cache.store(f"key-{number}", CaseResult("ok", RougeResult(0.5, 0.5, 0.5, number, 2, 2)))
    cache.close()
    return cache.counts.stored


def test_two_processes_writing_one_cache_lose_nothing(tmp_path: Path) -> None:
    """Two writers, overlapping keys (1000-1999 written by both)."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        stored = pool.starmap(_write_rows, [(str(tmp_path), 0, 2000), (str(tmp_path), 1000, 2000)])
    assert stored == [2000, 2000]
    keys = [f"key-{n}" for n in range(3000)]
    found = ScoreCache(tmp_path).lookup(keys, "rouge-1")
    assert [o.result.matches if o and o.result else None for o in found] == list(range(3000))


def _open(folder: str) -> str:
    try:
        ScoreCache(Path(folder)).close()
    except InputError as error:
        return str(error)
    return "opened"


def test_runs_that_start_together_on_a_new_cache_all_open_it(tmp_path: Path) -> None:
    """Found by the fresh-clone CI of issue 26: two runs that create one cache
    at once both switch it to write-ahead logging, and SQLite answered one of
    them "database is locked" at once, without waiting: "scores.sqlite is not a
    metricdiff score cache (database is locked)".  8 processes opening each of
    60 new caches together failed about 1 time in 60 (26 of 1,600 openings);
    every opening now succeeds."""
    context = multiprocessing.get_context("fork")
    with context.Pool(8) as pool:
        for round_number in range(60):
            folder = str(tmp_path / f"cache-{round_number}")
            assert pool.map(_open, [folder] * 8) == ["opened"] * 8


# ---------------------------------------------------------------- the commands


def test_compare_with_a_cache_prints_the_same_and_says_where_scores_came_from(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    require_impl("sacrebleu", "bleu")
    require_impl("nltk", "bleu")
    data = ROOT / "benchmarks" / "data" / "translations"
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    for name, path in (("hyp.txt", hyp), ("ref.txt", ref)):
        path.write_text("".join((data / name).read_text("utf-8").splitlines(True)[:20]),
                        encoding="utf-8")
    argv = ["compare", "--hyp", hyp, "--ref", ref, "--metric", "bleu", "--impl", "sacrebleu",
            "--impl", "nltk", "--format", "json"]
    status, plain, _ = run(capsys, *argv)
    assert status == 0
    outputs = []
    for _ in range(2):
        status, out, err = run(capsys, *argv, "--cache", tmp_path / "cache")
        assert status == 0
        outputs.append((out, err.strip()))
    assert outputs[0][0] == outputs[1][0] == plain
    cache = tmp_path / "cache"
    # 2 peer scores asked each time (sacrebleu's and nltk's corpus BLEU)
    assert outputs[0][1] == (f"compare: cache: 0 of 2 peer scores came from the cache in "
                             f"{cache}; 2 scored and stored")
    assert outputs[1][1] == (f"compare: cache: 2 of 2 peer scores came from the cache in "
                             f"{cache}; 0 scored and stored")
    # the text and Markdown outputs end with the same sentence
    for form, folder in (("text", str(cache)), ("md", f"`{cache}`")):
        status, out, _ = run(capsys, *argv[:-1], form, "--cache", cache)
        assert status == 0
        assert out.splitlines()[-1] == f"2 of 2 peer scores came from the cache in {folder}."


def test_a_bad_cache_stops_the_command_before_it_scores(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / CACHE_NAME).write_text("not a cache")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\n")
    status, out, err = run(capsys, "score", "--impl", "sacrebleu", "--hyp", hyp, "--ref", hyp,
                           "--cache", tmp_path)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "is not a metricdiff score cache" in err


def test_an_audit_with_a_cache_writes_the_same_results(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The second audit runs no peer (the reference still runs: it is never
    cached) and writes results.jsonl and findings.json byte for byte; audit.json
    says how many peer scores came from the cache."""
    require_impl("sacrebleu", "bleu")
    require_impl("nltk", "bleu")
    data = ROOT / "benchmarks" / "data" / "translations"
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    for name, path in (("hyp.txt", hyp), ("ref.txt", ref)):
        lines = (data / name).read_text("utf-8").splitlines(True)
        path.write_text("".join(lines[100:110]), encoding="utf-8")  # German and French
    written = []
    for number, cache in enumerate([None, tmp_path / "cache", tmp_path / "cache"]):
        out = tmp_path / f"out{number}"
        argv = ["audit", "--hyp", hyp, "--ref", ref, "--metric", "bleu", "--impl", "reference",
                "--impl", "sacrebleu", "--impl", "nltk", "--no-minimise", "--out", out]
        status, _, err = run(capsys, *argv, *(["--cache", cache] if cache else []))
        assert status == 0
        written.append([(out / name).read_bytes() for name in ("results.jsonl",
                                                                "findings.json")])
        if number:
            # 11 cases (10 lines and the whole corpus) for each of the 3 peer
            # participants: sacrebleu, sacrebleu+intl and nltk.
            done = "0 of 33" if number == 1 else "33 of 33"
            stored = "33 scored and stored" if number == 1 else "0 scored and stored"
            line = f"{done} peer scores came from the cache in {cache}"
            assert f"audit: cache: {line}; {stored}" in err
            for report, folder in (("report.md", f"`{cache}`"), ("report.html", str(cache)),
                                   ("report.json", str(cache))):
                said = f"{done} peer scores came from the cache in {folder}."
                assert said in (out / report).read_text(encoding="utf-8"), report
        about = json.loads((out / "audit.json").read_text(encoding="utf-8"))
        hits = 33 if number == 2 else 0
        assert about.get("cache") == (None if cache is None else {
            "hits": hits, "stored": 33 - hits, "ignored": 0, "asked": 33,
            "folder": str(cache)})
    assert written[0] == written[1] == written[2]
