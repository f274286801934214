"""Machine-readable JSON report: the findings model as plain data."""
from __future__ import annotations

import json
from dataclasses import asdict

from .. import TOOL_NAME, __version__
from ..models import Finding, ScanResult
from ..policy import Verdict


def finding_dict(f: Finding) -> dict:
    return {
        "rule_id": f.rule_id,
        "title": f.title,
        "message": f.message,
        "severity": f.severity.label,
        "confidence": f.confidence.label,
        "category": f.category.value,
        "engine": f.engine,
        "path": f.path,
        "start_line": f.span.start_line,
        "start_column": f.span.start_col,
        "end_line": f.span.end_line,
        "end_column": f.span.end_col,
        "excerpt": f.excerpt,
        "fingerprint": f.fingerprint,
        "new": f.new,
        "suppressed_by": f.suppressed_by,
        "properties": f.properties,
    }


def render(scan: ScanResult, verdict: Verdict | None = None) -> str:
    doc = {
        "tool": {"name": TOOL_NAME, "version": __version__},
        "findings": [finding_dict(f) for f in scan.findings],
        "not_scanned": [asdict(n) for n in scan.not_scanned],
        "scanned": [asdict(s) for s in scan.scanned],
        "engines": [
            {"name": e.name, "status": e.status.value, "version": e.version, "detail": e.detail, "seconds": round(e.seconds, 3)}
            for e in scan.engines
        ],
        "notes": scan.notes,
    }
    if verdict is not None:
        doc["verdict"] = {
            "result": verdict.label,
            "reason": verdict.reason,
            "highest_severity": verdict.highest.label if verdict.highest is not None else None,
        }
    return json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
