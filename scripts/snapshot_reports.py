"""Snapshot the scanner's reports on every offline corpus part, or compare two snapshots.

    python scripts/snapshot_reports.py save DIR [--jobs N]   # JSON + SARIF of each part into DIR
    python scripts/snapshot_reports.py compare OLD NEW       # exit 1 and list parts that differ

Why: a refactor or a speed change must not change what the scanner reports (issue 17). The parts
are the two halves of ../shared/corpus (benign, malicious), each whole tree under
corpus/benign-trees and the adversarial cases as make_cases.py lays them out. Reports are written
as the CLI writes them; the tool version and engine timings are dropped before comparing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shared_dir() -> Path:
    for candidate in (os.environ.get("IG_SHARED"), ROOT.parent / "shared", "/work/shared"):
        if candidate and (Path(candidate) / "corpus").is_dir():
            return Path(candidate)
    sys.exit("snapshot_reports: no shared/corpus found (set IG_SHARED)")


def scan(target: Path, out: Path, fmt: str, jobs: int | None, cwd: Path | None = None) -> None:
    cmd = [sys.executable, "-m", "scanner", "scan", str(target), "--format", fmt,
           "--output", str(out), "--fail-on", "never", "--color", "never"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run(cmd, check=True, cwd=cwd or ROOT, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def save(dest: Path, jobs: int | None) -> None:
    corpus = shared_dir() / "corpus"
    dest.mkdir(parents=True, exist_ok=True)
    for half in ("benign", "malicious"):
        scan(corpus / half, dest / f"corpus-{half}.json", "json", jobs)
    for tree in sorted(p for p in (corpus / "benign-trees").iterdir() if p.is_dir()):
        scan(tree, dest / f"tree-{tree.name}.json", "json", jobs)
    with tempfile.TemporaryDirectory() as tmp:
        cases = Path(tmp) / "cases"
        subprocess.run([sys.executable, str(corpus / "adversarial" / "make_cases.py"), str(cases)],
                       check=True, stdout=subprocess.DEVNULL)
        scan(Path("."), dest / "adversarial.json", "json", jobs, cwd=cases)
        scan(Path("."), dest / "adversarial.sarif", "sarif", jobs, cwd=cases)
    print(f"saved {len(list(dest.iterdir()))} reports in {dest}")


def normalised(path: Path) -> object:
    data = json.loads(path.read_text(encoding="utf-8"))
    if path.suffix == ".sarif":
        for run in data.get("runs", []):
            run.get("tool", {}).get("driver", {}).pop("version", None)
            run.pop("invocations", None)
    else:
        data.pop("tool", None)
        for engine in data.get("engines", []):
            engine.pop("seconds", None)
    return data


def compare(old: Path, new: Path) -> int:
    names = sorted({p.name for p in old.iterdir()} | {p.name for p in new.iterdir()})
    differing = []
    for name in names:
        a, b = old / name, new / name
        if not (a.exists() and b.exists()) or normalised(a) != normalised(b):
            differing.append(name)
    for name in differing:
        print(f"differs: {name}")
    print(f"{len(names) - len(differing)}/{len(names)} reports identical")
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save")
    s.add_argument("dir", type=Path)
    s.add_argument("--jobs", type=int)
    c = sub.add_parser("compare")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    args = parser.parse_args()
    if args.command == "save":
        save(args.dir, args.jobs)
        return 0
    return compare(args.old, args.new)


if __name__ == "__main__":
    sys.exit(main())
