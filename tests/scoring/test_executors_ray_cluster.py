"""``--executor ray`` on a cluster of two nodes, and on an address where no
cluster is.

The two nodes are Ray's own ``ray.cluster_utils.Cluster``: a head and a second
node, each its own raylet process with one CPU, on this machine.  An audit of
10,000 segments there must write the findings and results of the same audit run
locally, byte for byte.  The tests skip when Ray cannot be imported.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from metricdiff.cli import main
from metricdiff.scoring.executors import RAY_INSTALL

#: Segments of the two-node audit (issue 11: an audit of 10k pairs).
SEGMENTS = 10_000
_WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "in", "park", "hello",
          "world", "it", "is", "what", "was", ",", ".", "again"]


def _line(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 12)))


def write_corpus(directory: Path, segments: int) -> list[str]:
    """A seeded corpus: each hypothesis a reference with a few words changed."""
    rng = random.Random(11)
    hyps, refs = [], []
    for _ in range(segments):
        ref = _line(rng).split()
        hyp = [rng.choice(_WORDS) if rng.random() < 0.2 else word for word in ref]
        hyps.append(" ".join(hyp))
        refs.append(" ".join(ref))
    hyp_file, ref_file = directory / "h.txt", directory / "r.txt"
    hyp_file.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    ref_file.write_text("\n".join(refs) + "\n", encoding="utf-8")
    return ["--hyp", str(hyp_file), "--ref", str(ref_file)]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A two-node Ray cluster (one CPU each), shut down at the end."""
    ray = pytest.importorskip("ray", reason=f"ray is not installed ({RAY_INSTALL})")
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()  # another module's Ray; the CLI must join this cluster instead
    two = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        two.add_node(num_cpus=1)
        two.wait_for_nodes()
        yield two
    finally:
        ray.shutdown()
        two.shutdown()


@pytest.mark.slow
def test_a_two_node_audit_finds_what_the_local_one_finds(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(cluster.list_all_nodes()) == 2  # a head and one more raylet
    inputs = [*write_corpus(tmp_path, SEGMENTS), "--metric", "bleu", "--impl", "reference",
              "--impl", "sacrebleu", "--no-minimise", "--jobs", "2"]
    out = {name: tmp_path / name for name in ("local", "ray")}
    assert main(["audit", *inputs, "--out", str(out["local"])]) == 0
    assert main(["audit", *inputs, "--executor", "ray", "--ray-address", str(cluster.address),
                 "--out", str(out["ray"])]) == 0
    capsys.readouterr()
    findings = (out["local"] / "findings.json").read_bytes()
    assert len(findings) > 2  # there is something to compare
    assert (out["ray"] / "findings.json").read_bytes() == findings
    assert (out["ray"] / "results.jsonl").read_bytes() == (out["local"] / "results.jsonl"
                                                           ).read_bytes()


def test_an_address_where_no_cluster_is_fails_at_once(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason=f"ray is not installed ({RAY_INSTALL})")
    inputs = write_corpus(tmp_path, 3)
    argv = ["audit", *inputs, "--metric", "bleu", "--executor", "ray",
            "--ray-address", "127.0.0.1:1", "--out", str(tmp_path / "out")]
    # A subprocess with a time limit: ray.init on a dead address retries for
    # minutes, which must fail this test rather than hang it.
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from metricdiff.cli import main; "
         "sys.exit(main(sys.argv[1:]))", *argv],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("metricdiff: error: --executor ray: no Ray cluster at "
                                  "127.0.0.1:1 (connection refused")
