"""What the pull request comments say: bodies, hidden markers, de-duplication, diff lines.

Pure functions only (no API calls), so every body can be checked for inertness in tests.
All scanned text (messages, excerpts, paths, rule titles from an artifact) goes through
`scanner.inert`: no live links, images, HTML or @-mentions from a scanned file reach a comment.
Our own markup (markers, headings) is the only HTML.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

import re2  # comment bodies and patches come from GitHub and the pull request: linear-time matching

from ..models import Finding, ScanResult, Severity
from .. import inert

SUMMARY_MARKER = "<!-- instruction-guard:summary -->"
REVIEW_MARKER = "<!-- instruction-guard:review -->"
_FINDING_MARKER = "<!-- instruction-guard:finding {fp} {state} -->"
_LISTED_MARKER = "<!-- instruction-guard:listed {fps} -->"
# Markers are only believed on a line of their own: scanned text (excerpts, paths) never starts a
# line in our bodies, so a marker smuggled inside an excerpt cannot be taken for ours.
_FINDING_LINE = re2.compile(r"^<!-- instruction-guard:finding ([0-9A-Za-z]{1,64}) (open|resolved) -->$")
_LISTED_LINE = re2.compile(r"^<!-- instruction-guard:listed ([0-9A-Za-z,]*) -->$")


def _lines(body: str) -> list[str]:
    return [line.rstrip("\r") for line in (body or "").split("\n")]


def has_marker(body: str, marker: str) -> bool:
    return marker in _lines(body)


def finding_state(body: str) -> tuple[str, str] | None:
    """(fingerprint, open|resolved) of one of our inline comments, or None."""
    for line in _lines(body):
        m = _FINDING_LINE.match(line)
        if m:
            return m.group(1), m.group(2)
    return None


def _with_state(body: str, state: str) -> str:
    out = []
    for line in _lines(body):
        m = _FINDING_LINE.match(line)
        out.append(finding_marker(m.group(1), state) if m else line)
    return "\n".join(out)
RESOLVED_PREFIX = "✅ **Resolved**"
MAX_BODY = 60_000  # GitHub caps comment bodies at 65,536 characters
MAX_LISTED = 50  # findings listed in a review body or summary table before "and N more"

_ICON = {4: "🟣", 3: "🔴", 2: "🟠", 1: "🔵", 0: "⚪"}
_HUNK_RE = re2.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def severity_badge(sev: Severity) -> str:
    return f"{_ICON[int(sev)]} **{sev.label.capitalize()}**"


@dataclass
class CommentFinding:
    """One finding as commented: the most severe of those on the same path, line and category."""

    finding: Finding
    also: tuple[str, ...] = ()  # other engines/rules that reported the same spot


def for_comments(findings: Iterable[Finding]) -> list[CommentFinding]:
    """Active findings, one per path+line+category (most severe kept); SARIF keeps them all."""
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        if f.suppressed_by is None:
            groups.setdefault((f.path, f.line, f.category), []).append(f)
    out = []
    for group in groups.values():
        group.sort(key=lambda f: (-int(f.severity), -int(f.confidence), f.engine != "native", f.rule_id))
        best = group[0]
        others = tuple(sorted({f"{f.engine}:{f.rule_id}" for f in group[1:]} - {f"{best.engine}:{best.rule_id}"}))
        out.append(CommentFinding(best, others))
    out.sort(key=lambda c: c.finding.sort_key())
    return out


def right_lines_from_patch(patch: str) -> frozenset[int]:
    """Right-side lines a review comment may be placed on: every line inside the diff's hunks."""
    lines: set[int] = set()
    for header in patch.splitlines():
        if not header.startswith("@@"):
            continue
        m = _HUNK_RE.match(header)
        if m:
            start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            lines.update(range(start, start + min(count, 1_000_000)))
    return frozenset(lines)


def _where(f: Finding) -> str:
    return f"{inert.code_span(f.path, 200)} line {f.line}"


def _title(f: Finding) -> str:
    return inert.markdown(f.title or f.rule_id, 120)


def finding_marker(fp: str, state: str = "open") -> str:
    return _FINDING_MARKER.format(fp=fp, state=state)


def inline_body(c: CommentFinding) -> str:
    f = c.finding
    parts = [f"{severity_badge(f.severity)} · {inert.code_span(f.rule_id, 40)} · {_title(f)}", "",
             inert.markdown(f.message, 400)]
    if f.excerpt:
        parts += ["", f"Matched: {inert.code_span(f.excerpt)}"]
    meta = f"engine {inert.code_span(f.engine, 60)} · confidence {f.confidence.label}"
    if f.new is False:
        meta += " · already present before this pull request"
    if c.also:
        meta += " · also reported as " + ", ".join(inert.code_span(a, 80) for a in c.also[:5])
    parts += ["", f"<sub>Instruction Guard · {meta}</sub>", finding_marker(f.fingerprint)]
    return "\n".join(parts)


def resolved_body(old: str, commit: str) -> str:
    """An old inline comment marked resolved (REST cannot resolve review threads)."""
    body = reopened_body(old)
    body = _with_state(body, "resolved")
    return f"{RESOLVED_PREFIX}: no longer reported at commit {inert.code_span(commit[:12], 20)}.\n\n{body}"


