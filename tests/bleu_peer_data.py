"""Text shared by the tests of the BLEU peers: real translations, the edge cases,
small corpora and raw text for the tokenizers."""

from __future__ import annotations

from helpers import ROOT
from metricdiff.impls import resolve

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


# Small corpora: (hypotheses, per-segment references).  Texts are whitespace
# tokenized already, so that tokenize=none means the same thing everywhere.
CORPORA: dict[str, tuple[list[str], list[list[str]]]] = {
    "single": (["the cat sat on the mat"], [["the cat is on the mat"]]),
    "multi_ref": (
        ["the cat sat on the mat", "a quick brown fox jumps over the dog"],
        [
            ["the cat is on the mat", "there is a cat on the mat"],
            ["the quick brown fox jumps over the lazy dog", "a fast brown fox leaps over a dog"],
        ],
    ),
    "short_hyps": (["a b", "c", "the cat"], [["a b c"], ["c d"], ["the cat sat"]]),
    "no_4gram": (
        ["a b c d e f", "x y z w v"],
        [["a b c q d e f"], ["x y z w v u"]],
    ),
    "tie": (["a b c d e"], [["a b c d", "a b c d e f"]]),
    "long": (
        [
            "the quick brown fox jumps over the lazy dog today",
            "it is a truth universally acknowledged that a single man",
            "in possession of a good fortune must be in want of a wife",
        ],
        [
            [
                "the quick brown fox jumped over the lazy dog",
                "a quick brown fox jumps over a lazy dog",
            ],
            ["it is a truth universally acknowledged that a single man in possession"],
            ["possessing a good fortune he must want a wife", "in possession of a fortune"],
        ],
    ),
}

# Raw text for the tokenizers: punctuation, numbers, case, entities.
RAW = (
    ["Hello, world! It's 3.5 km (roughly).", "The Cat SAT on the mat; 1,000 times."],
    [
        ["Hello world, it's 3.5 km roughly.", "Hi, world! It is 3.5 km."],
        ["The cat sat on the mat 1,000 times.", "the cat SAT on a mat; 1000 times"],
    ],
)
CHINESE = (["我喜欢吃苹果。", "今天天气很好"], [["我爱吃苹果。"], ["今天的天气很好", "天气很好"]])
JAPANESE = (["これは日本語の文です。"], [["これは日本語の文章です。"]])
KOREAN = (["한국어 문장입니다."], [["한국어 문장이에요."]])


# What the tests of torchmetrics and pytorch-ignite share (both need torch): every
# third of the German, French and Russian verses (benchmarks/data/translations/README.md).
HYPS = (TRANSLATIONS / "hyp.txt").read_text(encoding="utf-8").splitlines()[::3]
REFS = [[r] for r in (TRANSLATIONS / "ref.txt").read_text(encoding="utf-8").splitlines()[::3]]
TOKENIZED_CHINESE = (["猫 坐 在 垫子 上", "今天 天气 很 好"],
                     [["猫 在 垫子 上"], ["今天 的 天气 很 好"]])
DOC_HYP = ["the cat is on the mat"]
DOC_REFS = [["there is a cat on the mat", "a cat is on the mat"]]


def score(spec, metric, hyps, refs):
    """The corpus score of ``--impl SPEC`` under its declared profile."""
    adapter = resolve(spec, metric)
    return adapter.corpus_score(metric, hyps, refs, adapter.options(metric))
