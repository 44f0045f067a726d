"""pyrouge through its adapter: against pyrouge called as its README shows, on the
DUC 2004 texts pyrouge ships for its own tests, and against ROUGE-1.5.5.pl run
directly (the ``rouge155`` adapter) with the options pyrouge passes.  Skips, with
the adapter's reason, when pyrouge, Perl or the script is missing."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from helpers import require_impl
from metricdiff.impls.peers.pyrouge import rouge_home

METRICS = ["rouge-1", "rouge-2", "rouge-4", "rouge-lsum", "rouge-w", "rouge-su"]


@pytest.fixture
def adapter():
    return require_impl("pyrouge", "rouge-1")


@pytest.fixture
def duc(adapter) -> tuple[Path, list[str], list[list[str | None]]]:
    """pyrouge's test data (DUC 2004): 4 system summaries, 3 models each."""
    import pyrouge

    data = Path(pyrouge.__file__).parent / "tests" / "data"
    systems = sorted((data / "systems_plain").iterdir())
    hyps = [path.read_text(encoding="utf-8") for path in systems]
    refs: list[list[str | None]] = []
    for path in systems:
        doc = path.name.split(".")[0]
        models = sorted((data / "models_plain").glob(f"{doc}.M.100.T.*"))
        refs.append([m.read_text(encoding="utf-8") for m in models])
    return data, [h.strip("\n") for h in hyps], [[r.strip("\n") for r in seg] for seg in refs]


def pyrouge_readme_call(data: Path, home: Path, tmp_path: Path,
                        monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """pyrouge's README usage, verbatim but for the paths; its settings file and
    temporary files go under ``tmp_path``."""
    from pyrouge import Rouge155

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    r = Rouge155(rouge_dir=str(home))
    r.system_dir = str(data / "systems_plain")
    r.model_dir = str(data / "models_plain")
    r.system_filename_pattern = r"D(\d+).M.100.T.A"
    r.model_filename_pattern = "D#ID#.M.100.T.[A-Z]"
    output = r.convert_and_evaluate()
    scores: dict[str, float] = r.output_to_dict(output)
    return scores


def test_corpus_equals_pyrouge_itself(adapter, duc, tmp_path, monkeypatch):
    data, hyps, refs = duc
    home = rouge_home()
    expected = pyrouge_readme_call(data, home, tmp_path, monkeypatch)
    monkeypatch.undo()
    for metric, key in [("rouge-1", "rouge_1"), ("rouge-2", "rouge_2"),
                        ("rouge-lsum", "rouge_l"), ("rouge-w", "rouge_w_1.2"),
                        ("rouge-su", "rouge_su*")]:
        got = adapter.corpus_score(metric, hyps, refs, adapter.options(metric))
        assert (got.recall, got.precision, got.fmeasure) == (
            expected[f"{key}_recall"], expected[f"{key}_precision"], expected[f"{key}_f_score"])


@pytest.mark.parametrize("metric", METRICS)
def test_segments_equal_the_script_with_pyrouges_options(adapter, duc, metric):
    """pyrouge's options are the script's -m (stem, with the WordNet table), -2 -1
    -U, -w 1.2, -n 4, -f A: the rouge155 adapter with the stemmer on runs the
    script with the same flags, segment by segment."""
    perl = require_impl("rouge155", metric)
    _, hyps, refs = duc
    ours = adapter.sentence_scores(metric, hyps, refs, adapter.options(metric))
    theirs = perl.sentence_scores(
        metric, hyps, refs, perl.options(metric, {"stemmer": "porter-rouge155-wordnet"}))
    assert [(r.recall, r.precision, r.fmeasure) for r in ours] == [
        (r.recall, r.precision, r.fmeasure) for r in theirs]


def test_one_segment_is_its_score_and_nothing_is_left_behind(adapter, tmp_path, monkeypatch):
    # "the cats sat on the mat" vs "the cat sat on a mat": with -m, cats -> cat;
    # 6 tokens each, 5 clipped matches (the, cat, sat, on, mat): R = P = 5/6 = 0.83333.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = adapter.corpus_score("rouge-1", ["the cats sat on the mat"],
                                  [["the cat sat on a mat"]], adapter.options("rouge-1"))
    assert (result.recall, result.precision) == (0.83333, 0.83333)
    assert not list(tmp_path.iterdir())  # pyrouge's mkdtemp()s and settings.ini removed


def test_a_less_than_sign_cuts_the_sentence(adapter):
    # pyrouge writes the SEE HTML unescaped; the script reads a sentence as
    # ([^<]+), so "b < c d" is read as "b": 1 of the reference's 3 tokens.
    result = adapter.corpus_score("rouge-1", ["b < c d"], [["b c d"]], adapter.options("rouge-1"))
    assert (result.recall, result.precision) == (0.33333, 1.0)


def test_an_empty_reference_crashes_every_metric(adapter):
    # Every run computes ROUGE-W, which divides by the model's length (l. 2454).
    with pytest.raises(RuntimeError, match="Illegal division by zero"):
        adapter.corpus_score("rouge-1", ["a b"], [[""]], adapter.options("rouge-1"))


def test_punkt_is_refused(adapter):
    from metricdiff.errors import UnsupportedOption

    with pytest.raises(UnsupportedOption, match="pickle"):
        adapter.options("rouge-lsum", {"sentence_split": "punkt"})


@pytest.mark.parametrize("metric", ["rouge-1", "rouge-lsum", "rouge-su"])
def test_corpus_is_the_reference_under_its_profile(adapter, duc, metric):
    """Its average of several segments is corpus_average=bootstrap-rouge155: the
    reference configured as pyrouge's profile gives the same printed numbers."""
    from metricdiff.impls import get_adapter

    _, hyps, refs = duc
    options = adapter.options(metric)
    ours = adapter.corpus_score(metric, hyps, refs, options)
    theirs = get_adapter("reference", metric).corpus_score(metric, hyps, refs, options)
    assert (ours.recall, ours.precision, ours.fmeasure) == (
        theirs.recall, theirs.precision, theirs.fmeasure)


def test_the_metrics_of_one_text_share_one_run_of_the_script_even_when_it_dies(
        adapter, monkeypatch):
    """One run prints every metric: rouge-1, rouge-2 and rouge-su of the same
    segments run the script once, whether it scores them or dies on them (an
    empty reference divides ROUGE-W by zero, l. 2454 of the script, for every
    metric's run)."""
    import metricdiff.impls.peers.pyrouge as module

    runs = []
    real = module._run

    def counted(segments):
        runs.append(segments)
        return real(segments)

    monkeypatch.setattr(module, "_run", counted)
    module._run_once.cache_clear()
    for hyp, refs in (("the cat sat", ["a cat sat down"]), ("the cat sat", ["."])):
        outcomes = [adapter.score_cases(m, [([hyp], [refs])], adapter.options(m))[0]
                    for m in ("rouge-1", "rouge-2", "rouge-su")]
        messages = {str(o) for o in outcomes if isinstance(o, BaseException)}
        if refs == ["."]:  # no token in the reference: the script dies on every metric
            assert len(messages) == 1 and "Illegal division by zero" in messages.pop()
        else:  # 2 of the reference's 4 unigrams; "cat sat" of its 3 bigrams
            assert [round(o.recall, 5) for o in outcomes][:2] == [0.5, round(1 / 3, 5)]
    assert len(runs) == 2
