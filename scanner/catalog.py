"""Which paths are agent files: the data in data/agent_files.yml plus skill folders.

A skill folder is any folder holding a SKILL.md; every file inside it is a skill file.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterable

import yaml

from .matching import Regex, RegexSet


def glob_to_regex(glob: str) -> str:
    """Translate a path glob (`**`, `*`, `?`, `[...]`-free) to an anchored RE2 pattern."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            ch = glob[i]
            out.append("\\" + ch if not ch.isalnum() and ch != "/" else ch)
            i += 1
    return "(?is)^" + "".join(out) + "$"


def match_bytes(path: str) -> bytes:
    """The path as RE2 matches it: UTF-8, with each byte that is not UTF-8 (a surrogate escape
    from os.fsdecode) as '?', so that `*` and `**` still match across it (RE2's `.` does not
    match invalid UTF-8) and no glob can match it literally."""
    return path.encode("utf-8", "replace")


class GlobSet:
    """A set of globs matched in one linear-time pass."""

    def __init__(self, globs: Iterable[str]) -> None:
        self.globs = tuple(globs)
        # glob_to_regex gives "(?is)^...$"; strip the flags to join the alternatives under one.
        alternatives = "|".join(f"(?:{glob_to_regex(g)[len('(?is)'):]})" for g in self.globs)
        self._regex = Regex("(?is)" + alternatives) if self.globs else None

    def matches(self, path: str) -> bool:
        return bool(self._regex and self._regex.search(match_bytes(path)))


@dataclass(frozen=True)
class Entry:
    glob: str
    kind: str
    agent: str
    regex: Regex


@lru_cache(maxsize=1)
def builtin_entries() -> tuple[Entry, ...]:
    raw = yaml.safe_load(resources.files("scanner").joinpath("data/agent_files.yml").read_text("utf-8"))
    return tuple(Entry(e["glob"], e["kind"], e["agent"], Regex(glob_to_regex(e["glob"]))) for e in raw["entries"])


@lru_cache(maxsize=1)
def _entries_set() -> RegexSet:
    """All built-in globs in one RE2 set: one pass per path tells which entries match, without
    building a match group per entry (that cost ten times the pass itself)."""
    return RegexSet(e.regex.pattern for e in builtin_entries())


def skill_roots(paths: Iterable[str]) -> frozenset[str]:
    """Folders (repository-relative, '' for the root) that hold a SKILL.md."""
    roots = set()
    for p in paths:
        if posixpath.basename(p).lower() == "skill.md":
            roots.add(posixpath.dirname(p))
    return frozenset(roots)


def skill_root_of(path: str, roots: frozenset[str]) -> str | None:
    d = posixpath.dirname(path)
    while True:
        if d in roots:
            return d
        if not d:
            return None
        d = posixpath.dirname(d)


class Catalog:
    def __init__(self, extra_globs: Iterable[str] = (), exclude_globs: Iterable[str] = ()) -> None:
        self.entries = builtin_entries()
        self.extra = GlobSet(extra_globs)
        self.exclude = GlobSet(exclude_globs)

    def classify(self, path: str, roots: frozenset[str] = frozenset()) -> str | None:
        """The agent-file kind of a repository-relative path, or None when agents do not load it."""
        if self.exclude.matches(path):
            return None
        data = match_bytes(path)
        matched = _entries_set().match(data)
        if matched is None:  # the set's pass did not finish: ask each entry
            matched = [i for i, e in enumerate(self.entries) if e.regex.search(data) is not None]
        if matched:  # the first entry that matches wins
            return self.entries[min(matched)].kind
        if skill_root_of(path, roots) is not None:
            return "skill"
        if self.extra.matches(path):
            return "extra"
        return None

    def is_protected(self, path: str, roots: frozenset[str] = frozenset()) -> bool:
        return self.classify(path, roots) is not None
