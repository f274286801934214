"""Diff scoping: which files of a pull request (or push) are scanned, and which of their lines are new.

Content always comes from git objects of the head commit (never the working tree, never by running
anything from the change), read as an agent on a checkout would see it (scanner/github/gittree.py):
links inside the repository are followed at any level (`CLAUDE.md` -> `docs/guide.md`, `.claude`
-> a folder; scanner/tree_links.py), a link leaving it is IG951. `changed` scope follows what
agents load: the agent files the change adds, modifies or renames, every file of a skill folder the
change touches (a new SKILL.md makes an old script a skill script), every file of a plugin whose
marker it touches, plugin files classified by their plugin's marker (catalog.marker_dirs), the
paths behind a changed link, changed files an agent file imports, and the files a changed agent
file imports (scanner/imports.py over the head commit's blobs). `all` scope scans every agent file
of the head tree (and what they import) and still marks which findings sit on changed lines. A
skill's files are planned as the working-tree walk plans them (targets.plan_skill_files: the caps
protect time, not coverage). What an agent would load and git cannot give us as text (a submodule,
an LFS pointer, a blob over the cap, a skill past its scan budget) is a failing finding, never a
note, raised from the coverage engine's table (scanner/engines/unread.py; IG906 for submodules). Deleted agent files and moved skills are reported as INFO findings (IG904, IG905). When the
clone lacks the history needed (a shallow checkout), the pull request's file list from the REST API
is used instead; when that list is cut (GitHub stops at 3,000 files), every agent file of the head
is scanned; without a token the error says to set `fetch-depth: 0`.
"""
from __future__ import annotations

import dataclasses
import posixpath
from dataclasses import dataclass, field
from typing import Callable

from .. import gitutil
from ..agent_map import Catalog, Roots, layout_roots, marker_dirs, skill_root_of, skill_roots
from ..config import DEFAULT_PATH as CONFIG_PATH
from ..config import Config, ConfigError, load_text
from ..errors import UsageError
from ..models import Finding, NotScanned
from ..targets import LISTED_FAILING, Limits, Target, TargetSet, at_agent_location, plan_skill_files
from .event import Event
from .gittree import DIR, FILE, GITLINK, LOOP, MAX_HOPS, OUTSIDE, GitTree, Resolved

SCOPES = ("changed", "all")
# changed_lines value for a file whose every line is new to agents (e.g. renamed into an agent path).
WHOLE_FILE: frozenset[int] = frozenset({-1})
FETCH_ADVICE = "set `fetch-depth: 0` on actions/checkout"


class ScopeError(UsageError):
    """The change cannot be scoped; the message says what to change in the workflow."""


@dataclass(frozen=True)
class FileChange:
    status: str  # A, M, D, R, C, T
    path: str
    old_path: str | None = None


@dataclass
class Scope:
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


# (repository, pull number) -> GitHub's file list entries: {"filename", "status", "previous_filename", "patch"}
PullFilesFetcher = Callable[[str, int], list[dict]]

# GitHub's `GET /pulls/{n}/files` lists at most 3,000 files; a list that long may be cut.
REST_FILE_LIMIT = 3000

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
    from ..imports import follow, importing_kinds

    candidates = [p for p in changed if catalog.classify(p, roots) is None]
    importers = {p for p in changed if catalog.classify(p, roots) in importing_kinds()}
    runners_changed = any(catalog.classify(p, roots) == "skill" or posixpath.basename(p) == "package.json" for p in changed)
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
    from ..runs import agent_runs

    runners = starts + [p for p, k in kinds.items() if k == "skill" and posixpath.basename(p).lower() == "skill.md"]
    runners += [p for p in every if posixpath.basename(p) == "package.json"]
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


def config_from_commit(repo: str, rev: str | None, path: str | None, explicit: bool,
                       read: Callable[[str], bytes | None] | None = None) -> tuple[Config, str]:
    """The configuration as it is at `rev` (the base): a pull request cannot change its own scan.
    `read(path)` gives the base's files when they do not come from git (the contents API)."""
    path = path or CONFIG_PATH
    if path.startswith("./"):
        path = path[2:]
    if rev is None:
        return Config(), "no base commit; built-in defaults used"
    try:
        blob = read(path) if read is not None else gitutil.read_blob(repo, rev, path)
    except gitutil.GitError as exc:
        raise ConfigError(f"{path}: cannot read it from the base commit ({exc})") from None
    if blob is None:
        if explicit:
            return Config(), f"{path} does not exist in the base commit {rev[:12]}; built-in defaults used"
        return Config(), f"no {path} in the base commit; built-in defaults used"
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} in the base commit is not UTF-8 text") from None
    return load_text(text, f"{path}@{rev[:12]}"), f"configuration read from {path} in the base commit {rev[:12]}"


def parse_patch(patch: str) -> frozenset[int]:
    """Head-side lines added or modified, from a unified diff hunk text (the REST API's `patch`)."""
    lines: set[int] = set()
    current = 0
    for line in patch.split("\n"):
        if line.startswith("@@ "):
            plus = line.split(" ")[2]
            start, _, _count = plus[1:].partition(",")
            current = int(start)
        elif line.startswith("+"):
            lines.add(current)
            current += 1
        elif line.startswith("-") or line.startswith("\\"):
            continue
        else:
            current += 1
    return frozenset(lines)


_API_STATUS = {"added": "A", "removed": "D", "modified": "M", "renamed": "R", "copied": "C", "changed": "T"}


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
    from ..findings import file_finding

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
        if entry.size is not None and entry.size > limits.max_file_bytes and not entry.is_link:
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


