"""The registry of built-in adapters (``metricdiff.impls``): the BLEU peers are
registered, and what each says about itself (name, metrics, install hint,
version) holds together.  (Their declared profiles, signatures and refusals are
checked for every adapter by ``metricdiff.testing``: tests/test_testing.py.)"""

from __future__ import annotations

import pytest

from metricdiff.impls import adapter_names, get_adapter


def test_adapters_are_registered():
    assert {"sacrebleu", "nltk", "pycocoevalcap"} <= set(adapter_names())


@pytest.mark.parametrize("name", ["sacrebleu", "nltk", "pycocoevalcap"])
def test_adapter_metadata(name):
    adapter = get_adapter(name)
    assert adapter.name == name
    assert adapter.declared.metrics == ("bleu",)
    assert adapter.package.install_hint == "pip install 'metricdiff[peers]'"
    assert adapter.package.modules
    pytest.importorskip(adapter.package.modules[0])
    assert adapter.unavailable_reason() is None
    assert adapter.version() not in ("unknown", "not-installed")
