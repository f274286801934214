"""Targets: which files (and which of their lines) a scan covers.

Two sources: a walk of a working tree (CLI), or a list of paths with content taken from git
(the Action, see scanner/github/). The walk resolves links inside the repository as an agent
does: a link to a folder is walked under the link's own path (bounded: a loop or too many
nested links is reported), and a link to a file is a target read from its target
(scanner/textio.py). A link that leaves the repository is never followed; at an agent path it is
a finding.

Skill folders are classified whole: every entry is listed (up to limits.skill_max_entries), the
first files within the caps (skill_max_files, skill_max_depth) are scanned as before, and past
the caps only assets (name and first bytes agree on an image, font, document or data format)
are merely listed: scripts and text anywhere in the skill are still scanned, up to
skill_max_scanned per skill. What the bounds leave out is a finding (IG958), never a note only.
"""
from __future__ import annotations

import os
import posixpath
import stat
from collections import deque
from dataclasses import dataclass, field
from typing import Iterator

from .config import Limits  # noqa: F401  (re-exported: discovery's callers pass it)
from .agent_map import Catalog, Roots, layout_top_names, skill_root_of, skill_roots
from .imports import follow, importing_kinds
from .named import named, spec_of
from .runs import BUILD_HOOK_CONFIGS, agent_runs, go_module_starts, is_runner, max_files as max_run_files, referenced
from .models import NotScanned

# Folders no agent loads instructions from and that are expensive to walk.
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"})
# Project files whose own tool runs repository files unasked (npm's install hooks, direnv, a build backend's hooks)
_PROJECT_RUNNERS = frozenset({"package.json", ".envrc", "composer.json"}) | BUILD_HOOK_CONFIGS
MAX_LINK_NESTING = 8  # folder links followed inside one another on one path
MAX_FOLLOWED_LINKS = 1024  # folder links followed in one walk
SKILL_MAX_LEVELS = 64  # levels below a skill folder the walk lists at all
MAX_LISTED_PER_SKILL = 2000  # past-cap entries listed one by one per skill; the rest are counted in one entry


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
    # Entries of not_scanned that are findings too (scanner/engines/unread.py): what an agent
    # would load but the walk could not list or follow. Reasons in LISTED_FAILING are findings
    # from not_scanned alone and need no entry here.
    failing: list[NotScanned] = field(default_factory=list)


# Reasons that are findings when a target source lists them itself (TargetSet.not_scanned): each
# is only ever given to a path agents load. Not "unreadable": the walk lists an unreadable folder
# anywhere in the tree (a note; inside a skill folder it is in TargetSet.failing). Part of the
# TargetSet's contract, so target sources in this stage and the engines read the same set.
LISTED_FAILING = frozenset({"binary", "data-bytes", "too-large", "lfs-pointer", "not-a-file", "submodule",
                            "link-outside-tree", "link-loop", "link-too-deep"})


def _rel(root: str, full: str) -> str:
    return os.path.relpath(full, root).replace(os.sep, "/")


SKILL_FILE_NAMES = ("SKILL.md", "skill.md", "Skill.md")
SKILL_PARENTS = (".claude/skills", ".agents/skills")
# Paths below a folder that the catalog takes as agent files: a folder link that is not
# followed, or a submodule, at such a folder (`.claude`, `.cursor`) is one agents load from,
# though its own name is not an agent file.
_AGENT_PROBES = ("settings.json", "settings.local.json", "mcp.json", "x.md", "x.mdc", "skills/x/SKILL.md",
                 "rules/x.md", "rules/x.mdc", "commands/x.md", "agents/x.md", "hooks/x", "x")
_NEUTRAL = "no-agent-loads-from-here"  # a folder name no catalog entry names


def at_agent_location(path: str, catalog: Catalog, roots: frozenset[str]) -> bool:
    """Would agents load files at or below `path`? A probe the catalog takes below ANY folder
    (`**/*.mdc`, `**/CLAUDE.md`) says nothing about this one, so it does not count."""
    if catalog.classify(path, roots) is not None or skill_root_of(path + "/x", roots) is not None:
        return True
    return any(catalog.classify(f"{path}/{probe}", roots) is not None
               and catalog.classify(f"{_NEUTRAL}/{probe}", roots) is None for probe in _AGENT_PROBES)


