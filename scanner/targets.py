"""Targets: which files (and which of their lines) a scan covers.

Two sources: a walk of a working tree (CLI), or a list of paths with content taken from git
(the Action, see scanner/github/). The walk never follows links; a link that is an agent file
is reported, and one that leaves the tree is itself a finding.
"""
from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass, field

from .catalog import Catalog, skill_root_of, skill_roots
from .models import NotScanned

# Folders no agent loads instructions from and that are expensive to walk.
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"})


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 2 * 1024 * 1024
    skill_max_depth: int = 3
    skill_max_files: int = 40
    script_max_bytes: int = 256 * 1024


@dataclass(frozen=True)
class Target:
    path: str  # repository-relative, forward slashes
    kind: str  # catalog kind, or "explicit" for a path named on the command line
    changed_lines: frozenset[int] | None = None  # None: the whole file is in scope
    blob: bytes | None = None  # content read from git; None: read from the working tree
    skill_root: str | None = None


@dataclass
class TargetSet:
    root: str
    targets: list[Target] = field(default_factory=list)
    not_scanned: list[NotScanned] = field(default_factory=list)
    skill_roots: frozenset[str] = frozenset()
    links: list[tuple[str, str]] = field(default_factory=list)  # (path, link target) leaving the tree


def _rel(root: str, full: str) -> str:
    return os.path.relpath(full, root).replace(os.sep, "/")


def walk_tree(root: str) -> tuple[list[str], list[str]]:
    """All file paths under root (relative), and the symbolic links among them (files or dirs)."""
    files: list[str] = []
    links: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        kept = []
        for d in dirnames:
            if d in SKIP_DIRS:
                continue
            full = os.path.join(dirpath, d)
            if os.path.islink(full):
                links.append(_rel(root, full))
            else:
                kept.append(d)
        dirnames[:] = sorted(kept)
        for f in sorted(filenames):
            files.append(_rel(root, os.path.join(dirpath, f)))
    return files, links


def discover(root: str, catalog: Catalog, limits: Limits = Limits()) -> TargetSet:
    """Agent files in a working tree, with skill-folder caps applied."""
    files, dir_links = walk_tree(root)
    roots = skill_roots(files)
    ts = TargetSet(root=root, skill_roots=roots)
    per_skill: dict[str, int] = {}
    capped: dict[str, int] = {}
    for path in files + dir_links:
        kind = catalog.classify(path, roots)
        if kind is None:
            continue
        full = os.path.join(root, path)
        if os.path.islink(full):
            target = os.readlink(full)
            from .textio import is_within

            if not is_within(root, full):
                ts.links.append((path, target))
            ts.not_scanned.append(NotScanned(path, "link", f"symbolic link to {target!r}; links are not followed"))
            continue
        sroot = skill_root_of(path, roots) if kind == "skill" else None
        if sroot is not None:
            depth = posixpath.relpath(path, sroot or ".").count("/")
            if depth >= limits.skill_max_depth:
                ts.not_scanned.append(NotScanned(path, "skill-depth-cap", f"deeper than {limits.skill_max_depth} levels below the skill folder"))
                continue
            per_skill[sroot] = per_skill.get(sroot, 0) + 1
            if per_skill[sroot] > limits.skill_max_files:
                capped[sroot] = capped.get(sroot, 0) + 1
                continue
        ts.targets.append(Target(path, kind, skill_root=sroot))
    for sroot, extra in sorted(capped.items()):
        ts.not_scanned.append(NotScanned(sroot or ".", "skill-file-cap", f"stopped at {limits.skill_max_files} files; {extra} more files in this skill were not scanned"))
    return ts


def explicit(root: str, paths: list[str], catalog: Catalog, limits: Limits = Limits()) -> TargetSet:
    """Paths named on the command line: a file is scanned whatever its name."""
    ts = TargetSet(root=root)
    for p in paths:
        full = os.path.join(root, p)
        try:
            st = os.lstat(full)
        except OSError as exc:
            ts.not_scanned.append(NotScanned(p, "unreadable", exc.strerror or str(exc)))
            continue
        rel = _rel(root, full)
        if stat.S_ISDIR(st.st_mode):
            sub = discover(full, catalog, limits)
            prefix = "" if rel == "." else rel + "/"
            ts.targets.extend(Target(prefix + t.path, t.kind, skill_root=None if t.skill_root is None else (prefix + t.skill_root).rstrip("/")) for t in sub.targets)
            ts.not_scanned.extend(NotScanned(prefix + n.path, n.reason, n.detail, n.sha256) for n in sub.not_scanned)
            ts.links.extend((prefix + a, b) for a, b in sub.links)
            ts.skill_roots |= frozenset((prefix + r).rstrip("/") for r in sub.skill_roots)
        else:
            ts.targets.append(Target(rel, catalog.classify(rel) or "explicit"))
    return ts
