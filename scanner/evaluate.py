"""Evaluation over a labelled corpus: recall on malicious files, false positives on benign ones.

A corpus holds `benign/` and `malicious/` halves, each with a MANIFEST.tsv (one row a file;
columns owner/repo, path, kind or attack/source_label, file_kind) and the files themselves
under `<half>/<owner>__<repo>/<path>`. Each owner__repo folder is scanned as a repository
root with its manifest paths as the targets, classified by the same catalog as a real scan
(so skill folders and their scripts are read as skill files).

Nothing here prints or exits; scanner/commands/eval.py renders the Evaluation.
"""
from __future__ import annotations

import csv
import os
import posixpath
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from .agent_map import Catalog, skill_root_of, skill_roots
from .config import Config
from .document import classify
from .engines import run_engines
from .models import Severity
from .policy import apply
from .targets import Target, TargetSet

FILE_KINDS = ("instruction", "skill", "rune", "script", "markdown", "other")
# Bars of issue 2 (prose agent files) and issue 3 (bundled scripts).
RECALL_BAR = 0.90
FP_HIGH_BAR = 0.005
PROSE_KINDS = ("instruction", "skill", "rune")


@dataclass
class FileOutcome:
    half: str  # benign or malicious
    repo: str
    path: str
    file_kind: str
    label: str  # benign: kind column; malicious: attack column
    source_label: str = ""
    language: str = ""
    real_world: bool = True  # benign: not a synthetic specimen or labelled scanner fixture
    scored: bool = True  # malicious: not a mixed-label dataset or metadata file
    max_severity: Severity | None = None
    rules: dict[str, str] = field(default_factory=dict)  # rule id -> highest severity label
    not_scanned: str = ""  # reason, when the file was not scanned

    def reaches(self, threshold: Severity) -> bool:
        return self.max_severity is not None and self.max_severity >= threshold

    def rules_at(self, threshold: Severity) -> list[str]:
        return sorted(r for r, s in self.rules.items() if Severity.parse(s) >= threshold)

    def to_json(self) -> dict[str, Any]:
        return {
            "half": self.half, "repo": self.repo, "path": self.path, "file_kind": self.file_kind,
            "label": self.label, "source_label": self.source_label, "language": self.language,
            "real_world": self.real_world, "scored": self.scored,
            "max_severity": self.max_severity.label if self.max_severity is not None else None,
            "rules": self.rules, "not_scanned": self.not_scanned,
        }


@dataclass
class Evaluation:
    corpus: str
    files: list[FileOutcome]
    seconds: dict[str, float]  # per half
    engines: list[str]  # engine status lines (an engine that did not run is not a clean scan)


def is_real_world(kind: str) -> bool:
    """Benign rows whose kind says synthetic, fixture or labelled clean/safe are test material."""
    k = kind.lower()
    if "synthetic" in k or "fixture" in k:
        return False
    labelled_clean = "labelled" in k and any(w in k for w in ("clean", "safe", "benign", "legit"))
    return not labelled_clean


def is_scored_malicious(source_label: str) -> bool:
    """Mixed-label datasets and metadata files are not attack samples as a whole."""
    s = source_label.lower().strip()
    return not (s.startswith("mixed") or s.startswith("metadata"))


def read_manifest(path: str) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def _folder(repo: str) -> str:
    return repo.replace("/", "__")


def _target_set(root: str, paths: list[str], catalog: Catalog) -> TargetSet:
    roots = skill_roots(paths)
    ts = TargetSet(root=root, skill_roots=roots)
    for p in paths:
        kind = catalog.classify(p, roots) or "explicit"
        sroot = skill_root_of(p, roots) if kind == "skill" else None
        ts.targets.append(Target(p, kind, skill_root=sroot))
    return ts


