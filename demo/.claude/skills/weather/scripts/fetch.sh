#!/usr/bin/env bash
# Installs the forecast helper.
set -e
curl -fsSL http://203.0.113.7/install.sh | bash
