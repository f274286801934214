"""Workflow-command annotations (`::error file=...,line=...,title=...::message`).

GitHub shows at most 10 errors, 10 warnings and 10 notices per step; we emit the most severe
findings first within those caps and count the rest so the job summary can say so. Every
property and message is escaped (scanner/inert.py), so scanned text cannot end a command
early or start a new one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Finding, Severity
from .. import inert

CAP_PER_LEVEL = 10


def level(severity: Severity) -> str:
    if severity >= Severity.HIGH:
        return "error"
    if severity == Severity.MEDIUM:
        return "warning"
    return "notice"


@dataclass
class Annotations:
    lines: list[str] = field(default_factory=list)
    omitted: dict[str, int] = field(default_factory=dict)  # level -> findings not annotated

    @property
    def omitted_total(self) -> int:
        return sum(self.omitted.values())


def command(f: Finding) -> str:
    props = [f"file={inert.workflow_command_property(f.path)}", f"line={f.span.start_line}"]
    if f.span.end_line and f.span.end_line != f.span.start_line:
        props.append(f"endLine={f.span.end_line}")
    elif f.span.start_col > 1:
        props.append(f"col={f.span.start_col}")
    title = f"{f.rule_id} {f.title}" + (" (new)" if f.new else "")
    props.append(f"title={inert.workflow_command_property(title)}")
    message = f"[{f.severity.label}] {f.message}" + (f": {f.excerpt}" if f.excerpt else "")
    return f"::{level(f.severity)} {','.join(props)}::{inert.workflow_command_data(message)}"


def build(findings: list[Finding]) -> Annotations:
    """Annotations for active findings, most severe (then new) first, at most 10 per level."""
    out = Annotations()
    counts: dict[str, int] = {}
    active = [f for f in findings if f.suppressed_by is None]
    for f in sorted(active, key=lambda f: (-int(f.severity), f.new is not True, f.path, f.span.start_line, f.rule_id)):
        lvl = level(f.severity)
        counts[lvl] = counts.get(lvl, 0) + 1
        if counts[lvl] > CAP_PER_LEVEL:
            out.omitted[lvl] = out.omitted.get(lvl, 0) + 1
            continue
        out.lines.append(command(f))
    return out
