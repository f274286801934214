"""`instruction-guard rune [PATH]`: check `.rune/` agent state and give a verdict per file.

Every file under any `.rune/` folder is scanned by the whole rule catalog (the IG8xx state rules
and every other rule), commits that touched them are checked against the trusted set, and the
report ends with CLEAN, SUSPICIOUS or TAINTED per file and overall, listing each file.
Exit 1 when the verdict is TAINTED (or SUSPICIOUS with --strict).
"""
from __future__ import annotations

import json
import os
import sys

from ..engines import native
from ..errors import UsageError
from ..models import ScanResult
from ..pipeline import find_config
from ..policy import apply
from ..rune import is_rune_path
from ..rune import verdict as rune_verdict
from ..rune.authorship import findings as authorship_findings
from ..rune.authorship import untrusted_rune_commits
from ..targets import Target, TargetSet, walk_tree


def register(sub) -> None:
    p = sub.add_parser("rune", help="check .rune/ agent state: CLEAN, SUSPICIOUS or TAINTED per file")
    p.add_argument("path", nargs="?", default=".", metavar="PATH", help="repository (or folder) to look in; default: here")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--config", metavar="FILE", help="configuration file (default: .github/instruction-guard.yml)")
    p.add_argument("--base", metavar="REV", help="trust the authors of REV's history; check commits REV..HEAD")
    p.add_argument("--strict", action="store_true", help="exit 1 on SUSPICIOUS too")
    p.set_defaults(func=run)


def rune_files(root: str) -> list[str]:
    files, _links = walk_tree(root)
    return sorted(p for p in files if is_rune_path(p))


def check(root: str, config, base: str | None = None) -> tuple[ScanResult, rune_verdict.RuneReport]:
    paths = rune_files(root)
    ts = TargetSet(root=root, targets=[Target(p, "rune") for p in paths])
    result = native.scan(ts, config.limits)
    notes = []
    auth = untrusted_rune_commits(root, paths, config, base=base)
    if not auth.checked:
        notes.append(auth.note)
    result.findings.extend(authorship_findings(auth, engine="native"))
    result = apply(result, config)
    return result, rune_verdict.build(result, notes)


def run(args) -> int:
    root = os.path.abspath(args.path)
    if not os.path.isdir(root):
        raise UsageError(f"{args.path}: not a folder")
    config = find_config(root, args.config)
    _result, report = check(root, config, args.base)
    if args.format == "json":
        json.dump(rune_verdict.to_json(report), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(rune_verdict.render_text(report))
    if report.overall == rune_verdict.TAINTED or (args.strict and report.overall == rune_verdict.SUSPICIOUS):
        return 1
    return 0
