#!/usr/bin/env bash
# Regenerate the hash-locked requirements the images install with `pip install --require-hashes`:
#
#   requirements.lock        the scanner's runtime dependencies (pyproject.toml [project]
#                            dependencies) and its build backend (build-system.requires), so the
#                            image builds the package with --no-build-isolation from locked files
#   requirements-cisco.lock  cisco-ai-skill-scanner at the version cisco.Dockerfile pins, with
#                            every dependency
#
#   bash scripts/refresh_locks.sh            keep the current pins, add or drop what changed
#   bash scripts/refresh_locks.sh --upgrade  move every pin to its newest release
#
# The resolver is uv (a pinned release from PyPI, installed into a throwaway venv), resolving
# universally for Python 3.11 and later: the pins hold for Debian bookworm's python3.11 (CI's image
# base) and for the python:3.12 base the Dockerfiles name, and each pin lists the hash of every file
# PyPI has for it, so pip picks the wheel for the interpreter at hand. The images install with
# --only-binary=:all:, so nothing is built from source. tests/test_locks.py checks that the lock
# covers every runtime dependency of pyproject.toml; rerun this script after changing them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
UV_VERSION=0.13.9
PYTHON="${PYTHON:-python3}"
upgrade=()
case "${1:-}" in
  "") ;;
  --upgrade) upgrade=(--upgrade) ;;
  *) echo "usage: bash scripts/refresh_locks.sh [--upgrade]" >&2; exit 2 ;;
esac

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$PYTHON" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "uv==$UV_VERSION"
uv() { "$tmp/venv/bin/uv" "$@"; }
# Trust the system's certificate store too (a TLS-inspecting proxy's CA lives there).
export SSL_CERT_FILE="${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}"
compile() {  # compile OUTPUT [uv options and inputs...]
  local out=$1; shift
  uv pip compile --quiet --native-tls --universal --python-version 3.11 --generate-hashes \
    --custom-compile-command "bash scripts/refresh_locks.sh" "${upgrade[@]}" -o "$out" "$@"
}

# The build backend is locked with the runtime dependencies (read from pyproject.toml).
"$PYTHON" - >"$tmp/build-system.txt" <<'PY'
import tomllib
with open("pyproject.toml", "rb") as fh:
    print("\n".join(tomllib.load(fh)["build-system"]["requires"]))
PY
compile requirements.lock --only-binary :all: pyproject.toml - <"$tmp/build-system.txt"

version="$(sed -n 's/^ARG CISCO_SKILL_SCANNER_VERSION=//p' cisco.Dockerfile)"
[ -n "$version" ] || { echo "refresh_locks: no ARG CISCO_SKILL_SCANNER_VERSION in cisco.Dockerfile" >&2; exit 1; }
# Not --only-binary here: a Windows-only dependency (win-unicode-console) has no wheel, and a
# universal resolution must still place it; the Linux image never installs it.
echo "cisco-ai-skill-scanner==$version" | compile requirements-cisco.lock -

echo "refresh_locks: wrote requirements.lock ($(grep -c '^[a-z0-9]' requirements.lock) pins) and requirements-cisco.lock ($(grep -c '^[a-z0-9]' requirements-cisco.lock) pins) with uv $UV_VERSION" >&2
