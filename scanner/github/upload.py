"""Uploading SARIF to code scanning within GitHub's limits, then waiting for it to be processed.

GitHub rejects (or silently trims) uploads past its limits, so the log is fitted first and every
cut is said out loud: in the run's properties (`instructionGuard/cuts`) and in the outcome.
Limits: https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning
"""
from __future__ import annotations

import base64
import gzip
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .api import APIError, GitHubAPI

MAX_GZIP_BYTES = 10 * 1024 * 1024
MAX_RUNS = 20
MAX_RESULTS_PER_RUN = 25_000
MAX_LOCATIONS_PER_RESULT = 1_000
MAX_TAGS_PER_RULE = 20
MAX_EXTENSIONS_PER_RUN = 100
CUTS_KEY = "instructionGuard/cuts"

_SHA = re.compile(r"^[0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?$")
_REF = re.compile(r"^refs/(heads|tags|pull)/.+$")
_LEVEL_RANK = {"error": 8.0, "warning": 5.5, "note": 3.0, "none": 0.0}


@dataclass
class PreparedSarif:
    doc: dict
    payload: str  # gzip, then base64: what the API takes
    raw_bytes: int
    gzip_bytes: int
    results_total: int
    results_kept: int
    cuts: list[str] = field(default_factory=list)  # what was changed or dropped, for people
    too_large: bool = False


def result_rank(res: dict) -> float:
    """How severe a result is: its security-severity, else its level."""
    props = res.get("properties") if isinstance(res.get("properties"), dict) else {}
    try:
        return float(props.get("security-severity"))
    except (TypeError, ValueError):
        return _LEVEL_RANK.get(str(res.get("level") or "warning"), 5.5)


def _severity_name(rank: float) -> str:
    return "critical" if rank >= 9 else "high" if rank >= 7 else "medium" if rank >= 4 else "low" if rank > 0.1 else "info"


def _cut_results(run: dict, keep: int, why: str) -> str | None:
    results = run.get("results") or []
    if len(results) <= keep:
        return None
    order = sorted(range(len(results)), key=lambda i: (-result_rank(results[i]), i))
    kept_idx = sorted(order[:keep])
    dropped: dict[str, int] = {}
    for i in order[keep:]:
        props = results[i].get("properties") if isinstance(results[i].get("properties"), dict) else {}
        name = props.get("severity") if props.get("severity") in _LEVEL_ORDER else _severity_name(result_rank(results[i]))
        dropped[name] = dropped.get(name, 0) + 1
    run["results"] = [results[i] for i in kept_idx]
    _record_cut(run, {"reason": why, "resultsBefore": len(results), "resultsKept": keep, "droppedBySeverity": dropped})
    counts = ", ".join(f"{n} {s}" for s, n in sorted(dropped.items(), key=lambda kv: -_LEVEL_ORDER[kv[0]]))
    return f"{_tool(run)}: kept the {keep} most severe of {len(results)} results ({why}); dropped {counts}"


_LEVEL_ORDER = {"critical": 4, "high": 3, "medium": 2, "low": 1, "info": 0}


def _record_cut(run: dict, record: dict) -> None:
    """Append to the run's cut list without touching the caller's (shared) property dicts."""
    props = dict(run.get("properties") or {}) if isinstance(run.get("properties"), dict) else {}
    props[CUTS_KEY] = [*props.get(CUTS_KEY, []), record]
    run["properties"] = props


def _tool(run: dict) -> str:
    try:
        return str(run["tool"]["driver"]["name"])
    except (KeyError, TypeError):
        return "unnamed tool"


def _category(run: dict) -> str:
    details = run.get("automationDetails")
    return str(details.get("id") or "") if isinstance(details, dict) else ""


def _fix_categories(runs: list[dict]) -> list[str]:
    """GitHub refuses two runs with the same tool and category: give repeats their own category."""
    notes = []
    seen: set[tuple[str, str]] = set()
    for i, run in enumerate(runs):
        tool, cat = _tool(run), _category(run)
        key = (tool, cat)
        if key in seen:
            base = (cat.rstrip("/") or tool.lower().replace(" ", "-"))
            n = 2
            while (tool, f"{base}-{n}/") in seen:
                n += 1
            new = f"{base}-{n}/"
            run["automationDetails"] = {**(run.get("automationDetails") or {}), "id": new}
            _record_cut(run, {"reason": "duplicate tool and category", "categoryBefore": cat, "categoryAfter": new})
            notes.append(f"run {i + 1} ({tool}) repeated category {cat or '(none)'!r}; uploaded as {new!r}")
            key = (tool, new)
        seen.add(key)
    return notes


