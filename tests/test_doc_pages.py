"""Every command README.md and docs/ show is run, and prints what the page shows
(scripts/doc_pages.py says how a page is read and run; scripts/sync_docs.py
rewrites the shown outputs from real runs).  The pages' outputs were printed by
these commands: what makes them right is checked elsewhere, against the peer
libraries and hand computations.  The matcher's own tests below use lines made
up by hand."""

from __future__ import annotations

import itertools
import re
import shlex

import pytest

from doc_pages import (
    MUST_NOT_RUN,
    NOT_RUN,
    ROOT,
    commands,
    matches,
    pages,
    report,
    resynced,
    run_page,
)
from metricdiff.impls import adapter_names, get_adapter

PAGES = pages()


# ---------------------------------------------------------------- the matcher


@pytest.mark.parametrize(("shown", "printed", "same"), [
    (["a", "b"], ["a", "b"], True),
    (["a", "b "], ["a", "b"], True),  # trailing spaces are not compared
    (["a"], ["a", "b"], False),
    (["a", "…"], ["a", "b", "c"], True),
    (["…", "c"], ["a", "b", "c"], True),
    (["a", "…", "c"], ["a", "c"], True),  # a line … may stand for no line
    (["a", "…", "d"], ["a", "b", "c"], False),
    (["tok:13a|…|smooth:exp|…"], ["tok:13a|lc:none|smooth:exp|level:corpus"], True),
    (["tok:13a|…|smooth:exp"], ["tok:13a|lc:none|smooth:floor"], False),
    (["x … y"], ["x … y"], True),  # a literal … in the output still matches
])
def test_shown_lines_match_printed_ones_with_explicit_elisions(shown, printed, same):
    assert matches(shown, printed) is same


def test_a_resync_keeps_what_still_matches_and_takes_the_rest_from_the_run():
    shown = ("== bleu", "score 38.40", "…", "sig tok:13a|…", "end")
    printed = ["== bleu", "score 38.41", "x", "y", "sig tok:13a|lc:none", "end", "extra"]
    assert resynced(shown, printed) == [
        "== bleu", "score 38.41", "…", "sig tok:13a|…", "end", "extra"]


def test_commands_are_read_with_their_output_and_markers(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "text\n```\n$ metricdiff a \\\n    --b\nout 1\nout 2\n$ echo $?\n0\n```\n"
        "```sh\n# not run by the tests: installs\npip install x\n```\n"
        "```\nmetricdiff synopsis [--x]\n```\n", encoding="utf-8")
    found = commands("page.md", page.read_text(encoding="utf-8"))
    assert [(c.command, c.output, c.runs) for c in found] == [
        ("metricdiff a \\\n    --b", ("out 1", "out 2"), True),
        ("echo $?", ("0",), True),
        ("pip install x", (), False),
    ]
    assert (found[0].line, found[0].first) == (2, 4)  # 0-based: "$ metricdiff", "out 1"


# ---------------------------------------------------------------- the pages


def test_every_page_with_commands_is_read():
    assert {"README.md", "docs/commands/score.md", "docs/install.md"} <= set(PAGES)
    assert sum(len(commands(page)) for page in PAGES) >= 80


@pytest.mark.parametrize("page", PAGES)
def test_what_installs_or_runs_make_is_marked_not_run_and_says_why(page):
    for command in commands(page):
        if MUST_NOT_RUN.search(command.command):
            assert not command.runs, f"{command}: mark it '# {NOT_RUN}: installs'"
        if not command.runs:
            assert re.search(NOT_RUN + r": \w", command.marker), \
                f"{command}: say why after '{NOT_RUN}:'"


def _unavailable_named(page):
    """The implementations the page's commands name with --impl that cannot run here."""
    missing = []
    for command in commands(page):
        words = shlex.split(command.command.replace("\\\n", " "), comments=True)
        for option, value in itertools.pairwise(words):
            name = value.split("[")[0]
            if option == "--impl" and name in adapter_names():
                for metric in ("bleu", "rouge-1", "rouge-l"):
                    try:
                        reason = get_adapter(name, metric).unavailable_reason()
                    except Exception:  # not of this family
                        continue
                    if reason is not None and name not in ("torchmetrics",):
                        missing.append(f"{name}: {reason}")
                    break
    return missing


@pytest.mark.slow
@pytest.mark.parametrize("page", [page for page in PAGES if any(c.runs for c in commands(page))])
def test_a_page_shows_what_its_commands_print(page, tmp_path):
    missing = _unavailable_named(page)
    if missing:
        pytest.skip("; ".join(missing))
    ran = run_page(page, tmp_path)
    said = report(ran)
    assert not said, (f"{page} differs from what its commands print (when the change is "
                      f"meant, run scripts/sync_docs.py {page} and read the diff):\n\n{said}")


# ---------------------------------------------------------------- the README


def _readme() -> list[str]:
    return (ROOT / "README.md").read_text(encoding="utf-8").splitlines()


def test_the_readme_s_first_screen_gives_what_a_new_user_needs():
    """Issue 28, item 9: in its first 40 lines, what it is, one pip install, one
    compare with its real output (run by test_a_page_shows_what_its_commands_print),
    and exactly two set-up commands for a fresh clone: make report, make test."""
    first = _readme()[:40]
    screen = "\n".join(first)
    found = [c for c in commands("README.md") if c.line < 40]
    said = [c.command.split("#")[0].split()[:2] for c in found]
    assert sum(1 for words in said if words[:2] == ["pip", "install"]) == 1
    compare = [c for c in found if c.command.startswith("metricdiff compare")]
    assert len(compare) == 1 and compare[0].runs and len(compare[0].output) >= 4
    assert compare[0].first + len(compare[0].output) < 40
    make = [words for words in said if words[0] == "make"]
    assert make == [["make", "report"], ["make", "test"]]
    assert "metricdiff" in first[2] and "BLEU" in screen


def test_no_readme_line_is_wider_than_a_screen_but_tables_and_links():
    wide = [line for line in _readme() if len(line) > 100
            and not line.startswith("|") and "](" not in line]
    assert wide == []
    assert len(_readme()) < 150


@pytest.mark.parametrize("page", PAGES)
def test_the_source_paths_a_page_names_exist(page):
    """docs once named src/metricdiff/pytest_plugin.py after it moved to locks/."""
    text = (ROOT / page).read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:src|tests|scripts|benchmarks|fixtures|examples)/[\w./-]+)`",
                           text))
    missing = sorted(path for path in named if not (ROOT / path.rstrip("/")).exists())
    assert missing == []
