#!/usr/bin/env bash
# Install everything the test suite needs, into a virtual environment of its own built from the
# committed lock file (requirements/test.lock), so nothing installed by hand on the machine can
# hide a missing step:
#   - Debian's chromium (driven by Playwright through executable_path; no browser download);
#   - the browser tests' npm packages (axe-core, pinned by package-lock.json) into node_modules/
#     (ignored by git) with `npm ci`, when the lock changed since the last install, when
#     node_modules/ is missing, or always with CI=true; Debian's nodejs and npm when missing;
#   - a fresh venv at $KW_VENV (default .venv-test/, ignored by git), with exactly the locked
#     packages, then the package itself (editable, no dependencies, no build isolation: the locked
#     hatchling builds it).
# The venv is rebuilt from scratch when it is missing, when the lock or pyproject.toml changed
# since it was built, or always with KW_FRESH_VENV=1 (CI=true implies it).
# Prints the venv's path as its last line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export DEBIAN_FRONTEND=noninteractive
export PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1
BASE_PY="${PYTHON:-python3}"
command -v "$BASE_PY" >/dev/null 2>&1 || BASE_PY=python
VENV="${KW_VENV:-.venv-test}"
LOCK=requirements/test.lock

if [ ! -x /usr/bin/chromium ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
    echo "==> apt-get install chromium" >&2
    $SUDO apt-get update -q </dev/null >&2
    $SUDO apt-get install -y -q chromium fonts-dejavu-core </dev/null >&2
fi

npm_stamp="$(sha256sum package-lock.json | cut -c1-16)"
if [ "${CI:-}" = "true" ] || [ ! -d node_modules ] || [ "$(cat node_modules/.kw-stamp 2>/dev/null)" != "$npm_stamp" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        SUDO=""
        if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
        echo "==> apt-get install nodejs npm" >&2
        $SUDO apt-get update -q </dev/null >&2
        $SUDO apt-get install -y -q nodejs npm </dev/null >&2
    fi
    echo "==> npm ci (node_modules/ from package-lock.json)" >&2
    npm ci --no-audit --no-fund --loglevel=error </dev/null >&2
    echo "$npm_stamp" >node_modules/.kw-stamp
else
    echo "==> node_modules/ is up to date with package-lock.json" >&2
fi

stamp="$(cat "$LOCK" pyproject.toml | sha256sum | cut -c1-16)"
fresh="${KW_FRESH_VENV:-0}"
if [ "${CI:-}" = "true" ]; then fresh=1; fi
if [ "$fresh" = "1" ] || [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/.kw-stamp" 2>/dev/null)" != "$stamp" ]; then
    echo "==> fresh venv $VENV from $LOCK" >&2
    rm -rf "$VENV"
    "$BASE_PY" -m venv "$VENV"
    uv_pin="$(grep -E '^uv==' "$LOCK")"
    "$VENV/bin/python" -m pip install --quiet --progress-bar off "$uv_pin" </dev/null >&2
    "$VENV/bin/uv" pip sync --python "$VENV/bin/python" "$LOCK" </dev/null >&2
    "$VENV/bin/uv" pip install --python "$VENV/bin/python" --no-deps --no-build-isolation -e . </dev/null >&2
    echo "$stamp" >"$VENV/.kw-stamp"
else
    echo "==> venv $VENV is up to date with $LOCK" >&2
fi
echo "$VENV"
