"""`metricdiff signature`: the signature `score` prints, read back by `--explain`;
the signature parser is the exact inverse of the writer."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import TESTS, run
from metricdiff.profiles import AXES, BleuOptions, ConventionError, RougeOptions, profile_of
from metricdiff.profiles.metrics import METRICS
from metricdiff.profiles.profile import (
    ParsedSignature,
    parse_signature,
    signature,
    unknown_signature,
    with_overrides,
)
from metricdiff.profiles.rouge import VARIANTS


def test_signature_is_the_one_score_prints(capsys, tmp_path):
    (tmp_path / "h.txt").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("a b c\n", encoding="utf-8")
    for metric in ("bleu", "rouge-l"):
        _, scored, _ = run(capsys, "score", "--impl", "reference", "--metric", metric,
                           "-o", "tokenize=13a", "--hyp", tmp_path / "h.txt",
                           "--ref", tmp_path / "r.txt")
        status, out, err = run(capsys, "signature", "--impl", "reference", "--metric", metric,
                               "-o", "tokenize=13a")
        assert (status, err) == (0, "")
        assert out.strip() == scored.splitlines()[-1]
        assert "|tok:13a|" in out


def test_signature_defaults_to_the_implementations_metric(capsys):
    status, out, _ = run(capsys, "signature", "--impl", "reference")
    assert status == 0 and out.startswith("bleu|impl:reference-")


def explain_rows(out):
    """The table rows of `--explain`, keyed by axis name."""
    rows = {}
    for line in out.splitlines():
        name = line.split(" (", 1)[0]
        if name in AXES:
            rows[name] = line.split()
    return rows


def test_explain_a_full_signature(capsys):
    sig = signature("bleu", "reference-0.1.0",
                    attrs.evolve(BleuOptions(), tokenize="13a", smoothing="exp"))
    status, out, err = run(capsys, "signature", "--explain", sig)
    assert (status, err) == (0, "")
    assert out.splitlines()[:2] == ["metric: bleu", "implementation: reference, version 0.1.0"]
    rows = explain_rows(out)
    assert list(rows) == list(profile_of(BleuOptions()))
    # axis (key), value, paper's value?, reference's default?, meaning
    assert rows["tokenize"][:6] == ["tokenize", "(tok)", "13a", "no", "(none)", "no"]
    assert rows["max_order"][:5] == ["max_order", "(order)", "4", "yes", "yes"]
    assert "Chen & Cherry 3" in out  # what smooth:exp means, from axes.py
    assert "not stated" not in out


def test_explain_a_shortened_signature_as_papers_print_it(capsys):
    sig = "rouge-l|impl:rouge-score-0.1.2|tok:rouge-score|stem:none|…|f:alpha=0.5"
    status, out, _ = run(capsys, "signature", "--explain", sig)
    assert status == 0
    assert list(explain_rows(out)) == ["tokenize", "stemmer", "f_measure"]
    assert "implementation: rouge-score, version 0.1.2" in out
    assert "rouge-score's default?" in out
    assert out.splitlines()[-1].startswith("not stated in this signature: variant, n, ")


def test_explain_without_a_signature_explains_the_options(capsys):
    status, out, _ = run(capsys, "signature", "--impl", "reference", "--metric", "rouge-2",
                         "-o", "stopwords=smart", "--explain")
    assert status == 0
    assert explain_rows(out)["stopwords"][2:5] == ["smart", "no", "(none)"]
    assert explain_rows(out)["n"][2:4] == ["2", "yes"]  # set by the metric name


@pytest.mark.parametrize(
    ("sig", "message"),
    [
        ("bleu|tok:13a|smooth:wat", "unknown value 'wat' for axis 'smoothing'"),
        ("bleu|zz:1", "unknown signature key 'zz'"),
        ("bleu|tok:13a|tok:none", "gives 'tok' (tokenize) twice"),
        ("bleu|stem:none", "'stem' (stemmer) does not apply to bleu"),
        ("blue|tok:13a", "unknown metric 'blue'"),
        ("tok:13a|bleu", "must start with the metric name"),
        ("bleu|tok", "expected KEY:VALUE"),
        ("bleu|order:0", "axis 'max_order'"),
        ("bleu|profile:known", "the only profile is 'profile:unknown'"),
        ("bleu|profile:unknown|tok:13a", "but also states tokenize"),
        ("bleu|profile:unknown|profile:unknown", "gives 'profile:unknown' twice"),
    ],
)
def test_a_bad_signature_is_one_line_and_exit_2(capsys, sig, message):
    status, out, err = run(capsys, "signature", "--explain", sig)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("metricdiff: error: ") and message in err


MY_BLEU = TESTS / "example_impls" / "my_bleu.py"


def test_explain_the_signature_of_a_user_implementation_without_a_profile(capsys, tmp_path):
    # The signature `score` prints for one's own implementation without -o.
    (tmp_path / "h.txt").write_text("a b c\n", encoding="utf-8")
    impl = f"python:{MY_BLEU}:bleu"
    _, scored, _ = run(capsys, "score", "--impl", impl, "--hyp", tmp_path / "h.txt",
                       "--ref", tmp_path / "h.txt")
    sig = scored.splitlines()[-1]
    assert sig == f"bleu|impl:{impl}-local|profile:unknown"
    for argv in (["--explain", sig], ["--impl", impl, "--explain"]):
        status, out, err = run(capsys, "signature", *argv)
        assert (status, err) == (0, "")
        # `local` is metricdiff's placeholder, not a version.
        assert out.splitlines() == [
            "metric: bleu",
            f"implementation: {impl}",
            "profile: unknown (the implementation declared no conventions, so there is "
            "nothing to explain axis by axis; declare them with -o AXIS=VALUE, or let "
            "`metricdiff audit` infer them)",
        ]


def test_unknown_implementation_is_exit_2(capsys):
    status, _, err = run(capsys, "signature", "--impl", "nope")
    assert status == 2 and "unknown implementation 'nope'" in err


# --- the parser inverts the writer --------------------------------------------

# Numbers that %g (the signature's number format) writes exactly: at most three
# significant digits.
exact_number = st.integers(1, 999).map(lambda k: k / 100)


def choice(name):
    return st.sampled_from(AXES[name].values)


@st.composite
def bleu_options(draw):
    order = draw(st.integers(1, 6))
    weights = draw(st.none() | st.lists(st.integers(0, 8).map(lambda k: k / 8), min_size=order,
                                        max_size=order).filter(lambda w: sum(w) > 0).map(tuple))
    fields = {f.name: draw(choice(f.name)) for f in attrs.fields(BleuOptions)
              if AXES[f.name].values}
    return BleuOptions(**fields, max_order=order, weights=weights,
                       smooth_value=draw(st.none() | exact_number))


@st.composite
def rouge_options(draw):
    fields = {f.name: draw(choice(f.name)) for f in attrs.fields(RougeOptions)
              if AXES[f.name].values and f.name != "variant"}
    f_measure = draw(st.sampled_from(["alpha", "beta"]))
    return RougeOptions(
        **fields,
        variant=draw(st.sampled_from(VARIANTS)),
        n=draw(st.integers(1, 9)),
        weight=draw(exact_number),
        skip=draw(st.integers(-1, 9)),
        stem_min_length=draw(st.integers(0, 9)),
        f_measure=f"{f_measure}={draw(st.integers(0, 100)) / 100:g}"
        if f_measure == "alpha" else f"beta={draw(exact_number):g}",
        truncate=draw(st.sampled_from(["none", "words:100", "bytes:665"])),
        bootstrap_seed=draw(st.integers(0, 99)),
        bootstrap_samples=draw(st.integers(1, 5000)),
    )


impl_names = st.sampled_from(["reference-0.1.0", "sacrebleu-2.6.0", "rouge-score-0.1.2",
                              "rouge-pltrdy-1.0.1 (isolated; no 'rouge' in main env)"])


@settings(max_examples=200, deadline=None)
@given(options=bleu_options() | rouge_options(), impl=impl_names, data=st.data())
def test_parse_signature_inverts_signature(options, impl, data):
    metric = "bleu" if isinstance(options, BleuOptions) else data.draw(
        st.sampled_from([m for m in METRICS if m != "bleu"]))
    text = signature(metric, impl, options)
    parsed = parse_signature(text)
    assert (parsed.metric, parsed.impl) == (metric, impl)
    assert parsed.profile == profile_of(options)
    # The typed profile comes back too, and writes the same signature again.
    rebuilt = with_overrides(type(options)(), parsed.profile)
    assert rebuilt == options
    assert signature(metric, impl, rebuilt) == text


@settings(max_examples=50, deadline=None)
@given(metric=st.sampled_from(METRICS),
       impl=impl_names | st.sampled_from(["python:my_bleu.py:bleu-local",
                                          "python:pkg.mod:Scorer.bleu-1.2",
                                          "cmd:perl multi-bleu.perl {refs} < {hyp}-local"]))
def test_parse_signature_inverts_unknown_signature(metric, impl):
    assert parse_signature(unknown_signature(metric, impl)) == ParsedSignature(
        metric, impl, {}, profile_unknown=True)


def test_parse_signature_canonicalises_values():
    parsed = parse_signature(" bleu | w:0.50,0.5 | sv:0.10 |...")
    assert parsed.profile == {"weights": "0.5,0.5", "smooth_value": "0.1"}
    assert parsed.impl is None
    with pytest.raises(ConventionError, match="twice"):
        parse_signature("bleu|impl:a|impl:b")


# sacrebleu's own signatures, as sacrebleu 2.6.0 prints them (``BLEUSignature``:
# long keys, ``--short`` keys, the smoothing value in brackets) and as sacrebleu
# 1.4 printed them; each field mapped to metricdiff's axis by reading sacrebleu's
# BLEU: case mixed/lc is lowercase none/unicode, eff no/yes is empty_order
# zero/effective-order, tok intl keeps entities (its tokenizer does not decode).
@pytest.mark.parametrize(("sig", "impl", "profile", "extra"), [
    ("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0", "sacrebleu-2.6.0",
     {"tokenize": "13a", "lowercase": "none", "smoothing": "exp", "empty_order": "zero"},
     {"nrefs": "1"}),
    ("#:2|c:lc|e:yes|tok:intl|s:floor[0.10]|v:2.6.0", "sacrebleu-2.6.0",
     {"tokenize": "intl", "lowercase": "unicode", "entities": "keep", "smoothing": "floor",
      "smooth_value": "0.1", "empty_order": "effective-order"}, {"nrefs": "2"}),
    ("nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0",
     "sacrebleu-2.6.0", {"tokenize": "zh-sacrebleu", "lowercase": "none", "smoothing": "exp",
                         "empty_order": "zero"}, {"nrefs": "1", "bs": "1000", "seed": "12345"}),
    ("BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.4.14", "sacrebleu-1.4.14",
     {"tokenize": "13a", "lowercase": "none", "smoothing": "exp"}, {"nrefs": "1"}),
])
def test_sacrebleus_signatures_are_read_as_our_axes(sig, impl, profile, extra):
    parsed = parse_signature(sig)
    assert (parsed.metric, parsed.impl, parsed.source) == ("bleu", impl, "sacrebleu")
    assert parsed.profile == profile and parsed.extra == extra


def test_explain_reads_a_sacrebleu_signature(capsys):
    status, out, _ = run(capsys, "signature", "--explain",
                         "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0")
    assert status == 0
    assert out.startswith("metric: bleu (a sacrebleu signature, each field read as "
                          "metricdiff's axis)\nimplementation: sacrebleu, version 2.6.0\n")
    assert explain_rows(out)["tokenize"][2:5] == ["13a", "no", "(none)"]
    assert out.rstrip().endswith("nrefs: 1 — references per segment (no convention)")


@pytest.mark.parametrize(("sig", "message"), [
    ("nrefs:1|nc:6|nw:0|space:no|version:2.6.0", "a sacrebleu chrF signature"),
    ("nrefs:1|case:mixed|tok:spm-flores|version:2.6.0", "spm and flores download a model"),
    ("nrefs:1|case:upper|version:2.6.0", "cannot read its lowercase value"),
])
def test_what_cannot_be_read_of_sacrebleus_is_one_line(capsys, sig, message):
    status, out, err = run(capsys, "signature", "--explain", sig)
    assert status == 2 and out == "" and message in err and err.count("\n") == 1
