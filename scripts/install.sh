#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine: Debian's chromium (driven by
# Playwright through executable_path; no browser download) and the package with its test extras.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export DEBIAN_FRONTEND=noninteractive
export PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1
PY="${PYTHON:-python}"
command -v "$PY" >/dev/null 2>&1 || PY=python3

if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
    echo "==> apt-get install chromium"
    $SUDO apt-get update </dev/null
    $SUDO apt-get install -y chromium fonts-dejavu-core </dev/null
fi

echo "==> $PY -m pip install -e .[test]"
"$PY" -m pip install --progress-bar off -e ".[test]" </dev/null
