#!/usr/bin/env bash
# Installs everything (see setup.sh) and runs the whole test suite, ruff and mypy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
.venv/bin/ruff check narrator tests scripts
.venv/bin/mypy
# two workers, a test module each at a time (its module fixtures made once: the benchmarks'
# one quick run); the longest tests listed at the end, as the README gives them
.venv/bin/python -m pytest -n 2 --dist loadscope --durations=12 "$@"