def reopened_body(old: str) -> str:
    if old.startswith(RESOLVED_PREFIX):
        old = old.split("\n\n", 1)[1] if "\n\n" in old else ""
    return _with_state(old, "open")


def _bounded(parts: list[str], tail: str) -> str:
    body = "\n".join(parts)
    if len(body) + len(tail) > MAX_BODY:
        body = body[: MAX_BODY - len(tail) - 40].rsplit("\n", 1)[0] + "\n\n…(cut to GitHub's comment size limit)"
    return body + "\n" + tail


def _list_item(c: CommentFinding) -> str:
    f = c.finding
    return f"- {severity_badge(f.severity)} {inert.code_span(f.rule_id, 40)} {_title(f)} — {_where(f)}"


_ITEM_MARKER = "<!-- instruction-guard:item {fp} -->"
ITEM_MARKER_RE = re2.compile(r"<!-- instruction-guard:item ([0-9A-Za-z]{1,64}) -->$")
_RESOLVED_ITEM = "- ✅ resolved: ~~"


def _review_item(c: CommentFinding) -> str:
    return f"{_list_item(c)} {_ITEM_MARKER.format(fp=c.finding.fingerprint)}"


def review_body_with_states(body: str, current: set[str]) -> tuple[str, int, int]:
    """An earlier review body with its listed findings struck through when gone, restored when back.

    Returns (new body, resolved count, reopened count). Lines are our own list items.
    """
    out, resolved, reopened = [], 0, 0
    for line in _lines(body):
        m = ITEM_MARKER_RE.search(line)
        if m and line.startswith("- "):
            fp, marker = m.group(1), m.group(0)
            struck = line.startswith(_RESOLVED_ITEM)
            text = line[: -len(marker)].rstrip()
            if fp not in current and not struck:
                line = f"{_RESOLVED_ITEM}{text[2:]}~~ {marker}"
                resolved += 1
            elif fp in current and struck and text.endswith("~~"):
                line = f"- {text[len(_RESOLVED_ITEM):-2]} {marker}"
                reopened += 1
        out.append(line)
    return "\n".join(out), resolved, reopened


def review_body(inline_count: int, outside: list[CommentFinding], commit: str, run_url: str = "") -> str:
    parts = [f"### Instruction Guard review of {inert.code_span(commit[:12], 20)}", ""]
    if inline_count:
        parts.append(f"{inline_count} new finding(s) on lines this pull request changed are commented inline.")
    if outside:
        parts += ["", f"{len(outside)} new finding(s) outside the diff (or beyond the inline limit):", ""]
        parts += [_review_item(c) for c in outside[:MAX_LISTED]]
        if len(outside) > MAX_LISTED:
            parts.append(f"- …and {len(outside) - MAX_LISTED} more: see the job summary and code scanning.")
    if run_url:
        parts += ["", f"Workflow run: {run_url}"]
    fps = ",".join(c.finding.fingerprint for c in outside[:MAX_LISTED])  # only what the body shows
    return _bounded(parts, REVIEW_MARKER + "\n" + _LISTED_MARKER.format(fps=fps))


def summary_body(result: ScanResult, commit: str, published: list[str], run_url: str = "") -> str:
    """The one summary comment, rewritten in place on every push."""
    active = result.active_findings()
    counts = Counter(f.severity for f in active)
    tally = ", ".join(f"{counts[s]} {s.label}" for s in sorted(counts, reverse=True)) or "none"
    new = sum(1 for f in active if f.new)
    parts = ["## Instruction Guard", "",
             f"Commit {inert.code_span(commit[:12], 20)}: **{len(active)} finding(s)** ({tally})"
             + (f", {new} on lines this pull request changed" if new else "") + "."]
    suppressed = len(result.findings) - len(active)
    if suppressed:
        parts.append(f"{suppressed} suppressed finding(s) are not counted.")
    listed = for_comments(active)
    if listed:
        parts += ["", "| Severity | Rule | Finding | Where |", "|---|---|---|---|"]
        for c in listed[:MAX_LISTED]:
            f = c.finding
            cells = [severity_badge(f.severity), inert.code_span(f.rule_id, 40), _title(f), _where(f)]
            # A pipe splits a table cell even inside a code span; GFM wants it escaped there.
            parts.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        if len(listed) > MAX_LISTED:
            parts.append(f"\n…and {len(listed) - MAX_LISTED} more in the job summary and code scanning.")
    if result.not_scanned:
        reasons = Counter(n.reason for n in result.not_scanned)
        parts += ["", "**Not scanned:** " + ", ".join(f"{n} × {inert.markdown(r, 40)}" for r, n in reasons.most_common())]
    failed = [e for e in result.engines if e.status.value != "ok"]
    for e in failed:
        parts.append(f"**Engine {inert.markdown(e.name, 60)} {e.status.value}:** {inert.markdown(e.detail, 300)}")
    if published:
        parts += ["", *published]
    if run_url:
        parts += ["", f"Workflow run: {run_url}"]
    return _bounded(parts, SUMMARY_MARKER)


def listed_fingerprints(body: str) -> set[str]:
    out: set[str] = set()
    for line in _lines(body):
        m = _LISTED_LINE.match(line)
        if m:
            out.update(fp for fp in m.group(1).split(",") if fp)
    return out
