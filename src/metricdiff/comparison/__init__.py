"""Comparing results: against a fixture's expectations, stage by stage, and a corpus
gap split into the contribution of each convention axis (``metricdiff compare``)."""
