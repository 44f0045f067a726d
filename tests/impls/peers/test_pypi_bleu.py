"""The PyPI package ``bleu`` is listed, and says why it cannot run."""

from __future__ import annotations

import pytest

from metricdiff.errors import AdapterUnavailable
from metricdiff.impls import adapter_names, get_adapter


def test_listed_as_unavailable_with_what_to_do() -> None:
    assert "bleu" in adapter_names()
    adapter = get_adapter("bleu", "bleu")
    reason = adapter.unavailable_reason()
    # bleu/download.py fetches the Moses scripts from GitHub at import.
    assert reason is not None and "downloads Moses'" in reason
    assert "nearest runnable peer: multi-bleu" in reason


def test_scoring_raises_the_reason() -> None:
    adapter = get_adapter("bleu", "bleu")
    with pytest.raises(AdapterUnavailable, match="without network"):
        adapter.corpus_score("bleu", ["a"], [["a"]], adapter.default_options("bleu"))