@dataclass
class Walk:
    files: list[str] = field(default_factory=list)  # regular files, special files and links to files
    links: list[str] = field(default_factory=list)  # links to folders (followed or not)
    capped: list[NotScanned] = field(default_factory=list)  # what the walk did not list, read or follow
    skill_dirs: set[str] = field(default_factory=set)  # folders walked as skills
    unfollowed: list[NotScanned] = field(default_factory=list)  # folder links not followed, by reason
    failing: list[NotScanned] = field(default_factory=list)  # entries of capped that are findings
    followed: int = 0


def walk_tree(root: str, limits: Limits | None = None) -> tuple[list[str], list[str]]:
    """All file paths under root (relative), and the links to folders among them."""
    w = walk(root, limits or Limits())
    return w.files, w.links


def walk(root: str, limits: Limits) -> Walk:
    """Walk a tree; folder links inside the repository are followed (bounded), others listed.
    Skill folders are classified whole under their bounds (see the module's docstring)."""
    w = Walk()
    for _ in walk_steps(root, limits, w):
        pass
    return w


def _folder_link(root: str, path: str, chain: tuple[str, ...], w: Walk) -> tuple[str, ...] | None:
    """The chain to walk the folder behind link `path` with, or None when it is not followed
    (then w.unfollowed says why). A link to a file, or to nothing, is not a folder link: the
    caller lists it as a file and textio resolves it when it is read."""
    full = os.path.join(root, path)
    try:
        st = os.stat(full)
    except OSError:
        return None  # a loop or a dangling link: read as a file, textio says which
    if not stat.S_ISDIR(st.st_mode):
        return None
    from .textio import _real_root, _within

    root_real = _real_root(root)
    real = os.path.realpath(full)
    target = _readlink(full)
    shown = f"symbolic link to {target!r}"
    if not _within(root_real, real):
        w.unfollowed.append(NotScanned(path, "link-outside-tree", f"{shown} leaves the repository"))
        return ()
    here = os.path.realpath(os.path.dirname(full))
    if any(c == real or c.startswith(real.rstrip(os.sep) + os.sep) for c in (here, *chain)):
        w.unfollowed.append(NotScanned(path, "link-loop", f"{shown} leads back to a folder above it (a loop)"))
        return ()
    if len(chain) >= MAX_LINK_NESTING or w.followed >= MAX_FOLLOWED_LINKS:
        w.unfollowed.append(NotScanned(path, "link-too-deep", f"{shown} not followed: more than {MAX_LINK_NESTING} nested "
                                       f"folder links or {MAX_FOLLOWED_LINKS} in the repository"))
        return ()
    w.followed += 1
    return (*chain, real)


def _readlink(full: str) -> str:
    try:
        return os.readlink(full)
    except OSError:
        return "?"


def walk_steps(root: str, limits: Limits, w: Walk) -> Iterator[None]:
    """walk() one step at a time: each step adds to w one folder's listing or one whole skill
    folder. A folder's step always comes before any step below it."""
    stack: list[tuple[str, tuple[str, ...]]] = [("", ())]
    while stack:
        rel, chain = stack.pop()
        full = os.path.join(root, rel) if rel else root
        if rel and _under_skill_parent(rel):
            _walk_skill(root, rel, limits, w, chain)
            yield
            continue
        try:
            with os.scandir(full) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            if rel and _holds_skill_file(full):
                _walk_skill(root, rel, limits, w, chain)
            else:
                w.capped.append(NotScanned(rel or ".", "unreadable", exc.strerror or str(exc)))
            yield
            continue
        # The listing names a skill file only when the folder holds one (in any case, for
        # case-insensitive file systems): only then ask the file system, as before.
        if rel and any(e.name.lower() == "skill.md" for e in entries) and _holds_skill_file(full):
            _walk_skill(root, rel, limits, w, chain)
            yield
            continue
        subdirs = []
        for e in entries:
            path = f"{rel}/{e.name}" if rel else e.name
            if e.is_symlink():
                followed = _folder_link(root, path, chain, w)
                if followed is None:
                    w.files.append(path)  # a link to a file (or to nothing): read through textio
                else:
                    w.links.append(path)
                    if followed and e.name not in SKIP_DIRS:
                        subdirs.append((path, followed))
            elif e.is_dir(follow_symlinks=False):
                if e.name not in SKIP_DIRS:
                    subdirs.append((path, chain))
            else:  # regular files, and FIFOs, sockets and devices (reported if agents load them)
                w.files.append(path)
        stack.extend(reversed(subdirs))
        yield