def evaluate_half(corpus: str, half: str, config: Config) -> tuple[list[FileOutcome], float, list[str]]:
    manifest = os.path.join(corpus, half, "MANIFEST.tsv")
    rows = read_manifest(manifest)
    by_repo: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_repo.setdefault(row["owner/repo"], []).append(row)
    catalog = Catalog(config.include, config.exclude)
    outcomes: list[FileOutcome] = []
    engines: list[str] = []
    started = time.perf_counter()
    for repo, repo_rows in sorted(by_repo.items()):
        root = os.path.join(corpus, half, _folder(repo))
        paths = [r["path"] for r in repo_rows]
        result = apply(run_engines(_target_set(root, paths, catalog), config), config)
        for run in result.engines:
            if run.status.value != "ok":
                engines.append(f"{half}/{repo}: engine {run.name} {run.status.value}: {run.detail}")
        languages = {s.path: s.language or "" for s in result.scanned}
        skipped = {n.path: n.reason for n in result.not_scanned}
        per_file: dict[str, dict[str, Severity]] = {}
        for f in result.active_findings():
            rules = per_file.setdefault(f.path, {})
            if f.severity > rules.get(f.rule_id, Severity.INFO) or f.rule_id not in rules:
                rules[f.rule_id] = f.severity
        for row in repo_rows:
            p = row["path"]
            found = per_file.get(p, {})
            lang = languages.get(p) or classify(p, "")[1]
            if half == "benign":
                label, source, real, scored = row.get("kind", ""), "", is_real_world(row.get("kind", "")), True
            else:
                label, source = row.get("attack", ""), row.get("source_label", "")
                real, scored = True, is_scored_malicious(source)
            outcomes.append(FileOutcome(
                half=half, repo=repo, path=p, file_kind=row.get("file_kind", "other") or "other",
                label=label, source_label=source, language=lang, real_world=real, scored=scored,
                max_severity=max(found.values(), default=None),
                rules={r: s.label for r, s in sorted(found.items())},
                not_scanned=skipped.get(p, ""),
            ))
    return outcomes, time.perf_counter() - started, engines


def evaluate(corpus: str, config: Config | None = None, halves: Iterable[str] = ("benign", "malicious")) -> Evaluation:
    config = config or Config()
    files: list[FileOutcome] = []
    seconds: dict[str, float] = {}
    engines: list[str] = []
    for half in halves:
        if not os.path.isfile(os.path.join(corpus, half, "MANIFEST.tsv")):
            continue
        out, secs, eng = evaluate_half(corpus, half, config)
        files.extend(out)
        seconds[half] = secs
        engines.extend(eng)
    return Evaluation(corpus, files, seconds, engines)


# -- metrics -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rate:
    hits: int
    total: int

    @property
    def value(self) -> float | None:
        return self.hits / self.total if self.total else None

    def text(self) -> str:
        v = self.value
        return f"{self.hits}/{self.total} = {v:.1%}" if v is not None else "0/0 = n/a"

    def to_json(self) -> dict[str, Any]:
        return {"hits": self.hits, "total": self.total, "rate": self.value}


def rate(files: Iterable[FileOutcome], threshold: Severity) -> Rate:
    items = list(files)
    return Rate(sum(1 for f in items if f.reaches(threshold)), len(items))


def malicious_scored(ev: Evaluation) -> list[FileOutcome]:
    return [f for f in ev.files if f.half == "malicious" and f.scored]


def benign_real(ev: Evaluation) -> list[FileOutcome]:
    return [f for f in ev.files if f.half == "benign" and f.real_world]


def benign_test_material(ev: Evaluation) -> list[FileOutcome]:
    return [f for f in ev.files if f.half == "benign" and not f.real_world]


def by(files: Iterable[FileOutcome], key) -> dict[str, list[FileOutcome]]:
    groups: dict[str, list[FileOutcome]] = {}
    for f in files:
        groups.setdefault(key(f), []).append(f)
    return dict(sorted(groups.items()))


def scripts(files: Iterable[FileOutcome]) -> list[FileOutcome]:
    return [f for f in files if f.file_kind == "script"]


@dataclass(frozen=True)
class Bar:
    issue: int
    name: str
    measured: Rate
    target: float
    at_most: bool  # True: measured must be <= target; False: >= target

    @property
    def passed(self) -> bool:
        v = self.measured.value
        if v is None:
            return False
        return v <= self.target if self.at_most else v >= self.target

    def text(self) -> str:
        op = "<=" if self.at_most else ">="
        return f"{'PASS' if self.passed else 'FAIL'}  issue {self.issue}: {self.name}: {self.measured.text()} (bar {op} {self.target:.1%})"