def _git_changes(repo: str, base: str, head: str) -> tuple[list[FileChange], dict[str, frozenset[int]]]:
    changes = [FileChange(c.status, c.path, c.old_path) for c in gitutil.diff_name_status(repo, base, head)]
    lines = gitutil.changed_lines_by_path(repo, base, head)
    return changes, lines


def _api_changes(files: list[dict]) -> tuple[list[FileChange], dict[str, frozenset[int]]]:
    changes: list[FileChange] = []
    lines: dict[str, frozenset[int]] = {}
    for f in files:
        path = str(f.get("filename") or "")
        if not path:
            continue
        status = _API_STATUS.get(str(f.get("status")), "M")
        changes.append(FileChange(status, path, f.get("previous_filename")))
        if isinstance(f.get("patch"), str):
            lines[path] = parse_patch(f["patch"])
    return changes, lines


def change_findings(changes: list[FileChange], catalog: Catalog, base_roots: frozenset[str], head_roots: frozenset[str]) -> list[Finding]:
    from ..findings import file_finding

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


def rest_list_cut(files: list[dict], event: Event) -> bool:
    """The REST file list may be incomplete: GitHub's cap reached, or fewer files than the payload counts."""
    expected = event.extra.get("changed_files") if isinstance(event.extra, dict) else None
    return len(files) >= REST_FILE_LIMIT or (isinstance(expected, int) and expected > len(files))


def build_scope(repo: str, event: Event, config: Config, scope: str = "changed",
                fetch_pull_files: PullFilesFetcher | None = None) -> Scope:
    if scope not in SCOPES:
        raise ScopeError(f"scan-scope: use changed or all, not {scope!r}")
    catalog = Catalog(config.include, config.exclude)
    head = event.head_sha
    notes: list[str] = []
    head_present = gitutil.commit_exists(repo, head)
    base_present = event.base_sha is not None and gitutil.commit_exists(repo, event.base_sha)
    mb = gitutil.merge_base(repo, event.base_sha, head) if head_present and base_present else None
    if event.base_sha is not None and not event.is_pull_request and head_present and not base_present:
        # A push checked out shallowly (the default depth 1): scanning every agent file is still
        # complete, just wider than the change.
        notes.append(f"the push's earlier commit {event.base_sha[:12]} is not in the clone, so every agent file "
                     f"was scanned ({FETCH_ADVICE} to scan only what the push changed)")
        event = dataclasses.replace(event, base_sha=None)
    if event.base_sha is None:
        if not head_present:
            raise ScopeError(f"commit {head[:12]} is not in the clone; check out the commit that triggered the workflow")
        every = gitutil.ls_tree(repo, head)
        view = agent_view(repo, head, every, skill_roots(every), None, catalog)
        found: list[Finding] = list(view.findings)
        ts = targets_from_git(repo, head, view.paths, view.roots, catalog, config.limits, None, None, view.resolved, found)
        if not notes:
            notes.append(f"{event.name}: no earlier commit to compare with; every agent file in {head[:12]} was scanned")
        return Scope(ts, None, head, skill_roots=ts.skill_roots, history=False, notes=notes, findings=found)
    files: list[dict] = []
    if mb is not None:
        changes, lines = _git_changes(repo, mb, head)
        source, history = "git", True
    else:
        shallow = gitutil.is_shallow(repo) if gitutil.is_repository(repo) else False
        missing = "base" if head_present else "head"
        why = f"the {missing} commit {(event.base_sha if missing == 'base' else head)[:12]} is not in the clone" + (" (shallow checkout)" if shallow else "")
        if not event.is_pull_request or fetch_pull_files is None:
            raise ScopeError(f"{why}; {FETCH_ADVICE}" + ("" if not event.is_pull_request else ", or give the action a token so it can list the pull request's files"))
        try:
            files = fetch_pull_files(event.repository, event.pr_number)
        except Exception as exc:  # the API client's errors are varied; any failure means no file list
            raise ScopeError(f"{why}, and the pull request's file list could not be fetched ({exc}); {FETCH_ADVICE}") from None
        changes, lines = _api_changes(files)
        source, history = "rest-api", False
        if not head_present:
            if event.name != "pull_request":
                # pull_request_target checks out the base: GITHUB_SHA holds none of the pull request's content.
                raise ScopeError(f"{why}; fetch it without checking it out (a step running "
                                 f"`git fetch --no-tags origin {head}`) before the action")
            # The checkout is GitHub's merge commit; its tree holds the pull request's version of each changed file.
            head = event.commit_sha
            if not gitutil.commit_exists(repo, head):
                raise ScopeError(f"{why} and neither is {head[:12]}; {FETCH_ADVICE}")
        notes.append(f"{why}; the pull request's file list came from the REST API and commit authorship was not checked ({FETCH_ADVICE} to check it)")
    in_scope = [c.path for c in changes if c.status != "D"]
    truncated = source == "rest-api" and rest_list_cut(files, event)
    imported: dict[str, str] = {}
    newly_imported: set[str] = set()
    if scope == "all" or truncated:
        every = gitutil.ls_tree(repo, head)
        paths, head_roots = every, skill_roots(every)
        if truncated:
            notes.append(f"GitHub listed {len(files)} of the pull request's files (it stops at {REST_FILE_LIMIT:,}), so "
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
        imported = imported_files(repo, head, catalog, head_roots, in_scope, newly_imported, mb)
        paths = sorted(set(paths) | set(imported))
    gone = [p for c in changes for p in ((c.path,) if c.status == "D" else (c.old_path,) if c.old_path else ())]
    base_roots = skill_roots_around(repo, mb, gone) if mb and gone else frozenset()
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
    return Scope(ts, mb, head, changes, lines, union_roots(view.roots, base_roots), source, history, notes, found)
