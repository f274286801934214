"""How much memory RE2 may keep for each pattern's automaton, as measured (scripts/measure_budgets.py).

RE2 keeps the states it builds for a pattern up to the pattern's budget, in every scanning
process. A budget changes no match, only memory and time: too small, and RE2 rebuilds states
(or falls back to a slower matcher); too large, and a pattern that met thousands of different
files keeps states no file needs again. The saved budgets are the smallest that cost no time
over the benign corpus; a pattern without an entry gets DEFAULT.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

DEFAULT = 64 << 20
PATH = Path(__file__).parent.parent / "data" / "pattern_budgets.json"


def key(pattern: str) -> str:
    return hashlib.sha256(pattern.encode("utf-8")).hexdigest()[:20]


@lru_cache(maxsize=1)
def _saved() -> dict[str, int]:
    return {k: int(v["mb"]) << 20 for k, v in _entries().items()}  # no table: every pattern gets DEFAULT


def _entries() -> dict[str, dict]:
    try:
        return json.loads(PATH.read_text(encoding="utf-8"))["entries"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def budget_for(pattern: str) -> int:
    return _saved().get(key(pattern), DEFAULT)


def saved_keys() -> frozenset[str]:
    return frozenset(_saved())


def _write(entries: dict[str, dict]) -> None:
    lines = [f" {json.dumps(k)}: {json.dumps(entries[k], ensure_ascii=False)}" for k in sorted(entries)]
    PATH.write_text('{"entries": {\n%s\n}}\n' % ",\n".join(lines), encoding="utf-8")  # one a line: reviewable diffs
    _saved.cache_clear()


def prune(live_patterns: set[str]) -> int:
    """Drop the entries of patterns not among live_patterns; how many were dropped."""
    entries = _entries()
    live = {key(p) for p in live_patterns}
    kept = {k: v for k, v in entries.items() if k in live}
    if len(kept) != len(entries):
        _write(kept)
    return len(entries) - len(kept)


def save(chosen: dict[str, int]) -> None:
    """Write {pattern: budget in bytes}; each entry keeps the pattern's start, for review."""
    _write({key(p): {"mb": b >> 20, "pattern": p[:80]} for p, b in chosen.items()})
