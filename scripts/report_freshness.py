"""Whether the committed ``reports/`` still describe the code and data that made them.

The project's own ``reports/`` folder is living documentation: ``make report``
checks every implementation on the bundled cases and audits them on the fixtures
plus generated text, and the result is committed.  It goes stale when something
that decides those results changes, and only then:

- metricdiff's own source (``src/metricdiff/**/*.py``);
- the cases: the fixture files and the specs' worked examples;
- the version of an implementation that took part, as ``report.json`` records
  it (and ``check.json``, when present).

``make report`` writes the first two, with the audit's arguments for the reader, to
``reports/FINGERPRINT``; the versions are read from the reports themselves.  An
implementation installed here that did not take part changes nothing.  One that
took part but is not installed here cannot be checked: ``check`` says so, and the
test suite skips with that reason, after checking everything else.

``python scripts/report_freshness.py write DIR AUDIT-ARGS...`` (after the audit)
and ``... check DIR``.  Repository tooling: it ships with the checkout, not in
the wheel.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

FINGERPRINT_NAME = "FINGERPRINT"
PROJECT = Path(__file__).resolve().parents[1]


@attrs.frozen
class Freshness:
    """What changed since the reports were made (``stale``), and which of their
    implementations this machine cannot tell about (``unverifiable``)."""

    stale: list[str]
    unverifiable: list[str]


def _digest(paths: Iterable[Path], root: Path) -> str:
    hasher = hashlib.sha256()
    for path in sorted(paths):
        hasher.update(path.relative_to(root).as_posix().encode() + b"\0")
        hasher.update(path.read_bytes() + b"\0")
    return hasher.hexdigest()[:16]


def _spec_examples_digest(project: Path) -> str:
    """The specs' worked examples as cases, not the prose around them (whose
    edits move line numbers that no report shows)."""
    from metricdiff.cases.fixtures import load_spec_examples

    hasher = hashlib.sha256()
    for spec in sorted((project / "spec").glob("*.md")):
        for case in load_spec_examples(spec):
            hasher.update(repr(attrs.evolve(case, location="")).encode() + b"\0")
    return hasher.hexdigest()[:16]


def fingerprint(project: Path) -> list[str]:
    """The lines of the fingerprint that the project's files decide."""
    return [
        f"source {_digest((project / 'src' / 'metricdiff').rglob('*.py'), project)}",
        f"fixtures {_digest((project / 'fixtures').rglob('*.toml'), project)}",
        f"spec-examples {_spec_examples_digest(project)}",
    ]


def _signed_version(signature: str, name: str) -> str:
    """The version a signature states for implementation ``name``."""
    prefix = f"impl:{name}-"
    return _bare(next((part.removeprefix(prefix) for part in signature.split("|")
                       if part.startswith(prefix)), ""))


def _bare(version: str) -> str:
    """A version without the note on where an isolated peer was loaded from
    (``2.3.1 (isolated; no 'jury' in main env)``): that is no other version."""
    return version.split(" (", 1)[0]


def participants(reports: Path) -> dict[str, str]:
    """Every implementation that took part in the reports, with its version: the
    audit's participants as the committed ``report.json`` records them, and
    check's (``check.json``, not committed, when ``make report`` has just run)."""
    versions: dict[str, str] = {}
    report = json.loads((reports / "report.json").read_text(encoding="utf-8"))
    for metric in report["metrics"]:
        for person in metric["implementations"]:
            versions[person["impl"]] = _bare(person["version"])
    check_json = reports / "check.json"
    if check_json.exists():
        check = json.loads(check_json.read_text(encoding="utf-8"))
        for label, signature in check["implementations"].items():
            name = label.rsplit(" (", 1)[0]
            versions.setdefault(name, _signed_version(signature, name))
    return versions


def installed_version(name: str) -> tuple[str | None, str]:
    """Implementation ``name``'s version here as its signature states it, or None
    with the reason it cannot be told."""
    from metricdiff.impls import adapter_for_family, families_of
    from metricdiff.impls.user import is_user_spec

    if is_user_spec(name):
        return None, "a user's own implementation, whose code metricdiff does not version"
    try:
        adapter = adapter_for_family(name, families_of(name)[0])
    except Exception as error:  # not registered here (another package's plug-in)
        return None, f"not an implementation metricdiff knows here ({error})"
    metric = adapter.declared.metrics[0]
    version = _signed_version(adapter.signature(metric, adapter.default_options(metric)), name)
    if version in ("not-installed", "unknown", ""):
        return None, adapter.unavailable_reason() or "not installed"
    return version, ""


def freshness(project: Path, reports: Path) -> Freshness:
    """Compare the reports with the project and the implementations installed here."""
    path = reports / FINGERPRINT_NAME
    if not path.exists():
        return Freshness([f"{path} is missing"], [])
    recorded = [line for line in path.read_text(encoding="utf-8").splitlines()
                if not line.startswith("audit ")]
    current = fingerprint(project)
    stale = [f"was: {line}" for line in recorded if line not in current]
    stale += [f"now: {line}" for line in current if line not in recorded]
    unverifiable = []
    for name, version in sorted(participants(reports).items()):
        now, why = installed_version(name)
        if now is None:
            unverifiable.append(f"{name} {version} took part, and cannot be checked here: {why}")
        elif now != version:
            stale.append(f"implementation {name}: the reports were made with {version}, "
                         f"{now} is installed")
    return Freshness(stale, unverifiable)


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("write", "check"):
        print("usage: python scripts/report_freshness.py write DIR AUDIT-ARGS... | "
              "check DIR", file=sys.stderr)
        return 2
    reports = Path(argv[1])
    if argv[0] == "write":
        lines = [f"audit {' '.join(argv[2:])}", *fingerprint(PROJECT)]
        (reports / FINGERPRINT_NAME).write_text("\n".join(lines) + "\n", encoding="utf-8")
        return 0
    found = freshness(PROJECT, reports)
    for line in found.unverifiable:
        print(f"{reports}: {line}", file=sys.stderr)
    for line in found.stale:
        print(f"{reports} is stale (run `make report`): {line}", file=sys.stderr)
    return 1 if found.stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
