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
from typing import Iterator

from .catalog import Catalog, Roots, layout_top_names, skill_root_of, skill_roots
from .imports import follow, importing_kinds
from .named import named, spec_of
from .runs import is_runner, max_files as max_run_files, referenced
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
    # Scanned because agent files import it with `@path` (scanner/imports.py): the importing
    # files, outermost first. Empty for a file found by the catalog.
    imported_by: tuple[str, ...] = ()
    # Scanned because a setting runs it (scanner/runs.py): that settings file.
    run_by: str | None = None


@dataclass
class TargetSet:
    root: str
    targets: list[Target] = field(default_factory=list)
    not_scanned: list[NotScanned] = field(default_factory=list)
    skill_roots: frozenset[str] = frozenset()
    links: list[tuple[str, str]] = field(default_factory=list)  # (path, link target) leaving the tree


def _rel(root: str, full: str) -> str:
    return os.path.relpath(full, root).replace(os.sep, "/")


SKILL_FILE_NAMES = ("SKILL.md", "skill.md", "Skill.md")
SKILL_PARENTS = (".claude/skills", ".agents/skills")


@dataclass
class Walk:
    files: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # symbolic links (files or folders), never followed
    capped: list[NotScanned] = field(default_factory=list)  # skill folders and sub-folders the caps stopped
    skill_dirs: set[str] = field(default_factory=set)  # folders walked under the skill caps


def walk_tree(root: str, limits: Limits | None = None) -> tuple[list[str], list[str]]:
    """All file paths under root (relative), and the symbolic links among them (files or dirs)."""
    w = walk(root, limits or Limits())
    return w.files, w.links


def walk(root: str, limits: Limits) -> Walk:
    """Walk a tree without following links. Skill folders are walked under their caps: at most
    `skill_max_files` files and `skill_max_depth` levels, and the walk STOPS at the cap (a skill
    with 10,000 files is never listed whole), saying so in a NotScanned."""
    w = Walk()
    for _ in walk_steps(root, limits, w):
        pass
    return w


def walk_steps(root: str, limits: Limits, w: Walk) -> Iterator[None]:
    """walk() one step at a time: each step adds to w one folder's listing or one whole skill
    folder. A folder's step always comes before any step below it."""
    stack = [""]
    while stack:
        rel = stack.pop()
        full = os.path.join(root, rel) if rel else root
        if rel and _under_skill_parent(rel):
            _walk_skill(root, rel, limits, w)
            yield
            continue
        try:
            with os.scandir(full) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            if rel and _holds_skill_file(full):
                _walk_skill(root, rel, limits, w)
            else:
                w.capped.append(NotScanned(rel or ".", "unreadable", exc.strerror or str(exc)))
            yield
            continue
        # The listing names a skill file only when the folder holds one (in any case, for
        # case-insensitive file systems): only then ask the file system, as before.
        if rel and any(e.name.lower() == "skill.md" for e in entries) and _holds_skill_file(full):
            _walk_skill(root, rel, limits, w)
            yield
            continue
        subdirs = []
        for e in entries:
            path = f"{rel}/{e.name}" if rel else e.name
            if e.is_symlink():
                w.links.append(path)
            elif e.is_dir(follow_symlinks=False):
                if e.name not in SKIP_DIRS:
                    subdirs.append(path)
            elif e.is_file(follow_symlinks=False):
                w.files.append(path)
        stack.extend(reversed(subdirs))
        yield


def _holds_skill_file(full: str) -> bool:
    return any(os.path.lexists(os.path.join(full, n)) for n in SKILL_FILE_NAMES)


def _under_skill_parent(rel: str) -> bool:
    parent = posixpath.dirname(rel).lower()
    return any(parent == p or parent.endswith("/" + p) for p in SKILL_PARENTS)


