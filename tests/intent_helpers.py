"""What the shape tests ask of a text: the instruction model's attacks, and a rule's top severity."""
from __future__ import annotations

from scanner.document import Document
from scanner.intent import classify, read_units
from scanner.models import Severity
from scanner.rules import get_rule


def attacks(text: str) -> set[tuple[str, str]]:
    return {(i.attack, i.strength) for i in classify(read_units(text))}


def top(rule_id: str, text: str, path: str = "CLAUDE.md") -> Severity | None:
    r = get_rule(rule_id)
    doc = Document(path, text)
    sevs = [h.severity or r.severity for h in r.check(doc)] if r.applies(doc) else []
    return max(sevs) if sevs else None
