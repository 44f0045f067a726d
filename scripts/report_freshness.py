"""Whether the committed ``reports/`` still describe the code and data that made them.

The project's own ``reports/`` folder is living documentation: ``make report``
audits the bundled fixtures plus generated cases and commits the result.  It goes
stale when anything that decides those results changes: metricdiff's own source,
the fixtures, the audit's command line, or the version of an implementation (or
whether it could run at all).  ``make report`` writes a fingerprint of all of
these to ``reports/FINGERPRINT``; the test suite recomputes it and fails, naming
what changed, when the two differ.

``python scripts/report_freshness.py write DIR AUDIT-ARGS...`` (after the
audit; the arguments are recorded for the reader) and ``... check DIR``.  It is
repository tooling: it ships with the checkout, not in the wheel.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

FINGERPRINT_NAME = "FINGERPRINT"

def _digest(paths: Sequence[Path], root: Path) -> str:
    hasher = hashlib.sha256()
    for path in sorted(paths):
        hasher.update(path.relative_to(root).as_posix().encode() + b"\0")
        hasher.update(path.read_bytes() + b"\0")
    return hasher.hexdigest()[:16]


def _implementations() -> list[str]:
    """``name version (available|unavailable)`` for every registered adapter."""
    from metricdiff.implementations import adapter_for_family, adapter_names, families_of

    lines = []
    for name in adapter_names():
        adapters = [adapter_for_family(name, f) for f in families_of(name)]
        state = "available" if all(a.unavailable_reason() is None for a in adapters) else (
            "unavailable"
        )
        lines.append(f"implementation {name} {adapters[0].version()} {state}")
    return lines


def fingerprint(project: Path) -> list[str]:
    """The lines of the fingerprint: one per thing that decides the reports (the
    audit's arguments, recorded beside them, are the Makefile's)."""
    source = project / "src" / "metricdiff"
    return [
        f"source {_digest(list(source.rglob('*.py')), project)}",
        f"fixtures {_digest(list((project / 'fixtures').rglob('*.toml')), project)}",
        *_implementations(),
    ]


def stale_lines(project: Path, reports: Path) -> list[str]:
    """What changed since ``reports`` were made (empty when they are fresh)."""
    path = reports / FINGERPRINT_NAME
    if not path.exists():
        return [f"{path} is missing"]
    recorded = [
        line for line in path.read_text(encoding="utf-8").splitlines()
        if not line.startswith("audit ")
    ]
    current = fingerprint(project)
    if recorded == current:
        return []
    old, new = set(recorded), set(current)
    return [f"was: {line}" for line in recorded if line not in new] + [
        f"now: {line}" for line in current if line not in old
    ]


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("write", "check"):
        print("usage: python scripts/report_freshness.py write DIR AUDIT-ARGS... | "
              "check DIR", file=sys.stderr)
        return 2
    reports, project = Path(argv[1]), Path.cwd()
    if argv[0] == "write":
        lines = [f"audit {' '.join(argv[2:])}", *fingerprint(project)]
        text = "\n".join(lines) + "\n"
        (reports / FINGERPRINT_NAME).write_text(text, encoding="utf-8")
        return 0
    changes = stale_lines(project, reports)
    for line in changes:
        print(f"{reports} is stale (run `make report`): {line}", file=sys.stderr)
    return 1 if changes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
