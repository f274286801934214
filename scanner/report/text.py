"""Human-readable terminal report. Every piece of scanned text passes through inert.visible()."""
from __future__ import annotations

from collections import defaultdict

from ..models import ScanResult
from ..policy import Verdict
from .. import inert

_COLORS = {4: "\033[1;35m", 3: "\033[1;31m", 2: "\033[33m", 1: "\033[36m", 0: "\033[2m"}
_RESET = "\033[0m"


def render(scan: ScanResult, verdict: Verdict | None = None, color: bool = False) -> str:
    lines: list[str] = []
    by_file: dict[str, list] = defaultdict(list)
    for f in scan.findings:
        by_file[f.path].append(f)
    for path in sorted(by_file):
        lines.append(inert.path(path))
        for f in sorted(by_file[path], key=lambda f: (f.span.start_line, f.span.start_col, f.rule_id)):
            sev = f.severity.label.upper()
            if color:
                sev = f"{_COLORS[int(f.severity)]}{sev}{_RESET}"
            tag = " [suppressed: %s]" % inert.visible(f.suppressed_by, 80) if f.suppressed_by else ""
            new = {True: " [new]", False: " [existing]", None: ""}[f.new]
            engine = "" if f.engine == "native" else f" ({f.engine})"
            lines.append(f"  {f.span.start_line}:{f.span.start_col} {sev} {f.rule_id} {inert.visible(f.message, 200)}{engine}{new}{tag}")
            if f.excerpt:
                lines.append(f"      > {inert.visible(f.excerpt)}")
    if scan.not_scanned:
        lines.append("")
        lines.append(f"Not scanned ({len(scan.not_scanned)}):")
        for n in scan.not_scanned:
            detail = f": {inert.visible(n.detail, 200)}" if n.detail else ""
            digest = f" sha256={n.sha256}" if n.sha256 else ""
            lines.append(f"  {inert.path(n.path)} [{n.reason}]{detail}{digest}")
    for e in scan.engines:
        if e.status.value != "ok":
            lines.append(f"Engine {e.name}: {e.status.value.upper()} {inert.visible(e.detail, 300)}")
    for note in scan.notes:
        lines.append(f"Note: {inert.visible(note, 300)}")
    active = scan.active_findings()
    counts = defaultdict(int)
    for f in active:
        counts[f.severity.label] += 1
    summary = ", ".join(f"{counts[s]} {s}" for s in ("critical", "high", "medium", "low", "info") if counts[s])
    lines.append("")
    lines.append(
        f"{len(active)} finding(s){' (' + summary + ')' if summary else ''} in {len(scan.scanned)} scanned file(s); "
        f"{len(scan.not_scanned)} not scanned"
        + (f"; verdict: {verdict.label.upper()} ({verdict.reason})" if verdict else "")
    )
    return "\n".join(lines) + "\n"
