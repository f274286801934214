"""Cisco's SARIF run, merged into our document, and its results as our Findings.

The run keeps Cisco's results as it wrote them, augmented only where GitHub code scanning
needs it, and each augmentation is recorded in the run's properties:
- automationDetails.id of its own (GitHub rejects two runs with one tool and category);
- artifact URIs rebased from the staging slot (the skill folder) to the repository root;
- partialFingerprints where a result has only fingerprints (Cisco's are per skill-relative
  file, so the repository path is mixed in: the same finding in two skills stays two alerts);
- the tool's real version (its SARIF driver always says 1.0.0);
- one run for all skills (rules united and re-indexed) if it ever writes several.
"""
from __future__ import annotations

import copy
import hashlib
import os
import posixpath
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from ..models import Category, Confidence, Finding, NotScanned, Severity, Span, fingerprint
from ..inert import visible
from .cisco_stage import Staged, StagedSkill

ENGINE = "cisco-skill-scanner"
AUTOMATION_ID = "instruction-guard/cisco-skill-scanner/"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "ciscoFindingId/v1"
RULE_PREFIX = "cisco."
MAX_MESSAGE = 300

# Cisco's threat categories (skill_scanner.core.models.ThreatCategory) onto ours.
CATEGORY_MAP: dict[str, Category] = {
    "prompt_injection": Category.PROMPT_INJECTION,
    "social_engineering": Category.PROMPT_INJECTION,
    "harmful_content": Category.PROMPT_INJECTION,
    "command_injection": Category.MALICIOUS_CODE,
    "malware": Category.MALICIOUS_CODE,
    "resource_abuse": Category.MALICIOUS_CODE,
    "data_exfiltration": Category.DATA_EXFILTRATION,
    "hardcoded_secrets": Category.DATA_EXFILTRATION,
    "obfuscation": Category.HIDDEN_CONTENT,
    "unicode_steganography": Category.HIDDEN_CONTENT,
    "unauthorized_tool_use": Category.UNSAFE_AGENT_CONFIG,
    "autonomy_abuse": Category.UNSAFE_AGENT_CONFIG,
    "tool_chaining_abuse": Category.UNSAFE_AGENT_CONFIG,
    "skill_discovery_abuse": Category.UNSAFE_AGENT_CONFIG,
    "transitive_trust_abuse": Category.SUPPLY_CHAIN,
    "supply_chain_attack": Category.SUPPLY_CHAIN,
    "policy_violation": Category.PROVENANCE,
}
UNMAPPED_CATEGORY = Category.MALICIOUS_CODE
SEVERITY_MAP = {"CRITICAL": Severity.CRITICAL, "HIGH": Severity.HIGH, "MEDIUM": Severity.MEDIUM,
                "LOW": Severity.LOW, "INFO": Severity.INFO, "SAFE": Severity.INFO}
LEVEL_MAP = {"error": Severity.HIGH, "warning": Severity.MEDIUM, "note": Severity.LOW, "none": Severity.INFO}


@dataclass
class Coverage:
    """What Cisco's JSON report says about each staged skill."""

    notes: list[str] = field(default_factory=list)
    not_scanned: list[NotScanned] = field(default_factory=list)


def coverage(report: dict, staged: Staged) -> Coverage:
    """Every staged skill must be in the JSON report; a skill it skipped is reported as such."""
    cov = Coverage()
    results = report.get("results")
    if not isinstance(results, list):
        raise ValueError("JSON report has no results list")
    by_real = {os.path.realpath(os.path.join(staged.folder, s.slot)): s for s in staged.skills}
    seen: set[str] = set()
    for entry in results:
        if not isinstance(entry, dict):
            continue
        skill = by_real.get(os.path.realpath(str(entry.get("skill_path", ""))))
        if skill is None:
            continue
        seen.add(skill.slot)
        where = skill.root or "."
        loader = (entry.get("scan_metadata") or {}).get("loader") or {}
        if loader.get("content_scanned") is False:
            why = visible(str(loader.get("error") or "could not be loaded"), 200)
            cov.not_scanned.append(NotScanned(where, "cisco-skipped", f"Cisco's skill-scanner did not read this skill: {why}"))
            continue
        used = entry.get("analyzers_used") or []
        if "behavioral_analyzer" not in used:
            cov.notes.append(f"Cisco's skill-scanner ran without its behavioral analyzer on {where} (analyzers: {', '.join(map(str, used)) or 'none'})")
        for failure in entry.get("analyzers_failed") or []:
            if isinstance(failure, dict):
                cov.notes.append(visible(f"Cisco's {failure.get('analyzer', '?')} analyzer failed on {where}: {failure.get('error', '')}", 300))
    missing = [s.root or "." for s in staged.skills if s.slot not in seen]
    if missing:
        raise ValueError(f"reported on {len(seen)} of {len(staged.skills)} skill(s); not on {', '.join(missing)}")
    return cov


