# Instruction Guard as a Docker container action.
#
# BASE_IMAGE is pinned by digest; CI passes a Debian rootfs made by debootstrap instead (any
# Debian base with python3, python3-venv and git works: the package goes into its own venv and
# never relies on the official image's /usr/local/bin/pip).
#
# The container runs as root on purpose: GitHub mounts the workspace, $GITHUB_OUTPUT and
# $GITHUB_STEP_SUMMARY owned by the runner's user and documents that Docker actions must run as
# the default (root) user to write them. Nothing from the scanned repository is ever executed:
# files are read as git objects, git runs without hooks, textconv or external diff drivers.
ARG BASE_IMAGE=python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_NO_INPUT=1 \
    DEBIAN_FRONTEND=noninteractive

# git for diff scoping and provenance; python3-venv only where the base lacks ensurepip.
# $pkgs is split on purpose. Versions come from the base's Debian release, which the digest (or the debootstrap suite) pins.
# hadolint ignore=DL3008,SC2086
RUN set -eu; \
    pkgs=""; \
    command -v git >/dev/null 2>&1 || pkgs="$pkgs git ca-certificates"; \
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || pkgs="$pkgs python3-venv python3-pip"; \
    if [ -n "$pkgs" ]; then \
      apt-get update; \
      apt-get install -y --no-install-recommends $pkgs; \
      rm -rf /var/lib/apt/lists/*; \
    fi; \
    git config --system safe.directory '*'

# Dependencies come only from the hash lock (scripts/refresh_locks.sh writes it): every file's
# sha256 is checked, nothing is resolved and nothing is built from source, so a build cannot pull a
# release published since the lock was reviewed into a container that holds the token. The lock
# also holds the build backend, so the package itself builds without fetching anything.
WORKDIR /opt/instruction-guard/src
COPY requirements.lock ./
RUN python3 -m venv /opt/instruction-guard/venv \
 && /opt/instruction-guard/venv/bin/python -m pip install --no-cache-dir --require-hashes --no-deps --only-binary=:all: -r requirements.lock

COPY pyproject.toml README.md ./
COPY scanner ./scanner
COPY entrypoint.py /opt/instruction-guard/entrypoint.py

# Loading the rule catalog proves every rule against its fixtures; doing it once here fails a
# broken build early and leaves the verified marker, so each action run skips that work.
# `pip check` fails the build when the lock misses a dependency of the package.
ENV INSTRUCTION_GUARD_CACHE_DIR=/opt/instruction-guard/cache
RUN /opt/instruction-guard/venv/bin/python -m pip install --no-cache-dir --no-deps --no-build-isolation . \
 && /opt/instruction-guard/venv/bin/python -m pip check \
 && rm -rf /opt/instruction-guard/src \
 && /opt/instruction-guard/venv/bin/instruction-guard rules > /dev/null

WORKDIR /opt/instruction-guard
ENV PATH=/opt/instruction-guard/venv/bin:$PATH
ENTRYPOINT ["/opt/instruction-guard/venv/bin/python", "/opt/instruction-guard/entrypoint.py"]
