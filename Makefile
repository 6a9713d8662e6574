# prhub — the two commands a newcomer needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint install lock bench clean

$(STAMP): pyproject.toml requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "prhub needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r requirements.lock
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

install: $(STAMP) ## Create .venv with the pinned dependencies (skipped when nothing changed).

demo: $(STAMP) ## Try prhub on embedded defaults.
	@echo "The bundled demo is coming soon (see the demo issue). Meanwhile:"
	@echo "  $(VENV)/bin/prhub --help"
	@echo "  $(VENV)/bin/prhub import-jsonl FILE.jsonl.gz --repo OWNER/REPO && $(VENV)/bin/prhub prs list OWNER/REPO"

test: $(STAMP) ## Lint, then the whole test suite on SQLite and a throwaway PostgreSQL cluster.
	scripts/test.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . && $(VENV)/bin/lint-imports && $(VENV)/bin/mypy

bench: $(STAMP) ## Run the benchmarks (figures go in docs/benchmarks.md).
	$(VENV)/bin/python bench/ingest.py

lock: ## Re-pin every dependency from pyproject.toml into requirements.lock.
	rm -rf /tmp/prhub-lock && $(PYTHON) -m venv /tmp/prhub-lock
	/tmp/prhub-lock/bin/pip install -q --disable-pip-version-check --upgrade pip setuptools
	/tmp/prhub-lock/bin/pip install -q --disable-pip-version-check . --group dev
	/tmp/prhub-lock/bin/pip freeze --all --exclude prhub --exclude pip > requirements.lock

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
