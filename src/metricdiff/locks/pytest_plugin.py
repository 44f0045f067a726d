"""pytest plugin: fail a project's CI when its metric scores drift.

Registered through the ``pytest11`` entry point, so installing metricdiff is
enough.  It adds nothing to a run that does not ask for it: metricdiff itself is
imported only when a lock is verified or the fixture is used.

Verify a lock written by ``metricdiff snapshot`` on every test run::

    pytest --metricdiff-verify=scores.lock          # repeatable

or for good, in ``pyproject.toml``::

    [tool.pytest.ini_options]
    metricdiff_verify = ["scores.lock"]              # relative to the rootdir

Each lock becomes one test item, ``scores.lock::metricdiff-verify``, that fails
with one line per drifted score (case, implementation, metric, field, old and
new value) and what changed in the environment (library versions, signatures,
Python, platform, input files).  It is collected like any test: ``-k``, ``-m``,
``--deselect`` and ``--co`` treat it as they treat the others, and it can be run
alone by its node ID.  A run that names tests by node ID (``path::name``) runs
only those, so the lock's item is collected there only when named.

Implementations run in worker processes (``metricdiff.scoring``), the reference
excepted: one that crashes, hangs or returns NaN fails its test with one line,
and the session goes on.  ``--metricdiff-timeout=SECONDS`` (or the ini option
``metricdiff_timeout``) bounds each call; the default is 120.

The ``metricdiff`` fixture, for tests of one's own evaluation code::

    def test_dev_bleu_is_stable(metricdiff):
        # refs[i] is the list of references of hyps[i], as metricdiff.score() takes them;
        # reference streams as sacrebleu takes them go through ref_streams=
        result = metricdiff.score("sacrebleu", "bleu", hyps, ref_streams=[refs])
        metricdiff.assert_matches_lock(result, case="dev.hyp:corpus",
                                       impl="sacrebleu", metric="bleu")

    def test_our_wrapper_agrees(metricdiff):
        ours = my_project.evaluate(hyps, refs)           # a float, 0-100
        metricdiff.assert_matches_lock(ours, case="dev.hyp:corpus",
                                       impl="sacrebleu", metric="bleu")
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from metricdiff.errors import LockDrift, MetricdiffError

if TYPE_CHECKING:  # metricdiff is imported lazily: a run without the plugin's use pays nothing
    from metricdiff.cases.case import References
    from metricdiff.impls import AnyAdapter
    from metricdiff.locks.snapshot import Entry, Lock
    from metricdiff.locks.trust import Trust
    from metricdiff.profiles.metrics import Result

OPTION = "--metricdiff-verify"
INI = "metricdiff_verify"
TIMEOUT_OPTION = "--metricdiff-timeout"
TIMEOUT_INI = "metricdiff_timeout"
ITEM_NAME = "metricdiff-verify"
TRUSTED_INI = "metricdiff_impls"
TRUST_LOCK, ALLOW_OUTSIDE = "--metricdiff-trust-lock", "--metricdiff-allow-outside"
_LOCKS = pytest.StashKey[list[Path]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("metricdiff", "metric score locks (metricdiff)")
    group.addoption(OPTION, action="append", default=[], metavar="LOCK",
                    help="recompute the scores of this lock file (written by `metricdiff "
                    "snapshot`) as a test item; repeatable")
    parser.addini(INI, type="linelist", default=[],
                  help="lock files to verify on every run, relative to the rootdir")
    group.addoption(TIMEOUT_OPTION, default=None, metavar="SECONDS",
                    help="seconds an implementation may take on one batch of cases before "
                    "it is stopped (default: the metricdiff_timeout ini option, else metricdiff's, "
                    "scoring.DEFAULT_TIMEOUT)")
    parser.addini(TIMEOUT_INI, default="",
                  help="seconds an implementation may take on one batch of cases")
    # The trust model of `metricdiff verify` (locks/trust.py), under the same names.
    parser.addini(TRUSTED_INI, type="linelist", default=[],
                  help="python:/cmd: implementations a lock may run (as verify --impl)")
    group.addoption(TRUST_LOCK, action="store_true",
                    help="run every python:/cmd: implementation a lock names")
    group.addoption(ALLOW_OUTSIDE, action="store_true",
                    help="read a lock's inputs outside its folder")


def trust_of(config: pytest.Config) -> Trust:
    """What verifying a lock may run and read in this session: verify's rules."""
    from metricdiff.locks.trust import Trust

    return Trust(bool(config.getoption(TRUST_LOCK)), bool(config.getoption(ALLOW_OUTSIDE)),
                 frozenset(config.getini(TRUSTED_INI) or []))


