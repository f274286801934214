"""`.rune/` agent state: the checks behind the IG8xx rules and the CLEAN/SUSPICIOUS/TAINTED report.

Agents such as Rune write `.rune/decisions.md` and `.rune/conventions.md` themselves and read
them back in the next session, so these files are a memory-poisoning target.
"""
from __future__ import annotations

import posixpath


def is_rune_path(path: str) -> bool:
    """A file inside a `.rune/` folder at any depth."""
    return "/.rune/" in "/" + path.replace("\\", "/").lower()


def basename(path: str) -> str:
    return posixpath.basename(path.replace("\\", "/")).lower()