def _holds_skill_file(full: str) -> bool:
    return any(os.path.lexists(os.path.join(full, n)) for n in SKILL_FILE_NAMES)


def _under_skill_parent(rel: str) -> bool:
    parent = posixpath.dirname(rel).lower()
    return any(parent == p or parent.endswith("/" + p) for p in SKILL_PARENTS)


def _walk_skill(root: str, skill: str, limits: Limits, w: Walk, chain: tuple[str, ...] = ()) -> None:
    """Breadth-first over the whole skill folder, its own SKILL.md first. Within the caps every
    file is a target; past them assets are listed (with their sha256 when not over the size cap)
    and everything else is still a target, up to skill_max_scanned; the listing stops at
    skill_max_entries entries or SKILL_MAX_LEVELS levels, and what any bound leaves out is a
    finding."""
    from .textio import past_cap_asset

    w.skill_dirs.add(skill)
    count = 0
    first = None
    for n in SKILL_FILE_NAMES:
        if os.path.lexists(os.path.join(root, skill, n)):
            first = n
            w.files.append(f"{skill}/{n}")
            count += 1
            break
    queue: deque[tuple[str, int, tuple[str, ...]]] = deque([(skill, 0, chain)])
    listed = past = over_budget = 0
    listed_past = 0
    stopped = False
    while queue and not stopped:
        rel, depth, ch = queue.popleft()
        try:
            with os.scandir(os.path.join(root, rel)) as it:
                batch = []
                for e in it:  # streamed: the bound is on entries listed, not on entries read whole
                    listed += 1
                    if listed > limits.skill_max_entries:
                        stopped = True
                        break
                    batch.append(e)
                entries = sorted(batch, key=lambda e: e.name)
        except OSError as exc:
            ns = NotScanned(rel, "unreadable", f"a folder of the skill could not be listed: {exc.strerror or exc}")
            w.capped.append(ns)
            w.failing.append(ns)
            continue
        for e in entries:
            path = f"{rel}/{e.name}"
            if rel == skill and e.name == first:
                continue
            if e.is_symlink():
                followed = _folder_link(root, path, ch, w)
                if followed is not None:
                    w.links.append(path)
                    if followed and e.name not in SKIP_DIRS:
                        queue.append((path, depth + 1, followed))
                    continue
            elif e.is_dir(follow_symlinks=False):
                if e.name in SKIP_DIRS:
                    continue
                if depth + 1 >= SKILL_MAX_LEVELS:
                    ns = NotScanned(path, "skill-depth-bound", f"a skill folder nested deeper than {SKILL_MAX_LEVELS} levels; not listed")
                    w.capped.append(ns)
                    w.failing.append(ns)
                else:
                    queue.append((path, depth + 1, ch))
                continue
            # A file, a link to a file (or to nothing), or a special file.
            if depth < limits.skill_max_depth and count < limits.skill_max_files:
                w.files.append(path)
                count += 1
                continue
            asset = past_cap_asset(root, path, limits.max_file_bytes)
            if asset is not None:
                listed_past += 1
                if listed_past <= MAX_LISTED_PER_SKILL:
                    w.capped.append(asset)
                continue
            if past < limits.skill_max_scanned:
                w.files.append(path)  # scripts and text past the caps are still scanned
                past += 1
            else:
                over_budget += 1
    if listed_past > MAX_LISTED_PER_SKILL:
        w.capped.append(NotScanned(skill, "skill-assets", f"{listed_past - MAX_LISTED_PER_SKILL} more assets past the skill's "
                                   f"caps ({limits.skill_max_files} files, {limits.skill_max_depth} levels) were classified and not listed one by one"))
    if over_budget:
        ns = NotScanned(skill, "skill-scan-budget", f"{over_budget} files of this skill past its caps were not scanned: "
                        f"over the {limits.skill_max_scanned}-file budget (limits.skill-max-scanned)")
        w.capped.append(ns)
        w.failing.append(ns)
    if stopped:
        ns = NotScanned(skill, "skill-entry-cap", f"the skill folder has more than {limits.skill_max_entries} entries; "
                        "the walk stopped listing it, and the rest was neither classified nor scanned")
        w.capped.append(ns)
        w.failing.append(ns)


