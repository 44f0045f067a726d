"""The registry of built-in adapters (``metricdiff.impls``): the BLEU peers are
registered, and what each says about itself (name, metrics, install hint,
version, signature) holds together."""

from __future__ import annotations

import pytest

from metricdiff.impls import UnsupportedOption, adapter_names, get_adapter
from metricdiff.profiles import AXES


def test_adapters_are_registered():
    assert {"sacrebleu", "nltk", "pycocoevalcap"} <= set(adapter_names())



# ------------------------------------------------------------------------ shared


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
    assert adapter.signature("bleu", adapter.default_options("bleu")).startswith(
        f"bleu|impl:{name}-"
    )
    with pytest.raises(UnsupportedOption):
        adapter.options("rouge-l")


@pytest.mark.parametrize("name", ["sacrebleu", "nltk", "pycocoevalcap"])
def test_default_options_validate(name):
    # the declared profile is accepted as is, and every settable axis is a real axis
    adapter = get_adapter(name)
    assert adapter.options("bleu") == adapter.default_options("bleu")
    assert set(adapter.declared.settable) <= set(AXES)
