"""Derivations from our own rule patterns, computed ahead of time and saved with the package.

The word prefilter's conditions (prefilter.py) and the gates' relaxed patterns (relax.py) depend
only on a pattern and on the module that derives them. Deriving them all parses every pattern
with the stdlib's regex parser, a cost every start would pay; loading them costs far less. Each file records the hash of the deriving module's source: a changed
derivation ignores the file, an entry missing from it is derived at load, and the tests fail while
a file is stale (scripts/refresh_derivations.py rewrites both).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable

DATA = Path(__file__).parent.parent / "data"  # scanner/data


def source_key(module_file: str) -> str:
    return hashlib.sha256(Path(module_file).read_bytes()).hexdigest()


def load(path: Path, module_file: str, decode: Callable[[Any], Any] = lambda v: v) -> dict[str, Any]:
    """{key: decoded value} saved for this module's derivation; {} when absent, unreadable or stale."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("derivation") != source_key(module_file):
            return {}
        return {k: decode(v) for k, v in data["entries"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def save(path: Path, module_file: str, entries: dict[str, Any]) -> int:
    lines = [f" {json.dumps(k)}: {json.dumps(entries[k], separators=(',', ':'))}" for k in sorted(entries)]
    text = '{"derivation": "%s", "entries": {\n%s\n}}\n' % (source_key(module_file), ",\n".join(lines))
    path.write_text(text, encoding="utf-8")  # one entry a line: reviewable diffs
    return len(entries)
