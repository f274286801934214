"""The rule catalog: every rule module's RULES, checked against their fixtures at load.

Add a module by listing it in RULE_MODULES; each module exposes `RULES: list[Rule]`.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from .base import Fixture, Hit, Rule, RuleFixtureError, rule, verify_rule

__all__ = ["Fixture", "Hit", "Rule", "RuleFixtureError", "rule", "catalog", "get_rule"]

RULE_MODULES: tuple[str, ...] = (
    "scanner.rules.engine_rules",
    "scanner.rules.unicode",
    "scanner.rules.scripts",
    "scanner.rules.rune",
    "scanner.rules.hidden",
    "scanner.rules.injection",
    "scanner.rules.exfil",
    "scanner.rules.prose_code",
    "scanner.rules.prose_packages",
    "scanner.rules.agent_config",
)


@lru_cache(maxsize=1)
def catalog() -> tuple[Rule, ...]:
    """All rules, sorted by id. Raises RuleFixtureError when any rule fails its fixtures."""
    rules: list[Rule] = []
    for name in RULE_MODULES:
        rules.extend(importlib.import_module(name).RULES)
    problems: list[str] = []
    seen: dict[str, Rule] = {}
    for r in rules:
        if r.id in seen:
            problems.append(f"duplicate rule id {r.id} ({seen[r.id].name} and {r.name})")
        seen[r.id] = r
        problems.extend(verify_rule(r))
    if problems:
        raise RuleFixtureError("rule catalog failed its own fixtures:\n  " + "\n  ".join(problems))
    return tuple(sorted(rules, key=lambda r: r.id))


@lru_cache(maxsize=None)
def _by_id() -> dict[str, Rule]:
    return {r.id: r for r in catalog()}


def get_rule(rule_id: str) -> Rule:
    return _by_id()[rule_id]
