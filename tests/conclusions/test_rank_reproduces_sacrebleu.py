"""Under sacrebleu's scheme, ``rank`` gives what ``sacrebleu REF -i BASE SYS
--paired-bs`` and ``--paired-ar`` print: the same scores, p-values, means and
95% half-widths.  The expected numbers are sacrebleu's own, from its command line
(``-f json``, full precision) run on the same files, on real translations
(benchmarks/data/translations) with two system variants of them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import require_impl, system_variants
from metricdiff.conclusions.rank import rank_corpus

SIZE = 200


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    require_impl("sacrebleu", "bleu")
    systems, refs = system_variants(SIZE)
    # a system that differs from the baseline on few lines: p-values far from 1/(n+1)
    systems["nearly"] = [" ".join(line.split()[:-1]) if i % 20 == 0 else line
                         for i, line in enumerate(systems["baseline"])]
    folder = tmp_path_factory.mktemp("systems")
    paths = {}
    for name, lines in systems.items():
        paths[name] = folder / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    ranking = rank_corpus(
        {"bleu": {name: (tuple(lines), tuple((ref,) for ref in refs))
                  for name, lines in systems.items()}}, ["sacrebleu"])
    return folder, paths, ranking["bleu"]["sacrebleu"]


def sacrebleu_json(folder, paths, test: str) -> list[dict]:
    command = [sys.executable, "-m", "sacrebleu", str(folder / "ref.txt"), "-i",
               *(str(path) for path in paths.values()), f"--paired-{test}", "-f", "json"]
    done = subprocess.run(command, capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin"})
    return json.loads(done.stdout)


def test_paired_bootstrap_is_sacrebleus(corpus):
    folder, paths, ranked = corpus
    printed = sacrebleu_json(folder, paths, "bs")
    assert [row["system"] for row in printed] == [
        f"Baseline: {paths['baseline']}", *(str(paths[name]) for name in list(paths)[1:])]
    for name, row in zip(paths, printed, strict=True):
        found, expected = ranked.score(name), row["BLEU"]
        assert found.score == expected["score"]
        assert found.interval.center == expected["mean"]
        assert found.interval.half_width == pytest.approx(expected["ci"], rel=1e-12)
        if name != "baseline":
            assert ranked.test("baseline", name).p_bootstrap == expected["p_value"]
    # the variants are what they were made to be, and significantly so
    assert ranked.test("baseline", "closer").verdict == "better"
    assert ranked.test("baseline", "terse").verdict == "worse"
    assert 0.01 < ranked.test("baseline", "nearly").p_bootstrap < 1


def test_approximate_randomization_is_sacrebleus(corpus):
    folder, paths, ranked = corpus
    printed = sacrebleu_json(folder, paths, "ar")
    for name, row in zip(paths, printed, strict=True):
        assert ranked.score(name).score == row["BLEU"]["score"]
        if name != "baseline":
            assert ranked.test("baseline", name).p_randomization == row["BLEU"]["p_value"]
    assert ranked.test("baseline", "nearly").p_randomization > 1 / 10_001  # not the least p
