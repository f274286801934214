"""Findings rebuilt from a SARIF log, for `mode: publish`.

The log comes from an earlier run's artifact, and for a pull request from a fork that run was
under the fork's control: it is untrusted input. It is parsed defensively (types checked, sizes
bounded, paths confined to the repository), never evaluated, and every string in it is later shown
inert by the comment renderers, like scanned text.
"""
from __future__ import annotations

import json
import os
import posixpath
from urllib.parse import unquote

from ..models import (Category, Confidence, EngineRun, EngineStatus, Finding, NotScanned, ScanResult, Severity, Span,
                      fingerprint)
from ..report.sarif import FINGERPRINT_KEY

MAX_SARIF_BYTES = 100 * 1024 * 1024
MAX_RESULTS = 25_000  # GitHub keeps 25,000 results of a run; the rebuilt log is one run
_TEXT = 1_000


class ArtifactError(ValueError):
    """The SARIF artifact cannot be used; the message says why, in one line."""


def load(path: str) -> dict:
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise ArtifactError(f"cannot read the SARIF artifact {path}: {exc.strerror}") from None
    if size > MAX_SARIF_BYTES:
        raise ArtifactError(f"the SARIF artifact is {size} bytes, more than {MAX_SARIF_BYTES}")
    try:
        with open(path, "rb") as fh:
            doc = json.loads(fh.read().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ArtifactError(f"the SARIF artifact is not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        raise ArtifactError("the SARIF artifact has no `runs` list")
    return doc


def _str(value, limit: int = _TEXT) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _severity(res: dict, props: dict) -> Severity:
    try:
        return Severity.parse(_str(props.get("severity"), 20))
    except ValueError:
        pass
    try:
        score = float(props.get("security-severity"))
        return Severity.CRITICAL if score >= 9 else Severity.HIGH if score >= 7 else Severity.MEDIUM if score >= 4 else Severity.LOW if score > 0.1 else Severity.INFO
    except (TypeError, ValueError):
        return {"error": Severity.HIGH, "warning": Severity.MEDIUM, "note": Severity.LOW}.get(_str(res.get("level"), 10), Severity.MEDIUM)


def _category(props: dict, tags: list) -> Category:
    for value in [props.get("category"), *tags]:
        try:
            return Category(value)
        except ValueError:
            continue
    return Category.PROMPT_INJECTION  # hostile-instruction tools default to this family


def _rule_id(value) -> str:
    """A rule id as this tool writes them (letters, digits, `-_./`), else a neutral one."""
    text = _str(value, 80)
    return text if text and all(c.isascii() and (c.isalnum() or c in "-_./") for c in text) else "unknown-rule"


def rebuild(result: ScanResult) -> dict:
    """The SARIF log to publish for an artifact's findings: one run under this tool's own name,
    version, rules and category (never the artifact's), holding only what was parsed."""
    from ..report import sarif

    for f in result.findings:
        f.engine = f.engine if f.engine in _KNOWN_ENGINES else "artifact"
    return sarif.document(ScanResult(findings=list(result.findings), not_scanned=list(result.not_scanned)[:1000],
                                     engines=[e for e in result.engines if e.sarif_run is None]))


_KNOWN_ENGINES = frozenset({"native", "integrity", "cisco-skill-scanner", "provenance"})


def _path(uri: str) -> str | None:
    """A repository-relative path, or None when the URI points anywhere else."""
    if not uri or "://" in uri or uri.startswith("/") or "\\" in uri:
        return None
    path = posixpath.normpath(unquote(uri))
    if path.startswith("../") or path == ".." or path.startswith("/") or "\0" in path:
        return None
    return path


def _rules(run: dict) -> tuple[list, dict]:
    rules = _dict(_dict(_dict(run.get("tool")).get("driver"))).get("rules")
    rules = rules if isinstance(rules, list) else []
    return rules, {r.get("id"): r for r in rules if isinstance(r, dict) and isinstance(r.get("id"), str)}


def findings(doc: dict) -> ScanResult:
    """Findings from every run of the log; results without a usable location are counted."""
    out = ScanResult()
    skipped = 0
    for run in doc.get("runs") or []:
        run = _dict(run)
        driver = _dict(_dict(run.get("tool")).get("driver"))
        tool = _str(driver.get("name"), 80) or "unknown-tool"
        rules, by_id = _rules(run)
        for res in run.get("results") or []:
            if len(out.findings) >= MAX_RESULTS:
                skipped += 1
                continue
            res = _dict(res)
            loc = _dict(_dict((res.get("locations") or [{}])[0] if isinstance(res.get("locations"), list) else {}).get("physicalLocation"))
            path = _path(_str(_dict(loc.get("artifactLocation")).get("uri"), 1000))
            if path is None:
                skipped += 1
                continue
            region = _dict(loc.get("region"))
            line = region.get("startLine") if isinstance(region.get("startLine"), int) and region.get("startLine") > 0 else 1
            rule_id = _rule_id(res.get("ruleId"))
            idx = res.get("ruleIndex")
            rule = _dict(rules[idx]) if isinstance(idx, int) and 0 <= idx < len(rules) else _dict(by_id.get(rule_id))
            props = _dict(res.get("properties"))
            tags = _dict(rule.get("properties")).get("tags")
            excerpt = _str(_dict(region.get("snippet")).get("text"), 400)
            fp = _str(_dict(res.get("partialFingerprints")).get(FINGERPRINT_KEY), 64)
            if not (fp.isascii() and fp.isalnum()):
                fp = fingerprint(rule_id, path, excerpt)
            suppressions = res.get("suppressions")
            suppressed = None
            if isinstance(suppressions, list) and suppressions:
                suppressed = _str(_dict(suppressions[0]).get("justification"), 200) or "suppressed in SARIF"
            new = props.get("new") if isinstance(props.get("new"), bool) else None
            out.findings.append(Finding(
                rule_id=rule_id,
                title=_str(_dict(rule.get("shortDescription")).get("text"), 200) or rule_id,
                message=_str(_dict(res.get("message")).get("text")),
                severity=_severity(res, props),
                confidence=Confidence.MEDIUM,
                category=_category(props, tags if isinstance(tags, list) else []),
                path=path,
                span=Span(line),
                excerpt=excerpt,
                engine=_str(props.get("engine"), 80) or tool,
                fingerprint=fp,
                new=new,
                suppressed_by=suppressed,
            ))
        out.not_scanned.extend(_not_scanned(run))
        invocations = run.get("invocations") if isinstance(run.get("invocations"), list) else []
        if any(_dict(inv).get("executionSuccessful") is False for inv in invocations[:10]):
            # The scanning run said this engine failed: not a clean scan, and the summary says so.
            out.engines.append(EngineRun(tool, EngineStatus.FAILED, detail="the scanning run reported that it did not complete"))
    if skipped:
        out.not_scanned.append(NotScanned("(sarif artifact)", "unusable-result",
                                          f"{skipped} result(s) without a repository path or over the limit"))
    return out


def _not_scanned(run: dict) -> list[NotScanned]:
    """Files the scanning run reported as not scanned (its tool execution notifications)."""
    out = []
    invocations = run.get("invocations") if isinstance(run.get("invocations"), list) else []
    for inv in invocations[:10]:
        notes = _dict(inv).get("toolExecutionNotifications")
        for n in (notes if isinstance(notes, list) else [])[:10_000]:
            n = _dict(n)
            reason = _str(_dict(n.get("properties")).get("reason"), 60)
            locs = n.get("locations") if isinstance(n.get("locations"), list) else [{}]
            uri = _str(_dict(_dict(_dict(locs[0] if locs else {}).get("physicalLocation")).get("artifactLocation")).get("uri"), 1000)
            if reason:
                out.append(NotScanned(_path(uri) or "(unknown path)", reason, _str(_dict(n.get("message")).get("text"), 300)))
    return out
