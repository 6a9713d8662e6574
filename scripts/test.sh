#!/usr/bin/env bash
# The whole check, as `make test` and CI run it: lint, the import contract, types, then the test suite
# on SQLite and on a throwaway PostgreSQL cluster that this script starts and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}

echo "== lint"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .
"$VENV/bin/lint-imports"
"$VENV/bin/mypy"

echo "== PostgreSQL"
pgdir=$(mktemp -d /tmp/prhub-pg.XXXXXX)
trap 'scripts/pg-cluster.sh stop "$pgdir"' EXIT
PRHUB_TEST_POSTGRES_URL=$(scripts/pg-cluster.sh start "$pgdir")
export PRHUB_TEST_POSTGRES_URL PRHUB_TEST_REQUIRE_POSTGRES=1
echo "throwaway cluster at ${PRHUB_TEST_POSTGRES_URL}"

# One pytest-xdist worker a core, at most four (PRHUB_TEST_WORKERS overrides; 0 runs in one process).
# --dist loadfile gives each test file to one worker, so a module-scoped seeded database is built once.
workers=${PRHUB_TEST_WORKERS:-$(nproc)}
[ "$workers" -le 4 ] || workers=4
echo "== tests (${workers} workers)"
"$VENV/bin/python" -m pytest -n "$workers" --dist loadfile "$@"