def plan_skill_files(skill: str, paths: list[str], limits: Limits) -> tuple[list[str], list[NotScanned]]:
    """The walk's bounds for a source that lists a skill's files up front (the Action reads them
    from git): the paths to read as targets, and NotScanned entries for what the bounds leave
    out, each of which is a finding (put them in TargetSet.not_scanned AND TargetSet.failing).

    Like _walk_skill: every file within the caps, then past them every file whose name claims no
    asset (scripts and text) up to skill_max_scanned, and every asset-named file (its blob is
    classified by textio.classify_blob: an asset by name and bytes is listed, not failed); the
    listing stops at skill_max_entries; deeper than SKILL_MAX_LEVELS is not listed."""
    from .textio import asset_by_name

    def depth(p: str) -> int:
        return posixpath.relpath(p, skill or ".").count("/")

    ordered = sorted(paths, key=lambda p: (depth(p), p))
    read: list[str] = []
    failing: list[NotScanned] = []
    count = past = over = 0
    for n, path in enumerate(ordered):
        if n >= limits.skill_max_entries:
            failing.append(NotScanned(skill or ".", "skill-entry-cap", f"the skill folder has more than {limits.skill_max_entries} "
                                      "files; the rest was neither classified nor scanned"))
            break
        d = depth(path)
        if d >= SKILL_MAX_LEVELS:
            failing.append(NotScanned(path, "skill-depth-bound", f"a skill file nested deeper than {SKILL_MAX_LEVELS} levels; not read"))
            continue
        if d < limits.skill_max_depth and count < limits.skill_max_files:
            count += 1
            read.append(path)
        elif asset_by_name(path) is not None:
            read.append(path)
        elif past < limits.skill_max_scanned:
            past += 1
            read.append(path)
        else:
            over += 1
    if over:
        failing.append(NotScanned(skill or ".", "skill-scan-budget", f"{over} files of this skill past its caps were not scanned: "
                                  f"over the {limits.skill_max_scanned}-file budget (limits.skill-max-scanned)"))
    return read, failing


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
    skill_mds: list[str] = []  # a skill's instructions can tell the agent to run a repository script
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
            skill_mds.extend(t.path for t in step if t.kind == "skill" and posixpath.basename(t.path).lower() == "skill.md")
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
    runners = runners + [t.path for t in manifested if is_runner(t.path)]
    ran = run_targets(ts, runners, w.files, known, limits)
    if ran:
        known.update(t.path for t in ran)
        yield ran
    # A setting's command and the script it runs are read like an agent file's commands too: `go run
    # (direnv's .envrc is sourced by every shell an agent opens in the folder: what it runs is the agent's too)
    # ./tools/x` in a hook runs that package's files, and a hook's script may run another script.
    # (a Go module runs its go:generate lines on `go generate ./...`, a Python project its build hooks on
    # `pip install .`, as a Node project runs its install hooks on `npm install`: scanner/runs.py)
    told_to = agent_run_targets(ts, importers + skill_mds + [p for p in w.files if posixpath.basename(p) in _PROJECT_RUNNERS]
                                + go_module_starts(w.files) + runners + [t.path for t in ran], w.files, known, limits)
    if told_to:
        known.update(t.path for t in told_to)
        yield told_to
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
    ts.failing.extend(w.failing)
    for ns in w.unfollowed:  # folder links not followed: a finding where agents load files
        if _agent_location(ns.path, catalog, frozen, w.skill_dirs):
            ts.not_scanned.append(ns)
            ts.failing.append(ns)
        elif ns.reason == "link-outside-tree":
            ts.not_scanned.append(NotScanned(ns.path, "link-not-followed", ns.detail))


