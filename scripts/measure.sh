#!/usr/bin/env bash
# Score the working tree's scanner on every offline measure in ../shared/corpus:
#   adversarial families (score.py), whole benign trees (no high+ allowed), and `eval` on the corpus.
#   bash scripts/measure.sh [adv|trees|eval ...]    (default: all three)
# Uses the checkout it lives in (PYTHONPATH), so a git worktree measures its own code.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PY:-/work/main/.venv/bin/python}"
[ -x "$PY" ] || PY="$ROOT/.venv/bin/python"
SHARED="${IG_SHARED:-$ROOT/../shared}"
[ -d "$SHARED/corpus" ] || SHARED=/work/shared
export PYTHONPATH="$ROOT"
OUT="${IG_MEASURE_OUT:-$(mktemp -d /tmp/ig-measure.XXXXXX)}"
what=("$@"); [ ${#what[@]} -gt 0 ] || what=(adv trees eval)
for w in "${what[@]}"; do
  case "$w" in
    adv)
      "$PY" "$SHARED/corpus/adversarial/make_cases.py" "$OUT/cases" >/dev/null
      (cd "$OUT/cases" && "$PY" -m scanner scan . --format sarif --output "$OUT/adv.sarif" --fail-on never >/dev/null)
      (cd "$OUT/cases" && "$PY" "$SHARED/corpus/adversarial/score.py" "$OUT/adv.sarif" .)
      ;;
    trees)
      for d in "$SHARED"/corpus/benign-trees/*/; do
        n=$(basename "$d")
        "$PY" -m scanner scan "$d" --format json --output "$OUT/tree-$n.json" --fail-on never >/dev/null 2>"$OUT/tree-$n.err"
        "$PY" - "$OUT/tree-$n.json" "$n" <<'PYEOF'
import json, sys, collections
d = json.load(open(sys.argv[1]))
c = collections.Counter(f["severity"] for f in d["findings"])
hi = sorted({(f["rule_id"], f["path"]) for f in d["findings"] if f["severity"] in ("high", "critical")})
print(f"tree {sys.argv[2]:45s} {'FAIL' if hi else 'ok  '} {dict(c)}")
for r, p in hi[:8]:
    print(f"     high+ {r} {p}")
PYEOF
      done
      ;;
    eval)
      "$PY" -m scanner eval "$SHARED/corpus" --parts files | sed -n '/^Bars:/,$p'
      ;;
  esac
done
echo "outputs in $OUT"
