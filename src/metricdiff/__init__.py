"""metricdiff: finds, explains and documents every difference between BLEU and
ROUGE implementations."""

__version__ = "0.1.0"
