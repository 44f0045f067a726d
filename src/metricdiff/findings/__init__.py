"""Findings: each disagreement of the audit with the convention that causes it,
shown on a minimal example."""
