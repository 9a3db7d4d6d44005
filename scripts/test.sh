#!/usr/bin/env bash
# Install what the tests need (scripts/install.sh: Debian's chromium when missing, then
# `pip install -e ".[test]"`) and run the whole klondike-widget suite. Set KW_SKIP_INSTALL=1 to
# skip the install step on a machine that already has everything.
#
# Steps, in order: ruff check, ruff format --check, mypy (strict, the package), then ONE pytest
# run over tests/ (unit + real-browser ui tests), the package's doctests and, with --nbval-lax,
# notebooks/ (skipped, with a message, only while there is no notebook yet).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m "not ui"` or `-k harness`.
# Exit code: pytest's when it failed (5 = no tests collected counts as failure), else 1 when a
# lint/type step failed, else 0. Logs: test-artifacts/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PY="${PYTHON:-python}"
command -v "$PY" >/dev/null 2>&1 || PY=python3
ART=test-artifacts
mkdir -p "$ART"

if [ "${KW_SKIP_INSTALL:-0}" != "1" ]; then
    bash scripts/install.sh || { echo "scripts/install.sh failed" >&2; exit 1; }
fi

declare -a results=()
failed=0
step() {
    local name=$1
    shift
    echo
    echo "==> $name: $*"
    local t0=$SECONDS
    if "$@"; then
        results+=("ok     $name ($((SECONDS - t0)) s)")
    else
        results+=("FAILED $name ($((SECONDS - t0)) s)")
        failed=1
    fi
}

step "ruff check" "$PY" -m ruff check .
step "ruff format --check" "$PY" -m ruff format --check .
step "mypy klondike_widget" "$PY" -m mypy klondike_widget

pytest_args=(tests klondike_widget)
if [ -n "$(find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' 2>/dev/null | head -n 1)" ]; then
    pytest_args+=(--nbval-lax notebooks)
else
    echo
    echo "==> notebooks: SKIPPED (no notebooks/*.ipynb yet)"
    results+=("skip   notebooks (none yet)")
fi

echo
echo "==> pytest ${pytest_args[*]} $*"
t0=$SECONDS
"$PY" -m pytest "${pytest_args[@]}" --durations=15 "$@" 2>&1 | tee "$ART/pytest.log"
pytest_rc=${PIPESTATUS[0]}
case $pytest_rc in
    0) results+=("ok     pytest ($((SECONDS - t0)) s)") ;;
    5) results+=("FAILED pytest: no tests were collected (exit 5) ($((SECONDS - t0)) s)") ;;
    *) results+=("FAILED pytest: exit $pytest_rc ($((SECONDS - t0)) s)") ;;
esac

echo
echo "==> summary"
printf '    %s\n' "${results[@]}"
summary=$(grep -E '^=+ .*(passed|failed|error|skipped|no tests ran).* in [0-9.]+s' "$ART/pytest.log" | tail -n 1)
echo "    pytest: ${summary:-<no summary line found, see $ART/pytest.log>}"

if [ "$pytest_rc" -ne 0 ]; then
    exit "$pytest_rc"
fi
exit "$failed"
