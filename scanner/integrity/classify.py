"""Git-aware classification of trusted files that no longer match their baseline.

Each trusted file ends in exactly one state, and every state says how it was decided:
- ok: the bytes still hash to the approved sha256;
- changed-in-commit: the committed content differs; the commits since the approved version
  (which commit, which author) are listed;
- uncommitted-change: the working tree differs from HEAD (or the file was never committed);
- removed: the file is gone, in a commit (named) or from the working tree only;
- new-untrusted: an agent file the store does not list;
- unclassified: the file does not match but git is missing or this is not a repository; the
  mismatch is still reported, with the reason the cause is unknown.
The match decision never depends on git: sha256 of the bytes against the store.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field

from .. import gitutil
from .store import TrustEntry, TrustStore, git_blob_id, read_bytes

OK = "ok"
CHANGED_IN_COMMIT = "changed-in-commit"
UNCOMMITTED = "uncommitted-change"
REMOVED = "removed"
NEW_UNTRUSTED = "new-untrusted"
UNCLASSIFIED = "unclassified"
MISMATCH_STATES = (CHANGED_IN_COMMIT, UNCOMMITTED, REMOVED, UNCLASSIFIED)

MAX_COMMITS_LISTED = 10  # per file; the rest are counted
MAX_HISTORY = 5000  # commits read from history in one classification


@dataclass(frozen=True)
class CommitRef:
    sha: str
    author_name: str
    author_email: str
    date: str

    @property
    def short(self) -> str:
        return self.sha[:12]

    def describe(self) -> str:
        return f"{self.short} by {self.author_name} <{self.author_email}>"


@dataclass(frozen=True)
class FileStatus:
    path: str
    state: str
    detail: str
    trusted: TrustEntry | None = None
    current_sha256: str | None = None
    commits: tuple[CommitRef, ...] = ()  # newest first
    more_commits: int = 0

    @property
    def mismatch(self) -> bool:
        return self.state in MISMATCH_STATES

    @property
    def removed(self) -> bool:
        return self.state == REMOVED or (self.state == UNCLASSIFIED and self.current_sha256 is None)


@dataclass
class _Pending:
    entry: TrustEntry
    data: bytes | None  # None: absent from the working tree
    current: str | None


@dataclass
class _GitView:
    prefix: str  # the scanned root relative to the repository top, "" or "sub/dir/"
    head_blobs: dict[str, str] = field(default_factory=dict)  # root-relative path -> blob id at HEAD
    has_head: bool = True


def classify(root: str, store: TrustStore, paths: list[str] | None = None,
             untrusted: list[str] = ()) -> list[FileStatus]:
    """States of the trusted files (all, or those named), plus `untrusted` agent files as new."""
    chosen = sorted(store.entries) if paths is None else [p for p in paths if p in store.entries]
    results: list[FileStatus] = []
    pending: list[_Pending] = []
    for path in chosen:
        entry = store.entries[path]
        data = read_bytes(root, path)
        current = hashlib.sha256(data).hexdigest() if data is not None else None
        if current == entry.sha256:
            results.append(FileStatus(path, OK, "matches the approved content", entry, current))
        else:
            pending.append(_Pending(entry, data, current))
    for path in sorted(set(untrusted) - set(store.entries)):
        data = read_bytes(root, path)
        current = hashlib.sha256(data).hexdigest() if data is not None else None
        results.append(FileStatus(path, NEW_UNTRUSTED, "agent file not in the trust store", None, current))
    if pending:
        results.extend(_classify_mismatches(root, pending))
    return sorted(results, key=lambda s: s.path)


def _git_view(root: str, paths: list[str]) -> _GitView | str:
    """HEAD's blob ids for the paths, or a one-line reason git cannot classify."""
    try:
        # Not gitutil.is_repository: it folds "git is missing" into False, and the two differ here.
        inside = gitutil.run_git(root, "rev-parse", "--is-inside-work-tree", ok_codes=(0, 128))
        if inside.strip() != b"true":
            return "not a git repository"
        top = os.path.realpath(gitutil.top_level(root))
        rel = os.path.relpath(os.path.realpath(root), top).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        view = _GitView(prefix)
        try:
            gitutil.rev_parse(root, "HEAD")
        except gitutil.GitError:
            view.has_head = False
            return view
        for e in gitutil.ls_tree_entries(root, "HEAD", [prefix + p for p in paths]):
            if e.path.startswith(prefix):
                view.head_blobs[e.path[len(prefix):]] = e.sha
        return view
    except gitutil.GitError as exc:
        return str(exc)


