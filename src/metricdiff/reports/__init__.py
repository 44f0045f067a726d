"""Reports: what a run found, as Markdown a paper can quote and JSON a script reads."""
