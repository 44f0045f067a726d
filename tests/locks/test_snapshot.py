"""`metricdiff snapshot` and `metricdiff verify`: a lock reproduces, an edited value
is a drift named by case/impl/field/old/new, a changed header is an environment
change, a malformed lock is one line naming file and line (exit 2)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import metricdiff.atomic
from helpers import TESTS, run
from metricdiff.locks import snapshot

# By hand (Papineni et al. 2002, no smoothing, uniform weights, N = 4):
# line 1 "a b c d" against "a b c d": every n-gram matches: counts = totals = 4,3,2,1,
#   c = r = 4, BLEU = 100.
# line 2 "w x y z" against "w x y q": unigrams 3/4, bigrams 2/3 ("w x", "x y"),
#   trigrams 1/2 ("w x y"), 4-grams 0/1: p_4 = 0 so BLEU = 0.
# corpus: counts 7,5,3,1 over totals 8,6,4,2, c = r = 8 (BP = 1),
#   BLEU = 100 * (7/8 * 5/6 * 3/4 * 1/2) ** (1/4).
# ROUGE-1 of line 2 (one reference, so every multi-reference rule agrees): 3 of 4
#   unigrams shared, R = P = 3/4.
HYPS = "a b c d\nw x y z\n"
REFS = "a b c d\nw x y q\n"
CORPUS_BLEU = 100 * (7 / 8 * 5 / 6 * 3 / 4 * 1 / 2) ** 0.25


@pytest.fixture
def project(tmp_path):
    (tmp_path / "hyp.txt").write_text(HYPS, encoding="utf-8")
    (tmp_path / "ref.txt").write_text(REFS, encoding="utf-8")
    return tmp_path


def take_snapshot(capsys, project, *extra):
    lock = project / "scores.lock"
    status, out, err = run(capsys, "snapshot", "--out", lock, "--hyp", project / "hyp.txt",
                           "--ref", project / "ref.txt", "--impl", "reference",
                           "--metric", "bleu", "--metric", "rouge-1", *extra)
    assert status == 0, err
    assert out.startswith(f"wrote {lock}: 6 scores")
    return lock


def block_of(text, case, metric, impl):
    """The [[score]] block of one entry: (start, end) offsets into ``text``."""
    head = f'[[score]]\ncase = "{case}"\nmetric = "{metric}"\nimpl = "{impl}"\n'
    start = text.index(head)
    end = text.find("[[score]]", start + 1)
    return start, len(text) if end < 0 else end


def edit_entry(lock, case, metric, impl, old, new):
    text = lock.read_text(encoding="utf-8")
    start, end = block_of(text, case, metric, impl)
    block = text[start:end]
    assert old in block
    lock.write_text(text[:start] + block.replace(old, new, 1) + text[end:], encoding="utf-8")


def test_round_trip_reproduces_and_records_hand_derived_values(capsys, project):
    lock = take_snapshot(capsys, project)
    recorded = snapshot.read(lock)
    entries = {entry.key: entry.result for entry in recorded.entries}
    corpus = entries[("hyp.txt:corpus", "bleu", "reference")]
    assert corpus["counts"] == [7, 5, 3, 1] and corpus["totals"] == [8, 6, 4, 2]
    assert math.isclose(corpus["score"], CORPUS_BLEU, rel_tol=1e-12)
    assert entries[("hyp.txt:1", "bleu", "reference")]["score"] == 100.0
    assert entries[("hyp.txt:2", "bleu", "reference")]["score"] == 0.0
    assert entries[("hyp.txt:2", "rouge-1", "reference")]["recall"] == 0.75
    # Inputs are recorded relative to the lock, with their content hash.
    assert [(i.role, i.path) for i in recorded.inputs] == [("hyp", "hyp.txt"), ("ref", "ref.txt")]
    assert recorded.impls["reference"].signatures["bleu"].startswith("bleu|impl:reference-")

    status, out, err = run(capsys, "verify", lock)
    assert (status, err) == (0, "")
    assert out.strip() == f"{lock}: all 6 scores reproduce"


def test_lock_is_deterministic_and_floats_are_repr_exact(capsys, project):
    lock = take_snapshot(capsys, project)
    first = lock.read_text(encoding="utf-8")
    take_snapshot(capsys, project)
    assert lock.read_text(encoding="utf-8") == first
    recorded = snapshot.read(lock).entries
    corpus = next(e for e in recorded if e.key == ("hyp.txt:corpus", "bleu", "reference"))
    # Reading back gives the very float that was computed, not a rounded one.
    assert repr(corpus.result["score"]) in first


def test_verify_runs_from_any_directory(capsys, project, tmp_path_factory, monkeypatch):
    lock = take_snapshot(capsys, project)
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    status, _, err = run(capsys, "verify", lock)
    assert status == 0, err


def test_an_edited_value_is_a_drift_naming_case_impl_field_old_new(capsys, project):
    lock = take_snapshot(capsys, project)
    recorded = snapshot.read(lock)
    corpus = next(e for e in recorded.entries
                  if e.key == ("hyp.txt:corpus", "bleu", "reference"))
    true_score = corpus.result["score"]
    edit_entry(lock, "hyp.txt:corpus", "bleu", "reference",
               f"score = {true_score!r}", "score = 50.0")
    edit_entry(lock, "hyp.txt:corpus", "bleu", "reference",
               "counts = [7, 5, 3, 1]", "counts = [7, 5, 3, 2]")
    edit_entry(lock, "hyp.txt:2", "rouge-1", "reference", "matches = 3.0", "matches = 2.0")

    status, out, _ = run(capsys, "verify", lock)
    assert status == 1
    lines = out.splitlines()
    # Two of the six scores moved, one of them in two fields: scores are counted
    # as scores, fields as fields.
    assert lines[:4] == [
        f"{lock}: 2 of 6 scores drifted (3 fields)",
        "drift: hyp.txt:2  reference  rouge-1  matches: 2.0 -> 3.0",
        f"drift: hyp.txt:corpus  reference  bleu  score: 50.0 -> {true_score!r}",
        "drift: hyp.txt:corpus  reference  bleu  counts[3]: 2 -> 1",
    ]


def test_a_drift_within_the_recorded_tolerance_passes(capsys, project):
    lock = take_snapshot(capsys, project)
    corpus = next(e for e in snapshot.read(lock).entries
                  if e.key == ("hyp.txt:corpus", "bleu", "reference"))
    nudged = corpus.result["score"] * (1 + 1e-12)  # the reference's rel_tol is 1e-9
    edit_entry(lock, "hyp.txt:corpus", "bleu", "reference",
               f"score = {corpus.result['score']!r}", f"score = {nudged!r}")
    assert run(capsys, "verify", lock)[0] == 0
    # ... and a tolerance loosened by hand in the lock is honoured (|50 - 72.3| <= 25).
    edit_entry(lock, "hyp.txt:corpus", "bleu", "reference", f"score = {nudged!r}", "score = 50.0")
    assert run(capsys, "verify", lock)[0] == 1
    edit_entry(lock, "hyp.txt:corpus", "bleu", "reference", "abs_tol = 0.0", "abs_tol = 25.0")
    assert run(capsys, "verify", lock)[0] == 0


def test_a_faked_version_change_is_reported_as_an_environment_change(capsys, project):
    lock = take_snapshot(capsys, project)
    text = lock.read_text(encoding="utf-8")
    signature = snapshot.read(lock).impls["reference"].signatures["bleu"]
    old_sig = signature.replace("impl:reference-0.1.0", "impl:reference-0.0.9").replace(
        "|smooth:none|", "|smooth:exp|")
    text = re.sub(r'(\[impl\.reference\]\nversion = )"[^"]*"', r'\1"0.0.9"', text)
    text = text.replace(signature, old_sig)
    text = re.sub(r'python = "[^"]*"', 'python = "CPython 3.9.0"', text)
    lock.write_text(text, encoding="utf-8")

    status, out, _ = run(capsys, "verify", lock)
    assert status == 0  # the scores still reproduce; the changes are reported
    lines = out.splitlines()
    changes = lines[lines.index("environment changes since the lock was written:") + 1:]
    assert "  reference: version 0.0.9 -> 0.1.0" in changes
    assert any(line.startswith("  python: CPython 3.9.0 -> ") for line in changes)
    assert ("  reference bleu: signature impl:reference-0.0.9 -> impl:reference-0.1.0, "
            "smooth:exp -> smooth:none") in changes


def test_changed_inputs_are_reported_with_the_drift(capsys, project):
    lock = take_snapshot(capsys, project)
    (project / "hyp.txt").write_text("a b c d\nw x y q\n", encoding="utf-8")
    status, out, _ = run(capsys, "verify", lock)
    assert status == 1
    assert "drift: hyp.txt:2  reference  bleu  score: 0.0 -> 100.0" in out
    assert re.search(r"input changes since the lock was written:\n  hyp\.txt: sha256 \w+", out)


def test_a_missing_implementation_is_reported_and_fails(capsys, project):
    lock = take_snapshot(capsys, project)
    text = lock.read_text(encoding="utf-8").replace("reference", "no-such-impl")
    lock.write_text(text, encoding="utf-8")
    status, out, _ = run(capsys, "verify", lock)
    assert status == 1
    assert out.startswith(f"{lock}: no score could be checked, 1 implementation missing\n")
    assert re.search(r"^missing: no-such-impl: unknown implementation .*\(6 scores not checked\)$",
                     out, re.M)


@pytest.mark.parametrize(
    ("old", "new", "named", "message"),
    [
        ("format = 1", "format = 7", "format = 7", "lock format 7 is not 1"),
        ("[environment]", "[environment", "[environment", "not valid TOML"),
        ('metric = "rouge-1"', 'metric = "rouge-x"', 'metric = "rouge-x"',
         "unknown metric 'rouge-x'"),
        ("bp = 1.0", 'bp = "one"', 'bp = "one"', "result field bp must be a number"),
        # A key that is missing altogether: the header of its [[score]] block.
        ("rel_tol = 1e-09\n", "", "[[score]]", "[[score]] needs rel_tol"),
    ],
)
def test_a_malformed_lock_is_one_line_naming_file_and_line(capsys, project, old, new, named,
                                                          message):
    lock = take_snapshot(capsys, project)
    edited = lock.read_text(encoding="utf-8").replace(old, new, 1)
    lock.write_text(edited, encoding="utf-8")
    status, out, err = run(capsys, "verify", lock)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err
    where = re.match(rf"metricdiff: error: {re.escape(str(lock))}:(\d+): ", err)
    assert where, err
    line = int(where.group(1))
    assert edited.splitlines()[line - 1] == named
    # The first such line: every edit above touches the first occurrence.
    assert line == edited.splitlines().index(named) + 1


def test_fixture_snapshot_skips_rejects_and_round_trips(capsys, tmp_path):
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    # By hand: "a b c d" against itself matches every n-gram: BLEU 100.
    (fixtures / "mini.toml").write_text(
        'format = 1\n\n[[case]]\nid = "must_identical"\nmetric = "bleu"\n'
        'hyps = ["a b c d"]\nrefs = [["a b c d"]]\nsource = "hand"\n\n'
        '[[case.expect]]\nscore = 100.0\n\n'
        '[[case]]\nid = "reject_order"\nmetric = "bleu"\nhyps = ["a"]\nrefs = [["a"]]\n'
        'options = { max_order = "0" }\nsource = "hand"\n\n[[case.expect]]\nerror = "max_order"\n',
        encoding="utf-8",
    )
    lock = tmp_path / "scores.lock"
    status, _, err = run(capsys, "snapshot", "--out", lock, "--fixtures", fixtures,
                         "--impl", "reference")
    assert status == 0, err
    recorded = snapshot.read(lock)
    assert [(e.key, e.result["score"]) for e in recorded.entries] == [
        (("must_identical", "bleu", "reference"), 100.0)
    ]
    assert [(i.role, i.path) for i in recorded.inputs] == [("fixture", "fixtures/mini.toml")]
    assert run(capsys, "verify", lock)[0] == 0


def test_what_an_implementation_raises_is_recorded_and_must_still_raise(tmp_path):
    from fake_adapters import MisbehavingAdapter

    (tmp_path / "hyp.txt").write_text("RAISE now\nfine text\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("x\ny\n", encoding="utf-8")
    cases = [(case, "rouge-1") for case in snapshot.corpus_cases(
        str(tmp_path / "hyp.txt"), [str(tmp_path / "ref.txt")])]
    impls = {"misbehaving": {"rouge": MisbehavingAdapter()}}
    entries = snapshot.score(snapshot.plan(cases, impls), impls).entries
    # Line 1 and the corpus (whose first hypothesis is line 1) raise.
    assert [e.error for e in entries] == ["ValueError", None, "ValueError"]
    assert entries[0].message == "bad input\non two lines"
    inputs = [snapshot.input_file("hyp", tmp_path / "hyp.txt", tmp_path),
              snapshot.input_file("ref", tmp_path / "ref.txt", tmp_path)]
    lock = tmp_path / "scores.lock"
    snapshot.write(snapshot.make_lock(entries, impls, inputs), lock)

    def lookup(name, metric):
        return MisbehavingAdapter()

    assert snapshot.read(lock).entries[0].message == "bad input\non two lines"
    assert snapshot.verify(lock, lookup).ok
    # It no longer raising is a drift in the "error" field.
    (tmp_path / "hyp.txt").write_text("now RAISE\nfine text\n", encoding="utf-8")
    drifts = snapshot.verify(lock, lookup).drifts
    assert [(d.case, d.field, d.old, d.new) for d in drifts] == [
        ("hyp.txt:1", "error", "ValueError", "scored"),
        ("hyp.txt:corpus", "error", "ValueError", "scored"),
    ]


def test_compare_entries_uses_the_old_entrys_tolerance():
    old = snapshot.Entry("c", "bleu", "i", {"score": 10.0, "counts": [1, 2]},
                         abs_tol=0.0, rel_tol=1e-3)
    assert snapshot.compare_entries(old, snapshot.Entry("c", "bleu", "i",
                                    {"score": 10.005, "counts": [1, 2]})) == []
    drifts = snapshot.compare_entries(old, snapshot.Entry("c", "bleu", "i",
                                      {"score": 10.02, "counts": [1, 3]}))
    assert [(d.field, d.old, d.new) for d in drifts] == [
        ("score", "10.0", "10.02"), ("counts[1]", "2", "3")
    ]
    nan = snapshot.Entry("c", "bleu", "i", {"score": math.nan})
    assert snapshot.compare_entries(nan, nan) == []


def test_sacrebleu_round_trip_and_upgrade_note(capsys, project):
    pytest.importorskip("sacrebleu")
    lock = project / "scores.lock"
    status, _, err = run(capsys, "snapshot", "--out", lock, "--hyp", project / "hyp.txt",
                         "--ref", project / "ref.txt", "--impl", "sacrebleu")
    assert status == 0, err
    recorded = snapshot.read(lock)
    assert {e.metric for e in recorded.entries} == {"bleu"}  # sacrebleu has no ROUGE
    # Line 1 by hand: identical 4-token segments, 13a tokenization changes nothing: 100.
    assert math.isclose(recorded.entries[0].result["score"], 100.0, rel_tol=1e-12)
    text = lock.read_text(encoding="utf-8")
    version = recorded.impls["sacrebleu"].version
    lock.write_text(text.replace(f'version = "{version}"', 'version = "1.0.0"'),
                    encoding="utf-8")
    status, out, _ = run(capsys, "verify", lock)
    assert status == 0
    assert f"  sacrebleu: version 1.0.0 -> {version}" in out


def test_snapshot_refuses_bad_input_in_one_line(capsys, project):
    status, _, err = run(capsys, "snapshot", "--out", project / "x.lock",
                         "--hyp", project / "hyp.txt", "--ref", project / "missing.txt",
                         "--impl", "reference")
    assert status == 2 and err.count("\n") == 1 and "missing.txt:0: cannot read" in err
    assert not (project / "x.lock").exists()
    status, _, err = run(capsys, "verify", project / "nope.lock")
    assert status == 2 and "nope.lock:0: cannot read the lock" in err
    # An input the lock records that is gone: verify cannot recompute, exit 2.
    lock = take_snapshot(capsys, project)
    (project / "ref.txt").unlink()
    status, _, err = run(capsys, "verify", lock)
    assert status == 2 and err.count("\n") == 1 and "ref.txt:0: cannot read" in err


def test_repr_round_trips_every_float(tmp_path):
    # The writer's floats must read back bit for bit (repr is the shortest exact form);
    # every value finite, as the reader requires (a recorded inf verifies anything).
    entry = snapshot.Entry("c", "bleu", "reference",
                           {"score": 0.1 + 0.2, "precisions": [5e-324, 1.0],
                            "ref_len": 1.7976931348623157e308, "counts": [1, 2.5]})
    lock = snapshot.Lock(snapshot.current_environment(), (),
                         {"reference": snapshot.ImplInfo("0", {"bleu": "bleu|impl:x"})},
                         (entry,))
    path = tmp_path / "x.lock"
    snapshot.write(lock, path)
    assert snapshot.read(path).entries[0].result == entry.result
    assert Path(path).read_text(encoding="utf-8").count("[[score]]") == 1


# --- a lock always holds scores ---------------------------------------------


def test_snapshot_refuses_a_lock_where_every_implementation_is_skipped(capsys, project):
    lock = project / "scores.lock"
    status, out, err = run(capsys, "snapshot", "--out", lock, "--hyp", project / "hyp.txt",
                           "--ref", project / "ref.txt", "--impl", "no-such-impl")
    assert (status, out) == (2, "")
    skipped, error = err.splitlines()
    assert skipped.startswith("skipped ") and "no-such-impl" in skipped
    assert error == (f"metricdiff: error: {lock}:0: no lock written: every implementation "
                     "was skipped (no-such-impl)")
    assert not lock.exists()


def test_snapshot_refuses_a_lock_without_cases(capsys, tmp_path):
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "only_reject.toml").write_text(
        'format = 1\n\n[[case]]\nid = "reject_order"\nmetric = "bleu"\nhyps = ["a"]\n'
        'refs = [["a"]]\noptions = { max_order = "0" }\nsource = "hand"\n\n'
        '[[case.expect]]\nerror = "max_order"\n',
        encoding="utf-8",
    )
    lock = tmp_path / "scores.lock"
    status, _, err = run(capsys, "snapshot", "--out", lock, "--fixtures", fixtures,
                         "--impl", "reference")
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"metricdiff: error: {lock}:0: no lock written: no case to score")
    assert not lock.exists()


def test_verify_refuses_a_lock_with_no_scores(capsys, project):
    lock = take_snapshot(capsys, project)
    text = lock.read_text(encoding="utf-8")
    lock.write_text(text[:text.index("[[score]]")], encoding="utf-8")
    status, out, err = run(capsys, "verify", lock)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"metricdiff: error: {lock}:0: the lock records no scores")


# --- a user's implementation that reports only some statistics ---------------

MY_BLEU = TESTS / "example_impls" / "my_bleu.py"


def test_a_user_implementation_records_only_what_it_reports(capsys, project):
    impl = f"python:{MY_BLEU}:bleu"  # reports neither precisions nor bp
    lock = project / "scores.lock"
    status, out, err = run(capsys, "snapshot", "--out", lock, "--hyp", project / "hyp.txt",
                           "--ref", project / "ref.txt", "--impl", impl, "--metric", "bleu")
    assert status == 0, err
    assert out.startswith(f"wrote {lock}: 3 scores (0 raised)")
    recorded = snapshot.read(lock)
    # my_bleu: add-one smoothing on every order, so line 1 ("a b c d" against
    # itself) gives (m + 1) / (t + 1) = 1 on each order and BLEU 100, by hand.
    first = recorded.entries[0].result
    assert first == {"score": 100.0, "sys_len": 4, "ref_len": 4, "counts": [4, 3, 2, 1],
                     "totals": [4, 3, 2, 1]}
    assert recorded.impls[impl].signatures["bleu"].endswith("|profile:unknown")

    # Code of the lock's own runs only when verify names it (locks/trust.py).
    status, out, err = run(capsys, "verify", lock, "--impl", impl)
    assert (status, err) == (0, "")
    assert out.strip() == f"{lock}: all 3 scores reproduce"
    # What it does record is still checked.
    edit_entry(lock, "hyp.txt:1", "bleu", impl, "counts = [4, 3, 2, 1]", "counts = [4, 3, 2, 0]")
    status, out, _ = run(capsys, "verify", lock, "--impl", impl)
    assert status == 1 and f"drift: hyp.txt:1  {impl}  bleu  counts[3]: 0 -> 1" in out


def test_verify_compares_only_the_fields_the_lock_records():
    old = snapshot.Entry("c", "bleu", "i", {"score": 10.0})
    # A field the lock did not record is no drift ...
    assert snapshot.compare_entries(old, snapshot.Entry("c", "bleu", "i",
                                    {"score": 10.0, "bp": 1.0})) == []
    # ... a recorded one that is no longer reported is.
    drifts = snapshot.compare_entries(snapshot.Entry("c", "bleu", "i", {"score": 10.0, "bp": 1.0}),
                                      snapshot.Entry("c", "bleu", "i", {"score": 10.0}))
    assert [(d.field, d.old, d.new) for d in drifts] == [("bp", "1.0", "absent")]


# --- where the lock goes ----------------------------------------------------


@pytest.mark.parametrize("where", ["missing_folder", "parent_is_a_file", "a_folder"])
def test_an_unwritable_out_is_refused_before_any_scoring(capsys, project, monkeypatch, where):
    (project / "notes.txt").write_text("x\n", encoding="utf-8")
    out, said = {
        "missing_folder": (project / "nodir" / "x.lock", "nodir does not exist"),
        "parent_is_a_file": (project / "notes.txt" / "x.lock", "notes.txt is not a folder"),
        "a_folder": (project, "it is a folder"),
    }[where]

    def no_scoring(*args, **kwargs):
        raise AssertionError("scored although the lock cannot be written")

    monkeypatch.setattr(snapshot, "score", no_scoring)
    status, stdout, err = run(capsys, "snapshot", "--out", out, "--hyp", project / "hyp.txt",
                              "--ref", project / "ref.txt", "--impl", "reference")
    assert (status, stdout) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"metricdiff: error: {out}:0: cannot write the lock there: ")
    assert said in err


def test_the_lock_is_written_atomically(capsys, project, monkeypatch):
    lock = take_snapshot(capsys, project)
    lock.chmod(0o640)
    before = lock.read_bytes()
    recorded = snapshot.read(lock)

    def interrupted(descriptor):
        raise KeyboardInterrupt  # e.g. Ctrl-C while the new lock is being written

    monkeypatch.setattr(metricdiff.atomic.os, "fsync", interrupted)  # the lock writer's
    with pytest.raises(KeyboardInterrupt):
        snapshot.write(recorded, lock)
    monkeypatch.undo()
    # The old lock is whole, and no temporary file is left behind.
    assert lock.read_bytes() == before
    assert sorted(p.name for p in project.iterdir()) == ["hyp.txt", "ref.txt", "scores.lock"]
    # A rewrite keeps the lock's mode; a new lock gets what a plain write gives.
    snapshot.write(recorded, lock)
    assert lock.read_bytes() == before and (lock.stat().st_mode & 0o777) == 0o640
    fresh, plain = project / "fresh.lock", project / "plain.txt"
    snapshot.write(recorded, fresh)
    plain.write_text("", encoding="utf-8")
    assert fresh.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777


@pytest.mark.parametrize("stdin_side", ["--hyp", "--ref"])
def test_a_snapshot_of_standard_input_says_a_lock_needs_files(capsys, project, stdin_side):
    """docs/commands/snapshot-verify.md shows this line; the command had come to
    take a digest of a file named '-' first and say "No such file or directory"."""
    files = {"--hyp": project / "hyp.txt", "--ref": project / "ref.txt", stdin_side: "-"}
    status, out, err = run(capsys, "snapshot", "--out", project / "x.lock",
                           "--hyp", files["--hyp"], "--ref", files["--ref"], "--impl", "reference")
    assert (status, out) == (2, "")
    assert err == ("metricdiff: error: -:0: a lock needs files that verify can read again, "
                   "not stdin\n")
    assert not (project / "x.lock").exists()
