"""Targets read from git: which files of a commit a scan covers, given what an event changed.

Content always comes from git objects of the head commit (never the working tree, never by running
anything from the change), read as an agent on a checkout would see it (scanner/github/gittree.py):
links inside the repository are followed at any level (`CLAUDE.md` -> `docs/guide.md`, `.claude`
-> a folder; scanner/tree_links.py), a link leaving it is IG951. The change itself (which commits
are compared, which paths changed, which lines are new) comes from event intake
(scanner/github/change.py). `changed` scope follows what agents load: the agent files the change
adds, modifies or renames, every file of a skill folder the change touches (a new SKILL.md makes an
old script a skill script), every file of a plugin whose marker it touches, plugin files
classified by their plugin's marker (catalog.marker_dirs), the paths behind a changed link, changed
files an agent file imports, and the files a changed agent file imports (scanner/imports.py over
the head commit's blobs). `all` scope scans every agent file of the head tree (and what they
import) and still marks which findings sit on changed lines; an event with no earlier commit, or
a pull request whose file list GitHub may have cut, scans every agent file of the head too. A
skill's files are planned as the working-tree walk plans them (targets.plan_skill_files: the
caps protect time, not coverage). What an agent would load and git cannot give us as text (a
submodule, an LFS pointer, a blob over the cap, a skill past its scan budget) is a failing
finding, never a note, raised from the coverage engine's table (scanner/engines/unread.py; IG906
for submodules). Deleted agent files and moved skills are reported as INFO findings (IG904, IG905).
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Callable

from . import gitutil
from .agent_map import Catalog, Roots, layout_roots, marker_dirs, skill_root_of, skill_roots
from .config import Config
from .document import classify
from .findings import file_finding
from .github.change import REST_FILE_LIMIT, FileChange, PullFilesFetcher, ScopeError, read_change
from .github.event import Event
from .github.gittree import DIR, FILE, GITLINK, LOOP, MAX_HOPS, OUTSIDE, GitTree, Resolved
from .imports import follow, importing_kinds
from .models import Finding, NotScanned
from .runs import BUILD_HOOK_CONFIGS, GO_MODULE, agent_runs, go_module_starts
from .targets import LISTED_FAILING, Limits, Target, TargetSet, at_agent_location, plan_skill_files

SCOPES = ("changed", "all")
# Project files whose tool runs repository files unasked: npm's install hooks, a build backend's hooks
# (a Go module's go:generate lines start at go_module_starts; scanner/runs.py agent_runs)
_PROJECT_RUNNERS = frozenset({"package.json", "composer.json"}) | BUILD_HOOK_CONFIGS
# changed_lines value for a file whose every line is new to agents (e.g. renamed into an agent path).
WHOLE_FILE: frozenset[int] = frozenset({-1})


@dataclass
class Scope:
    """The targets of a scan read from git, with the change they come from (intake's facts, so
    the later stages read one record)."""
    targets: TargetSet
    base: str | None  # the commit compared with (the merge base for pull requests); None: no diff
    head: str  # the commit whose content was read
    changes: list[FileChange] = field(default_factory=list)
    changed_lines: dict[str, frozenset[int]] = field(default_factory=dict)
    skill_roots: frozenset[str] = frozenset()
    source: str = "git"  # "git", or "rest-api" when the file list came from GitHub
    history: bool = True  # base..head commits are available for provenance
    notes: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # deletions, moved skills


# (repository, commit, agent file paths in scope, skill roots) -> {path of a file those agent files
# import (e.g. CLAUDE.md's `@docs/guide.md`): kind to scan it as}. The import resolution belongs
# to the agent map (scanner/agent_map.py); register it with set_import_resolver().
ImportResolver = Callable[[str, str, list[str], frozenset[str]], dict[str, str]]
_import_resolver: ImportResolver | None = None


def set_import_resolver(resolver: ImportResolver | None) -> None:
    """Hook for the agent map: files imported by agent files are scanned as agent files when changed."""
    global _import_resolver
    _import_resolver = resolver


def _text_reader(repo: str, rev: str) -> Callable[[str], str | None]:
    """read(path) -> the UTF-8 text of a regular file of `rev` (not a link, at most 2 MiB), or None."""
    entries = {e.path: e for e in gitutil.ls_tree_entries(repo, rev) if e.type == "blob" and not e.is_link}
    cache: dict[str, str | None] = {}

    def read(path: str) -> str | None:
        if path not in cache:
            e = entries.get(path)
            data = gitutil.read_objects(repo, [e.sha]).get(e.sha) if e is not None and (e.size or 0) <= 2 * 1024 * 1024 else None
            try:
                cache[path] = data.decode("utf-8") if data is not None else None
            except UnicodeDecodeError:
                cache[path] = None
        return cache[path]
    return read


def imported_files(repo: str, rev: str, catalog: Catalog, roots: frozenset[str], changed: list[str],
                   newly: set[str] | None = None, base: str | None = None) -> dict[str, str]:
    """Files to scan because agent files of `rev` import them (`@path`, scanner/imports.py, read
    from git objects of `rev`), with the kind to scan them as: the `changed` files an agent file
    imports, and every file a changed agent file imports (an edit to CLAUDE.md that adds
    `@docs/old.md` makes that old file an instruction file, as a new SKILL.md does a script).
    Of the latter, those the same agent files did not import at `base` go to `newly`: all their
    lines are new to agents."""
    candidates = [p for p in changed if catalog.classify(p, roots) is None]
    importers = {p for p in changed if catalog.classify(p, roots) in importing_kinds()}
    runners_changed = any(catalog.classify(p, roots) == "skill" or posixpath.basename(p) in _PROJECT_RUNNERS
                           or posixpath.basename(p) == GO_MODULE for p in changed)
    if not candidates and not importers and not runners_changed:
        return {}
    every = gitutil.ls_tree(repo, rev)
    all_roots = union_roots(roots, skill_roots(every))
    kinds = {p: k for p in every if (k := catalog.classify(p, all_roots)) is not None}
    wanted = set(candidates)
    if _import_resolver is not None:
        found = dict(_import_resolver(repo, rev, sorted(kinds), all_roots))
        return {p: k for p, k in found.items() if p in wanted}
    starts = [p for p, k in kinds.items() if k in importing_kinds()]
    out: dict[str, str] = {}
    fresh: list[str] = []
    read = _text_reader(repo, rev)
    if starts:
        for i in follow(starts, read, kinds):
            if i.path in wanted:
                out[i.path] = "instruction"
            elif importers.intersection(i.chain):
                out[i.path] = "instruction"
                fresh.append(i.path)
    # Scripts agent files tell the agent to run (scanner/runs.py agent_runs, as the CLI's walk):
    # a changed script one runs, and every script a changed agent file (or package.json) runs.
    runners = starts + [p for p, k in kinds.items() if k == "skill" and posixpath.basename(p).lower() == "skill.md"]
    runners += [p for p in every if posixpath.basename(p) in _PROJECT_RUNNERS] + go_module_starts(every)
    changed_set = set(changed)
    ran_fresh: list[str] = []
    for p, by in agent_runs(runners, read, set(every)):
        if p in kinds or p in out:
            continue
        if p in wanted:
            out[p] = "config"
        elif by in changed_set:
            out[p] = "config"
            ran_fresh.append(p)
    if ran_fresh and newly is not None:
        before_ran: set[str] = set()
        if base is not None:
            base_files = set(gitutil.ls_tree(repo, base))
            before_ran = {p for p, _ in agent_runs(sorted(changed_set & set(runners)), _text_reader(repo, base), base_files)}
        newly.update(p for p in ran_fresh if p not in before_ran)
    if fresh and newly is not None:
        before = set()
        if base is not None:
            before = {i.path for i in follow(sorted(importers), _text_reader(repo, base), kinds)}
        newly.update(p for p in fresh if p not in before)
    return out


def _link_leaves(path: str, target: str) -> bool:
    if target.startswith("/"):
        return True
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    return joined == ".." or joined.startswith("../")


def skill_roots_around(repo: str, rev: str, paths: list[str]) -> frozenset[str]:
    """Skill folders (holding a SKILL.md) among the ancestors of `paths` at `rev`, without listing the whole tree."""
    dirs: set[str] = set()
    for p in paths:
        d = posixpath.dirname(p)
        while True:
            dirs.add(d)
            if not d:
                break
            d = posixpath.dirname(d)
    if not dirs:
        return Roots()
    # Plugin layouts are rooted where their marker sits (`x/.claude-plugin/plugin.json`): list the
    # marker folders of every ancestor too, so `plugins/x/agents/a.md` is classified as the plugin's.
    return skill_roots(gitutil.list_dirs(repo, rev, sorted(dirs) + marker_dirs(sorted(dirs))))


def union_roots(*parts: frozenset[str]) -> Roots:
    """Skill roots together, keeping the plugin layouts each carries (a plain `|` drops them)."""
    layouts: dict[str, str] = {}
    for p in parts:
        layouts.update(getattr(p, "layouts", {}) or {})
    return Roots(frozenset().union(*parts), layouts)


def gitlink_finding(path: str) -> Finding:
    return file_finding("IG906", path, f"{path} is a submodule (another repository's commit) where agents load files; "
                                       "its content is not part of this change and was not scanned", reason="gitlink")


def targets_from_git(repo: str, rev: str, paths: list[str], roots: frozenset[str], catalog: Catalog, limits: Limits,
                     changed_lines: dict[str, frozenset[int]] | None, imported: dict[str, str] | None = None,
                     resolved: dict[str, Resolved] | None = None, findings: list[Finding] | None = None,
                     whole: frozenset[str] = frozenset()) -> TargetSet:
    """Agent-file targets among `paths` (agent paths of `rev`, links resolved by `resolved`), with
    content read from `rev`'s blobs. What an agent would load and could not be read from git is a
    finding appended to `findings`; `whole` holds paths whose every line is new (a changed link)."""
    ts = TargetSet(root=repo, skill_roots=roots)
    resolved = resolved or {}
    found = findings if findings is not None else []
    kinds = {p: k for p in paths if (k := catalog.classify(p, roots) or (imported or {}).get(p)) is not None}
    real_of: dict[str, str] = {}

    def fail(ns: NotScanned, kind: str, finding: Finding | None = None) -> None:
        """One id per cause: the coverage engine's table (scanner/engines/unread.py) raises the
        finding for every reason it knows, from ts.failing (or from the listing, for the reasons
        it takes from there); scope raises only what the table has no reason for (a submodule)."""
        ts.not_scanned.append(ns)
        if finding is None:
            if ns.reason not in LISTED_FAILING:  # the rest are findings from the listing itself
                ts.failing.append(ns)
            return
        lines = changed_lines.get(ns.path) if changed_lines is not None else None
        finding.new = True if (ns.path in whole or lines) else (None if changed_lines is None else False)
        found.append(finding)

    for p, kind in kinds.items():
        r = resolved.get(p)
        if r is None:
            real_of[p] = p
        elif r.kind == FILE and r.real is not None:
            real_of[p] = r.real
        elif r.kind == GITLINK:
            fail(NotScanned(p, "gitlink", "a submodule behind a link"), kind, gitlink_finding(p))
        elif r.kind == OUTSIDE:
            ts.links.append((p, r.target))  # IG951 from the native engine
        elif r.kind == LOOP:
            fail(NotScanned(p, "link-loop", f"links loop or nest deeper than {MAX_HOPS}: {' -> '.join(r.via[:4])}"), kind)
        elif r.kind == DIR:
            ts.not_scanned.append(NotScanned(p, "link", "a link to a folder at a file's place; its files are scanned under it"))
        else:
            ts.not_scanned.append(NotScanned(p, "link", "a link that leads nowhere in this commit (the agent reads nothing)"))
    entries = {e.path: e for e in gitutil.ls_tree_entries(repo, rev, sorted(set(real_of.values())))}
    # The skill caps protect time, not coverage (scanner/targets.py plan_skill_files, shared with
    # the working-tree walk): every file of a skill is classified by name, scripts and text past the
    # caps are still read, assets are read so their bytes decide, and what the bounds leave out is
    # a failing entry.
    by_skill: dict[str, list[str]] = {}
    for path in real_of:
        if kinds[path] == "skill" and (sroot := skill_root_of(path, roots)) is not None:
            by_skill.setdefault(sroot, []).append(path)
    planned: set[str] = set()
    for sroot, members in sorted(by_skill.items()):
        read, problems = plan_skill_files(sroot, members, limits)
        planned.update(read)
        for ns in problems:
            fail(ns, "skill")
    chosen: list[tuple[str, gitutil.TreeEntry, str, str | None]] = []
    for path in sorted(real_of):
        kind, entry = kinds[path], entries.get(real_of[path])
        if entry is None:
            continue
        if entry.type == "commit":
            fail(NotScanned(path, "gitlink", "a submodule in an agent file location; its content is another repository"),
                 kind, gitlink_finding(path))
            continue
        sroot = skill_root_of(path, roots) if kind == "skill" else None
        if sroot is not None and path not in planned:
            continue  # past the skill's scan budget: counted in its failing entry
        if entry.size is not None and entry.size > limits.max_file_bytes and not entry.is_link and not (
                entry.size <= limits.data_script_max_bytes and classify(path, "")[0] == "script"):  # the engine decides (data_script)
            fail(NotScanned(path, "too-large", f"{entry.size} bytes, over the {limits.max_file_bytes}-byte limit"), kind)
            continue
        chosen.append((path, entry, kind, sroot))
    blobs = gitutil.read_objects(repo, [e.sha for _, e, _, _ in chosen])
    for path, entry, kind, sroot in chosen:
        data = blobs.get(entry.sha)
        if data is None:
            fail(NotScanned(path, "unreadable", f"object {entry.sha[:12]} is missing from the clone"), kind)
            continue
        if entry.is_link:  # only when `resolved` did not cover it (callers without a tree view)
            target = data.decode("utf-8", "surrogateescape")
            if _link_leaves(path, target):
                ts.links.append((path, target))
            ts.not_scanned.append(NotScanned(path, "link", f"symbolic link to {target!r}; links are not followed"))
            continue
        # Binary content, LFS pointers (an asset kept in LFS is listed, anything else fails) and
        # scripts over their cap are decided by the engine from the blob (textio.decode_blob).
        lines = None if changed_lines is None else changed_lines.get(path, changed_lines.get(real_of[path], frozenset()))
        if lines is WHOLE_FILE or path in whole:
            lines = frozenset(range(1, data.count(b"\n") + 2))
        ts.targets.append(Target(path, kind, changed_lines=lines, blob=data, skill_root=sroot))
    return ts


def change_findings(changes: list[FileChange], catalog: Catalog, base_roots: frozenset[str], head_roots: frozenset[str]) -> list[Finding]:
    out: list[Finding] = []
    for c in changes:
        if c.status == "D" and catalog.is_protected(c.path, base_roots):
            out.append(file_finding("IG904", c.path, f"agent file deleted: {c.path}", kind=catalog.classify(c.path, base_roots)))
        elif c.status == "R" and c.old_path and posixpath.basename(c.path).lower() == "skill.md":
            old_root, new_root = posixpath.dirname(c.old_path), posixpath.dirname(c.path)
            if old_root != new_root:
                out.append(file_finding("IG905", c.path, f"skill moved from {old_root or '.'}/ to {new_root or '.'}/", old_path=c.old_path))
    for f in out:
        f.new = True
    return out


@dataclass
class AgentView:
    paths: list[str]  # the paths to classify: the given ones plus agent paths through links
    roots: frozenset[str]  # skill folders, including those reached through links
    resolved: dict[str, Resolved]  # path -> what an agent reaches, for every path a link is on
    whole: frozenset[str]  # paths that are new to agents as a whole (a link added or changed)
    findings: list[Finding]  # submodules at agent folders


def agent_view(repo: str, rev: str, paths: list[str], roots: frozenset[str], changed: set[str] | None,
               catalog: Catalog) -> AgentView:
    """The scope as agents see the checkout: links inside the repository resolved (a changed link, or
    a change to what a link points at, brings the paths behind it into a `changed` scope), and
    submodules at agent folders (`.claude` as a gitlink) reported."""
    tree = GitTree.load(repo, rev)
    every = tree.agent_paths() if tree.links else {}
    if changed is None:
        keep = every
    else:
        keep = {v: r for v, r in every.items()
                if v in changed or (r.real is not None and r.real in changed) or any(link in changed for link in r.via)}
    all_roots = union_roots(roots, skill_roots(every))
    whole = frozenset() if changed is None else frozenset(v for v, r in keep.items() if any(link in changed for link in r.via))
    found: list[Finding] = []
    for g in sorted(tree.gitlinks):
        if (changed is None or g in changed) and catalog.classify(g, all_roots) is None \
                and at_agent_location(g, catalog, all_roots):
            f = gitlink_finding(g)
            f.new = True if changed is not None else None
            found.append(f)
    return AgentView(sorted(set(paths) | set(keep)), all_roots, keep, whole, found)


def build_scope(repo: str, event: Event, config: Config, scope: str = "changed",
                fetch_pull_files: PullFilesFetcher | None = None) -> Scope:
    """What `event` changed (event intake, scanner/github/change.py) and the targets it brings
    into a `scope` ("changed" or "all") scan, read from the head commit's objects."""
    if scope not in SCOPES:
        raise ScopeError(f"scan-scope: use changed or all, not {scope!r}")
    catalog = Catalog(config.include, config.exclude)
    change = read_change(repo, event, fetch_pull_files)
    head, base, notes = change.head, change.base, list(change.notes)
    if not change.compared:
        every = gitutil.ls_tree(repo, head)
        view = agent_view(repo, head, every, skill_roots(every), None, catalog)
        found: list[Finding] = list(view.findings)
        ts = targets_from_git(repo, head, view.paths, view.roots, catalog, config.limits, None, None, view.resolved, found)
        if not notes:
            notes.append(f"{event.name}: no earlier commit to compare with; every agent file in {head[:12]} was scanned")
        return Scope(ts, None, head, skill_roots=ts.skill_roots, history=False, notes=notes, findings=found)
    changes, lines = change.files, dict(change.changed_lines)
    in_scope = [c.path for c in changes if c.status != "D"]
    truncated = change.list_cut
    imported: dict[str, str] = {}
    newly_imported: set[str] = set()
    if scope == "all" or truncated:
        every = gitutil.ls_tree(repo, head)
        paths, head_roots = every, skill_roots(every)
        if truncated:
            notes.append(f"GitHub listed {change.listed} of the pull request's files (it stops at {REST_FILE_LIMIT:,}), so "
                         f"every agent file of {head[:12]} was scanned instead of the changed ones")
        # Every agent file of the head: what they import is scanned too, as the CLI's walk does.
        imported = imported_files(repo, head, catalog, head_roots, every)
        paths = sorted(set(paths) | set(imported))
    else:
        # Scope follows what agents load: a change anywhere in a skill folder (a new SKILL.md that
        # turns an old script into a skill script, an edited helper, a deleted file) scans the whole
        # folder; a changed file that an agent file imports is scanned as an agent file.
        touched = [c.path for c in changes] + [c.old_path for c in changes if c.old_path]
        head_roots = skill_roots_around(repo, head, touched)
        hit = sorted({r for p in touched if (r := skill_root_of(p, head_roots)) is not None})
        # Likewise a plugin whose marker the change adds or edits (`x/.claude-plugin/plugin.json`):
        # its commands, agents, hooks and skills become agent files without a change of their own.
        hit = sorted(set(hit) | set(layout_roots(touched)))
        paths = sorted(set(in_scope) | set(gitutil.ls_tree_under(repo, head, hit))) if hit else in_scope
        imported = imported_files(repo, head, catalog, head_roots, in_scope, newly_imported, base)
        paths = sorted(set(paths) | set(imported))
    gone = [p for c in changes for p in ((c.path,) if c.status == "D" else (c.old_path,) if c.old_path else ())]
    base_roots = skill_roots_around(repo, base, gone) if base and gone else frozenset()
    for c in changes:
        # Content renamed or copied into an agent file is new to agents even where no line changed.
        if c.status in "RC" and c.old_path and catalog.is_protected(c.path, head_roots) \
                and not catalog.is_protected(c.old_path, base_roots):
            lines[c.path] = WHOLE_FILE
    touched_set = None if (scope == "all" or truncated) else {p for c in changes for p in (c.path, c.old_path) if p}
    view = agent_view(repo, head, paths, head_roots, touched_set, catalog)
    found = change_findings(changes, catalog, base_roots, view.roots)
    found.extend(view.findings)
    ts = targets_from_git(repo, head, view.paths, view.roots, catalog, config.limits, None if truncated else lines,
                          imported, view.resolved, found, view.whole | frozenset(newly_imported))
    return Scope(ts, base, head, changes, lines, union_roots(view.roots, base_roots), change.source, change.history,
                 notes, found)
