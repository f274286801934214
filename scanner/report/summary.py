"""The job summary (`$GITHUB_STEP_SUMMARY`): markdown a maintainer reads on the run's page.

Findings by file and severity, the provenance verdict, what was not scanned and why, engine
status and (appended later) publishing outcomes. Every piece of scanned text, file paths
included, goes through inert.markdown(): no HTML, links, images or @-mentions reach the page.
GitHub rejects a step summary over 1 MiB; we stop adding rows well before and say so.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..models import ScanResult, Severity
from ..policy import Verdict
from .. import inert

MAX_BYTES = 1024 * 1024
BUDGET = 900 * 1024  # leave room for the publishing section appended after upload
MAX_DETAIL_ROWS = 500


@dataclass(frozen=True)
class ProvenanceView:
    verdict: str  # external | trusted | not-assessed
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def _cell(text: str, limit: int = 200) -> str:
    return inert.markdown(text, limit).replace("\n", " ")


class _Doc:
    def __init__(self, budget: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.budget = budget
        self.truncated = False

    def add(self, text: str) -> bool:
        n = len(text.encode("utf-8"))
        if self.size + n > self.budget:
            self.truncated = True
            return False
        self.parts.append(text)
        self.size += n
        return True


def render(result: ScanResult, verdict: Verdict, provenance: ProvenanceView | None = None, *,
           scope_line: str = "", omitted_annotations: dict[str, int] | None = None,
           budget: int = BUDGET) -> str:
    d = _Doc(budget)
    icon = "❌" if verdict.failed else "✅"
    active = result.active_findings()
    suppressed = len(result.findings) - len(active)
    d.add(f"## Instruction Guard {icon} {verdict.label}\n\n")
    d.add(f"{verdict.reason.capitalize()}. {len(active)} finding(s)"
          + (f" ({sum(1 for f in active if f.new)} on changed lines)" if any(f.new is not None for f in active) else "")
          + (f", {suppressed} suppressed" if suppressed else "")
          + f"; highest severity: {verdict.highest.label if verdict.highest is not None else 'none'}.\n\n")
    if scope_line:
        d.add(f"{scope_line}\n\n")  # our own words: commit ids, counts, config path
    if provenance is not None:
        d.add(f"**Provenance:** {provenance.verdict}\n\n")
        for r in provenance.reasons:
            d.add(f"- {_cell(r, 300)}\n")
        for n in provenance.notes:
            d.add(f"- note: {_cell(n, 300)}\n")
        d.add("\n")
    levels = list(reversed(Severity))
    if active:
        by_file: dict[str, dict[Severity, int]] = {}
        for f in active:
            by_file.setdefault(f.path, {}).setdefault(f.severity, 0)
            by_file[f.path][f.severity] += 1
        d.add("### Findings by file\n\n| File | " + " | ".join(s.label for s in levels) + " |\n|---|" + "---:|" * len(levels) + "\n")
        for path in sorted(by_file, key=lambda p: (-max(by_file[p]), p)):
            row = f"| {_cell(path, 300)} | " + " | ".join(str(by_file[path].get(s, "")) for s in levels) + " |\n"
            if not d.add(row):
                break
        d.add("\n### Findings\n\n| Severity | Rule | Location | New | Message |\n|---|---|---|---|---|\n")
        for i, f in enumerate(active):
            if i >= MAX_DETAIL_ROWS:
                d.truncated = True
                break
            new = {True: "yes", False: "no", None: ""}[f.new]
            msg = f.message + (f": {f.excerpt}" if f.excerpt else "")
            row = f"| {f.severity.label} | {f.rule_id} | {_cell(f.path, 200)}:{f.span.start_line} | {new} | {_cell(msg, 300)} |\n"
            if not d.add(row):
                break
        d.add("\n")
    if omitted_annotations and sum(omitted_annotations.values()):
        counts = ", ".join(f"{n} {lvl}(s)" for lvl, n in sorted(omitted_annotations.items()))
        d.add(f"GitHub shows 10 annotations per level; {counts} more are listed here and in the SARIF file only.\n\n")
    rune_rows = _rune_rows(result)
    if rune_rows:
        d.add("### `.rune/` state\n\n| File | Verdict | Findings | Rules |\n|---|---|---:|---|\n")
        for r in rune_rows:
            verdict_cell = r["verdict"] if r["scanned"] else f"{r['verdict']} (not scanned: {_cell(r['reason'], 80)})"
            d.add(f"| {_cell(r['path'], 200)} | {verdict_cell} | {r['findings']} | {_cell(', '.join(r['rules']), 120)} |\n")
        d.add("\n")
    if result.not_scanned:
        d.add("### Not scanned\n\n| File | Reason | Detail |\n|---|---|---|\n")
        for n in result.not_scanned:
            if not d.add(f"| {_cell(n.path, 200)} | {_cell(n.reason, 60)} | {_cell(n.detail, 200)} |\n"):
                break
        d.add("\n")
    if result.engines:
        d.add("### Engines\n\n| Engine | Status | Version | Seconds | Detail |\n|---|---|---|---:|---|\n")
        for e in result.engines:
            d.add(f"| {_cell(e.name, 40)} | {e.status.value} | {_cell(e.version, 40)} | {e.seconds:.2f} | {_cell(e.detail, 200)} |\n")
        d.add("\n")
    if result.notes:
        d.add("### Notes\n\n")
        for n in result.notes:
            if not d.add(f"- {_cell(n, 300)}\n"):
                break
        d.add("\n")
    if d.truncated:
        d.budget += 4096  # the note itself always fits: BUDGET is below MAX_BYTES
        d.add("**Summary truncated** to stay under GitHub's 1 MiB limit; the SARIF file has every finding.\n\n")
    return "".join(d.parts)


def _rune_rows(result: ScanResult) -> list[dict]:
    """The .rune/ verdict per file and overall, with every file listed; none when no .rune/ file is in scope."""
    from ..rune.verdict import verdict_table

    rows = verdict_table(result)
    return rows if len(rows) > 1 else []


def append(path: str | None, text: str) -> None:
    if not path:
        return
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text)
