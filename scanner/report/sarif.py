"""SARIF 2.1.0: one run for the native engine, plus runs that other engines wrote themselves.

Built with sarif-om's object model and serialised by its schema property names. The output
is checked in the test suite against the OASIS schema and Microsoft's SARIF Multitool with
GitHub's ingestion rules.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterable
from urllib.parse import quote, unquote

import attr
import sarif_om as om

from .. import INFORMATION_URI, TOOL_NAME, __version__
from ..models import EngineStatus, Finding, NotScanned, ScanResult
from ..rules import Rule, catalog

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "instructionGuard/v1"
DEFAULT_CATEGORY = "instruction-guard/native"
# Opt-in engines whose findings go into a run (and a code-scanning category) of their own, so an
# advisory engine never replaces or mixes with the native analysis: engine -> (tool name, category).
OWN_RUN_ENGINES = {
    "virustotal": (f"{TOOL_NAME} VirusTotal hash lookup", "instruction-guard/virustotal"),
    "judge": (f"{TOOL_NAME} semantic judge", "instruction-guard/judge"),
}
SRCROOT = "%SRCROOT%"
# Not-scanned reasons that are expected content, not a gap: a skill's images, fonts, documents
# and data (listed with their hash), and text in a language with no analyser of its own.
QUIET_REASONS = frozenset({"asset", "skill-assets", "unknown-language", "data-bytes"})
_ALWAYS_EMIT = {"level"}


def to_json(obj: Any) -> Any:
    """Serialise sarif-om objects (attrs classes) by their SARIF property names."""
    if attr.has(type(obj)):
        out: dict[str, Any] = {}
        for f in attr.fields(type(obj)):
            value = getattr(obj, f.name)
            if value is None:
                continue
            default = f.default.factory() if isinstance(f.default, attr.Factory) else f.default
            if f.name not in _ALWAYS_EMIT and default is not attr.NOTHING and value == default:
                continue
            out[f.metadata.get("schema_property_name", f.name)] = to_json(value)
        return out
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    return obj


def uri(path: str) -> str:
    """RFC 3986 relative reference: the path's bytes (as the file system holds them: a name that
    is not UTF-8 keeps its bytes through os.fsdecode's surrogate escapes) percent-encoded."""
    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def path_of_uri(value: str) -> str:
    """uri()'s inverse: the repository path with its bytes back (a byte that is not UTF-8
    becomes the surrogate escape os.fsdecode gives it)."""
    return unquote(value, errors="surrogateescape")


def help_uri(r: Rule) -> str:
    return f"{INFORMATION_URI}/blob/main/docs/rules/{r.id}.md"


def rule_help_markdown(r: Rule) -> str:
    return (
        f"**{r.title}**\n\n{r.rationale}\n\n**Remediation:** {r.remediation}\n\n"
        f"Category: `{r.category.value}` · severity: `{r.severity.label}` · confidence: `{r.confidence.label}`"
    )


def descriptor(r: Rule) -> om.ReportingDescriptor:
    return om.ReportingDescriptor(
        id=r.id,
        name="".join(part.capitalize() for part in r.name.split("-")),
        short_description=om.MultiformatMessageString(text=r.title),
        full_description=om.MultiformatMessageString(text=r.rationale),
        help=om.MultiformatMessageString(text=f"{r.rationale} Remediation: {r.remediation}", markdown=rule_help_markdown(r)),
        help_uri=help_uri(r),
        default_configuration=om.ReportingConfiguration(level=r.severity.sarif_level),
        properties={
            "security-severity": r.severity.security_severity,
            "precision": {2: "high", 1: "medium", 0: "low"}[int(r.confidence)],
            "problem.severity": {"error": "error", "warning": "warning", "note": "recommendation"}[r.severity.sarif_level],
            "tags": ["security", r.category.value, *r.tags],
        },
    )


def result(f: Finding, rule_index: dict[str, int]) -> om.Result:
    region = om.Region(start_line=f.span.start_line, start_column=f.span.start_col)
    if f.span.end_line is not None:
        region.end_line = f.span.end_line
    if f.span.end_col is not None and (f.span.end_line or f.span.start_line) >= f.span.start_line:
        if not (f.span.end_line in (None, f.span.start_line) and f.span.end_col <= f.span.start_col):
            region.end_column = f.span.end_col
    if f.excerpt:
        region.snippet = om.ArtifactContent(text=f.excerpt)
    props = {
        "severity": f.severity.label,
        "confidence": f.confidence.label,
        "category": f.category.value,
        "engine": f.engine,
        "security-severity": f.severity.security_severity,
        **{k: v for k, v in f.properties.items() if v is not None},
    }
    if f.new is not None:
        props["new"] = f.new
    res = om.Result(
        message=om.Message(text=f"{f.message}" + (f": {f.excerpt}" if f.excerpt else "")),
        rule_id=f.rule_id,
        level=f.severity.sarif_level,
        locations=[om.Location(physical_location=om.PhysicalLocation(
            artifact_location=om.ArtifactLocation(uri=uri(f.path), uri_base_id=SRCROOT),
            region=region,
        ))],
        partial_fingerprints={FINGERPRINT_KEY: f.fingerprint},
        properties=props,
    )
    if f.rule_id in rule_index:
        res.rule_index = rule_index[f.rule_id]
    if f.suppressed_by:
        res.suppressions = [om.Suppression(kind="external", justification=f.suppressed_by)]
    return res


