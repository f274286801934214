"""Policy: disabled rules, severity overrides, suppressions, and the fail decision.

Policy runs after the engines and before the reporters. Suppressed findings are kept (with
the suppression's reason) so reports can show them; they never count towards failure.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .agent_map import glob_to_regex
from .config import Config
from .matching import Regex
from .models import ScanResult, Severity


class ExactGlob:
    """A suppression's path glob, matched case-exactly: `demo/**` must not silence `Demo/CLAUDE.md`.
    (Finding agent files stays case-insensitive in the catalog; a policy glob never widens.)"""

    def __init__(self, glob: str) -> None:
        pattern = glob_to_regex(glob)
        if pattern.startswith("(?is)"):
            pattern = "(?s)" + pattern[len("(?is)"):]
        self._regex = Regex(pattern)

    def matches(self, path: str) -> bool:
        return self._regex.search(path.encode("utf-8", "surrogateescape")) is not None


@dataclass(frozen=True)
class Verdict:
    failed: bool
    highest: Severity | None
    counted: int  # findings that took part in the fail decision
    reason: str

    @property
    def label(self) -> str:
        return "fail" if self.failed else "pass"


def apply(result: ScanResult, config: Config, today: dt.date | None = None) -> ScanResult:
    today = today or dt.date.today()
    kept = [f for f in result.findings if f.rule_id not in config.disable]
    dropped = len(result.findings) - len(kept)
    if dropped:
        result.notes.append(f"{dropped} finding(s) of disabled rules were dropped by {config.source}")
    globs = [(s, ExactGlob(s.path)) for s in config.suppress]
    for s, _ in globs:
        if s.expired(today):
            result.notes.append(f"suppression of {s.rule} on {s.path} expired on {s.expires}; it no longer applies")
    for f in kept:
        override = config.severity.get(f.rule_id)
        if override is not None and override != f.severity:
            f.properties["original-severity"] = f.severity.label
            f.severity = override
        for s, g in globs:
            if s.expired(today):
                continue
            if s.rule in ("*", f.rule_id) and g.matches(f.path):
                f.suppressed_by = s.reason
                break
    result.findings = sorted(kept, key=lambda f: f.sort_key())
    return result


def decide(result: ScanResult, fail_on: Severity | None, new_only: bool = False) -> Verdict:
    # Advisory findings (an opt-in judge's verdicts) are shown, never counted, unless configured.
    active = [f for f in result.active_findings() if not f.properties.get("advisory")]
    if new_only:
        active = [f for f in active if f.new is not False]
    highest = max((f.severity for f in active), default=None)
    failed_engines = [e.name for e in result.engines if e.status.value == "failed" and e.blocking]
    if fail_on is None:
        return Verdict(False, highest, len(active), "fail-on is never")
    reaching = [f for f in active if f.severity >= fail_on]
    if reaching:
        return Verdict(True, highest, len(active), f"{len(reaching)} finding(s) at {fail_on.label} or above")
    if failed_engines:
        # A scan that did not run is not a clean scan.
        return Verdict(True, highest, len(active), f"engine failed: {', '.join(failed_engines)}")
    return Verdict(False, highest, len(active), f"no finding at {fail_on.label} or above")
