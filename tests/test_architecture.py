"""docs/architecture.md and the tree tell the same story: every module of
``src/metricdiff/`` is named there, and the folders import each other in the one
order the page gives (a folder imports only folders below it)."""

from __future__ import annotations

import re

from helpers import ROOT

PACKAGE = ROOT / "src" / "metricdiff"
PAGE = ROOT / "docs" / "architecture.md"

#: The order docs/architecture.md draws, from the bottom up.
LAYERS = ["statistics", "profiles", "cases", "impls", "scoring", "comparison",
          "findings", "reports", "auditing", "locks", "cli"]


def modules() -> list[str]:
    return sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py"))


def test_every_module_is_named_on_the_page() -> None:
    text = PAGE.read_text(encoding="utf-8")
    missing = [name for name in modules() if f"`{name}`" not in text]
    assert missing == [], "add a row to docs/architecture.md for: " + ", ".join(missing)


def test_the_page_draws_the_layers_this_test_checks() -> None:
    assert " ◄─ ".join(LAYERS) in PAGE.read_text(encoding="utf-8")


def test_no_folder_imports_one_above_it() -> None:
    imported = re.compile(r"^\s*(?:from|import) metricdiff\.(\w+)", re.MULTILINE)
    upward = []
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).parts
        if len(parts) == 1:  # the package root: shared modules and the API facade
            continue
        here = parts[0]
        for there in imported.findall(path.read_text(encoding="utf-8")):
            if there in LAYERS and LAYERS.index(there) > LAYERS.index(here):
                upward.append(f"{path.relative_to(PACKAGE)} imports {there}/")
    assert upward == []


def test_the_shared_root_modules_import_no_step() -> None:
    imported = re.compile(r"^(?:from|import) metricdiff\.(\w+)", re.MULTILINE)
    for name in ("errors.py", "wording.py", "atomic.py", "machine_paths.py"):
        found = set(imported.findall((PACKAGE / name).read_text(encoding="utf-8")))
        assert not found & set(LAYERS), (name, found)