class _Rebaser:
    """Maps Cisco's URIs (`<slot>/<path in skill>`, relative to the staging folder) to ours."""

    def __init__(self, staged: Staged) -> None:
        self.staged = staged
        self.slots = staged.by_slot()
        self.rebased = 0
        self.redirected = 0

    def skill_and_path(self, uri: str) -> tuple[StagedSkill, str, bool]:
        """(skill, repository path, exact): exact is False when the URI names no staged file."""
        parts = urlsplit(uri)
        if parts.scheme == "file":
            path = os.path.relpath(unquote(parts.path), self.staged.folder).replace(os.sep, "/")
        elif parts.scheme:
            raise ValueError(f"result URI {visible(uri, 120)!r} is not a file")
        else:
            path = unquote(uri)
        path = posixpath.normpath(path)
        slot, _, rel = path.partition("/")
        skill = self.slots.get(slot)
        if skill is None:
            raise ValueError(f"result URI {visible(uri, 120)!r} lies outside the skills given to it")
        if rel in skill.files:
            return skill, skill.files[rel], True
        return skill, skill.manifest or skill.repo_path("SKILL.md"), False

    def rebase(self, location: Any, result: dict | None = None) -> None:
        if not isinstance(location, dict):
            return
        art = (location.get("physicalLocation") or {}).get("artifactLocation") if "physicalLocation" in location else location
        if not isinstance(art, dict) or not isinstance(art.get("uri"), str):
            return
        _, repo_path, exact = self.skill_and_path(art["uri"])
        if not exact:
            # e.g. SKILL_LOAD_FAILED names "<skill>/<skill name>": point at the skill's manifest.
            self.redirected += 1
            if result is not None:
                result.setdefault("properties", {})["instructionGuard/originalUri"] = art["uri"]
        art["uri"] = quote(repo_path, safe="/")
        art["uriBaseId"] = SRCROOT
        art.pop("index", None)
        self.rebased += 1


