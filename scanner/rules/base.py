"""The rule record: one declarative entry with id, metadata, matcher and fixtures.

A rule proves itself: every `must_match` fixture must draw at least one hit at the rule's
severity or above, every `must_not_match` fixture must draw none at all, and every `lowered`
fixture must draw hits only below the rule's severity (context lowers, never hides).
The registry checks this when the catalog is loaded, so a rule that disagrees with its own
fixtures fails every consumer at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from ..document import Document
from ..models import Category, Confidence, Severity


@dataclass(frozen=True)
class Hit:
    """One match of a rule in a document, as character offsets into Document.text."""

    start: int
    end: int
    message: str | None = None  # defaults to the rule's title
    severity: Severity | None = None  # context may lower (or, rarely, raise) the rule's severity
    confidence: Confidence | None = None
    excerpt: str | None = None  # e.g. decoded hidden text; made inert by the engine
    properties: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Fixture:
    text: str
    path: str = ""  # file name the fixture is scanned as; "" means the rule's fixture_path


def _fixtures(items: Iterable[str | Fixture]) -> tuple[Fixture, ...]:
    return tuple(i if isinstance(i, Fixture) else Fixture(i) for i in items)


@dataclass(frozen=True)
class Rule:
    id: str  # stable, e.g. "IG101"
    name: str  # kebab-case, e.g. "tag-block-smuggling"
    title: str
    category: Category
    severity: Severity
    confidence: Confidence
    rationale: str
    remediation: str
    # None for rules raised by an engine from facts other than a file's text (provenance,
    # integrity); those are proven by their engine's tests instead of text fixtures.
    check: Callable[[Document], Iterable[Hit]] | None
    # Document kinds ("prose", "config", "script", "other") or languages ("python", "shell",
    # "markdown", "json", ...) the rule reads; "any" for all.
    applies_to: frozenset[str]
    must_match: tuple[Fixture, ...]
    must_not_match: tuple[Fixture, ...]
    lowered: tuple[Fixture, ...] = ()
    fixture_path: str = "CLAUDE.md"
    tags: tuple[str, ...] = ()
    references: tuple[str, ...] = ()

    def applies(self, doc: Document) -> bool:
        if self.check is None:
            return False
        return "any" in self.applies_to or doc.kind in self.applies_to or doc.language in self.applies_to


def rule(
    *,
    id: str,
    name: str,
    title: str,
    category: Category,
    severity: Severity,
    confidence: Confidence,
    rationale: str,
    remediation: str,
    check: Callable[[Document], Iterable[Hit]] | None,
    applies_to: Iterable[str] = ("prose",),
    must_match: Iterable[str | Fixture] = (),
    must_not_match: Iterable[str | Fixture] = (),
    lowered: Iterable[str | Fixture] = (),
    fixture_path: str = "CLAUDE.md",
    tags: Iterable[str] = (),
    references: Iterable[str] = (),
) -> Rule:
    """Build a Rule record; keyword-only so each table entry reads as a declaration."""
    return Rule(
        id=id, name=name, title=title, category=category, severity=severity, confidence=confidence,
        rationale=rationale, remediation=remediation, check=check, applies_to=frozenset(applies_to),
        must_match=_fixtures(must_match), must_not_match=_fixtures(must_not_match),
        lowered=_fixtures(lowered), fixture_path=fixture_path, tags=tuple(tags),
        references=tuple(references),
    )


class RuleFixtureError(RuntimeError):
    """A rule disagrees with its own fixtures (or the table is malformed)."""


def fixture_document(r: Rule, fx: Fixture) -> Document:
    return Document(fx.path or r.fixture_path, fx.text)


def run_rule(r: Rule, doc: Document) -> list[Hit]:
    return list(r.check(doc)) if r.check is not None else []


def verify_rule(r: Rule) -> list[str]:
    """Return the disagreements between a rule and its fixtures (empty when it proves itself)."""
    problems: list[str] = []
    if r.check is None:
        return problems
    if len(r.must_match) < 1:
        problems.append(f"{r.id}: needs at least one must_match fixture")
    if len(r.must_not_match) < 3:
        problems.append(f"{r.id}: needs at least three must_not_match fixtures")
    for fx in r.must_match:
        doc = fixture_document(r, fx)
        if not r.applies(doc):
            problems.append(f"{r.id}: must_match fixture path {doc.path!r} is a {doc.kind}/{doc.language} file the rule does not read")
            continue
        hits = run_rule(r, doc)
        if not any((h.severity if h.severity is not None else r.severity) >= r.severity for h in hits):
            problems.append(f"{r.id}: must_match fixture drew no hit at {r.severity.label}: {fx.text[:80]!r}")
    for fx in r.must_not_match:
        doc = fixture_document(r, fx)
        hits = run_rule(r, doc) if r.applies(doc) else []
        if hits:
            problems.append(f"{r.id}: must_not_match fixture drew {len(hits)} hit(s): {fx.text[:80]!r}")
    for fx in r.lowered:
        doc = fixture_document(r, fx)
        hits = run_rule(r, doc)
        if not hits:
            problems.append(f"{r.id}: lowered fixture drew no hit (context must lower, never hide): {fx.text[:80]!r}")
        elif any((h.severity if h.severity is not None else r.severity) >= r.severity for h in hits):
            problems.append(f"{r.id}: lowered fixture was not lowered below {r.severity.label}: {fx.text[:80]!r}")
    return problems
