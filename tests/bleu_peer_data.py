"""Text shared by the tests of the BLEU peers added for issue 13 (bleuscore,
fast-bleu, compare-mt, vizseq): real translations and the edge cases."""

from __future__ import annotations

from helpers import ROOT

TRANSLATIONS = ROOT / "benchmarks" / "data" / "translations"


def real_translations(first: int, last: int) -> tuple[list[str], list[list[str]]]:
    """Lines ``first``..``last`` (1-based, inclusive) of the bundled real
    translations (German 1-106, French 107-198, Russian 199-332; see their
    README): hypotheses and one reference each."""
    hyps = (TRANSLATIONS / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (TRANSLATIONS / "ref.txt").read_text(encoding="utf-8").splitlines()
    return hyps[first - 1 : last], [[ref] for ref in refs[first - 1 : last]]


#: One slice per language of the bundled translations.
LANGUAGES = {"de": (1, 40), "fr": (107, 150), "ru": (199, 240)}

#: Edge cases: (hypotheses, references) of one segment each.
EDGES = {
    "empty-hyp": ([""], [["the cat sat"]]),
    "empty-ref": (["the cat sat"], [[""]]),
    "both-empty": ([""], [[""]]),
}
