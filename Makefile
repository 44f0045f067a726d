# The two set-up commands of the README: `make report` (the main job) and
# `make test`.  Both create .venv and install what they need on first use.
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed-stamp

.PHONY: report test lint bench

$(STAMP): pyproject.toml
	scripts/install-system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[peers,html,ray,dev]'
	PYTHON=$(BIN)/python scripts/install-isolated-peers.sh
	touch $(STAMP)

# The main job: every available implementation on the bundled fixtures (check.md:
# expected values; audit.txt and findings.json: disagreements and their causes),
# written to reports/.
report: $(STAMP)
	$(BIN)/metricdiff check --fixtures fixtures --out reports
	$(BIN)/metricdiff audit --fixtures fixtures --jobs 2 --out reports | tee reports/audit.txt

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_bleu.py
