"""docs/architecture.md and the tree tell the same story: every module of
``src/metricdiff/`` is named there, and the modules import each other in the one
order the page gives.

The imports are read as an import graph reads them (``import_graph.py``): every
module parsed with ``ast``, every import at any depth -- module level, inside a
function (a lazy import), under ``if TYPE_CHECKING`` --, absolute or relative,
``from metricdiff import x`` and ``importlib.import_module("metricdiff.x")``.
Two rules:

- layers: a module imports only modules of a layer below its own, or of its own
  folder (``LAYERS``; inside ``impls/``, ``IMPLS_LAYERS``);
- no cycle: the graph of the whole package has none.

The last tests plant imports in a copy of the tree and check that both rules
catch them, whatever form or depth the import takes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import ROOT
from import_graph import cycles, import_graph, imports, module_names

PACKAGE = ROOT / "src" / "metricdiff"
PAGE = ROOT / "docs" / "architecture.md"

#: The layers of the package from the bottom up, each its units: a module at the
#: package root by its name, a folder by its name.  At the bottom, the modules
#: every step shares, which import nothing of metricdiff; just above them, the
#: writer and the reader of files, which raise its errors under its limits; at
#: the top, the package's face (``__init__.py``: the API's names, handed on
#: lazily) and the deprecated ``implementations.py`` alias, which nothing inside
#: imports.
LAYERS: list[tuple[str, ...]] = [
    ("errors", "wording", "machine_paths", "json_values", "_version", "limits",
     "markdown_text", "progress", "forkserver_path"),
    ("atomic", "input_files"), ("statistics",), ("profiles",), ("cases",), ("impls",),
    ("scoring",), ("comparison",), ("findings",), ("conclusions",), ("reports",),
    ("auditing",), ("locks",), ("api", "plugin", "testing"), ("cli",),
    ("__init__", "implementations"),
]

#: The layers inside ``impls/``, from the bottom up: what every implementation
#: shares (and what an adapter declares), the interface, the reference and a
#: user's own (neither imports the other), the peers, and the registry
#: (``impls/__init__.py``).
IMPLS_LAYERS: list[tuple[str, ...]] = [
    ("settings", "segment_references", "quiet_import", "text", "declarations"), ("base",),
    ("reference", "user"), ("peers",), ("__init__",),
]


def _place(module: str) -> tuple[int, str, int, str]:
    """Where ``module`` stands: its layer and unit, and, inside ``impls/``, its
    layer and unit there (else -1, "")."""
    parts = module.split(".")[1:] or ["__init__"]
    unit = parts[0]
    layer = next(i for i, units in enumerate(LAYERS) if unit in units)
    if unit != "impls":
        return layer, unit, -1, ""
    inner = parts[1] if len(parts) > 1 else "__init__"
    inner_layer = next(i for i, units in enumerate(IMPLS_LAYERS) if inner in units)
    return layer, unit, inner_layer, inner


def _allowed(here: tuple[int, str, int, str], there: tuple[int, str, int, str]) -> bool:
    layer, unit, inner_layer, inner = here
    their_layer, their_unit, their_inner_layer, their_inner = there
    if layer == 0:  # the shared modules at the bottom import nothing of metricdiff
        return False
    if their_layer != layer:
        return their_layer < layer
    if unit != their_unit:  # two units of one layer do not import each other
        return False
    if unit != "impls" or inner == their_inner:
        return True
    return their_inner_layer < inner_layer


def violations(package: Path) -> list[str]:
    """Every import of ``package`` that breaks the layers, as ``file:line: ...``."""
    names = module_names(package)
    found = []
    for module, targets in sorted(imports(package).items()):
        for target, line in sorted(targets.items()):
            if not _allowed(_place(module), _place(target)):
                where = names[module].relative_to(package.parent)
                found.append(f"{where}:{line}: {module} imports {target}, which is not below it")
    return found


# ------------------------------------------------------------------ the page


def modules() -> list[str]:
    return sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py"))


def test_every_module_is_named_on_the_page() -> None:
    text = PAGE.read_text(encoding="utf-8")
    missing = [name for name in modules() if f"`{name}`" not in text]
    assert missing == [], "add a row to docs/architecture.md for: " + ", ".join(missing)


def _drawn(layers: list[tuple[str, ...]]) -> str:
    return " ◄─ ".join(units[0] if len(units) == 1 else f"({', '.join(units)})"
                       for units in layers)


def test_the_page_draws_the_layers_this_test_checks() -> None:
    text = " ".join(PAGE.read_text(encoding="utf-8").split())  # a drawing may wrap
    assert _drawn(LAYERS) in text
    assert _drawn(IMPLS_LAYERS) in text


def test_every_module_has_a_place() -> None:
    for module in module_names(PACKAGE):
        _place(module)  # StopIteration: a new root module or folder wants a layer


# ------------------------------------------------------------------ the tree


def test_no_module_imports_one_that_is_not_below_it() -> None:
    assert violations(PACKAGE) == []


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) == len(modules())  # every module is in it
    assert cycles(graph) == []


# --------------------------------------- the checks catch what is planted


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package, to plant imports in."""
    copy = tmp_path / "metricdiff"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert violations(copy) == [] and cycles(import_graph(copy)) == []
    return copy


