"""The spec and the code use the same clause IDs: every ID the code, the reports'
clause table, the docs or the fixtures cite is a `###` heading of spec/*.md.

Docstrings cite a clause by its ID, usually in parentheses next to the paper's
section: ``(ROUGE-TRUNCATE, ``bytes:N``)``, ``(BLEU-BP, §2.3)``; a wildcard names
a family of clauses (``BLEU-SMOOTH-*``, ``BLEU-TOK-*``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from helpers import ROOT
from metricdiff.profiles.clauses import SPEC_CLAUSES

#: A clause ID as the code cites it: a family prefix, then upper-case words,
#: digits or a final wildcard.  A metric name such as ROUGE-1, ROUGE-Lsum or the
#: package name ROUGE-1.5.5 does not match (no upper-case letter after the dash,
#: or a lower-case one after the ID).
CLAUSE_ID = re.compile(
    r"\b(?:BLEU|ROUGE|LCS|WLCS)-[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*(?:-?\*)?(?![\w-])"
)
#: Lin's names for ROUGE-S/SU with a skip distance (ROUGE-S4, ROUGE-SU4): metrics,
#: not clauses.
SKIP_DISTANCE_NAME = re.compile(r"ROUGE-SU?\d+")


def spec_headings(family: str | None = None) -> set[str]:
    files = [ROOT / "spec" / f"{family}.md"] if family else sorted((ROOT / "spec").glob("*.md"))
    return {
        heading
        for file in files
        for heading in re.findall(r"^### (\S+)\s*$", file.read_text(encoding="utf-8"),
                                  flags=re.MULTILINE)
    }


def is_heading(clause: str, headings: set[str]) -> bool:
    """``clause`` is a heading, or a wildcard matching at least one."""
    if clause.endswith("*"):
        return any(heading.startswith(clause[:-1]) for heading in headings)
    return clause in headings


def cited_ids(text: str) -> list[str]:
    return [m for m in CLAUSE_ID.findall(text) if not SKIP_DISTANCE_NAME.fullmatch(m)]


def docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [node for node in ast.walk(tree) if isinstance(
        node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)]
    return [doc for node in nodes if (doc := ast.get_docstring(node, clean=False))]


def test_the_pattern_matches_the_citation_convention():
    text = ("(ROUGE-TRUNCATE, ``bytes:N``); (BLEU-BP, §2.3); BLEU-SMOOTH-*; ROUGE-W's; "
            "ROUGE-W, its ROUGE-1.5.5 part; ROUGE-Lsum; ROUGE-1; ROUGE-S4; ROUGE-W-155; "
            "BLEU-TOK-13A, BLEU-TOK-*.")
    assert cited_ids(text) == ["ROUGE-TRUNCATE", "BLEU-BP", "BLEU-SMOOTH-*", "ROUGE-W",
                               "ROUGE-W", "ROUGE-W-155", "BLEU-TOK-13A", "BLEU-TOK-*"]


def test_every_clause_of_the_axis_table_is_a_spec_heading():
    for family, clauses in SPEC_CLAUSES.items():
        headings = spec_headings(family)
        missing = [clause for clause, _ in clauses if clause not in headings]
        assert missing == [], f"profiles/clauses.py cites clauses spec/{family}.md lacks"


def test_every_clause_a_docstring_cites_is_a_spec_heading():
    headings = spec_headings()
    cited = 0
    missing = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        for doc in docstrings(path):
            for clause in cited_ids(doc):
                cited += 1
                if not is_heading(clause, headings):
                    missing.append(f"{path.relative_to(ROOT)}: {clause}")
    assert cited > 50  # the reference cites its clauses throughout
    assert missing == []


@pytest.mark.parametrize("folder", ["spec", "docs", "fixtures"])
def test_every_clause_the_prose_cites_is_a_spec_heading(folder):
    headings = spec_headings()
    missing = [
        f"{path.relative_to(ROOT)}: {clause}"
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".md", ".toml") and path.name != "found.toml"
        for clause in cited_ids(path.read_text(encoding="utf-8"))
        if not is_heading(clause, headings)
    ]
    assert missing == []


def test_a_wildcard_must_match_a_heading():
    headings = spec_headings()
    assert is_heading("BLEU-SMOOTH-*", headings)
    assert is_heading("BLEU-TOK-*", headings)
    assert not is_heading("BLEU-SMOOTHING-*", headings)
