"""VirusTotal hash lookup (opt-in): asks whether the sha256 of each bundled file of the skills in
scope is known to be malicious. Hash-only: this module has no code path that sends file content
(GET /files/{sha256} is the only request it makes). Public-API pacing and a daily budget are
kept; answers are cached by hash. A lookup that could not be made is "unchecked", never clean.
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the annotations' Session; imported where a request is made
    import requests

from ..config import Config, VirusTotalSettings
from ..models import (Category, Confidence, EngineRun, EngineStatus, Finding, NotScanned, ScanResult, Severity,
                      Span)
from ..targets import TargetSet
from .daily_cache import DailyCache

ENGINE = "virustotal"
MAX_READ = 64 * 1024 * 1024
CACHE_DAYS = 7


@dataclass
class Lookup:
    sha256: str
    verdict: str  # malicious, suspicious, harmless, unknown, unchecked
    stats: dict = field(default_factory=dict)
    detail: str = ""


def requested(config: Config) -> bool:
    return config.virustotal.enabled


def bundled_files(ts: TargetSet) -> list[tuple[str, str | None, bytes | None]]:
    """(path, known sha256, bytes) of every file of every skill folder in scope, targets and
    files that were not scanned as text (binaries, archives) alike."""
    roots = ts.skill_roots
    out: list[tuple[str, str | None, bytes | None]] = []
    seen: set[str] = set()

    def in_skill(path: str) -> bool:
        return any(path.startswith(r + "/") or (r == "" and "/" not in path) for r in roots)

    for t in ts.targets:
        if (t.skill_root is not None or in_skill(t.path)) and t.path not in seen:
            seen.add(t.path)
            data = t.blob
            if data is None:
                try:
                    with open(os.path.join(ts.root, t.path), "rb") as fh:
                        data = fh.read(MAX_READ + 1)
                except OSError:
                    data = None
            out.append((t.path, None, data if data is not None and len(data) <= MAX_READ else None))
    for n in ts.not_scanned:
        if in_skill(n.path) and n.path not in seen:
            seen.add(n.path)
            out.append((n.path, n.sha256, None))
    return out


class _Cache(DailyCache):
    def get(self, sha: str) -> Lookup | None:
        hit = self.entries.get(sha)
        if not isinstance(hit, dict) or time.time() - float(hit.get("at", 0)) > CACHE_DAYS * 86400:
            return None
        return Lookup(sha, str(hit.get("verdict")), dict(hit.get("stats") or {}), "cached")

    def put(self, lk: Lookup) -> None:
        if lk.verdict != "unchecked":
            self.entries[lk.sha256] = {"verdict": lk.verdict, "stats": lk.stats, "at": time.time()}


def _verdict(stats: dict) -> str:
    if int(stats.get("malicious") or 0) > 0:
        return "malicious"
    if int(stats.get("suspicious") or 0) > 0:
        return "suspicious"
    return "harmless"


def lookup(session: requests.Session, settings: VirusTotalSettings, sha: str) -> Lookup:
    import requests  # here, not at the top: it pulls in urllib3, ssl and http, which a scan without this engine never needs
    url = f"{settings.base_url.rstrip('/')}/files/{sha}"
    for attempt in range(2):
        try:
            resp = session.get(url, headers={"x-apikey": settings.api_key, "accept": "application/json"},
                               timeout=settings.timeout)
        except requests.RequestException as exc:
            if attempt:
                return Lookup(sha, "unchecked", detail=f"network: {type(exc).__name__}")
            continue
        if resp.status_code == 200:
            try:
                stats = resp.json()["data"]["attributes"]["last_analysis_stats"]
                stats = {k: int(v) for k, v in stats.items() if isinstance(v, (int, float))}
            except (ValueError, KeyError, TypeError):
                return Lookup(sha, "unchecked", detail="unreadable answer")
            return Lookup(sha, _verdict(stats), stats)
        if resp.status_code == 404:
            return Lookup(sha, "unknown")
        if resp.status_code >= 500 and not attempt:
            continue
        reason = {401: "key refused", 403: "forbidden", 429: "quota exceeded"}.get(resp.status_code, f"HTTP {resp.status_code}")
        return Lookup(sha, "unchecked", detail=reason)
    return Lookup(sha, "unchecked", detail="no answer")


_RULE_FOR = {"malicious": ("IG911", Severity.HIGH), "suspicious": ("IG912", Severity.MEDIUM),
             "unknown": ("IG913", Severity.INFO), "unchecked": ("IG914", Severity.LOW)}


def _finding(path: str, lk: Lookup) -> Finding:
    rid, sev = _RULE_FOR[lk.verdict]
    s = lk.stats
    engines = sum(int(v) for v in s.values()) if s else 0
    text = {
        "malicious": f"{path}: {s.get('malicious', 0)} of {engines} VirusTotal engines detect this file as malicious",
        "suspicious": f"{path}: {s.get('suspicious', 0)} of {engines} VirusTotal engines call this file suspicious",
        "unknown": f"{path}: unknown to VirusTotal (no analysis of this sha256)",
        "unchecked": f"{path}: not checked with VirusTotal ({lk.detail})",
    }[lk.verdict]
    return Finding(rule_id=rid, title="VirusTotal hash lookup", message=text, severity=sev, confidence=Confidence.HIGH,
                   category=Category.MALICIOUS_CODE, path=path, span=Span(1), excerpt=lk.sha256, engine=ENGINE,
                   properties={"sha256": lk.sha256, "virustotal": lk.verdict, "stats": dict(s),
                               "link": f"https://www.virustotal.com/gui/file/{lk.sha256}"})


def scan(ts: TargetSet, config: Config, session: requests.Session | None = None,
         sleep=time.sleep, clock=time.monotonic) -> ScanResult:
    import requests  # here, not at the top: it pulls in urllib3, ssl and http, which a scan without this engine never needs
    settings = config.virustotal
    result = ScanResult()
    started = clock()
    files = bundled_files(ts)
    if not settings.api_key:
        result.engines.append(EngineRun(ENGINE, EngineStatus.FAILED if settings.strict else EngineStatus.SKIPPED,
                                        detail=f"no API key in ${settings.key_env}: {len(files)} bundled file(s) not checked",
                                        blocking=settings.strict))
        result.findings.extend(_finding(p, Lookup(sha or "", "unchecked", detail="no API key")) for p, sha, _ in files)
        return result
    cache = _Cache(settings.cache_file)
    session = session or requests.Session()
    interval = 60.0 / settings.per_minute if settings.per_minute else 0.0
    last = None
    counts: dict[str, int] = {}
    asked = 0
    for path, sha, data in files:
        if sha is None and data is not None:
            sha = hashlib.sha256(data).hexdigest()
        if not sha:
            lk = Lookup("", "unchecked", detail="could not read the file")
        elif (hit := cache.get(sha)) is not None:
            lk = hit
        elif asked >= settings.scan_budget or cache.calls >= settings.daily_budget:
            lk = Lookup(sha, "unchecked", detail="lookup budget spent")
        else:
            if last is not None and interval:
                wait = interval - (clock() - last)
                if wait > 0:
                    sleep(wait)
            last = clock()
            lk = lookup(session, settings, sha)
            asked += 1
            cache.count_call()
            cache.put(lk)
        counts[lk.verdict] = counts.get(lk.verdict, 0) + 1
        if lk.verdict != "harmless":
            result.findings.append(_finding(path, lk))
    try:
        cache.save()
    except OSError as exc:
        result.notes.append(f"virustotal: cache not saved ({exc.strerror})")
    unchecked = counts.get("unchecked", 0)
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no bundled files in scope"
    result.engines.append(EngineRun(ENGINE, EngineStatus.FAILED if unchecked else EngineStatus.OK,
                                    detail=f"{len(files)} bundled file(s): {summary}; {asked} lookup(s)",
                                    seconds=clock() - started, blocking=settings.strict))
    return result
