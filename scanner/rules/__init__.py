"""The rule catalog: every rule module's RULES, checked against their fixtures at load.

Add a module by listing it in RULE_MODULES; each module exposes `RULES: list[Rule]`.
"""
from __future__ import annotations

import hashlib
import importlib
import os
import sys
from functools import lru_cache
from pathlib import Path

from .base import Fixture, Hit, Rule, RuleFixtureError, rule, verify_rule

__all__ = ["Fixture", "Hit", "Rule", "RuleFixtureError", "rule", "catalog", "get_rule"]

RULE_MODULES: tuple[str, ...] = (
    "scanner.rules.engine_rules",
    "scanner.rules.unicode",
    "scanner.rules.scripts_facts",
    "scanner.rules.scripts_behaviour",
    "scanner.rules.scripts_tool_text",
    "scanner.rules.rune_state",
    "scanner.rules.hidden",
    "scanner.rules.hidden_carriers",
    "scanner.rules.injection",
    "scanner.rules.exfil",
    "scanner.rules.intent",
    "scanner.rules.prose_code",
    "scanner.rules.prose_packages",
    "scanner.rules.agent_config",
    "scanner.rules.judge_text",
    "scanner.rules.imports",
    "scanner.rules.remote_files",
    "scanner.rules.settings_keys",
    "scanner.rules.mcp_supply",
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
    marker = _verified_marker(rules)
    if not problems and not _exists(marker):
        for r in rules:
            problems.extend(verify_rule(r))
        if not problems and marker:
            _touch(marker)
    if problems:
        raise RuleFixtureError("rule catalog failed its own fixtures:\n  " + "\n  ".join(problems))
    return tuple(sorted(rules, key=lambda r: r.id))


def _verified_marker(rules: list[Rule]) -> Path | None:
    """A file whose existence records that exactly this code and these rules passed their fixtures.

    The key covers every source and data file of the package, the Python and matcher versions,
    and each rule's record (so a rule changed in memory is verified again). Verification runs
    again whenever any of them changes; INSTRUCTION_GUARD_VERIFY_FIXTURES=always skips the cache.
    """
    if os.environ.get("INSTRUCTION_GUARD_VERIFY_FIXTURES") == "always":
        return None
    base = os.environ.get("INSTRUCTION_GUARD_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "instruction-guard")
    h = hashlib.sha256(sys.version.encode())
    package = Path(__file__).resolve().parent.parent
    try:
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".yml", ".json", ".txt") and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(package)).encode())
                h.update(path.read_bytes())
        import re2
        import tree_sitter
        h.update(repr((getattr(re2, "__file__", ""), getattr(tree_sitter, "__version__", ""))).encode())
    except (OSError, ImportError):
        return None
    for r in rules:
        h.update(repr((r.id, r.severity, sorted(r.applies_to), r.fixture_path, r.check and r.check.__qualname__,
                       r.must_match, r.must_not_match, r.lowered)).encode("utf-8", "surrogatepass"))
    return Path(base) / f"fixtures-verified-{h.hexdigest()[:32]}"


def _exists(marker: Path | None) -> bool:
    try:
        return marker is not None and marker.exists()
    except OSError:  # e.g. a cache folder another user owns
        return False


def _touch(marker: Path) -> None:
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a read-only home only costs the verification again next time


@lru_cache(maxsize=None)
def _by_id() -> dict[str, Rule]:
    return {r.id: r for r in catalog()}


def get_rule(rule_id: str) -> Rule:
    return _by_id()[rule_id]
