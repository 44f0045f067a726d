"""docs/architecture.md's table of every module, generated from the modules' own
docstrings (the first sentence of each), so that the page cannot name a module
that is gone or miss one that is new, nor say of a module what its docstring no
longer says.  The page's prose stays hand-written: only the part between the two
markers is generated.

``python scripts/module_table.py`` rewrites that part of docs/architecture.md;
``python scripts/module_table.py --check`` exits 1 when it is stale (the test
suite checks it too, ``tests/test_module_table.py``).  Repository tooling: it
ships with the checkout, not in the wheel.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Sequence
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
PACKAGE = PROJECT / "src" / "metricdiff"
PAGE = PROJECT / "docs" / "architecture.md"

#: How the table is rebuilt (quoted by its test when the page is stale).
REGENERATE = "python scripts/module_table.py"

BEGIN = (f"<!-- Generated from each module's docstring by `{REGENERATE}`: edit the "
         "docstrings, not this table. -->")
END = "<!-- End of the generated module table. -->"

#: The folders in the order the data flows (the page's first picture), each with
#: the step it is; the package root comes first.
FOLDERS: list[tuple[str, str]] = [
    ("cases", "case"), ("profiles", "profile"), ("impls", "implementation"),
    ("scoring", "scoring"), ("statistics", "statistics"), ("comparison", "comparison"),
    ("findings", "finding"), ("conclusions", "conclusion"), ("reports", "report"),
    ("auditing", "the audit (drives the steps above)"), ("locks", "score locks"),
    ("api", "the Python API"), ("cli", "command line"),
]

#: Words after which a full stop ends no sentence.
_ABBREVIATIONS = ("al", "e.g", "i.e", "cf", "etc", "vs", "eq", "l", "p", "ll", "pp")


def first_sentence(docstring: str) -> str:
    """The docstring's first sentence on one line: up to the first full stop that
    is followed by a space or the end of the paragraph and stands outside
    brackets and code (``et al.``, ``e.g.`` end nothing), else the first
    paragraph whole (a colon that ends it, before a list, a full stop)."""
    paragraph = " ".join(docstring.strip().split("\n\n")[0].split())
    depth, code = 0, False
    for index, char in enumerate(paragraph):
        if char == "`":  # a run of backticks (``code``) opens or closes once
            code = code if paragraph[index - 1: index] == "`" else not code
        elif code:
            continue
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth = max(depth - 1, 0)
        elif char in ".?!" and depth == 0 and paragraph[index + 1: index + 2] in ("", " "):
            word = paragraph[:index].rsplit(" ", 1)[-1].lstrip("(")
            if word.lower() not in _ABBREVIATIONS:
                return paragraph[: index + 1]
    return paragraph[:-1] + "." if paragraph.endswith(":") else paragraph


def described(path: Path) -> str:
    """What the table says of the module at ``path``; ValueError without a docstring."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    if not docstring:
        raise ValueError(f"{path}: no docstring; its first sentence is its row in "
                         f"docs/architecture.md")
    return first_sentence(docstring).replace("|", "\\|")


def _rows(paths: Sequence[Path], package: Path) -> list[str]:
    ordered = sorted(paths, key=lambda p: (p.parent, p.name != "__init__.py", p.name))
    return [f"| `{path.relative_to(package).as_posix()}` | {described(path)} |"
            for path in ordered]


def _table(title: str, paths: Sequence[Path], package: Path) -> str:
    lines = [title, "", "| module | what it holds |", "|---|---|", *_rows(paths, package)]
    return "\n".join(lines) + "\n"


def module_table(package: Path = PACKAGE) -> str:
    """The generated part of the page: one table per folder, the root first."""
    known = {name for name, _ in FOLDERS}
    folders = sorted(p.name for p in package.iterdir() if (p / "__init__.py").is_file())
    unknown = [name for name in folders if name not in known]
    if unknown:
        raise ValueError(f"add {', '.join(unknown)} to FOLDERS in scripts/module_table.py")
    parts = [_table("### The package root", sorted(package.glob("*.py")), package)]
    for name, step in FOLDERS:
        title = f"### `{name}/` — {step}"
        parts.append(_table(title, sorted((package / name).rglob("*.py")), package))
    return "\n".join(parts)


def page_with_table(page: str, table: str) -> str:
    """``page`` with the part between the markers replaced by ``table``."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{PAGE}: the markers of the generated table are missing")
    return page[: start + len(BEGIN)] + "\n\n" + table + "\n" + page[end:]


def main(argv: Sequence[str]) -> int:
    page = PAGE.read_text(encoding="utf-8")
    fresh = page_with_table(page, module_table())
    if argv[1:] == ["--check"]:
        if fresh != page:
            print(f"docs/architecture.md: the module table is stale; run {REGENERATE}",
                  file=sys.stderr)
            return 1
        return 0
    if argv[1:]:
        print(f"usage: {REGENERATE} [--check]", file=sys.stderr)
        return 2
    if fresh != page:
        PAGE.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
