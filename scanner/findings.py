"""Findings about a file as a whole, for every stage that raises one (engines, event intake,
script admission, integrity): below the engines, so none of them imports another for it."""
from __future__ import annotations

from .models import Finding, Span
from .inert import visible
from .rules import get_rule

ENGINE = "native"  # the engine these findings are reported under


def file_finding(rule_id: str, path: str, message: str, excerpt: str = "", **props) -> Finding:
    """A finding about a file as a whole (a link leaving the tree, a binary in a skill)."""
    r = get_rule(rule_id)
    return Finding(
        rule_id=r.id, title=r.title, message=message, severity=r.severity, confidence=r.confidence,
        category=r.category, path=path, span=Span(1), excerpt=visible(excerpt), engine=ENGINE,
        properties=dict(props),
    )