def _walk_skill(root: str, skill: str, limits: Limits, w: Walk) -> None:
    """Breadth-first, bounded: the skill's own SKILL.md first, then at most the file cap."""
    w.skill_dirs.add(skill)
    count = 0
    for n in SKILL_FILE_NAMES:
        if os.path.isfile(os.path.join(root, skill, n)) and not os.path.islink(os.path.join(root, skill, n)):
            w.files.append(f"{skill}/{n}")
            count += 1
            break
    queue: list[tuple[str, int]] = [(skill, 0)]
    stopped = False
    while queue and not stopped:
        rel, depth = queue.pop(0)
        subdirs = []
        try:
            with os.scandir(os.path.join(root, rel)) as it:
                batch = []
                for e in it:  # streamed: a folder of 10,000 entries is read only up to the cap
                    batch.append(e)
                    if len(batch) > limits.skill_max_files * 4:
                        stopped = True
                        break
                entries = sorted(batch, key=lambda e: e.name)
        except OSError as exc:
            w.capped.append(NotScanned(rel, "unreadable", exc.strerror or str(exc)))
            continue
        for e in entries:
            path = f"{rel}/{e.name}"
            if rel == skill and e.name in SKILL_FILE_NAMES:
                continue
            if e.is_symlink():
                w.links.append(path)
            elif e.is_dir(follow_symlinks=False):
                if e.name in SKIP_DIRS:
                    continue
                if depth + 1 >= limits.skill_max_depth:
                    w.capped.append(NotScanned(path, "skill-depth-cap", f"deeper than {limits.skill_max_depth} levels below the skill folder; not walked"))
                else:
                    subdirs.append((path, depth + 1))
            elif e.is_file(follow_symlinks=False):
                if count >= limits.skill_max_files:
                    stopped = True
                    break
                w.files.append(path)
                count += 1
        queue.extend(subdirs)
    if stopped or queue:
        w.capped.append(NotScanned(skill, "skill-file-cap", f"stopped at {limits.skill_max_files} files; the rest of this skill folder was not walked or scanned"))


def discover(root: str, catalog: Catalog, limits: Limits = Limits()) -> TargetSet:
    """Agent files in a working tree, with skill-folder caps applied during the walk."""
    ts = TargetSet(root=root)
    for step in discover_steps(ts, catalog, limits):
        ts.targets.extend(step)
    return ts


