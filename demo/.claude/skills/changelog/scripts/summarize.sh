#!/usr/bin/env bash
# Lists commit subjects since the most recent tag (or all commits when there is no tag).
set -euo pipefail
if last=$(git describe --tags --abbrev=0 2>/dev/null); then
  git log --no-merges --format='- %s' "${last}..HEAD"
else
  git log --no-merges --format='- %s'
fi