def _cap_tool(run: dict) -> list[str]:
    """At most 20 tags a rule and 100 tool extensions (copies only what changes)."""
    tool = run.get("tool")
    if not isinstance(tool, dict):
        return []
    cut_tags = 0

    def component(comp):
        nonlocal cut_tags
        rules = comp.get("rules") if isinstance(comp, dict) else None
        if not isinstance(rules, list):
            return comp
        new_rules = []
        for r in rules:
            props = r.get("properties") if isinstance(r, dict) else None
            tags = props.get("tags") if isinstance(props, dict) else None
            if isinstance(tags, list) and len(tags) > MAX_TAGS_PER_RULE:
                r = {**r, "properties": {**props, "tags": tags[:MAX_TAGS_PER_RULE]}}
                cut_tags += 1
            new_rules.append(r)
        return {**comp, "rules": new_rules}

    notes = []
    tool = {**tool, "driver": component(tool.get("driver"))}
    extensions = tool.get("extensions")
    if isinstance(extensions, list):
        if len(extensions) > MAX_EXTENSIONS_PER_RUN:
            notes.append(f"{_tool(run)}: dropped {len(extensions) - MAX_EXTENSIONS_PER_RUN} tool extension(s) beyond {MAX_EXTENSIONS_PER_RUN}")
        tool["extensions"] = [component(e) for e in extensions[:MAX_EXTENSIONS_PER_RUN]]
    run["tool"] = tool
    if cut_tags:
        notes.append(f"{_tool(run)}: {cut_tags} rule(s) cut to {MAX_TAGS_PER_RULE} tags")
    return notes


def _encode(doc: dict) -> tuple[int, bytes]:
    raw = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return len(raw), gzip.compress(raw, compresslevel=6, mtime=0)


def prepare(doc: dict, *, max_gzip: int | None = None, max_results: int | None = None) -> PreparedSarif:
    """A copy of `doc` that fits GitHub's limits, encoded for the API, with every cut named."""
    max_gzip = MAX_GZIP_BYTES if max_gzip is None else max_gzip
    max_results = MAX_RESULTS_PER_RUN if max_results is None else max_results
    # Copy only the containers a cut replaces (runs, result lists, cut results): the caller's
    # log, already written to disk, stays whole, and large logs are not deep-copied.
    doc = dict(doc)
    runs = [dict(r) for r in doc.get("runs") or [] if isinstance(r, dict)] if isinstance(doc.get("runs"), list) else []
    for run in runs:
        run["results"] = [r for r in run.get("results") or [] if isinstance(r, dict)] if isinstance(run.get("results"), list) else []
    doc["runs"] = runs
    cuts: list[str] = []
    total = sum(len(r.get("results") or []) for r in runs)
    if len(runs) > MAX_RUNS:
        cuts.append(f"dropped {len(runs) - MAX_RUNS} run(s) beyond GitHub's {MAX_RUNS}: "
                    + ", ".join(_tool(r) for r in runs[MAX_RUNS:]))
        del runs[MAX_RUNS:]
    cuts.extend(_fix_categories(runs))
    for run in runs:
        cuts.extend(_cap_tool(run))
        cut_locations = 0
        results = run["results"]
        for i, res in enumerate(results):
            for key in ("locations", "relatedLocations"):
                locs = res.get(key)
                if isinstance(locs, list) and len(locs) > MAX_LOCATIONS_PER_RESULT:
                    cut_locations += 1
                    res = results[i] = {**res, key: locs[:MAX_LOCATIONS_PER_RESULT]}
        if cut_locations:
            cuts.append(f"{_tool(run)}: {cut_locations} result(s) cut to {MAX_LOCATIONS_PER_RESULT} locations")
        note = _cut_results(run, max_results, f"GitHub keeps at most {max_results} results a run")
        if note:
            cuts.append(note)
    raw_len, packed = _encode(doc)
    # Still too big: keep a shrinking share of the most severe results of every run.
    for _ in range(12):
        if len(packed) <= max_gzip:
            break
        share = max_gzip / len(packed) * 0.9
        changed = False
        for run in runs:
            n = len(run.get("results") or [])
            if n:
                note = _cut_results(run, int(n * share), f"the upload must be at most {max_gzip // (1024 * 1024)} MB after gzip")
                changed = changed or note is not None
                if note:
                    cuts.append(note)
        if not changed:
            break
        raw_len, packed = _encode(doc)
    kept = sum(len(r.get("results") or []) for r in runs)
    return PreparedSarif(doc, base64.b64encode(packed).decode("ascii"), raw_len, len(packed), total, kept, cuts,
                         too_large=len(packed) > max_gzip)


