#!/usr/bin/env bash
# Installs everything (see setup.sh) and narrates the bundled demo game: aloud when there is a
# sound card, otherwise into out/demo.wav.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/narrator demo "$@"
