#!/usr/bin/env bash
# Installs everything (see setup.sh) and runs the whole test suite, ruff and mypy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
.venv/bin/ruff check narrator tests scripts
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
