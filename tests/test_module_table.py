"""docs/architecture.md's table of every module is generated from the modules'
docstrings (``scripts/module_table.py``) and committed; it fails here when it is
stale, naming the command that rebuilds it.  The first sentences are checked on
docstrings written for the test, where the answer is plain to read."""

from __future__ import annotations

from pathlib import Path

import pytest

from module_table import (
    BEGIN,
    END,
    PAGE,
    REGENERATE,
    first_sentence,
    module_table,
    page_with_table,
)


def test_the_committed_table_is_fresh() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert page_with_table(page, module_table()) == page, (
        f"docs/architecture.md's module table differs from the modules' docstrings; "
        f"regenerate it from the repository root with `{REGENERATE}`"
    )


def test_only_the_part_between_the_markers_is_generated() -> None:
    page = f"# Title\n\nprose before\n\n{BEGIN}\nold table\n{END}\n\nprose after\n"
    assert page_with_table(page, "| new |\n") == (
        f"# Title\n\nprose before\n\n{BEGIN}\n\n| new |\n\n{END}\n\nprose after\n")
    with pytest.raises(ValueError, match="markers"):
        page_with_table("# no markers\n", "| new |\n")


@pytest.mark.parametrize(("docstring", "sentence"), [
    ("One line.", "One line."),
    ("Two sentences. The second is not shown.", "Two sentences."),
    ("Wrapped over\n    two lines. More.", "Wrapped over two lines."),
    ("BLEU as Papineni et al. (2002) define it. More.",
     "BLEU as Papineni et al. (2002) define it."),
    ("Counts (e.g. matches. or totals) kept. More.", "Counts (e.g. matches. or totals) kept."),
    ("Code ``a. B`` stays whole. More.", "Code ``a. B`` stays whole."),
    ("No full stop", "No full stop"),
    ("A list follows:\n\n- one\n- two", "A list follows."),
    ("First paragraph, no stop\n\nSecond. paragraph.", "First paragraph, no stop"),
])
def test_the_first_sentence(docstring: str, sentence: str) -> None:
    assert first_sentence(docstring) == sentence


def test_a_module_without_a_docstring_is_refused(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""The package."""\n', encoding="utf-8")
    (package / "bare.py").write_text("X = 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bare\.py: no docstring"):
        module_table(package)


def test_a_new_folder_must_be_given_its_place(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "newstep").mkdir(parents=True)
    (package / "__init__.py").write_text('"""The package."""\n', encoding="utf-8")
    (package / "newstep" / "__init__.py").write_text('"""A new step."""\n', encoding="utf-8")
    with pytest.raises(ValueError, match="add newstep to FOLDERS"):
        module_table(package)
