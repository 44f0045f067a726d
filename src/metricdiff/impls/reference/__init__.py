"""The reference implementations, written from the papers: one module per metric
family (``bleu`` from Papineni et al. 2002 with Chen & Cherry 2014's smoothing,
``rouge`` from Lin 2004, with its LCS algorithms in ``lcs`` and its bootstrap
resampling in ``resample``)."""