def scoring_timeout(config: pytest.Config) -> float:
    """The per-call timeout of every implementation the plugin runs: the command
    line's, else the ini file's, else metricdiff's default; checked as
    ``metricdiff --timeout`` checks it (``limits.seconds``), a bad value being
    a usage error of the session (``pytest_configure``)."""
    given = _given_timeout(config)
    if given is None:
        from metricdiff.scoring import DEFAULT_TIMEOUT

        return DEFAULT_TIMEOUT
    return given


def _given_timeout(config: pytest.Config) -> float | None:
    """The timeout the command line or the ini file gives, checked; None if neither."""
    from metricdiff import limits

    given, where = config.getoption(TIMEOUT_OPTION), TIMEOUT_OPTION
    if given is None:
        given = str(config.getini(TIMEOUT_INI) or "").strip() or None
        where = f"the {TIMEOUT_INI} ini option"
    if given is None:
        return None
    try:
        return limits.seconds(given)
    except ValueError as error:
        raise pytest.UsageError(f"{where} {error}") from None


def pytest_configure(config: pytest.Config) -> None:
    """A timeout that makes no sense stops the session at once, in one line."""
    _given_timeout(config)


def lock_paths(config: pytest.Config) -> list[Path]:
    """The locks named on the command line and in the ini file, command line first
    (resolved once per session: ``pytest_collect_file`` asks for every file)."""
    if _LOCKS not in config.stash:
        given = [Path(p) for p in config.getoption(OPTION) or []]
        root = config.rootpath
        from_ini = [root / p for p in config.getini(INI) or []]
        config.stash[_LOCKS] = list(dict.fromkeys(p.resolve() for p in [*given, *from_ini]))
    return config.stash[_LOCKS]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> LockFile | None:
    """A lock the session verifies, met by pytest's own collection: it lies in a
    folder being collected, or is named on the command line (``scores.lock`` or
    ``scores.lock::metricdiff-verify``).  Any other ``*.lock`` is not ours."""
    locks = lock_paths(parent.config)
    if any(file_path.name == lock.name for lock in locks) and file_path.resolve() in locks:
        return LockFile.from_parent(parent, path=file_path)
    return None


def _names_tests(args: Sequence[str]) -> bool:
    """Whether the command line selects tests by node ID (``test_x.py::test_y``):
    then only what it names runs, as pytest does with any other test."""
    return any("::" in arg for arg in args)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Collect each lock that pytest's own collection did not meet (it lies
    outside the folders and files given), so that a drift is a failed test with
    its report, not a crash of the session, and the other tests still run.

    ``tryfirst``: before pytest's ``-k``, ``-m`` and ``--deselect``, which then
    select among these items as among the others.  ``session.genitems`` reports
    the collection as pytest's does, so ``--co`` lists and counts them."""
    if _names_tests(config.args):
        return
    met = {item.path.resolve() for item in items if isinstance(item, LockItem)}
    for path in lock_paths(config):
        if path not in met:
            items.extend(session.genitems(LockFile.from_parent(session, path=path)))


class LockFile(pytest.File):
    """A lock file as a collector of its one verify item."""

    def collect(self) -> Iterator[pytest.Item]:
        yield LockItem.from_parent(self, name=ITEM_NAME)


