"""`scan --staged`: what is about to be committed, scoped the way the Action scopes a pull request.

The pre-commit hook used to pass pre-commit's own file list through a regex kept by hand beside
the agent map, so a staged plugin command, a file an agent file imports or a script an agent file
runs was never seen. Instead the index is written as a tree and wrapped in a commit object that no
ref points at (`git write-tree`, `git commit-tree`: objects only, no ref, no working-tree change),
and that commit is compared with HEAD by the same scoping as a pull request (git_targets.py):
the changed agent files, whole skill and plugin folders a change touches, imports and the paths
behind links, all read from git objects. Baselines and configuration come from the working tree,
as a plain `scan` reads them (pre-commit stashes unstaged edits, so the tree holds what is staged).
"""
from __future__ import annotations

from .. import gitutil
from ..config import Config
from ..engines import run_engines
from ..errors import UsageError
from ..git_targets import build_scope
from ..github.event import Event
from ..models import ScanResult
from ..policy import apply

# Used only when git has no identity configured: the commit object is never referenced.
_IDENTITY = ("-c", "user.name=instruction-guard", "-c", "user.email=instruction-guard@localhost")


def staged_commit(repo: str) -> tuple[str, str | None]:
    """(commit holding the index, HEAD or None before the first commit)."""
    try:
        tree = gitutil.run_git(repo, "write-tree").decode("ascii").strip()
    except gitutil.GitError as exc:
        raise UsageError(f"--staged: git cannot write the index as a tree ({exc}); resolve merge conflicts first") from None
    try:
        head: str | None = gitutil.rev_parse(repo, "HEAD^{commit}")
    except gitutil.GitError:
        head = None
    parents = ("-p", head) if head else ()
    args = ("commit-tree", tree, *parents, "-m", "instruction-guard: staged changes")
    try:
        commit = gitutil.run_git(repo, *args)
    except gitutil.GitError:
        commit = gitutil.run_git(repo, *_IDENTITY, *args)
    return commit.decode("ascii").strip(), head


def scan_staged(root: str, config: Config) -> ScanResult:
    if not gitutil.is_repository(root):
        raise UsageError(f"--staged: {root} is not inside a git repository")
    repo = gitutil.top_level(root)
    commit, head = staged_commit(repo)
    event = Event(name="pre-commit", repository="local", head_sha=commit, base_sha=head)
    scope = build_scope(repo, event, config, "changed")
    result = run_engines(scope.targets, config)
    result.findings.extend(scope.findings)
    result.notes.extend(scope.notes)
    return apply(result, config)