@dataclass
class UploadResult:
    status: str  # ok | failed
    detail: str
    sarif_id: str = ""
    processing_status: str = ""  # pending | complete | failed | ""
    errors: list[str] = field(default_factory=list)
    prepared: PreparedSarif | None = None


def valid_target(commit_sha: str, ref: str) -> str | None:
    """Why GitHub would refuse this commit/ref, or None."""
    if not _SHA.match(commit_sha or ""):
        return f"commit_sha {commit_sha!r} is not a full commit SHA"
    if not _REF.match(ref or ""):
        return f"ref {ref!r} is not refs/heads/…, refs/tags/… or refs/pull/N/merge|head"
    return None


def upload(api: GitHubAPI, repository: str, prepared: PreparedSarif, *, commit_sha: str, ref: str,
           checkout_uri: str | None, tool_name: str, poll_seconds: float, poll_interval: float,
           sleep) -> UploadResult:
    """POST the prepared log, then poll its processing status for at most `poll_seconds`.

    Raises APIError for the POST; a failure while polling is reported, not raised (the upload
    itself was accepted).

    Raw requests (api.GitHubAPI), not PyGithub: PyGithub has no call for
    `POST /repos/{owner}/{repo}/code-scanning/sarifs` nor `GET .../code-scanning/sarifs/{sarif_id}`.
    """
    body: dict[str, Any] = {"commit_sha": commit_sha, "ref": ref, "sarif": prepared.payload, "tool_name": tool_name}
    if checkout_uri:
        body["checkout_uri"] = checkout_uri
    receipt = api.request("POST", f"/repos/{repository}/code-scanning/sarifs", json=body) or {}
    sarif_id = str(receipt.get("id") or "") if isinstance(receipt, dict) else ""
    size = f"{prepared.gzip_bytes / 1024:.0f} KiB gzip, {prepared.results_kept} result(s)"
    if not sarif_id:
        return UploadResult("ok", f"uploaded ({size}); GitHub returned no upload id to follow", prepared=prepared)
    waited = 0.0
    state, errors = "pending", []
    while True:
        try:
            status = api.request("GET", f"/repos/{repository}/code-scanning/sarifs/{sarif_id}") or {}
        except APIError as exc:
            if exc.status != 404:  # 404: the upload is not visible yet
                return UploadResult("ok", f"uploaded as {sarif_id} ({size}); processing status unknown: {exc.message}",
                                    sarif_id, "", prepared=prepared)
            status = {}
        state = str(status.get("processing_status") or "pending") if isinstance(status, dict) else "pending"
        errors = [str(e)[:300] for e in (status.get("errors") or [])][:10] if isinstance(status, dict) else []
        if state != "pending" or waited >= poll_seconds:
            break
        sleep(poll_interval)
        waited += poll_interval
    if state == "complete":
        return UploadResult("ok", f"uploaded as {sarif_id} ({size}); processing complete", sarif_id, state, errors, prepared)
    if state == "failed":
        return UploadResult("failed", f"uploaded as {sarif_id} but processing failed: " + "; ".join(errors or ["no reason given"]),
                            sarif_id, state, errors, prepared)
    return UploadResult("ok", f"uploaded as {sarif_id} ({size}); still processing after {poll_seconds:.0f} s",
                        sarif_id, state, errors, prepared)
