"""Measure which lexicon entries name common words; save them (scanner/data/common_entries.json).

    python scripts/measure_common_entries.py [CORPUS_DIR] [--share 0.03]

Why: a costly concept of the instruction model (lexicon.TIERED) is searched in parts
(scanner/intent/lexicon.py, ConceptPattern): each entry whose words most texts lack is searched only
in a text that holds one of those words (one RE2 set pass finds them all at once), the rest
together whenever the concept is. Which
entry's words are common depends on the texts agents' files really hold, so it is measured over
the prose files of the benign corpus: an entry whose necessary words are in more than `share` of
them is common. The split never changes a match (a gated entry still runs wherever its words
are), so a stale file only costs time. Figures: docs/performance.md.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scanner.intent.lexicon import COMMON_ENTRIES, TIERED, lexicon  # noqa: E402
from scanner.intent.reading import _visible  # noqa: E402
from scanner.matching import prefilter  # noqa: E402

PROSE = (".md", ".mdc", ".txt", ".toml", ".yml", ".yaml", ".json", ".prompt", ".instructions")


def prose_texts(corpus: str):
    for folder, _, names in os.walk(corpus):
        for name in sorted(names):
            if name.lower().endswith(PROSE) or "." not in name:
                try:
                    with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as fh:
                        text = fh.read(2 << 20)
                except OSError:
                    continue
                visible, _ = _visible(text)
                yield visible.replace("\n", " ").encode("utf-8", "surrogatepass")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=os.environ.get("IG_SHARED", os.path.join(ROOT, "..", "shared")) + "/corpus/benign")
    ap.add_argument("--share", type=float, default=0.03)
    args = ap.parse_args()
    lex = lexicon()
    entries = {c: lex.entries[c] for c in TIERED if c in lex.entries}
    index = prefilter.Index([p for ps in entries.values() for p in ps], saved=prefilter.saved_conditions(), max_atoms=1 << 16)
    counts = {p: 0 for ps in entries.values() for p in ps}
    total = 0
    for data in prose_texts(args.corpus):
        total += 1
        present = index.present(data)
        for p in counts:
            cond = index.conditions[p]
            if present is None or prefilter.holds(cond, present):
                counts[p] += 1
    common = {c: sorted(p for p in ps if counts[p] > args.share * total and index.conditions[p] is not None)
              for c, ps in entries.items()}
    out = {"measured": datetime.date.today().isoformat(), "texts": total, "share": args.share,
           "entries": {c: ps for c, ps in sorted(common.items()) if ps}}
    path = os.path.join(ROOT, "scanner", "data", COMMON_ENTRIES)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False, indent=1, sort_keys=True)
        fh.write("\n")
    n = sum(len(ps) for ps in out["entries"].values())
    print(f"{path}: {n} common entries of {len(counts)} over {total} texts (share {args.share})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
