"""Staging: copy the skills in scope into one folder Cisco's `scan-all` can read.

Why a copy: the content may come from git objects rather than the working tree (the Action
reads pull-request files from the head commit), the skills in scope may lie anywhere in the
repository, and one `scan-all` process over one folder costs one (slow) start-up instead of
one per skill. Each skill goes into its own numbered slot, so every URI Cisco writes
(`<slot>/<path in skill>`, relative to its working directory) maps back to one repository path.

A skill's files are the scan's targets in it (blob or working-tree content, as the native
engine read them) plus, in a pull request, the skill's other files from the working tree, so
Cisco sees the whole skill and not only its changed files. The same caps apply (depth, file
count, file size); links are never followed.
"""
from __future__ import annotations

import os
import posixpath
import shutil
import stat
from dataclasses import dataclass, field

from ..agent_map import skill_root_of
from ..models import NotScanned
from ..targets import SKIP_DIRS, Limits, TargetSet
from ..textio import resolve
from ..document import classify


@dataclass
class StagedSkill:
    slot: str  # folder name inside the staging folder
    root: str  # repository-relative skill folder, "" for the repository root
    files: dict[str, str] = field(default_factory=dict)  # path inside the skill -> repository path
    changed: dict[str, frozenset[int] | None] = field(default_factory=dict)  # repository path -> changed lines

    def repo_path(self, rel: str) -> str:
        return rel if not self.root else f"{self.root}/{rel}"

    @property
    def manifest(self) -> str | None:
        """Repository path of the skill's SKILL.md, if staged."""
        for rel, repo in self.files.items():
            if rel.lower() == "skill.md":
                return repo
        return None


@dataclass
class Staged:
    folder: str
    skills: list[StagedSkill] = field(default_factory=list)
    not_scanned: list[NotScanned] = field(default_factory=list)

    def by_slot(self) -> dict[str, StagedSkill]:
        return {s.slot: s for s in self.skills}


def covered_roots(ts: TargetSet) -> list[str]:
    """Skill folders holding at least one target: in a pull request, the skills it changes."""
    roots: set[str] = set()
    for t in ts.targets:
        root = t.skill_root
        if root is None and t.kind == "skill" and ts.skill_roots:
            root = skill_root_of(t.path, ts.skill_roots)
        if root is not None:
            roots.add(root)
    return sorted(roots)


def _safe_rel(rel: str) -> bool:
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def _read_working_file(root: str, repo_path: str, max_bytes: int) -> bytes | str:
    """Bytes of a regular file, read as the native engine reads it (links inside the repository
    followed, never out of it); a reason string when it cannot be used."""
    found = resolve(root, repo_path)
    if isinstance(found, NotScanned):
        return found.detail or found.reason
    full, st, _via = found
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > max_bytes:
        return f"{st.st_size} bytes is over the {max_bytes}-byte cap"
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as fh:
            return fh.read(max_bytes + 1)[:max_bytes]
    except OSError as exc:
        return exc.strerror or str(exc)


def _write(folder: str, slot: str, rel: str, data: bytes) -> None:
    dest = os.path.join(folder, slot, *rel.split("/"))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "wb") as fh:
        fh.write(data)


def _other_files(ts: TargetSet, root: str, limits: Limits) -> list[str]:
    """Working-tree files of the skill at `root` (repository paths), without nested skills."""
    base = os.path.join(ts.root, root) if root else ts.root
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        rel_dir = os.path.relpath(dirpath, ts.root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        depth = 0 if rel_dir == root else posixpath.relpath(rel_dir, root or ".").count("/") + 1
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and depth + 1 < limits.skill_max_depth)
        for name in sorted(filenames):
            path = f"{rel_dir}/{name}" if rel_dir else name
            if skill_root_of(path, ts.skill_roots | {root}) == root:
                out.append(path)
        if len(out) > limits.skill_max_files:  # a skill at the repository root must not walk it all
            break
    return out


def stage(ts: TargetSet, folder: str, limits: Limits = Limits()) -> Staged:
    """Copy each skill in scope into `folder/<slot>/`; report what could not be copied."""
    os.makedirs(folder, exist_ok=True)
    staged = Staged(folder)
    in_pr = any(t.changed_lines is not None for t in ts.targets)
    skipped = {n.path for n in ts.not_scanned}
    for number, root in enumerate(covered_roots(ts)):
        skill = StagedSkill(f"{number:03d}", root)
        sources: list[tuple[str, bytes | None, frozenset[int] | None]] = []
        for t in ts.targets:
            if t.path.startswith(f"{root}/" if root else "") and skill_root_of(t.path, ts.skill_roots | {root}) == root:
                sources.append((t.path, t.blob, t.changed_lines))
        known = {p for p, _, _ in sources}
        for path in _other_files(ts, root, limits):
            if path not in known and path not in skipped:
                sources.append((path, None, frozenset() if in_pr else None))
        # Within Cisco's file cap, the skill's own SKILL.md and its scripts come first: a skill of
        # thousands of files must not push a script out of Cisco's view.
        sources.sort(key=lambda s: (posixpath.basename(s[0]).lower() != "skill.md", classify(s[0], "")[0] != "script"))
        for path, blob, changed in sources:
            rel = posixpath.relpath(path, root) if root else path
            if not _safe_rel(rel):
                continue
            if len(skill.files) >= limits.skill_max_files:
                staged.not_scanned.append(NotScanned(path, "cisco-skill-file-cap", f"not given to Cisco's skill-scanner: over {limits.skill_max_files} files in the skill"))
                continue
            data = blob if blob is not None else _read_working_file(ts.root, path, limits.max_file_bytes)
            if isinstance(data, str):
                staged.not_scanned.append(NotScanned(path, "cisco-not-staged", f"not given to Cisco's skill-scanner: {data}"))
                continue
            _write(folder, skill.slot, rel, data)
            skill.files[rel] = path
            skill.changed[path] = changed
        if skill.manifest is None:
            where = f"{root}/SKILL.md" if root else "SKILL.md"
            staged.not_scanned.append(NotScanned(where, "cisco-no-manifest", "Cisco's skill-scanner needs the skill's SKILL.md, which could not be read from the working tree"))
            shutil.rmtree(os.path.join(folder, skill.slot), ignore_errors=True)
            continue
        staged.skills.append(skill)
    return staged
