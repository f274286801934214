#!/usr/bin/env bash
# Install Cisco's skill-scanner (PyPI "cisco-ai-skill-scanner", pinned) into its own virtualenv,
# .venv-cisco at the repository root, where scanner/engines/cisco.py looks for it.
#
#   bash .ci/setup-cisco.sh        (idempotent: a second run only checks the installed version, ~0.1 s)
#
# Its own venv because it brings ~700 MB of dependencies (onnxruntime, litellm, yara, ...) whose
# pins must not leak into the scanner's. Installed by its full name: the unrelated PyPI package
# "skill-scanner" installs a command of the same name.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION=2.3.2   # keep in step with PINNED_VERSION in scanner/engines/cisco.py and cisco.Dockerfile
VENV="${IG_CISCO_VENV:-$ROOT/.venv-cisco}"
PYTHON="${PYTHON:-python3}"

installed() {
  "$VENV/bin/python" - "$VERSION" 2>/dev/null <<'PY'
import importlib.metadata as m, sys
sys.exit(0 if m.version("cisco-ai-skill-scanner") == sys.argv[1] else 1)
PY
}

verify() {
  local out
  out="$("$VENV/bin/skill-scanner" --version 2>&1)" || { echo "setup-cisco: $VENV/bin/skill-scanner --version failed: $out" >&2; return 1; }
  [ "$out" = "skill-scanner $VERSION" ] || { echo "setup-cisco: expected 'skill-scanner $VERSION', got '$out'" >&2; return 1; }
}

# Fast path (~0.1 s): the pinned distribution is there with its command. The command itself is
# run (--version, ~1 s of imports) only after installing.
if [ -x "$VENV/bin/skill-scanner" ] && installed; then
  exit 0
fi

started=$(date +%s)
echo "setup-cisco: installing cisco-ai-skill-scanner==$VERSION into $VENV (about 700 MB, a minute or two)" >&2
"$PYTHON" -m venv --clear "$VENV"
# From the hash lock the cisco image installs too (scripts/refresh_locks.sh writes it), so the tests
# run the same files as the image: every sha256 checked, wheels only, nothing resolved here.
grep -q "^cisco-ai-skill-scanner==$VERSION " "$ROOT/requirements-cisco.lock" \
  || { echo "setup-cisco: requirements-cisco.lock does not pin cisco-ai-skill-scanner==$VERSION; run bash scripts/refresh_locks.sh" >&2; exit 1; }
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
  --require-hashes --no-deps --only-binary=:all: -r "$ROOT/requirements-cisco.lock"
installed || { echo "setup-cisco: cisco-ai-skill-scanner $VERSION is not what got installed" >&2; exit 1; }
verify
echo "setup-cisco: done in $(( $(date +%s) - started )) s ($(du -sh "$VENV" | cut -f1))" >&2
