#!/usr/bin/env bash
# The README's test command. Builds (or reuses, when the lock is unchanged) a virtual environment
# of its own from the committed lock file (scripts/install.sh: Debian's chromium when missing, a
# fresh .venv-test/ with exactly requirements/test.lock, the package itself), then runs the whole
# klondike-widget suite with that venv's Python and nothing else. Set KW_SKIP_INSTALL=1 to reuse
# the venv as it is, KW_FRESH_VENV=1 to rebuild it (CI=true always does).
#
# Steps, in order: ruff check, ruff format --check, mypy (strict, the package), the import
# contract (import-linter), then ONE pytest run over tests/ (unit + real-browser ui tests), the
# package's doctests and, with --nbval-lax, notebooks/.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m "not ui"` or `-k harness`.
# Exit code: pytest's when it failed (5 = no tests collected counts as failure), else 1 when a
# lint/type step failed, else 0. Logs: test-artifacts/.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV="${KW_VENV:-.venv-test}"
if [ "${KW_SKIP_INSTALL:-0}" != "1" ]; then
    bash scripts/install.sh >/dev/null || { echo "scripts/install.sh failed" >&2; exit 1; }
fi
if [ ! -x "$VENV/bin/python" ]; then
    echo "no venv at $VENV: run without KW_SKIP_INSTALL=1 first" >&2
    exit 1
fi
VENV="$(cd "$VENV" && pwd)"
export VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH"
unset PYTHONPATH PYTHONHOME
PY="$VENV/bin/python"
ART=test-artifacts
mkdir -p "$ART"

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
step "lint-imports (the import contract)" "$VENV/bin/lint-imports"

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
