"""``impls/declarations.py``: an adapter's ``Package`` is the one place its
packaging is said.  The install hint is derived from it; the extras of
pyproject.toml pin what the packages name, and bring the modules they import
(read from the installed packages' metadata: nothing is installed or downloaded).
"""

from __future__ import annotations

import importlib.util

import pytest

from extras import closure, normalise, owners, pyproject_extras
from metricdiff.impls import builtin_classes, isolated_peers
from metricdiff.impls.declarations import Isolated, Package

CLASSES = builtin_classes()


def test_the_install_hint_is_derived_from_the_extra_and_the_folder():
    # Written out by hand: the pip command of the extra, install-peers with the
    # peer's name, both, or nothing.
    assert Package(extra="peers").install_hint == "pip install 'metricdiff[peers]'"
    assert Package(extra="compiled", note="(it compiles)").install_hint == (
        "pip install 'metricdiff[compiled]' (it compiles)")
    folder = Isolated("jury", "jury", "2.3.1", "jury", ("a==1",))
    assert Package(isolated=folder).install_hint == "metricdiff install-peers jury"
    assert Package(extra="rouge", isolated=folder).install_hint == (
        "metricdiff install-peers jury (and pip install 'metricdiff[rouge]')")
    assert Package().install_hint == ""
    assert Package(note="pip install my-package").install_hint == "pip install my-package"
    assert folder.requirements == ("jury==2.3.1", "a==1")


def test_a_peer_with_modules_says_how_to_install_them():
    for adapter in CLASSES:
        if adapter.package.modules:
            assert adapter.package.install_hint, adapter.name


def test_an_isolated_folder_is_named_after_its_adapter():
    for adapter in CLASSES:
        isolated = adapter.package.isolated
        if isolated is not None:
            assert isolated.name == adapter.name
            assert isolated_peers()[adapter.name] == isolated  # one folder per peer


def test_every_extra_an_adapter_names_exists_and_pins_its_distribution():
    extras = pyproject_extras()
    for adapter in CLASSES:
        package = adapter.package
        if package.extra is None:
            continue
        assert package.extra in extras, (adapter.name, package.extra)
        pinned = {normalise(r.name) for r in extras[package.extra]}
        in_its_folder = package.isolated is not None and normalise(
            package.isolated.distribution) == normalise(package.distribution or "")
        if package.distribution is not None and not in_its_folder:
            assert normalise(package.distribution) in pinned, (adapter.name, package.extra)


def test_the_peers_extra_is_the_peers_and_holds_the_rouge_extra():
    # `pip install 'metricdiff[peers]'` brings every peer of the main environment:
    # each of its requirements is some adapter's distribution, and the smaller
    # `rouge` extra's pins are among them (so [peers] serves what names [rouge]).
    extras = pyproject_extras()
    distributions = {normalise(a.package.distribution) for a in CLASSES
                     if a.package.distribution is not None}
    peers = {str(r) for r in extras["peers"]}
    assert {normalise(r.name) for r in extras["peers"]} <= distributions
    assert {str(r) for r in extras["rouge"]} <= peers


@pytest.mark.parametrize("adapter", [a for a in CLASSES if a.package.modules],
                         ids=lambda a: f"{a.name}-{a.family}")
def test_the_modules_of_an_adapter_come_with_its_extra(adapter):
    brought = closure(adapter.package.extra)
    for module in adapter.package.modules:
        if importlib.util.find_spec(module.split(".")[0]) is None:
            pytest.skip(f"{module} is not installed here ({adapter.package.install_hint})")
        assert set(owners(module)) & brought, (
            f"{adapter.name} imports {module} ({owners(module)}), which "
            f"metricdiff[{adapter.package.extra}] does not bring")


def test_an_attribute_that_moved_is_an_error_where_it_is_set():
    # An adapter written against the attributes before Package/Declared/Cost would
    # otherwise run with the defaults it meant to change.
    from metricdiff.impls.reference.adapter import ReferenceBleuAdapter

    with pytest.raises(TypeError, match=r"Old\.profile: declare it as declared = Declared"):
        type("Old", (ReferenceBleuAdapter,), {"name": "old", "profile": {"tokenize": "13a"}})
    with pytest.raises(TypeError, match=r"Old\.audit_cost: declare it as cost = Cost\(audit_"):
        type("Old", (ReferenceBleuAdapter,), {"name": "old", "audit_cost": "slow"})
