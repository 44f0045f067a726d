"""The fixture loader refuses malformed files with a file:line message."""

from __future__ import annotations

import pytest

from metricdiff.cases import bundled
from metricdiff.cases.fixtures import bundled_cases, load_all, load_file
from metricdiff.errors import FixtureError

GOOD = '''format = 1

[[case]]
id = "must_example"
metric = "bleu"
hyps = ["a b"]
refs = [["a b"]]
source = "hand"
[[case.expect]]
score = 100.0
'''


def test_loads_a_good_file(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(GOOD)
    (case,) = load_file(path)
    assert case.id == "must_example" and case.verdict_class == "must"
    assert case.location == f"{path}:4"
    assert case.expectations[0].values == {"score": 100.0}



def test_each_case_points_at_its_own_id_line(tmp_path):
    # Expected lines counted by hand in the text below: the second case's id
    # stands on line 13, after a blank line and an indented key.
    second = GOOD.split("\n", 2)[2].replace("must_example", "must_second")
    path = tmp_path / "two.toml"
    path.write_text(GOOD + "\n" + second.replace('id = "', '  id = "'))
    first, other = load_file(path)
    assert (first.location, other.location) == (f"{path}:4", f"{path}:13")

@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD.replace("must_example", "example"), ":4: case id 'example' must be a slug"),
        (GOOD.replace('hyps = ["a b"]', 'hyps = ["a b", "c"]'), ":4: case must_example has 2"),
        (GOOD.replace("score = 100.0", "score = "), ":10: not valid TOML"),
        (GOOD.replace('source = "hand"\n', ""), ":4: every expected value needs a source"),
        (GOOD.replace("format = 1", "format = 2"), ":1: fixture format 2"),
    ],
)
def test_refuses_with_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(FixtureError, match=message.replace("(", r"\(")):
        load_file(path)


def test_duplicate_ids_across_files(tmp_path):
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "b.toml").write_text(GOOD)
    with pytest.raises(FixtureError, match="duplicate case id must_example"):
        load_all(tmp_path)


def test_bundled_cases_are_located_without_the_machines_path(root):
    # The tests run on the checkout's source: its fixtures/ and spec/ are the
    # bundled ones, named from the checkout in every location (and so in reports).
    cases = bundled_cases()
    basics = next(case for case in cases if case.id == "must_basic_exact_match")
    line = (root / "fixtures" / "bleu" / "basics.toml").read_text().splitlines().index(
        'id = "must_basic_exact_match"') + 1
    assert basics.location == f"fixtures/bleu/basics.toml:{line}"
    spec_locations = {case.location.rsplit(":", 1)[0] for case in cases
                      if not case.location.startswith("fixtures/")}
    assert spec_locations == {"spec/bleu.md", "spec/rouge.md"}


def test_a_case_id_in_both_a_fixture_file_and_a_spec_is_refused(tmp_path, monkeypatch):
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "a.toml").write_text(GOOD)
    (tmp_path / "spec").mkdir()
    example = GOOD.replace("format = 1\n", "")
    spec = f"# Spec\n\n```toml metricdiff-example\n{example}```\n"
    (tmp_path / "spec" / "bleu.md").write_text(spec)
    monkeypatch.setattr(bundled, "shipped_folder", lambda name: tmp_path / name)
    # The id line: the heading, a blank line, the fence, the example's blank first
    # line and [[case]] come before it (line 6); in a.toml, line 4.
    with pytest.raises(FixtureError, match=r"bleu\.md:6: duplicate case id must_example "
                                           r"\(first at .*a\.toml:4\)"):
        bundled_cases()
