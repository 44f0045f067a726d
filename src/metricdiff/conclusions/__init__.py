"""Conclusions a paper draws from scores, checked: whether systems keep their
order under every implementation, with significance (``rank``); which settings
give a printed number (``reproduce``); how far each convention moves a score
(``sensitivity``)."""
