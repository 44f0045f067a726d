"""`metricdiff axes` and docs/conventions.md: the project's own vocabulary, printed
from the axes and committed as a page that cannot drift from them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import ROOT
from metricdiff.cli import main
from metricdiff.profiles import ALL_AXES
from metricdiff.profiles.conventions import REGENERATE, conventions_markdown
from metricdiff.profiles.profile import parse_signature

CONVENTIONS_PAGE = ROOT / "docs" / "conventions.md"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_committed_conventions_doc_is_fresh():
    committed = CONVENTIONS_PAGE.read_text(encoding="utf-8")
    assert committed == conventions_markdown(), (
        f"docs/conventions.md differs from the axes in src/metricdiff/profiles/; "
        f"regenerate it from the repository root with `{REGENERATE}`"
    )


def test_axes_md_prints_the_committed_page(capsys):
    status, out, err = run(capsys, "axes", "--format", "md")
    assert (status, err) == (0, "")
    assert out == CONVENTIONS_PAGE.read_text(encoding="utf-8")


def test_axes_lists_every_axis_grouped(capsys):
    status, out, err = run(capsys, "axes")
    assert (status, err) == (0, "")
    named = re.findall(r"^(\w+) \(key ", out, flags=re.MULTILINE)
    assert sorted(named) == sorted(axis.name for axis in ALL_AXES)
    groups = re.split(r"^== .* ==$", out, flags=re.MULTILINE)
    # The axes both families have: the four rows of the shared table of the
    # vocabulary metricdiff started from (tokenize, lowercase, lowercase_stage,
    # empty_policy); ROUGE's variant and BLEU's max_order are their own.
    shared = re.findall(r"^(\w+) \(key ", groups[1], flags=re.MULTILINE)
    assert shared == ["tokenize", "lowercase", "lowercase_stage", "empty_policy"]
    assert "max_order (key order; BLEU)" in groups[2]
    assert "variant (key variant; ROUGE)" in groups[3]


@pytest.mark.parametrize(("axis", "paper"), [
    ("max_order", "4"),          # Papineni §2.3: "we use N = 4"
    ("weights", "uniform"),      # Papineni §2.3: "uniform weights w_n = 1/N"
    ("ref_length", "closest"),   # Papineni §2.2.2: the "best match length"
    ("smoothing", "none"),       # Papineni smooths nothing
    ("multi_ref", "jackknife"),  # Lin §2.1: "we use a Jackknifing procedure"
    ("report", "recall"),        # Lin §2: ROUGE-N "is an n-gram recall"
    ("counts", "multiset"),      # Lin eq. 1: Count_match is a clipped count
])
def test_one_axis_shows_the_papers_value(capsys, axis, paper):
    status, out, err = run(capsys, "axes", axis)
    assert (status, err) == (0, "")
    assert out.splitlines()[0].startswith(f"{axis} (key ")
    assert out.splitlines()[1] == f"  paper: {paper}"


def test_one_axis_lists_its_values_with_their_meaning(capsys):
    status, out, _ = run(capsys, "axes", "stemmer")
    assert status == 0
    # The stemmers of the ROUGE spec's ROUGE-STEM clause, one line each.
    for value in ("none", "porter-nltk", "porter-original", "porter-rouge155",
                  "porter-rouge155-wordnet"):
        assert re.search(rf"^  {re.escape(value)} +\S", out, flags=re.MULTILINE), value
    status, out, _ = run(capsys, "axes", "skip")
    assert status == 0
    assert "  paper: -1" in out  # Lin §5: skip-bigrams allow "arbitrary gaps"
    assert "-1 for unlimited" in out


def test_one_axis_as_markdown(capsys):
    status, out, err = run(capsys, "axes", "lowercase", "--format", "md")
    assert (status, err) == (0, "")
    assert out.startswith("### `lowercase`\n")
    assert "| `none` (paper) |" in out
    assert "| `ascii` |" in out
    assert "[ROUGE-CASE](../spec/rouge.md#rouge-case)" in out


def test_unknown_axis_is_one_line_naming_the_known_ones(capsys):
    status, out, err = run(capsys, "axes", "tokeniser")
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("metricdiff: error: unknown axis 'tokeniser' (known: tokenize,")
    assert "bootstrap_samples" in err


def test_spec_links_of_the_page_name_real_clauses():
    text = CONVENTIONS_PAGE.read_text(encoding="utf-8")
    links = re.findall(r"\(\.\./spec/(\w+)\.md#([\w-]+)\)", text)
    assert links
    for family, anchor in links:
        spec = (ROOT / "spec" / f"{family}.md").read_text(encoding="utf-8")
        headings = {h.lower() for h in re.findall(r"^### (\S+)$", spec, flags=re.MULTILINE)}
        assert anchor in headings, f"docs/conventions.md links {family}.md#{anchor}"


def test_the_pages_example_signature_reads_back():
    text = CONVENTIONS_PAGE.read_text(encoding="utf-8")
    example = re.search(r"^(bleu\|impl:.*)$", text, flags=re.MULTILINE)
    assert example is not None
    parsed = parse_signature(example.group(1))
    assert parsed.profile["tokenize"] == "13a"
    assert parsed.profile["max_order"] == "4"


def test_the_vocabulary_is_cited_inside_the_repository():
    # docs/conventions.md replaced a vocabulary file outside the repository;
    # nothing may point there (or to the notes next to it) any more.
    outside = re.compile(r"CONVENTIONS\.md|shared/|seeds/\d")
    cited = []
    for folder in ("src", "docs", "spec", "fixtures", "tests", "README.md"):
        path = ROOT / folder
        for file in [path] if path.is_file() else sorted(path.rglob("*")):
            if file.suffix in (".py", ".md", ".toml") and file.name != Path(__file__).name:
                text = file.read_text(encoding="utf-8")
                cited += [f"{file.relative_to(ROOT)}: {m.group()}" for m in outside.finditer(text)]
    assert cited == []