class LockItem(pytest.Item):
    """Recomputes every score of a lock; fails with the drift report."""

    def runtest(self) -> None:
        lines = _verify_lines(self.path, self.config)
        if lines:
            raise LockDrift("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, LockDrift):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"metricdiff verify {self.path.name}"


def _verify_lines(path: Path, config: pytest.Config) -> list[str]:
    """The report of verifying ``path`` if anything drifted, failed or cannot be
    checked, else []. A malformed lock or unreadable input is one line too.
    Implementations run isolated (the session's ``scoring_timeout`` per call): one
    that crashes or hangs fails the item, not the session; what runs and is read
    follows verify's trust model (``trust_of``)."""
    from metricdiff.locks import snapshot

    try:
        verification = snapshot.verify(path, timeout=scoring_timeout(config),
                                       trust=trust_of(config))
    except MetricdiffError as error:
        return [f"metricdiff: error: {error}"]
    return [] if verification.ok else verification.lines()


class Metricdiff:
    """What the ``metricdiff`` fixture gives a test.

    ``refs`` is read as ``metricdiff.score()`` reads it, per segment: ``refs[i]``
    is the list of references of ``hyps[i]`` (``[[ref_1], [ref_2]]``).  Reference
    streams as sacrebleu's ``corpus_bleu`` takes them (``[refs_a, refs_b]``, each
    with one reference per hypothesis) go through the keyword ``ref_streams=``.
    Nothing is guessed from the shape (``cases/per_segment.py``).  Options are
    axes of docs/conventions.md (``metricdiff axes``): ``tokenize="intl"``,
    ``max_order=2``.
    """

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._locks: dict[Path, Lock] = {}

    def score(self, impl: str, metric: str, hyps: Sequence[str],
              refs: References | None = None, *,
              ref_streams: Sequence[Sequence[str]] | None = None, **options: Any) -> Result:
        """The corpus score of ``hyps`` by implementation ``impl`` (a
        ``BleuResult`` on 0-100 or a ``RougeResult`` on 0-1, with its counts):
        ``refs`` per segment or ``ref_streams=``, exactly one (see the class).
        A shape that does not fit raises ``InputError`` naming the other keyword.
        The implementation runs isolated: one that raises, crashes, hangs or
        returns an invalid result fails the test with one line saying so."""
        __tracebackhide__ = True  # a shape error points at the test's own call
        from metricdiff.cases.per_segment import per_segment
        from metricdiff.errors import InputError
        from metricdiff.scoring import score

        try:
            hyps, segments = per_segment(hyps, refs, ref_streams)
        except InputError as error:
            raise InputError(str(error)) from None  # without per_segment's frames
        adapter, chosen = self._adapter(impl, metric, options)
        outcome = score(adapter, metric, hyps, segments, chosen,
                        timeout=scoring_timeout(self._config))
        if outcome.result is None:
            pytest.fail(f"{impl} {metric}: {outcome.reason}", pytrace=False)
        return outcome.result

    def signature(self, impl: str, metric: str, **options: Any) -> str:
        """The signature of ``impl`` under ``options``, as ``metricdiff score`` prints it."""
        adapter, chosen = self._adapter(impl, metric, options)
        return str(adapter.signature(metric, chosen))

    def verify(self, lock: str | Path | None = None) -> None:
        """Recompute ``lock`` (default: the one lock given to the session) and fail
        the test with the drift report if any score drifted."""
        lines = _verify_lines(self._lock_path(lock), self._config)
        if lines:
            pytest.fail("\n".join(lines), pytrace=False)

    def locked(self, *, case: str, impl: str, metric: str,
               lock: str | Path | None = None) -> Entry:
        """The entry ``lock`` records for ``case``, ``impl`` and ``metric``."""
        from metricdiff.locks import snapshot

        path = self._lock_path(lock)
        if path not in self._locks:
            self._locks[path] = snapshot.read(path)
        for entry in self._locks[path].entries:
            if entry.key == (case, metric, impl):
                return entry
        pytest.fail(f"{path}: no score recorded for case {case!r}, impl {impl!r}, "
                    f"metric {metric!r}", pytrace=False)

    def assert_matches_lock(self, value: Result | float, *, case: str, impl: str,
                            metric: str, field: str | None = None,
                            lock: str | Path | None = None) -> None:
        """Fail unless ``value`` matches what the lock records, within the
        recorded tolerance.

        ``value`` is a result (every field is compared) or a number, compared with
        ``field``: by default the BLEU ``score`` or the ROUGE ``fmeasure``.
        """
        from metricdiff.locks import snapshot

        entry = self.locked(case=case, impl=impl, metric=metric, lock=lock)
        if entry.result is None:
            pytest.fail(f"{case} {impl} {metric}: the lock records that it raised "
                        f"{entry.error}: {entry.message}", pytrace=False)
        if isinstance(value, (int, float)):
            name = field or ("score" if "score" in entry.result else "fmeasure")
            actual: Mapping[str, Any] = {**entry.result, name: value}
        else:
            actual = {key: snapshot.plain_value(v) for key, v in value.to_json().items()}
        new = snapshot.Entry(case, metric, impl, dict(actual))
        drifts = snapshot.compare_entries(entry, new)
        if drifts:
            pytest.fail("\n".join(d.line() for d in drifts), pytrace=False)

    def _lock_path(self, lock: str | Path | None) -> Path:
        if lock is not None:
            path = Path(lock)
            return path if path.is_absolute() else self._config.rootpath / path
        paths = lock_paths(self._config)
        if len(paths) != 1:
            pytest.fail(f"name the lock (lock=...): the session has {len(paths)} "
                        f"({OPTION} or the {INI} ini option)", pytrace=False)
        return paths[0]

    def _adapter(
        self, impl: str, metric: str, options: Mapping[str, Any]
    ) -> tuple[AnyAdapter, Any]:
        from metricdiff.impls import get_adapter
        from metricdiff.impls.settings import option_texts

        adapter = get_adapter(impl, metric)
        adapter.ensure_available()
        chosen = adapter.options(metric, option_texts(options))
        return adapter, chosen


@pytest.fixture
def metricdiff(pytestconfig: pytest.Config) -> Metricdiff:
    """Score with any implementation, and check numbers against a lock file
    (see ``metricdiff.locks.pytest_plugin``)."""
    return Metricdiff(pytestconfig)
