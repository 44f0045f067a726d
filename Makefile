# The two set-up commands of the README: `make report` (the main job) and
# `make test`.  Both create .venv and install what they need on first use.
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed-stamp

.PHONY: report test lint bench

# `audit | tee` must fail when the audit does.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

# Every extra but torch (a 2 GB download; `compiled` needs g++): ja and ko so that the MeCab tokenizers'
# tests run in CI (.ci/run is `make test`) instead of skipping, moses so that compare's detokenized scores do.
$(STAMP): pyproject.toml
	scripts/install-system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[peers,compiled,vizseq,ray,ja,ko,moses,dev]'
	$(BIN)/metricdiff install-peers
	touch $(STAMP)

# The main job: every available implementation on the bundled fixtures and the
# specs' worked examples (check.md: expected values) and the differential audit of
# them all on the fixtures plus 2000 generated cases per metric (report.md /
# report.html / report.json, audit.txt), written to reports/ -- the project's
# committed living documentation (the per-case data written beside it is not
# committed: see .gitignore); FINGERPRINT records what made it, and a test fails
# when stale.
# The pairs derived from the star and shown in the reports besides the largest
# gaps: the differences users ask about most.
REPORT_PAIRS = --pair sacrebleu,sacrebleu+intl --pair sacrebleu,pycocoevalcap \
	--pair rouge-score,rouge155 --pair rouge-score+stemmed,rouge155+stemmed
REPORT_AUDIT = --fixtures --generate 2000 --seed 0 $(REPORT_PAIRS)
# `make report CACHE=DIR` reuses the peers' answers kept in DIR by an earlier run
# (docs/cache.md); off by default.
CACHE =

# `check` exits 1 when an implementation fails a case (the bundled ones have such
# failures, which check.md documents): the reports are made all the same; only
# status 2 (bad input: no fixtures, --out not writable) stops here.
report: $(STAMP)
	$(BIN)/metricdiff check --out reports || test $$? -eq 1
	$(BIN)/metricdiff audit $(REPORT_AUDIT) --jobs 2 --out reports $(if $(CACHE),--cache $(CACHE)) | tee reports/audit.txt
	$(BIN)/python scripts/report_freshness.py write reports $(REPORT_AUDIT)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

# Every benchmarks/bench_*.py at its quick size, then a summary of their ratios.
bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py
