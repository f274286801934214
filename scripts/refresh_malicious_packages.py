#!/usr/bin/env python3
"""Refresh scanner/data/malicious_packages.json from the OpenSSF malicious-packages data (Apache-2.0).

    python scripts/refresh_malicious_packages.py PATH_TO_CHECKOUT      # a clone of github.com/ossf/malicious-packages
    python scripts/refresh_malicious_packages.py --clone               # shallow-clone it into a temporary folder

What is kept: releases of npm and PyPI packages that the data lists by explicit version
(`affected[].versions`), i.e. compromised releases of packages that are otherwise real (event-stream
3.3.6, ua-parser-js 0.7.29, ...), plus the repository's compromised-packages.csv. Packages listed
as malicious in every version (typosquats registered for the purpose) are not copied: the look-alike
check (scanner/rune/packages.py) reads those names by their shape, and the full list would be
hundreds of thousands of names. Entries under the "curated" key are kept as they are: releases named
by public advisories (GHSA) that the snapshot in use did not list; the refresh reports which of them
the new data now covers.
"""
from __future__ import annotations

import csv
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "scanner" / "data" / "malicious_packages.json"
ECOSYSTEMS = {"npm": "npm", "PyPI": "pypi"}


def norm(name: str, eco: str) -> str:
    name = name.strip().lower()
    if eco == "pypi":
        for c in "_.":
            name = name.replace(c, "-")
    return name


def read_checkout(root: Path) -> dict[str, dict[str, set[str]]]:
    found: dict[str, dict[str, set[str]]] = {"npm": {}, "pypi": {}}
    for osv_eco, eco in (("npm", "npm"), ("pypi", "pypi")):
        base = root / "osv" / "malicious" / osv_eco
        if not base.is_dir():
            continue
        for dirpath, _, files in os.walk(base):
            for f in files:
                if not f.endswith(".json"):
                    continue
                try:
                    rec = json.loads((Path(dirpath) / f).read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                if rec.get("withdrawn"):
                    continue
                for aff in rec.get("affected") or []:
                    pkg = aff.get("package") or {}
                    if ECOSYSTEMS.get(pkg.get("ecosystem")) != eco:
                        continue
                    versions = [v for v in aff.get("versions") or [] if isinstance(v, str)]
                    whole = any(ev.get("introduced") == "0" for r in aff.get("ranges") or [] for ev in r.get("events") or [])
                    if versions and not whole:
                        found[eco].setdefault(norm(pkg.get("name", ""), eco), set()).update(versions)
    csv_path = root / "compromised-packages.csv"
    if csv_path.is_file():
        with csv_path.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                name = row.get("Package") or ""
                versions = [v.strip() for v in (row.get("Compromised Versions") or "").split(",") if v.strip()]
                if name and versions:
                    found["npm"].setdefault(norm(name, "npm"), set()).update(versions)
    return found


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "--clone":
        tmp = tempfile.mkdtemp(prefix="ossf-mal-")
        subprocess.run(["git", "clone", "--depth", "1", "https://github.com/ossf/malicious-packages", tmp], check=True)
        root = Path(tmp)
    else:
        root = Path(argv[0])
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    found = read_checkout(root)
    old = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    curated = old.get("curated", {"npm": {}, "pypi": {}})
    for eco, entries in curated.items():
        for name, versions in entries.items():
            have = found.get(eco, {}).get(name, set())
            if set(versions) <= have:
                print(f"curated {eco} {name} {versions} now covered by the OpenSSF data")
    data = {
        "source": "OpenSSF malicious-packages, https://github.com/ossf/malicious-packages (Apache-2.0)",
        "license": "Apache-2.0",
        "snapshot_date": datetime.date.today().isoformat(),
        "snapshot_commit": commit,
        "kept": "npm and PyPI releases listed by explicit version, and compromised-packages.csv",
        "npm": {k: sorted(v) for k, v in sorted(found["npm"].items())},
        "pypi": {k: sorted(v) for k, v in sorted(found["pypi"].items())},
        "curated": curated,
    }
    OUT.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(data['npm'])} npm and {len(data['pypi'])} PyPI packages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
