"""Score locks: ``snapshot`` writes every score of some implementations down, and
``verify`` and the pytest plugin recompute them and report what drifted."""
