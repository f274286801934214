"""`.rune/` agent state: the checks behind the IG8xx rules and the CLEAN/SUSPICIOUS/TAINTED report.

Agents such as Rune write `.rune/decisions.md` and `.rune/conventions.md` themselves and read
them back in the next session, so these files are a memory-poisoning target.
"""
from __future__ import annotations

import posixpath


def is_rune_path(path: str) -> bool:
    """A file inside a `.rune/` folder at any depth."""
    return "/.rune/" in "/" + path.replace("\\", "/").lower()


# Folders of notes an agent writes itself and reads back every session: Rune's `.rune/` and the
# Cline Memory Bank (`memory-bank/`, https://docs.cline.bot/features/memory-bank). The IG8xx
# memory-poisoning rules read both; the rune report and authorship check stay on `.rune/`.
MEMORY_FOLDERS = ("/.rune/", "/memory-bank/")


def is_memory_path(path: str) -> bool:
    """A file inside an agent-memory folder (`.rune/`, `memory-bank/`) at any depth."""
    p = "/" + path.replace("\\", "/").lower()
    return any(f in p for f in MEMORY_FOLDERS)


def basename(path: str) -> str:
    return posixpath.basename(path.replace("\\", "/")).lower()
