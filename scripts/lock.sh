#!/usr/bin/env bash
# Refresh the lock file the tests and linters run on: requirements/test.lock pins every package
# of the `test` and `lab` extras (and what they pull in) for the Python that CI runs (3.11).
# Run it after changing a dependency in pyproject.toml; commit the result.
#   bash scripts/lock.sh            # keep current pins where still allowed
#   bash scripts/lock.sh --upgrade  # move every pin to the newest allowed release
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY="${PYTHON:-python3}"
if ! command -v uv >/dev/null 2>&1; then
    "$PY" -m pip install --quiet uv
fi
uv pip compile pyproject.toml --extra test --extra lab --python-version 3.11 \
    --output-file requirements/test.lock --quiet "$@"
echo "requirements/test.lock: $(grep -c '==' requirements/test.lock) pinned packages"