def notification(n: NotScanned) -> om.Notification:
    text = f"Not scanned: {n.path} ({n.reason}" + (f": {n.detail})" if n.detail else ")")
    props = {"reason": n.reason}
    if n.sha256:
        props["sha256"] = n.sha256
    return om.Notification(
        message=om.Message(text=text),
        level="note" if n.reason in QUIET_REASONS else "warning",
        descriptor=om.ReportingDescriptorReference(id=f"not-scanned/{n.reason}"),
        locations=[om.Location(physical_location=om.PhysicalLocation(
            artifact_location=om.ArtifactLocation(uri=uri(n.path), uri_base_id=SRCROOT)))],
        properties=props,
    )


def native_run(scan: ScanResult, rules: Iterable[Rule] | None = None, category: str = DEFAULT_CATEGORY) -> dict:
    rules = list(rules if rules is not None else catalog())
    index = {r.id: i for i, r in enumerate(rules)}
    # Our run holds every finding except those of engines that wrote their own run (Cisco's):
    # the integrity engine's findings are ours, and must not vanish from the SARIF.
    own_runs = {e.name for e in scan.engines if e.sarif_run is not None} | set(OWN_RUN_ENGINES)
    native = [f for f in scan.findings if f.engine not in own_runs]
    failed = [e for e in scan.engines if e.name not in own_runs and e.status == EngineStatus.FAILED]
    run = om.Run(
        tool=om.Tool(driver=om.ToolComponent(
            name=TOOL_NAME, version=__version__, semantic_version=__version__,
            information_uri=INFORMATION_URI, rules=[descriptor(r) for r in rules],
        )),
        automation_details=om.RunAutomationDetails(id=category.rstrip("/") + "/"),
        results=[result(f, index) for f in native],
        invocations=[om.Invocation(
            execution_successful=not failed,
            tool_execution_notifications=[notification(n) for n in scan.not_scanned] or None,
        )],
        column_kind="unicodeCodePoints",
        properties={"scanned-files": len(scan.scanned), "not-scanned-files": len(scan.not_scanned)},
    )
    return to_json(run)


def engine_run(scan: ScanResult, engine: str) -> dict | None:
    """The run of an opt-in engine of OWN_RUN_ENGINES, when it ran."""
    runs = [e for e in scan.engines if e.name == engine]
    if not runs:
        return None
    name, category = OWN_RUN_ENGINES[engine]
    findings = [f for f in scan.findings if f.engine == engine]
    used = {f.rule_id for f in findings}
    rules = [r for r in catalog() if r.id in used]
    index = {r.id: i for i, r in enumerate(rules)}
    run = om.Run(
        tool=om.Tool(driver=om.ToolComponent(
            name=name, version=__version__, semantic_version=__version__,
            information_uri=INFORMATION_URI, rules=[descriptor(r) for r in rules],
        )),
        automation_details=om.RunAutomationDetails(id=category + "/"),
        results=[result(f, index) for f in findings],
        invocations=[om.Invocation(
            execution_successful=all(e.status == EngineStatus.OK for e in runs),
            tool_execution_notifications=[om.Notification(message=om.Message(text=f"{e.name}: {e.status.value}: {e.detail}"),
                                                          level="note" if e.status == EngineStatus.OK else "warning")
                                          for e in runs] or None,
        )],
        column_kind="unicodeCodePoints",
    )
    return to_json(run)


def document(scan: ScanResult, category: str = DEFAULT_CATEGORY) -> dict:
    """The whole SARIF log: our run first, then the opt-in engines' runs, then runs other engines
    produced themselves."""
    runs = [native_run(scan, category=category)]
    runs.extend(r for r in (engine_run(scan, e) for e in OWN_RUN_ENGINES) if r is not None)
    runs.extend(e.sarif_run for e in scan.engines if e.sarif_run is not None)
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": runs}


_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(doc: dict) -> str:
    """The log as UTF-8-safe JSON: a lone surrogate (a file name byte that is not UTF-8, echoed
    in a message) is shown as <U+XXXX>, as inert.visible() shows it, so the log always encodes."""
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return _SURROGATE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)
