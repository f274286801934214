"""The findings model every engine produces and every reporter consumes.

Data flows one way: targets -> engines -> findings -> policy -> reporters.
Nothing here touches the environment.
"""
from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.IntEnum):
    INFO = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    @classmethod
    def parse(cls, value: str) -> "Severity":
        try:
            return cls[value.strip().upper()]
        except KeyError:
            names = ", ".join(s.name.lower() for s in cls)
            raise ValueError(f"unknown severity {value!r}; use one of {names}") from None

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def sarif_level(self) -> str:
        return {4: "error", 3: "error", 2: "warning", 1: "note", 0: "note"}[int(self)]

    @property
    def security_severity(self) -> str:
        # GitHub maps >=9.0 critical, >=7.0 high, >=4.0 medium, >0.1 low.
        return {4: "9.5", 3: "8.0", 2: "5.5", 1: "3.0", 0: "0.5"}[int(self)]

    def lowered(self, steps: int = 1) -> "Severity":
        return Severity(max(int(self) - steps, 0))


class Confidence(enum.IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2

    @property
    def label(self) -> str:
        return self.name.lower()


class Category(str, enum.Enum):
    PROMPT_INJECTION = "prompt_injection"
    DATA_EXFILTRATION = "data_exfiltration"
    MALICIOUS_CODE = "malicious_code"
    HIDDEN_CONTENT = "hidden_content"
    UNSAFE_AGENT_CONFIG = "unsafe_agent_config"
    SUPPLY_CHAIN = "supply_chain"
    PROVENANCE = "provenance"
    INTEGRITY = "integrity"
    STATE_POISONING = "state_poisoning"


@dataclass(frozen=True)
class Span:
    """1-based lines, 1-based columns counted in characters; end_col is exclusive."""

    start_line: int
    start_col: int = 1
    end_line: int | None = None
    end_col: int | None = None


@dataclass
class Finding:
    rule_id: str
    title: str
    message: str
    severity: Severity
    confidence: Confidence
    category: Category
    path: str  # repository-relative, forward slashes
    span: Span
    excerpt: str = ""  # bounded, invisible characters already made visible
    engine: str = "native"
    fingerprint: str = ""
    # True: on a line the pull request touched; False: already there; None: no diff context.
    new: bool | None = None
    suppressed_by: str | None = None
    properties: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.fingerprint:
            self.fingerprint = fingerprint(self.rule_id, self.path, self.excerpt)

    @property
    def line(self) -> int:
        return self.span.start_line

    def sort_key(self) -> tuple:
        return (-int(self.severity), self.path, self.span.start_line, self.span.start_col, self.rule_id)


def fingerprint(rule_id: str, path: str, excerpt: str, occurrence: int = 0) -> str:
    """Stable across lines moving: rule, file and the matched text, not the line number."""
    normalized = " ".join(excerpt.split()).lower()
    h = hashlib.sha256(f"{rule_id}\0{path}\0{normalized}\0{occurrence}".encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:32]


@dataclass(frozen=True)
class NotScanned:
    path: str
    reason: str  # short machine-friendly reason, e.g. "too-large", "binary", "link-outside-tree"
    detail: str = ""
    sha256: str | None = None


@dataclass(frozen=True)
class ScannedFile:
    path: str
    sha256: str
    kind: str  # catalog kind: instruction, skill, rune, config, script, explicit, ...
    language: str | None = None
    size: int = 0


class EngineStatus(str, enum.Enum):
    OK = "ok"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass
class EngineRun:
    name: str
    status: EngineStatus
    version: str = ""
    detail: str = ""
    seconds: float = 0.0
    # A complete SARIF run object produced by the engine itself (e.g. Cisco's), merged as-is.
    sarif_run: dict[str, Any] | None = None
    # False for opt-in advisory engines (judge, VirusTotal): their not running is reported, and
    # fails the verdict only where the base configuration asks for it (strict).
    blocking: bool = True


@dataclass
class ScanResult:
    findings: list[Finding] = field(default_factory=list)
    not_scanned: list[NotScanned] = field(default_factory=list)
    scanned: list[ScannedFile] = field(default_factory=list)
    engines: list[EngineRun] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # run-level facts for summaries

    def extend(self, other: "ScanResult") -> None:
        self.findings.extend(other.findings)
        self.not_scanned.extend(other.not_scanned)
        self.scanned.extend(other.scanned)
        self.engines.extend(other.engines)
        self.notes.extend(other.notes)

    def active_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.suppressed_by is None]

    def highest(self) -> Severity | None:
        active = self.active_findings()
        return max((f.severity for f in active), default=None)
