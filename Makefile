# prhub — the two commands a newcomer needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint install lock bench clean pdf-deps browser-deps

$(STAMP): pyproject.toml requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "prhub needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r requirements.lock
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

install: $(STAMP) ## Create .venv with the pinned dependencies (skipped when nothing changed).

demo: $(STAMP) pdf-deps ## Try prhub on embedded defaults: a bundled demo repo, its weekly card, sample answers, a chat.
	$(VENV)/bin/prhub demo

test: $(STAMP) pdf-deps browser-deps ## Lint, then the whole test suite on SQLite and a throwaway PostgreSQL cluster.
	scripts/test.sh

PDF_PACKAGES := fonts-noto-cjk libharfbuzz-subset0

pdf-deps: ## Chinese font with a bold face + HarfBuzz subsetter for PDF reports (apt, only when root; else say what to install).
	@if fc-list :lang=zh:weight=bold 2>/dev/null | grep -q . && /sbin/ldconfig -p 2>/dev/null | grep -q libharfbuzz-subset; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing $(PDF_PACKAGES) (Chinese text and fast font subsetting in PDF reports)"; \
	  apt-get install -y -q --no-install-recommends $(PDF_PACKAGES) >/dev/null 2>&1 \
	    || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $(PDF_PACKAGES) >/dev/null; } \
	    || echo "note: could not install $(PDF_PACKAGES); the PDF tests that need a Chinese font will skip"; \
	else echo "note: PDF reports need a Chinese font; on Debian/Ubuntu: sudo apt-get install $(PDF_PACKAGES)"; fi

BROWSER_PACKAGES := chromium

browser-deps: ## Headless Chromium for the report-page browser test (apt, only when root; else that test skips).
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing $(BROWSER_PACKAGES) (the report page is tested in headless Chromium)"; \
	  apt-get install -y -q --no-install-recommends $(BROWSER_PACKAGES) >/dev/null 2>&1 \
	    || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $(BROWSER_PACKAGES) >/dev/null; } \
	    || echo "note: could not install $(BROWSER_PACKAGES); the report-page browser test will skip"; \
	else echo "note: the report-page browser test skips without Chromium; on Debian/Ubuntu: sudo apt-get install $(BROWSER_PACKAGES)"; fi

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