def bars(ev: Evaluation) -> list[Bar]:
    mal = malicious_scored(ev)
    ben = benign_real(ev)
    return [
        Bar(2, "malicious instruction/skill/rune files with a medium+ finding",
            rate([f for f in mal if f.file_kind in PROSE_KINDS], Severity.MEDIUM), RECALL_BAR, False),
        Bar(2, "real-world benign files with a high+ finding", rate(ben, Severity.HIGH), FP_HIGH_BAR, True),
        Bar(3, "malicious scripts with a medium+ finding", rate(scripts(mal), Severity.MEDIUM), RECALL_BAR, False),
        Bar(3, "real-world benign scripts with a high+ finding", rate(scripts(ben), Severity.HIGH), FP_HIGH_BAR, True),
    ]


def rule_counts(files: Iterable[FileOutcome], threshold: Severity) -> dict[str, int]:
    """How many files each rule fired on at `threshold` or above."""
    counts: dict[str, int] = {}
    for f in files:
        for r in f.rules_at(threshold):
            counts[r] = counts.get(r, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def summary(ev: Evaluation, worst: int = 20) -> dict[str, Any]:
    mal = malicious_scored(ev)
    ben = benign_real(ev)
    test = benign_test_material(ev)
    unscored = [f for f in ev.files if f.half == "malicious" and not f.scored]
    med, high = Severity.MEDIUM, Severity.HIGH
    offenders = sorted((f for f in ben if f.reaches(high)), key=lambda f: (-int(f.max_severity), f.repo, f.path))
    missed = sorted((f for f in mal if not f.reaches(med)), key=lambda f: (f.file_kind, f.repo, f.path))
    not_scanned = [f for f in ev.files if f.not_scanned]
    return {
        "corpus": ev.corpus,
        "files": {"benign_real_world": len(ben), "benign_test_material": len(test),
                  "malicious_scored": len(mal), "malicious_unscored": len(unscored),
                  "not_scanned": len(not_scanned)},
        "recall_medium": {
            "overall": rate(mal, med).to_json(),
            "by_file_kind": {k: rate(v, med).to_json() for k, v in by(mal, lambda f: f.file_kind).items()},
            "scripts_by_language": {k: rate(v, med).to_json() for k, v in by(scripts(mal), lambda f: f.language).items()},
        },
        "false_positives": {
            "high": rate(ben, high).to_json(),
            "medium": rate(ben, med).to_json(),
            "by_file_kind": {k: {"high": rate(v, high).to_json(), "medium": rate(v, med).to_json()}
                             for k, v in by(ben, lambda f: f.file_kind).items()},
            "scripts_by_language": {k: {"high": rate(v, high).to_json(), "medium": rate(v, med).to_json()}
                                    for k, v in by(scripts(ben), lambda f: f.language).items()},
            "rules_high": rule_counts(ben, high),
            "rules_medium": rule_counts(ben, med),
        },
        "test_material": {"high": rate(test, high).to_json(), "medium": rate(test, med).to_json()},
        "unscored_malicious_flagged": rate(unscored, med).to_json(),
        "bars": [{"issue": b.issue, "name": b.name, "passed": b.passed, "target": b.target,
                  "at_most": b.at_most, **b.measured.to_json()} for b in bars(ev)],
        "worst_benign": [f.to_json() for f in offenders[:worst]],
        "missed_malicious": [f.to_json() for f in missed[:worst]],
        "not_scanned": [{"half": f.half, "repo": f.repo, "path": f.path, "reason": f.not_scanned} for f in not_scanned],
        "seconds": ev.seconds,
        "engine_problems": ev.engines,
    }


def inert_path(path: str) -> str:
    """Corpus paths are attacker-chosen: keep them printable in a table."""
    from .inert import visible

    return visible(posixpath.normpath(path), limit=200)
