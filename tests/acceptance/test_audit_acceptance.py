"""The audit names the known causes of disagreement (issue 4's acceptance list),
each on a small case chosen so that the cause shows: an implementation's
departure from the paper's profile, or, for two implementations, their pair
derived from the star (asked for, as ``--pair`` does).  Every expected axis comes from
the peer's documented behaviour (cited beside it), not from running the audit.

Each test first checks that its peers are installed (and skips if not); an audit
that then finds nothing is a failure, not a skip."""

from __future__ import annotations

import pytest

from helpers import require_impl
from metricdiff.auditing.config import AuditConfig
from metricdiff.auditing.metric import audit_metric
from metricdiff.cases import Case
from metricdiff.impls import get_adapter

pytestmark = pytest.mark.filterwarnings("ignore")


def causes(metric: str, impls: list[str], texts: list[tuple[str, list[str]]],
           pairs: tuple[tuple[str, str], ...] = ()) -> set[tuple]:
    """Every cause the audit names: its findings' (a departure's sides are the
    reference under the paper's profile and the implementation), and those of
    the ``pairs`` derived from the star, as ``derived``."""
    cases = [Case((hyp,), (tuple(refs),), id=f"c{i}", origin="user") for i, (hyp, refs) in
             enumerate(texts)]
    audit = audit_metric(metric, cases, AuditConfig(impls, workers=1, timeout=120,
                                                    minimise=False, pairs=pairs))
    found = {(f.kind, f.impl_a, f.impl_b, f.axis, f.values) for f in audit.findings}
    return found | {("derived", pair.impl_a, pair.impl_b, cause.axis, cause.values)
                    for pair in audit.pairs for cause in pair.causes}


def axes_of(found: set[tuple], impl_a: str, impl_b: str) -> set[str]:
    return {
        axis for (_kind, a, b, axis_list, _values) in found if {a, b} == {impl_a, impl_b}
        for axis in axis_list.split(",")
    }


def test_bleu_tokenization_none_vs_13a():
    # sacrebleu splits punctuation off (13a); the reference splits on whitespace only.
    pytest.importorskip("sacrebleu")
    found = causes("bleu", ["reference", "sacrebleu"],
                   [("Hello, world! It is a fine day today.",
                     ["Hello , world ! It is a fine day today ."])])
    assert "tokenize" in axes_of(found, "reference", "sacrebleu")


def test_bleu_tokenization_13a_vs_intl():
    # sacrebleu's intl tokenizer splits punctuation off every Unicode punctuation and
    # symbol; 13a only off ASCII punctuation, so the guillemets stay on their words.
    pytest.importorskip("sacrebleu")
    found = causes("bleu", ["sacrebleu"],
                   [("«Bonjour» dit-il.", ["« Bonjour » dit-il ."])],
                   (("sacrebleu", "sacrebleu+intl"),))
    assert ("derived", "sacrebleu", "sacrebleu+intl", "tokenize", ("13a", "intl")) in found


def test_nltk_denominator_one_for_short_hypotheses():
    # NLTK's modified_precision divides by max(1, count): a 2-token hypothesis has
    # "one" trigram and 4-gram.  Beside "a b c d e" in a corpus, that makes the
    # pooled p3 = 3/4 and p4 = 2/3 where the paper's are 3/3 and 2/2: NLTK's BLEU is
    # 100 (3/4 · 2/3)^(1/4) = 70.7 against 100.  (On "a b" alone both are 0 but for
    # NLTK's float-min smoothing, ~1e-154: noise within its tolerance, no finding.)
    pytest.importorskip("nltk")
    case = Case(("a b c d e", "a b"), (("a b c d e",), ("a b",)), id="c0", origin="user")
    audit = audit_metric("bleu", [case], AuditConfig(["reference", "nltk"], workers=1,
                                                     timeout=120, minimise=False))
    found = {(f.kind, f.impl_a, f.impl_b, f.axis, f.values) for f in audit.findings}
    assert {"empty_order"} <= axes_of(found, "reference", "nltk")


def test_sacrebleu_all_zero_early_return():
    # sacrebleu returns 0 when nothing matches (issue #141), before smoothing;
    # pycocoevalcap smooths every order with its epsilons.
    pytest.importorskip("sacrebleu")
    pytest.importorskip("pycocoevalcap")
    found = causes("bleu", ["sacrebleu", "pycocoevalcap"],
                   [("x y z w", ["a b c d"])], (("sacrebleu", "pycocoevalcap"),))
    assert "all_zero" in axes_of(found, "sacrebleu", "pycocoevalcap")


