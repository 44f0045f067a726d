"""``reproduce`` on real translations (benchmarks/data/translations): sacrebleu's
own printed score (from sacrebleu's command line, ``-b``) is found as sacrebleu's
declared profile; the paper's profile's number (NLTK's ``corpus_bleu`` x 100 with
its default weights, no smoothing: the paper's BLEU on whitespace tokens, printed
to one decimal) is found as the reference's; a number no profile gives is
"nothing reproduces", with the nearest; and a printed number's precision is read
from its digits."""

from __future__ import annotations

import subprocess
import sys

import pytest

from helpers import real_pairs, require_impl
from metricdiff.conclusions.reproduce import Printed, reproduce_score
from metricdiff.errors import InputError

SIZE = 120


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    hyps, refs = real_pairs(SIZE)
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (folder / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    return folder, (tuple(hyps), tuple((ref,) for ref in refs))


@pytest.mark.slow
def test_sacrebleus_printed_score_is_found_as_sacrebleu(corpus):
    require_impl("sacrebleu", "bleu")
    folder, sample = corpus
    printed = subprocess.run(
        [sys.executable, "-m", "sacrebleu", str(folder / "ref.txt"), "-i",
         str(folder / "hyp.txt"), "-b"], capture_output=True, text=True, check=True,
    ).stdout.strip()
    found = reproduce_score(printed, sample, "bleu", ["sacrebleu", "nltk"])
    assert found.reproduced
    assert found.matches[0].impl == "sacrebleu" and found.matches[0].axes_changed == 0
    assert "sacrebleu" in {c.impl for c in found.matches}


@pytest.mark.slow
def test_the_papers_number_is_found_as_the_reference(corpus):
    require_impl("nltk", "bleu")
    from nltk.translate.bleu_score import corpus_bleu

    _, sample = corpus
    hyps, refs = sample
    # the paper's BLEU: whitespace tokens, closest reference length, no smoothing
    paper = 100 * corpus_bleu([[ref[0].split()] for ref in refs], [h.split() for h in hyps])
    found = reproduce_score(f"{paper:.2f}", sample, "bleu", ["sacrebleu"])
    assert [c.label() for c in found.matches] == ["reference, the paper's profile"]


def test_a_number_no_profile_gives_is_nothing(corpus):
    _, sample = corpus
    found = reproduce_score("99.99", sample, "bleu", ["sacrebleu"])
    assert not found.reproduced
    assert len(found.nearest) == 5 and found.searched > 100
    assert all(c.scale is None for c in found.nearest)


def test_a_printed_number_stands_for_its_rounding():
    assert Printed.parse("27.3").decimals == 1 and Printed.parse("0.4173").decimals == 4
    assert Printed.parse("27.3").fits(27.25) == "points"
    assert Printed.parse("27.3").fits(27.36) is None
    assert Printed.parse("0.4173").fits(41.734) == "fraction"
    assert Printed.parse("27").fits(26.6) == "points"
    with pytest.raises(InputError, match="not a number"):
        Printed.parse("27,3")
