"""The `.rune/` verdict: CLEAN, SUSPICIOUS or TAINTED per file and overall, with the file list.

- TAINTED: an active finding of high or critical severity (adversarial content);
- SUSPICIOUS: an active finding of low or medium severity, or a file that could not be scanned
  (an unread file is never clean);
- CLEAN: scanned, and nothing above info.
The overall verdict is the worst file's. A verdict never stands without its list: every file
looked at appears with its own verdict, and "no files" is said in words.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Finding, ScanResult, Severity
from . import is_rune_path

CLEAN, SUSPICIOUS, TAINTED = "CLEAN", "SUSPICIOUS", "TAINTED"
_ORDER = {CLEAN: 0, SUSPICIOUS: 1, TAINTED: 2}


@dataclass
class FileVerdict:
    path: str
    verdict: str
    scanned: bool
    findings: list[Finding] = field(default_factory=list)
    reason: str = ""  # why not scanned


@dataclass
class RuneReport:
    files: list[FileVerdict]
    overall: str
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = {CLEAN: 0, SUSPICIOUS: 0, TAINTED: 0}
        for f in self.files:
            out[f.verdict] += 1
        return out


def file_verdict(findings: list[Finding], scanned: bool) -> str:
    active = [f for f in findings if f.suppressed_by is None]
    if any(f.severity >= Severity.HIGH for f in active):
        return TAINTED
    if not scanned or any(f.severity >= Severity.LOW for f in active):
        return SUSPICIOUS
    return CLEAN


def build(result: ScanResult, notes: list[str] | None = None) -> RuneReport:
    """The verdicts of the `.rune/` files of any scan result (CLI `rune`, `scan`, or the Action)."""
    by_path: dict[str, list[Finding]] = {}
    for f in result.findings:
        if is_rune_path(f.path):
            by_path.setdefault(f.path, []).append(f)
    files: dict[str, FileVerdict] = {}
    for s in result.scanned:
        if is_rune_path(s.path):
            files[s.path] = FileVerdict(s.path, "", True)
    for n in result.not_scanned:
        if is_rune_path(n.path) and n.path not in files:
            files[n.path] = FileVerdict(n.path, "", False, reason=f"{n.reason}{': ' + n.detail if n.detail else ''}")
    for path in by_path:
        files.setdefault(path, FileVerdict(path, "", True))  # e.g. a removed file reported by history
    for fv in files.values():
        fv.findings = sorted(by_path.get(fv.path, []), key=lambda f: f.sort_key())
        fv.verdict = file_verdict(fv.findings, fv.scanned)
    ordered = [files[p] for p in sorted(files)]
    overall = max((f.verdict for f in ordered), key=_ORDER.__getitem__, default=CLEAN)
    all_notes = list(notes or [])
    all_notes += [n for n in result.notes if ".rune" in n or "authorship" in n]
    if not ordered:
        all_notes.append("no .rune/ files were found; nothing was checked")
    return RuneReport(ordered, overall, all_notes)


def verdict_table(result: ScanResult) -> list[dict]:
    """Rows for a job summary: path, verdict, scanned, findings by severity, worst rule ids."""
    report = build(result)
    rows = []
    for fv in report.files:
        active = [f for f in fv.findings if f.suppressed_by is None]
        rows.append({
            "path": fv.path, "verdict": fv.verdict, "scanned": fv.scanned, "reason": fv.reason,
            "findings": len(active),
            "highest": max((f.severity for f in active), default=None).label if active else None,
            "rules": sorted({f.rule_id for f in active}),
        })
    rows.append({"path": "(overall)", "verdict": report.overall, "scanned": all(f.scanned for f in report.files),
                 "reason": "" if report.files else "no .rune/ files", "findings": sum(r["findings"] for r in rows),
                 "highest": None, "rules": []})
    return rows


def to_json(report: RuneReport) -> dict:
    return {
        "overall": report.overall,
        "counts": report.counts(),
        "files": [
            {"path": f.path, "verdict": f.verdict, "scanned": f.scanned, "reason": f.reason,
             "findings": [{"rule": x.rule_id, "severity": x.severity.label, "line": x.line, "message": x.message,
                           "excerpt": x.excerpt, "suppressed_by": x.suppressed_by} for x in f.findings]}
            for f in report.files
        ],
        "notes": report.notes,
    }


def render_text(report: RuneReport) -> str:
    from ..inert import path as shown
    from ..inert import visible

    lines = ["## .rune integrity report", ""]
    for fv in report.files:
        lines.append(f"{fv.verdict:<10} {shown(fv.path)}" + ("" if fv.scanned else f"  (not scanned: {visible(fv.reason, 200)})"))
        for f in fv.findings:
            tag = f" [suppressed: {visible(f.suppressed_by, 80)}]" if f.suppressed_by else ""
            lines.append(f"    {f.line}: {f.severity.label.upper()} {f.rule_id} {visible(f.message, 200)}{tag}")
            if f.excerpt:
                lines.append(f"        > {visible(f.excerpt)}")
    for note in report.notes:
        lines.append(f"Note: {visible(note, 300)}")
    c = report.counts()
    lines.append("")
    lines.append(f"Files scanned: {len(report.files)} ({c[CLEAN]} clean, {c[SUSPICIOUS]} suspicious, {c[TAINTED]} tainted)")
    lines.append(f"Verdict: {report.overall}")
    return "\n".join(lines) + "\n"
