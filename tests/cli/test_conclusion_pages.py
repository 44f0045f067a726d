"""Every command docs/commands/rank.md, reproduce.md and sensitivity.md show, the
README's lines on ``rank`` and ``reproduce``, and signature.md's sacrebleu
signature run here and print what the pages show (a line ``…`` on a page stands
for any number of lines).  The pages' numbers were printed by these commands;
what makes them right is checked elsewhere (tests/conclusions/: against
sacrebleu, rouge-score and hand counts)."""

from __future__ import annotations

import shlex

import pytest

from helpers import ROOT, require_impl, run

PAGES = ["docs/commands/rank.md", "docs/commands/reproduce.md",
         "docs/commands/sensitivity.md", "docs/commands/signature.md", "README.md"]
#: The implementations the pages' outputs list, which must be here to reproduce them.
NEEDED = {"rouge-score": "rouge-l", "sacrebleu": "bleu", "nltk": "bleu",
          "multi-bleu": "bleu", "bleuscore": "bleu", "vizseq": "bleu",
          "compare-mt": "bleu", "pycocoevalcap": "bleu"}
#: The commands of the pages this test runs (README.md: its rank and reproduce;
#: signature.md: its sacrebleu signature).
COMMANDS = ("rank", "reproduce", "sensitivity")


def ours(command: str) -> bool:
    words = command.split()
    return words[1] in COMMANDS or (words[1] == "signature" and "nrefs:" in command)


def examples(page: str) -> list[tuple[str, list[str]]]:
    """(command, the lines shown after it) of every ``$ metricdiff`` line in a
    fenced block of ``page``."""
    blocks, inside = [], None
    for line in (ROOT / page).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if inside is None:
                inside = []
            else:
                blocks.append(inside)
                inside = None
        elif inside is not None:
            inside.append(line)
    found = []
    for lines in blocks:
        for index, line in enumerate(lines):
            if not line.startswith("$ metricdiff "):
                continue
            shown = []
            for after in lines[index + 1:]:
                if after.startswith("$ "):
                    break
                shown.append(after)
            found.append((line[2:], shown))
    return [(command, shown) for command, shown in found
            if ours(command)]


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown``, a ``…`` line standing for any lines."""
    if not shown:
        return not printed
    if shown[0] == "…":
        return any(matches(shown[1:], printed[start:]) for start in range(len(printed) + 1))
    return bool(printed) and printed[0] == shown[0] and matches(shown[1:], printed[1:])


CASES = [(page, command, shown) for page in PAGES for command, shown in examples(page)]


def test_the_pages_show_commands():
    shown = {page for page, _, _ in CASES}
    assert shown == set(PAGES)


@pytest.mark.slow
@pytest.mark.parametrize(("page", "command", "shown"), CASES,
                         ids=[f"{page}:{command[11:60]}" for page, command, _ in CASES])
def test_a_page_shows_what_its_command_prints(capsys, monkeypatch, page, command, shown):
    for impl, metric in NEEDED.items():
        if impl in "\n".join(shown):
            require_impl(impl, metric)
    monkeypatch.chdir(ROOT)
    status, out, _ = run(capsys, *shlex.split(command)[1:])
    assert status == 0
    assert matches(shown, out.splitlines()), f"{page} shows:\n" + "\n".join(shown) + \
        "\nbut the command prints:\n" + out