def plant(tree: Path, module: str, code: str) -> None:
    path = tree / module
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + code + "\n", encoding="utf-8")


@pytest.mark.parametrize(("module", "code", "target"), [
    # at module level, the way every import used to be checked
    ("statistics/__init__.py", "from metricdiff.cli import main", "metricdiff.cli"),
    # inside a method, a lazy import
    ("errors.py", "class Planted:\n    def method(self) -> None:\n"
                  "        from metricdiff import api", "metricdiff.api"),
    # under TYPE_CHECKING, deep in a function
    ("cases/case.py", "def planted() -> None:\n    if True:\n        if TYPE_CHECKING:\n"
                      "            import metricdiff.findings.finding",
     "metricdiff.findings.finding"),
    # relative, two folders up
    ("impls/reference/bleu.py", "def planted() -> None:\n    from ...scoring import execution",
     "metricdiff.scoring.execution"),
    # a name from the package's face
    ("profiles/axis.py", "def planted() -> None:\n    from metricdiff import __version__",
     "metricdiff"),
    # by importlib, with a literal name
    ("machine_paths.py", "def planted() -> None:\n    import importlib\n"
                         "    importlib.import_module('metricdiff.reports.model')",
     "metricdiff.reports.model"),
    # inside impls/: the reference reaching for a peer
    ("impls/reference/rouge.py", "def planted() -> None:\n"
                                 "    from metricdiff.impls.peers import rouge_score",
     "metricdiff.impls.peers.rouge_score"),
    # sideways: two units of one layer
    ("atomic.py", "from metricdiff.input_files import lines", "metricdiff.input_files"),
])
def test_an_upward_import_at_any_depth_is_caught(
    tree: Path, module: str, code: str, target: str
) -> None:
    plant(tree, module, code)
    found = violations(tree)
    assert len(found) == 1, found
    assert found[0].startswith(f"metricdiff/{module}:") and f" imports {target}," in found[0]


def test_a_cycle_inside_one_folder_is_caught(tree: Path) -> None:
    # scoring/jobs.py is imported by pool.py; a lazy import back closes a cycle
    # that the layers allow (one folder) but the graph does not.
    plant(tree, "scoring/jobs.py", "def planted() -> None:\n"
                                   "    from metricdiff.scoring.pool import Pool")
    assert violations(tree) == []
    [cycle] = cycles(import_graph(tree))
    assert {"metricdiff.scoring.jobs", "metricdiff.scoring.pool"} <= set(cycle)
