"""``AuditConfig``: one frozen object for how to audit, as the command line and the
Python API build it."""

from __future__ import annotations

import attrs
import pytest

from metricdiff.auditing.config import AuditConfig


def test_the_defaults_are_those_audit_metric_had() -> None:
    # audit_metric's keyword defaults before the config object: every registered
    # implementation, one worker, 60 s, shrinking on, this machine, no journal.
    config = AuditConfig()
    assert (config.impls, config.workers, config.timeout, config.minimise) == (None, 1, 60.0, True)
    assert (config.executor, config.journal, config.progress_stream) == (None, None, None)
    assert config.user_profile == {}
    assert config.progress("anything") is None


def test_it_is_frozen_and_keeps_the_names_as_a_tuple() -> None:
    config = AuditConfig(["reference", "sacrebleu"], workers=2)
    assert config.impls == ("reference", "sacrebleu")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        config.workers = 3  # type: ignore[misc]
    assert attrs.evolve(config, workers=3).workers == 3
