# Instruction Guard with Cisco's skill-scanner as a second engine: the `cisco/` action.
#
# The same image as the top-level Dockerfile (same BASE_IMAGE build-arg pattern) plus
# cisco-ai-skill-scanner, pinned, in a venv of its own (~700 MB with onnxruntime, litellm, yara;
# the default image stays slim without it). This file sits at the repository root because
# GitHub builds a Docker action with the Dockerfile's folder as the build context, and the image
# needs scanner/; cisco/action.yml points here with `image: ../cisco.Dockerfile`.
#
# Cisco's tool runs offline (no LLM, no API key, no VirusTotal): scanner/engines/cisco.py runs it
# with --use-behavioral only, in a private network namespace when the container may create one,
# and with proxy variables pointing at a closed local port otherwise.
ARG BASE_IMAGE=python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea
FROM ${BASE_IMAGE}

# Keep in step with PINNED_VERSION in scanner/engines/cisco.py and .ci/setup-cisco.sh.
ARG CISCO_SKILL_SCANNER_VERSION=2.3.2

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_NO_INPUT=1 \
    DEBIAN_FRONTEND=noninteractive

# git for diff scoping and provenance; python3-venv only where the base lacks ensurepip;
# util-linux for unshare (network isolation of Cisco's tool where the container allows it).
# hadolint ignore=DL3008,SC2086
RUN set -eu; \
    pkgs=""; \
    command -v git >/dev/null 2>&1 || pkgs="$pkgs git ca-certificates"; \
    command -v unshare >/dev/null 2>&1 || pkgs="$pkgs util-linux"; \
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || pkgs="$pkgs python3-venv python3-pip"; \
    if [ -n "$pkgs" ]; then \
      apt-get update; \
      apt-get install -y --no-install-recommends $pkgs; \
      rm -rf /var/lib/apt/lists/*; \
    fi; \
    git config --system safe.directory '*'

# Cisco's package first: its layer is the big one and changes least often. Every file of it and of
# its dependencies comes from the hash lock requirements-cisco.lock (scripts/refresh_locks.sh
# writes it for the version above): checked by sha256, wheels only, nothing resolved at build
# time. Locked by its full name (the unrelated PyPI package "skill-scanner" installs a command of
# the same name).
WORKDIR /opt/instruction-guard/src
COPY requirements-cisco.lock requirements.lock ./
RUN python3 -m venv /opt/cisco-skill-scanner \
 && /opt/cisco-skill-scanner/bin/python -m pip install --no-cache-dir --require-hashes --no-deps --only-binary=:all: -r requirements-cisco.lock \
 && /opt/cisco-skill-scanner/bin/python -m pip check \
 && test "$(/opt/cisco-skill-scanner/bin/skill-scanner --version)" = "skill-scanner ${CISCO_SKILL_SCANNER_VERSION}" \
 && find /opt/cisco-skill-scanner -name __pycache__ -prune -exec rm -rf {} + \
 && python3 -m venv /opt/instruction-guard/venv \
 && /opt/instruction-guard/venv/bin/python -m pip install --no-cache-dir --require-hashes --no-deps --only-binary=:all: -r requirements.lock

COPY pyproject.toml README.md ./
COPY scanner ./scanner
COPY entrypoint.py /opt/instruction-guard/entrypoint.py

RUN /opt/instruction-guard/venv/bin/python -m pip install --no-cache-dir --no-deps --no-build-isolation . \
 && /opt/instruction-guard/venv/bin/python -m pip check \
 && rm -rf /opt/instruction-guard/src

WORKDIR /opt/instruction-guard
ENV PATH=/opt/instruction-guard/venv/bin:$PATH \
    INSTRUCTION_GUARD_CISCO=/opt/cisco-skill-scanner/bin/skill-scanner
ENTRYPOINT ["/opt/instruction-guard/venv/bin/python", "/opt/instruction-guard/entrypoint.py"]