def _history(root: str, view: _GitView, paths: list[str]) -> dict[str, list[tuple[CommitRef, str, str, str]]]:
    """Per root-relative path, newest first: (commit, status letter, old blob, new blob)."""
    fmt = "%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f"
    out = gitutil.run_git(root, "log", "-z", "--raw", "--no-abbrev", "--no-renames", f"--format={fmt}",
                          f"--max-count={MAX_HISTORY}", "--end-of-options", "HEAD", "--",
                          *(":(top,literal)" + view.prefix + p for p in paths))
    by_path: dict[str, list[tuple[CommitRef, str, str, str]]] = {}
    for rec in out.split(b"\x1e"):
        if not rec:
            continue
        parts = rec.split(b"\x1f", 4)
        if len(parts) < 5:
            continue
        sha, an, ae, date, tail = (p.decode("utf-8", "surrogateescape") for p in parts)
        ref = CommitRef(sha, an, ae.lower(), date)
        fields = tail.lstrip("\n").split("\0")
        i = 0
        while i + 1 < len(fields):
            meta = fields[i].strip("\n")
            if not meta.startswith(":"):
                i += 1
                continue
            bits = meta[1:].split()
            git_path = fields[i + 1]
            i += 2
            if len(bits) < 5 or not git_path.startswith(view.prefix):
                continue
            by_path.setdefault(git_path[len(view.prefix):], []).append((ref, bits[4][:1], bits[2], bits[3]))
    return by_path


def _since_approved(entry: TrustEntry, touches: list[tuple[CommitRef, str, str, str]]) -> tuple[list[CommitRef], bool]:
    """Commits after the approved version, newest first, and whether that version was found."""
    since: list[CommitRef] = []
    for ref, _status, old, new in touches:
        if entry.git_blob and new == entry.git_blob:
            return since, True
        since.append(ref)
        if entry.git_blob and old == entry.git_blob:
            return since, True
    return since, False


def _classify_mismatches(root: str, pending: list[_Pending]) -> list[FileStatus]:
    paths = [p.entry.path for p in pending]
    view = _git_view(root, paths)
    if isinstance(view, str):
        return [_unclassified(p, f"cause unknown: {view}; the mismatch stands") for p in pending]
    need_history = [p.entry.path for p in pending
                    if view.has_head and (p.data is None or view.head_blobs.get(p.entry.path) != p.entry.git_blob)]
    try:
        history = _history(root, view, need_history) if need_history else {}
    except gitutil.GitError as exc:
        return [_unclassified(p, f"cause unknown: {exc}; the mismatch stands") for p in pending]
    results = []
    for p in pending:
        path, entry = p.entry.path, p.entry
        head_blob = view.head_blobs.get(path)
        commits, found = _since_approved(entry, history.get(path, []))
        listed, more = tuple(commits[:MAX_COMMITS_LISTED]), max(len(commits) - MAX_COMMITS_LISTED, 0)
        note = "" if found or not commits else "; the approved version is not in this history (shallow clone, or approved before it was committed)"
        if p.data is None:
            if head_blob is not None:
                results.append(FileStatus(path, REMOVED, "deleted from the working tree, not committed", entry, None))
            elif commits:
                results.append(FileStatus(path, REMOVED, f"removed in commit {commits[0].describe()}{note}", entry, None, listed, more))
            else:
                results.append(FileStatus(path, REMOVED, "absent, and not in HEAD", entry, None))
            continue
        if head_blob is None:
            results.append(FileStatus(path, UNCOMMITTED, "changed in the working tree; the file is not committed", entry, p.current))
        elif git_blob_id(p.data) != head_blob:
            extra = ""
            if head_blob != entry.git_blob and commits:
                extra = f"; HEAD also differs since commit {commits[-1].describe()}"
            results.append(FileStatus(path, UNCOMMITTED, "uncommitted working-tree change" + extra, entry, p.current, listed, more))
        elif commits:
            first = commits[-1]
            later = f" and {len(commits) - 1} later commit(s)" if len(commits) > 1 else ""
            results.append(FileStatus(path, CHANGED_IN_COMMIT, f"changed in commit {first.describe()}{later}{note}", entry, p.current, listed, more))
        else:
            results.append(FileStatus(path, CHANGED_IN_COMMIT, "committed content differs, but no commit touching it was found", entry, p.current))
    return results


def _unclassified(p: _Pending, why: str) -> FileStatus:
    what = "absent" if p.data is None else "changed"
    return FileStatus(p.entry.path, UNCLASSIFIED, f"{what}; {why}", p.entry, p.current)
