"""What an event changed: the commits a scan compares and the paths changed between them.

Facts only, read from git objects of the clone (never the working tree): the head commit whose
content is read, the commit it is compared with (the merge base for pull requests), each changed
path with its status, and the head-side lines each change adds. Which of those paths agents load
is the targets stage's question (scanner/git_targets.py). When the clone lacks the history needed
(a shallow checkout), the pull request's file list from the REST API is used instead, and whether
GitHub may have cut that list is reported (it stops at 3,000 files); without a token the error
says to set `fetch-depth: 0`. The configuration is read as the base commit holds it, so a pull
request cannot change its own scan.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable

from .. import gitutil
from ..config import DEFAULT_PATH as CONFIG_PATH
from ..config import Config, ConfigError, load_text
from ..errors import UsageError
from .event import Event

FETCH_ADVICE = "set `fetch-depth: 0` on actions/checkout"


class ScopeError(UsageError):
    """The change cannot be scoped; the message says what to change in the workflow."""


@dataclass(frozen=True)
class FileChange:
    status: str  # A, M, D, R, C, T
    path: str
    old_path: str | None = None


@dataclass
class Change:
    """What the event changed, as git (or GitHub's file list) tells it."""
    head: str  # the commit whose content is read
    base: str | None  # the commit compared with (the merge base for pull requests); None: no diff
    compared: bool = True  # False: the event has no earlier commit to compare with
    files: list[FileChange] = field(default_factory=list)
    changed_lines: dict[str, frozenset[int]] = field(default_factory=dict)
    source: str = "git"  # "git", or "rest-api" when the file list came from GitHub
    listed: int = 0  # files in GitHub's list (source "rest-api")
    list_cut: bool = False  # GitHub's list may be incomplete
    notes: list[str] = field(default_factory=list)

    @property
    def history(self) -> bool:
        """base..head commits are in the clone (for provenance)."""
        return self.base is not None


# (repository, pull number) -> GitHub's file list entries: {"filename", "status", "previous_filename", "patch"}
PullFilesFetcher = Callable[[str, int], list[dict]]

# GitHub's `GET /pulls/{n}/files` lists at most 3,000 files; a list that long may be cut.
REST_FILE_LIMIT = 3000


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


def rest_list_cut(files: list[dict], event: Event) -> bool:
    """The REST file list may be incomplete: GitHub's cap reached, or fewer files than the payload counts."""
    expected = event.extra.get("changed_files") if isinstance(event.extra, dict) else None
    return len(files) >= REST_FILE_LIMIT or (isinstance(expected, int) and expected > len(files))


def read_change(repo: str, event: Event, fetch_pull_files: PullFilesFetcher | None = None) -> Change:
    """What `event` changed, from git when the clone holds both commits, else from the pull
    request's file list; raises ScopeError (saying what to change in the workflow) when neither
    gives it."""
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
        return Change(head, None, compared=False, notes=notes)
    if mb is not None:
        changes, lines = _git_changes(repo, mb, head)
        return Change(head, mb, files=changes, changed_lines=lines)
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
    return Change(head, None, files=changes, changed_lines=lines, source="rest-api", listed=len(files),
                  list_cut=rest_list_cut(files, event), notes=notes)