def _agent_location(path: str, catalog: Catalog, roots: frozenset[str], skill_dirs: set[str]) -> bool:
    """Would agents load files at or below `path`? (A folder link that is not followed.)"""
    return _target(path, catalog, roots, skill_dirs) is not None or at_agent_location(path, catalog, roots)


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
    from .agent_map import layouts, manifest_components
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


def agent_run_targets(ts: TargetSet, starts: list[str], files: list[str], known: set[str], limits: Limits) -> list[Target]:
    """Repository files that agent files tell the agent to run (`bash scripts/x.sh`, `go run
    ./cmd/y`, `npm run build` -> package.json -> its file; scanner/runs.py agent_runs), not agent
    files already: scanned as they are (a script stays a script) with `run-by` the agent file.
    A package.json among `starts` runs its install hooks (`npm install`)."""
    from .textio import Decoded, read_file

    if not starts:
        return []

    def read(path: str) -> str | None:
        # read_file refuses a path that leaves the repository through a link on its way.
        loaded = read_file(ts.root, path, limits.max_file_bytes)
        return loaded.text if isinstance(loaded, Decoded) else None

    out: list[Target] = []
    cap = max_run_files()
    for path, by in agent_runs(starts, read, set(files)):
        if path in known:
            continue
        if len(out) >= cap:
            ts.not_scanned.append(NotScanned(path, "run-file-cap", f"run by {by}; over the {cap}-file cap for files agent files run"))
            continue
        out.append(Target(path, "config", run_by=by))
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
    from .textio import Decoded, read_file

    if not importers:
        return []

    def read(path: str) -> str | None:
        # read_file refuses a path that leaves the repository through a folder link on its way.
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


class _Prefixed:
    """A catalog that classifies paths found below a folder by their repository paths."""

    def __init__(self, catalog: Catalog, prefix: str) -> None:
        self.catalog, self.prefix = catalog, prefix

    def classify(self, path: str, roots: frozenset[str] = frozenset()) -> str | None:
        from .agent_map import Roots

        layouts = {(self.prefix + r).rstrip("/"): n for r, n in getattr(roots, "layouts", {}).items()}
        return self.catalog.classify(self.prefix + path, Roots(((self.prefix + r).rstrip("/") for r in roots), layouts))

    def __getattr__(self, name: str):
        # Everything but classification (layouts, markers, globs) is the catalog's own.
        return getattr(self.catalog, name)


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
        if stat.S_ISLNK(st.st_mode):  # a link to a folder inside the repository is walked as that folder
            from .textio import is_within

            try:
                if stat.S_ISDIR(os.stat(full).st_mode) and is_within(root, full):
                    st = os.stat(full)
            except OSError:
                pass
        if stat.S_ISDIR(st.st_mode):
            prefix = "" if rel == "." else rel + "/"
            # Classified by their repository paths: `scan .claude` finds .claude/settings.json.
            sub = discover(full, _Prefixed(catalog, prefix) if prefix else catalog, limits)
            ts.targets.extend(Target(prefix + t.path, t.kind, skill_root=None if t.skill_root is None else (prefix + t.skill_root).rstrip("/"),
                                     imported_by=tuple(prefix + p for p in t.imported_by),
                                     run_by=None if t.run_by is None else prefix + t.run_by) for t in sub.targets)
            ts.not_scanned.extend(NotScanned(prefix + n.path, n.reason, n.detail, n.sha256) for n in sub.not_scanned)
            ts.failing.extend(NotScanned(prefix + n.path, n.reason, n.detail, n.sha256) for n in sub.failing)
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