def _partial_fingerprint(fingerprints: dict, uri: str) -> str:
    joined = "\n".join(f"{k}={v}" for k, v in sorted(fingerprints.items()))
    return hashlib.sha256(f"{joined}\0{uri}".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _result_uri(result: dict) -> str:
    for loc in result.get("locations") or []:
        uri = ((loc or {}).get("physicalLocation") or {}).get("artifactLocation", {}).get("uri")
        if isinstance(uri, str):
            return uri
    return ""


def merge(sarif: dict, staged: Staged, version: str, found_via: str, network: str) -> dict:
    """One SARIF run for all of Cisco's runs, rebased and tagged; ValueError if there is none."""
    runs = sarif.get("runs")
    if not isinstance(runs, list) or not runs:
        raise ValueError("SARIF report holds no run (empty run)")
    for i, run in enumerate(runs):
        if not (isinstance(run, dict) and isinstance((run.get("tool") or {}).get("driver"), dict)
                and isinstance(run.get("results", []), list)):
            raise ValueError(f"SARIF run {i} has no tool.driver or no results list")
    runs = copy.deepcopy(runs)
    rebaser = _Rebaser(staged)
    driver = runs[0]["tool"]["driver"]
    written_version = driver.get("version")
    rules: list[dict] = []
    rule_at: dict[str, int] = {}
    results: list[dict] = []
    invocations: list[dict] = []
    added_fingerprints = 0
    for run in runs:
        old_rules = run["tool"]["driver"].get("rules") or []
        remap: dict[int, int] = {}
        for i, rule in enumerate(old_rules):
            rid = rule.get("id") if isinstance(rule, dict) else None
            if rid is None:
                continue
            if rid not in rule_at:
                rule_at[rid] = len(rules)
                rules.append(rule)
            remap[i] = rule_at[rid]
        for res in run.get("results") or []:
            if not isinstance(res, dict):
                continue
            if isinstance(res.get("ruleIndex"), int) and res["ruleIndex"] in remap:
                res["ruleIndex"] = remap[res["ruleIndex"]]
            for loc in res.get("locations") or []:
                rebaser.rebase(loc, res)
            for loc in res.get("relatedLocations") or []:
                rebaser.rebase(loc)
            if isinstance(res.get("fingerprints"), dict) and res["fingerprints"] and not res.get("partialFingerprints"):
                res["partialFingerprints"] = {FINGERPRINT_KEY: _partial_fingerprint(res["fingerprints"], _result_uri(res))}
                added_fingerprints += 1
            results.append(res)
        invocations.extend(inv for inv in run.get("invocations") or [] if isinstance(inv, dict))
        for art in run.get("artifacts") or []:
            if isinstance(art, dict):
                rebaser.rebase(art.get("location"))
    merged = runs[0]
    driver["rules"] = rules
    driver["version"] = version
    merged["results"] = results
    if invocations:
        merged["invocations"] = invocations
    if len(runs) > 1:
        merged["artifacts"] = [a for run in runs for a in run.get("artifacts") or []] or merged.get("artifacts")
        if merged["artifacts"] is None:
            merged.pop("artifacts")
    original_id = (merged.get("automationDetails") or {}).get("id")
    merged["automationDetails"] = {"id": AUTOMATION_ID}
    augmented = {
        "automationDetails.id": {"set": AUTOMATION_ID, "written": original_id},
        "tool.driver.version": {"set": version, "written": written_version},
        "artifactLocation.uri": {"rebased": rebaser.rebased, "from": "skill folder (staging slot)", "to": "repository root",
                                 "redirectedToSkillManifest": rebaser.redirected},
        "partialFingerprints": {"added": added_fingerprints, "key": FINGERPRINT_KEY, "from": "fingerprints + repository path"},
        "runs": {"merged": len(runs)},
    }
    props = merged.get("properties") if isinstance(merged.get("properties"), dict) else {}
    props["instructionGuard"] = {
        "engine": ENGINE, "augmentations": augmented, "executable": found_via, "network": network,
        "skills": [s.root or "." for s in staged.skills],
    }
    merged["properties"] = props
    return merged


def _message(res: dict) -> str:
    msg = res.get("message") or {}
    text = msg.get("text") or msg.get("markdown") or msg.get("id") or ""
    return visible(str(text), MAX_MESSAGE)


def _severity(res: dict, rule: dict) -> Severity:
    for bag in (res.get("properties") or {}, rule.get("properties") or {}):
        value = str(bag.get("severity", "")).upper()
        if value in SEVERITY_MAP:
            return SEVERITY_MAP[value]
    level = res.get("level") or (rule.get("defaultConfiguration") or {}).get("level") or "warning"
    return LEVEL_MAP.get(str(level), Severity.MEDIUM)


def _span(region: dict) -> Span:
    ints = {k: region.get(k) for k in ("startLine", "startColumn", "endLine", "endColumn")}
    ok = {k: v for k, v in ints.items() if isinstance(v, int) and v >= 1}
    start = ok.get("startLine", 1)
    return Span(start, ok.get("startColumn", 1), ok.get("endLine"), ok.get("endColumn"))


def translate(run: dict, staged: Staged) -> list[Finding]:
    """Our Findings for Cisco's results (merged run, repository URIs), for every other consumer."""
    rules = run["tool"]["driver"].get("rules") or []
    by_id = {r.get("id"): r for r in rules if isinstance(r, dict)}
    changed = {path: lines for s in staged.skills for path, lines in s.changed.items()}
    findings: list[Finding] = []
    for res in run.get("results") or []:
        rid = res.get("ruleId")
        if rid is None and isinstance(res.get("ruleIndex"), int) and 0 <= res["ruleIndex"] < len(rules):
            rid = rules[res["ruleIndex"]].get("id")
        rid = str(rid or "unknown")
        rule = by_id.get(rid, {})
        loc = ((res.get("locations") or [{}])[0] or {}).get("physicalLocation") or {}
        path = unquote(str((loc.get("artifactLocation") or {}).get("uri", "")))
        region = loc.get("region") or {}
        span = _span(region)
        snippet = str((region.get("snippet") or {}).get("text") or "")
        cisco_category = str((res.get("properties") or {}).get("category") or (rule.get("properties") or {}).get("category") or "")
        title = str((rule.get("shortDescription") or {}).get("text") or rid.replace("_", " ").capitalize())
        excerpt = visible(snippet)
        rule_id = RULE_PREFIX + rid
        props: dict[str, Any] = {"file-kind": "skill", "cisco-rule-id": rid, "cisco-category": cisco_category or None,
                                 "cisco-severity": (res.get("properties") or {}).get("severity")}
        for key in ("aitech", "aisubtech"):
            if (res.get("properties") or {}).get(key):
                props[key] = res["properties"][key]
        identity = "\n".join(f"{k}={v}" for k, v in sorted((res.get("fingerprints") or {}).items()))
        f = Finding(
            rule_id=rule_id, title=visible(title, MAX_MESSAGE), message=_message(res) or title,
            severity=_severity(res, rule), confidence=Confidence.MEDIUM,
            category=CATEGORY_MAP.get(cisco_category, UNMAPPED_CATEGORY), path=path, span=span,
            excerpt=excerpt, engine=ENGINE, fingerprint=fingerprint(rule_id, path, excerpt + "\0" + identity),
            properties={k: v for k, v in props.items() if v is not None},
        )
        suppressions = res.get("suppressions") or []
        if suppressions and isinstance(suppressions[0], dict):
            f.suppressed_by = visible("Cisco skill-scanner policy: " + str(suppressions[0].get("justification") or "suppressed"), MAX_MESSAGE)
        lines = changed.get(path)
        if path in changed and lines is not None:
            end = span.end_line or span.start_line
            # A finding about the whole file (no region) is new when any line of it changed.
            f.new = bool(lines) if "startLine" not in region else any(n in lines for n in range(span.start_line, end + 1))
        findings.append(f)
    return findings
