"""The fixture loader refuses malformed files with a file:line message."""

from __future__ import annotations

import pytest

from metricdiff.cases.fixtures import load_all, load_file
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
