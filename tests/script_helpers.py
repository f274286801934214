"""Shared helpers for the bundled-script tests: scan one script text with the real catalog."""
from __future__ import annotations

from scanner.document import Document
from scanner.engines.native import scan_document
from scanner.models import Severity
from scanner.rules import catalog


def scan(path: str, text: str, context: dict | None = None):
    doc = Document(path, text)
    if context:
        doc.context = context
    return [f for f in scan_document(doc, catalog(), "skill") if f.rule_id.startswith("IG7")]


def top(path: str, text: str, rule_id: str, context: dict | None = None) -> Severity | None:
    """Highest severity the rule draws on the text, or None when it stays quiet."""
    found = [f.severity for f in scan(path, text, context) if f.rule_id == rule_id]
    return max(found) if found else None


def script_rules(path: str, text: str) -> set[str]:
    return {f.rule_id for f in scan(path, text)}
