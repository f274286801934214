#!/usr/bin/env python3
"""Rebuild scanner/data/popular_packages.json from public download rankings.

Inputs are tab-separated package lists with a header row:
- PyPI: columns name, version, month, rank_among_15000_most_downloaded, summary (rank empty
  for packages outside the 15,000 most downloaded);
- npm: columns name, version, downloads_a_month, summary.

Output: for each ecosystem, `popular` (the names a look-alike would imitate, most downloaded
first) and `known` (further real, widely used names that are never reported as look-alikes
themselves). Names are normalised: PyPI per PEP 503 (lower case, runs of -_. become -), npm
lower case. The file records its sources and the date it was built.

Usage:
  python scripts/refresh_popular_packages.py \
      --pypi /work/.library/env/packages/pypi.tsv --npm /work/.library/env/packages/npm.tsv
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import re
import sys

DEFAULT_OUT = os.path.join(os.path.dirname(__file__), "..", "scanner", "data", "popular_packages.json")
DEFAULT_DIR = "/work/.library/env/packages"


def pep503(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _rows(path: str):
    csv.field_size_limit(1 << 24)
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader)
        for row in reader:
            yield dict(zip(header, row))


def pypi_ranked(path: str) -> list[str]:
    ranked = []
    for row in _rows(path):
        rank = (row.get("rank_among_15000_most_downloaded") or "").strip()
        if rank.isdigit():
            ranked.append((int(rank), pep503(row["name"])))
    ranked.sort()
    return list(dict.fromkeys(name for _, name in ranked))


def npm_ranked(path: str, min_downloads: int) -> list[str]:
    ranked = []
    for row in _rows(path):
        raw = (row.get("downloads_a_month") or "").strip()
        if raw.isdigit() and int(raw) >= min_downloads:
            ranked.append((-int(raw), row["name"].lower()))
    ranked.sort()
    return list(dict.fromkeys(name for _, name in ranked))


def _mtime_date(path: str) -> str:
    return dt.datetime.fromtimestamp(os.path.getmtime(path), dt.timezone.utc).date().isoformat()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pypi", default=os.path.join(DEFAULT_DIR, "pypi.tsv"))
    ap.add_argument("--npm", default=os.path.join(DEFAULT_DIR, "npm.tsv"))
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--popular", type=int, default=5000, help="names per ecosystem that look-alikes are compared with")
    ap.add_argument("--npm-min-downloads", type=int, default=100_000, help="npm names at or above this monthly count are known")
    args = ap.parse_args(argv)
    pypi = pypi_ranked(args.pypi)
    npm = npm_ranked(args.npm, args.npm_min_downloads)
    if len(pypi) < args.popular or len(npm) < args.popular:
        print(f"refusing: too few ranked names (pypi {len(pypi)}, npm {len(npm)}); wrong input files?", file=sys.stderr)
        return 1
    doc = {
        "about": "Names of widely downloaded packages, for look-alike (slopsquatting) checks of .rune/ state. "
                 "Rebuild with scripts/refresh_popular_packages.py.",
        "built": dt.date.today().isoformat(),
        "sources": {
            "pypi": {"file": os.path.basename(args.pypi), "retrieved": _mtime_date(args.pypi), "ranking": "PyPI 15,000 most downloaded packages "
                     "(rank_among_15000_most_downloaded column)", "popular": args.popular, "known": len(pypi)},
            "npm": {"file": os.path.basename(args.npm), "retrieved": _mtime_date(args.npm), "ranking": "npm registry downloads in the last month "
                    f"(downloads_a_month >= {args.npm_min_downloads})", "popular": args.popular, "known": len(npm)},
        },
        "pypi": {"popular": pypi[:args.popular], "known": sorted(pypi[args.popular:])},
        "npm": {"popular": npm[:args.popular], "known": sorted(npm[args.popular:])},
    }
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        json.dump(doc, fh, indent=0, ensure_ascii=False)
        fh.write("\n")
    os.replace(tmp, args.out)
    print(f"wrote {args.out}: pypi {len(pypi)} names ({args.popular} popular), npm {len(npm)} names ({args.popular} popular)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