def discover_steps(ts: TargetSet, catalog: Catalog, limits: Limits = Limits()) -> Iterator[list[Target]]:
    """discover()'s targets in the same order, one step of the walk at a time (one folder's
    listing, or one whole skill folder), so that scanning can start while the walk goes on; ts
    gets its skill roots, not-scanned entries and links when the walk ends (not the targets: the
    caller keeps those).

    A file's kind depends only on the skill roots and skill folders among its ancestors, and the
    walk reaches a folder before anything below it, so a file classified at the end of its own
    step gets what it would get at the end of the walk. A step's own skill files count first:
    one step can list a SKILL.md after a README.md beside it."""
    w = Walk()
    roots: set[str] = set()
    layouts: dict[str, str] = {}
    frozen: frozenset[str] = Roots()
    listed = 0
    importers: list[str] = []  # targets that can import (instructions, commands, ...)
    known: set[str] = set()  # every target's path: an imported agent file is scanned once
    top_names = layout_top_names()
    runners: list[str] = []  # settings files whose commands may run repository files
    namers: list[str] = []  # settings files that name instruction files (opencode.json, ...)
    aside: list[str] = []
    for _ in walk_steps(ts.root, limits, w):
        new = w.files[listed:]
        listed = len(w.files)
        found = skill_roots(new)
        # A plugin's marker (.claude-plugin/plugin.json) is listed before its commands/, agents/,
        # hooks/ and skills/ folders: the walk takes sub-folders in name order, "." first.
        # A file at the top of a plugin (.lsp.json) is listed in its folder's step, before the
        # marker: such names wait in `aside` and are classified again once a marker is seen.
        late: list[str] = []
        if not found <= roots or not found.layouts.keys() <= layouts.keys():
            fresh = found.layouts.keys() - layouts.keys()
            roots |= found
            layouts.update(found.layouts)
            frozen = Roots(roots, layouts)
            late = [p for p in aside if posixpath.dirname(p) in fresh]
            if late:
                aside = [p for p in aside if posixpath.dirname(p) not in fresh]
        step = [t for t in (_target(path, catalog, frozen, w.skill_dirs) for path in (*late, *new)) if t is not None]
        taken = {t.path for t in step}
        aside.extend(p for p in new if p not in taken and top_names.matches(posixpath.basename(p)))
        if step:
            importers.extend(t.path for t in step if t.kind in importing_kinds())
            settings = [t.path for t in step if t.kind == "config"]
            runners.extend(p for p in settings if is_runner(p))
            namers.extend(p for p in settings if spec_of(p) is not None)
            known.update(t.path for t in step)
            yield step
    manifested = manifest_targets(ts.root, w.files, layouts, known, limits)
    if manifested:
        importers.extend(t.path for t in manifested if t.kind in importing_kinds())
        known.update(t.path for t in manifested)
        yield manifested
    ran = run_targets(ts, runners + [t.path for t in manifested if is_runner(t.path)], w.files, known, limits)
    if ran:
        known.update(t.path for t in ran)
        yield ran
    told = settings_named_targets(ts.root, namers, w.files, known, limits)
    if told:
        importers.extend(t.path for t in told)
        known.update(t.path for t in told)
        yield told
    imported = imported_targets(ts.root, importers, limits, known, {t.path: t.imported_by for t in told})
    if imported:
        yield imported
    ts.skill_roots = frozen
    ts.not_scanned.extend(w.capped)
    for path in w.links:  # after every file, as a whole-walk classification had them
        if _target(path, catalog, frozen, w.skill_dirs) is None:
            continue
        full = os.path.join(ts.root, path)
        target = os.readlink(full)
        from .textio import is_within

        if not is_within(ts.root, full):
            ts.links.append((path, target))
        ts.not_scanned.append(NotScanned(path, "link", f"symbolic link to {target!r}; links are not followed"))


def _target(path: str, catalog: Catalog, roots: frozenset[str], skill_dirs: set[str]) -> Target | None:
    kind = catalog.classify(path, roots)
    if kind is None and _in_skill_dir(path, skill_dirs):
        kind = "skill"
    if kind is None:
        return None
    return Target(path, kind, skill_root=skill_root_of(path, roots) if kind == "skill" else None)


def manifest_targets(root: str, files: list[str], layout_roots: dict[str, str], known: set[str], limits: Limits) -> list[Target]:
    """Files a plugin manifest names at paths of its own choosing (`"hooks": "./config/hooks.json"`,
    `"agents": "./custom/agents/"`), and the component folders of the plugins a marketplace lists
    in folders of their own (`"source": "./plugins/x"`): agent files of the key's kind."""
    from .catalog import layouts, manifest_components
    from .textio import Decoded, read_file

    by_name = {lay.name: lay for lay in layouts()}
    wanted: dict[str, str] = {}  # repository-relative file or folder -> kind
    for folder, name in sorted(layout_roots.items()):
        lay = by_name.get(name)
        if lay is None:
            continue
        for marker, market in ((lay.manifest, False), (lay.marketplace, True)):
            if not marker:
                continue
            loaded = read_file(root, f"{folder}/{marker}" if folder else marker, limits.max_file_bytes)
            if not isinstance(loaded, Decoded):
                continue
            for rel, kind in manifest_components(lay, loaded.text, market):
                wanted.setdefault(f"{folder}/{rel}" if folder else rel, kind)
    if not wanted:
        return []
    out: list[Target] = []
    for path in files:
        if path in known:
            continue
        d = path
        while d:  # the innermost named place wins
            kind = wanted.get(d)
            if kind is not None:
                out.append(Target(path, kind))
                break
            d = posixpath.dirname(d)
    return out