def test_pycocoevalcap_beta_and_max_p_max_r():
    # pycocoevalcap's Rouge: F with beta = 1.2, and the best precision and the best
    # recall taken over references separately.
    pytest.importorskip("pycocoevalcap")
    found = causes("rouge-l", ["reference", "pycocoevalcap"], [
        ("the cat sat on the mat", ["the cat sat on the mat today"]),
        ("a b c d e", ["a b c", "b c d e f g h"]),
    ])
    axes = axes_of(found, "reference", "pycocoevalcap")
    assert "f_measure" in axes
    assert "multi_ref" in axes


def test_rouge_tokenizers_drop_non_ascii():
    # rouge-score keeps [a-z0-9] runs only (tokenize.py: non-alphanumerics become
    # spaces) and the Perl script does the same to non-ASCII bytes, so "Привет мир"
    # vanishes; the paper's whitespace split keeps it: 3 of 3 vs 1 of 1 matched.
    pytest.importorskip("rouge_score")
    found = causes("rouge-1", ["reference", "rouge-score", "rouge155"],
                   [("Привет мир cat", ["Привет мир dog cat"])])
    assert ("departure", "reference", "rouge-score", "tokenize",
            ("none", "rouge-score")) in found
    if get_adapter("rouge155", "rouge-1").unavailable_reason() is None:
        assert ("departure", "reference", "rouge155", "tokenize",
                ("none", "rouge155")) in found


def test_rouge_score_best_f_vs_perl_pooled():
    # rouge-score's score_multi keeps the reference with the best F; ROUGE-1.5.5 -f A
    # pools the counts of all references.
    pytest.importorskip("rouge_score")
    require_impl("rouge155", "rouge-1")
    found = causes("rouge-1", ["rouge-score", "rouge155"],
                   [("a b c d", ["a b c d", "x y z w v u"])], (("rouge-score", "rouge155"),))
    assert "multi_ref" in axes_of(found, "rouge-score", "rouge155")


def test_perl_wlcs_and_su_departures():
    # ROUGE-1.5.5 weights ROUGE-W's recall base twice; its ROUGE-SU leaves out the last
    # token's unigram (spec/rouge.md, ROUGE-W and ROUGE-SU clauses).
    require_impl("rouge155", "rouge-w")
    found_w = causes("rouge-w", ["reference", "rouge155"], [("a b c d", ["a b c d"])])
    assert "wlcs" in axes_of(found_w, "reference", "rouge155")
    # "a b c" vs "a b d", unlimited skip: the paper counts 1 skip-bigram and 2 unigrams
    # of 3 + 3 (R = 0.5); without the last unigrams it is 1 + 2 of 3 + 2 (R = 0.6).
    found_su = causes("rouge-su", ["reference", "rouge155"], [("a b c", ["a b d"])])
    assert "su_unigrams" in axes_of(found_su, "reference", "rouge155")


def test_pltrdy_counts_sets():
    # pltrdy's rouge counts each distinct n-gram once.
    require_impl("rouge-pltrdy", "rouge-1")
    found = causes("rouge-1", ["reference", "rouge-pltrdy"],
                   [("the the the cat", ["the cat sat"])])
    assert "counts" in axes_of(found, "reference", "rouge-pltrdy")


def test_porter_variants():
    # rouge-score stems with NLTK's Porter in its NLTK_EXTENSIONS mode (porter-nltk);
    # the reference's stemmed profile uses Porter's original algorithm.  NLTK's
    # extensions map "dying" to "die" where the 1980 rules give "dy" (checked with
    # nltk.stem.porter.PorterStemmer in both modes); "die" has 3 letters, unstemmed.
    pytest.importorskip("rouge_score")
    found = causes("rouge-1", ["reference", "rouge-score"],
                   [("the cat was dying", ["the cat will die"])],
                   (("reference+stemmed", "rouge-score+stemmed"),))
    stemmed = {
        axis for (_k, a, b, axis_list, _v) in found
        if {a, b} == {"reference+stemmed", "rouge-score+stemmed"}
        for axis in axis_list.split(",")
    }
    assert "stemmer" in stemmed
