"""Rewrite the outputs README.md and docs/ show from real runs of their commands.

    .venv/bin/python scripts/sync_docs.py [PAGE ...]     # default: every page

Each page runs as tests/test_doc_pages.py runs it (scripts/doc_pages.py); where a
command prints something other than what the page shows, the shown lines are
changed as little as it takes: lines that still match (a line ``…``, a ``…``
inside a line) stay, the others become what was printed.  It prints what it
changed; read the diff (`git diff`) before committing it, and re-elide by hand
what became too long.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from doc_pages import ROOT, pages, resynced, run_page


def sync(page: str, where: Path) -> int:
    """Rewrite ``page``'s shown outputs; how many commands changed."""
    ran = run_page(page, where)
    lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
    changed = 0
    for one in sorted(ran, key=lambda one: one.shown.first, reverse=True):
        if one.agrees:
            continue
        changed += 1
        new = resynced(one.shown.output, one.printed)
        first = one.shown.first
        lines[first:first + len(one.shown.output)] = new
        print(f"{one.shown}: {len(one.shown.output)} shown lines -> {len(new)}")
    if changed:
        (ROOT / page).write_text("\n".join(lines), encoding="utf-8")
    return changed


def main(argv: list[str]) -> int:
    chosen = argv or pages()
    with tempfile.TemporaryDirectory(prefix="metricdiff-docs-") as where:
        total = sum(sync(page, Path(where)) for page in chosen)
    print(f"{total} command outputs rewritten in {len(chosen)} pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