def run_targets(ts: TargetSet, runners: list[str], files: list[str], known: set[str], limits: Limits) -> list[Target]:
    """Repository files that the settings files `runners` run (a hook's script, a task, a local
    MCP server, a file every terminal sources), not agent files already: config targets that
    remember the setting. Past the cap, the rest are listed as not scanned."""
    from .textio import Decoded, read_file

    if not runners:
        return []
    texts = []
    for path in runners:
        loaded = read_file(ts.root, path, limits.max_file_bytes)
        if isinstance(loaded, Decoded):
            texts.append((path, loaded.text))
    out: list[Target] = []
    cap = max_run_files()
    for path, config in referenced(texts, set(files)):
        if path in known:
            continue
        if len(out) >= cap:
            ts.not_scanned.append(NotScanned(path, "run-file-cap", f"run by {config}; over the {cap}-file cap for files settings run"))
            continue
        out.append(Target(path, "config", run_by=config))
    return out


def settings_named_targets(root: str, namers: list[str], files: list[str], known: set[str], limits: Limits) -> list[Target]:
    """Instruction files that settings name (OpenCode's `instructions`, Aider's `read`, Gemini's
    `contextFileName`, ...), not agent files already: instruction targets that remember the setting."""
    from .textio import Decoded, read_file

    texts = []
    for path in namers:
        loaded = read_file(root, path, limits.max_file_bytes)
        if isinstance(loaded, Decoded):
            texts.append((path, loaded.text))
    return [Target(p, "instruction", imported_by=(config,)) for p, config in named(texts, files) if p not in known]


def imported_targets(root: str, importers: list[str], limits: Limits, known: set[str],
                     brought_by: dict[str, tuple[str, ...]] | None = None) -> list[Target]:
    """Files that the agent files `importers` import with `@path` (up to five hops), inside the
    repository and not among `known` (targets already): each becomes an instruction target that
    remembers its chain of importers."""
    from .textio import Decoded, is_within, read_file

    if not importers:
        return []

    def read(path: str) -> str | None:
        if not is_within(root, os.path.join(root, path)):  # a folder link on the way out
            return None
        loaded = read_file(root, path, limits.max_file_bytes)
        return loaded.text if isinstance(loaded, Decoded) else None

    return [Target(i.path, "instruction", imported_by=i.chain) for i in follow(importers, read, known, brought_by)]


def _in_skill_dir(path: str, skill_dirs: set[str]) -> bool:
    d = posixpath.dirname(path)
    while d:
        if d in skill_dirs:
            return True
        d = posixpath.dirname(d)
    return False


def explicit(root: str, paths: list[str], catalog: Catalog, limits: Limits = Limits()) -> TargetSet:
    """Paths named on the command line: a file is scanned whatever its name."""
    ts = TargetSet(root=root)
    # Files named together with their SKILL.md are judged as one skill folder.
    file_roots = skill_roots(_rel(root, os.path.join(root, p)) for p in paths)
    ts.skill_roots = file_roots
    named_files: list[str] = []
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
            ts.targets.extend(Target(prefix + t.path, t.kind, skill_root=None if t.skill_root is None else (prefix + t.skill_root).rstrip("/"),
                                     imported_by=tuple(prefix + p for p in t.imported_by),
                                     run_by=None if t.run_by is None else prefix + t.run_by) for t in sub.targets)
            ts.not_scanned.extend(NotScanned(prefix + n.path, n.reason, n.detail, n.sha256) for n in sub.not_scanned)
            ts.links.extend((prefix + a, b) for a, b in sub.links)
            ts.skill_roots |= frozenset((prefix + r).rstrip("/") for r in sub.skill_roots)
        else:
            kind = catalog.classify(rel, file_roots) or "explicit"
            ts.targets.append(Target(rel, kind, skill_root=skill_root_of(rel, file_roots) if kind == "skill" else None))
            if kind in importing_kinds():
                named_files.append(rel)
    # A named instruction file brings what it imports, as the agent reads it.
    ts.targets.extend(imported_targets(root, named_files, limits, {t.path for t in ts.targets}))
    return ts
