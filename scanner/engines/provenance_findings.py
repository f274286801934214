"""Provenance findings: protected files a pull request changed, judged by who changed them.

Protected paths: the agent-file catalog (which includes this tool's configuration and trust
store), plus a configuration path or trust store named elsewhere. Who changed them, and whether
the project trusts them, are event intake's facts (scanner/github/provenance.py, which defines
"external"). Every protected file an external contributor changed gets its own finding (IG901, or
IG902 for an untrusted commit inside a trusted author's pull request), even when its content is
clean; its severity comes from `provenance.external-severity`. A change to the tool's own
configuration is always reported (IG903), and one a coding agent made is IG910, lowered when the
base branch's trust store already approves the content. Only pull requests are assessed; pushes
and manual runs are scanned for content.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .. import gitutil, identity
from ..agent_map import Catalog
from ..config import DEFAULT_PATH as CONFIG_PATH
from ..config import Config
from ..findings import file_finding
from ..git_targets import Scope
from ..github.change import FileChange
from ..github.event import Event
from ..github.provenance import agent_of_commit, author_reasons, commits_touching, trusted_authors
from ..inert import visible
from ..integrity.store import StoreError, loads
from ..models import Finding, Span


@dataclass
class Provenance:
    assessed: bool
    external: bool = False
    reasons: list[str] = field(default_factory=list)
    untrusted_commits: list[gitutil.Commit] = field(default_factory=list)
    protected_changes: list[FileChange] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        if not self.assessed:
            return "not-assessed"
        return "external" if self.external else "trusted"


def protected_changes(scope: Scope, config: Config, config_path: str | None) -> list[FileChange]:
    catalog = Catalog(config.include, config.exclude)
    extra = {config_path or CONFIG_PATH, config.trust_store}
    out = []
    for c in scope.changes:
        paths = [c.path] + ([c.old_path] if c.old_path else [])
        if any(p in extra or catalog.is_protected(p, scope.skill_roots) for p in paths):
            out.append(c)
    return out


def is_guard_file(path: str, config: Config, config_path: str | None) -> bool:
    if path in {config_path or CONFIG_PATH, config.trust_store}:
        return True
    return Catalog(config.include, config.exclude).classify(path) == "guard"


def _finding(rule_id: str, change: FileChange, message: str, scope: Scope, config: Config, severity=None, **props) -> Finding:
    f = file_finding(rule_id, change.path, message, **props)
    lines = scope.changed_lines.get(change.path)
    if lines:
        f.span = Span(min(lines))
    f.new = True
    if severity is not None:
        f.severity = severity
    f.properties["change"] = {"A": "added", "M": "modified", "D": "deleted", "R": "renamed", "C": "copied"}.get(change.status, "changed")
    if change.old_path:
        f.properties["old-path"] = change.old_path
    return f


def assess(repo: str, event: Event, scope: Scope, config: Config, config_path: str | None = None,
           commit_logins: dict[str, str] | None = None) -> Provenance:
    """Judge the pull request's authorship and return findings for protected files it changes."""
    if not event.is_pull_request:
        return Provenance(False, notes=[f"{event.name}: provenance is assessed for pull requests only"])
    prov = Provenance(True, protected_changes=protected_changes(scope, config, config_path))
    prov.reasons.extend(author_reasons(event, config.trusted_users))
    protected = {p for c in prov.protected_changes for p in (c.path, c.old_path) if p}
    logins = commit_logins or {}
    touched_by: dict[str, list[gitutil.Commit]] = {}
    touching: list[gitutil.Commit] = []  # base..head commits touching a protected path
    if scope.history and scope.base and protected:
        trusted = trusted_authors(repo, event, config, event.base_sha if gitutil.commit_exists(repo, event.base_sha or "") else scope.base)
        touching = commits_touching(repo, scope.base, scope.head, protected)
        for commit in touching:
            if trusted.trusts(commit.author_email, logins.get(commit.sha)):
                continue
            prov.untrusted_commits.append(commit)
            for p in protected.intersection(commit.paths):
                touched_by.setdefault(p, []).append(commit)
        if prov.untrusted_commits:
            authors = sorted({visible(c.author_email, 80) for c in prov.untrusted_commits})
            prov.reasons.append(f"{len(prov.untrusted_commits)} commit(s) touching agent files by untrusted author(s): {', '.join(authors)}")
    elif protected and not scope.history:
        prov.notes.append("commit authors were not checked: the clone has no history for base..head (set `fetch-depth: 0`)")
    if protected:
        prov.findings.extend(_agent_edits(repo, event, scope, config, prov.protected_changes, touching, logins))
    prov.external = bool(prov.reasons)
    author_external = not event.author_is_trusted(config.trusted_users) or event.fork
    severity = config.provenance_severity
    for change in prov.protected_changes:
        commits = touched_by.get(change.path, []) + (touched_by.get(change.old_path, []) if change.old_path else [])
        if author_external:
            prov.findings.append(_finding(
                "IG901", change, f"{change.path} changed by an external contributor: " + "; ".join(prov.reasons[:2]),
                scope, config, severity, author=event.author_login, association=event.author_association, fork=event.fork))
        elif commits:
            listed = ", ".join(f"{c.sha[:10]} by {visible(c.author_email, 80)}" for c in commits[:5])
            prov.findings.append(_finding(
                "IG902", change, f"{change.path} changed by commit(s) from untrusted author(s): {listed}",
                scope, config, severity, commits=[c.sha for c in commits]))
        if is_guard_file(change.path, config, config_path):
            prov.findings.append(_finding(
                "IG903", change, f"{change.path} changed; this scan used the base commit's configuration, not the pull request's",
                scope, config))
    return prov


def _approved_in_base_store(repo: str, base: str | None, config: Config, path: str, head: str | None) -> bool:
    """The base branch's trust store approves exactly the content this change gives the file."""
    if not base or not head:
        return False
    raw = gitutil.read_blob(repo, base, config.trust_store)
    data = gitutil.read_blob(repo, head, path)
    if raw is None or data is None:
        return False
    try:
        entry = loads(raw, f"{config.trust_store}@{base[:12]}").get(path)
    except StoreError:
        return False
    return entry is not None and entry.sha256 == hashlib.sha256(data).hexdigest()


def _agent_edits(repo: str, event: Event, scope: Scope, config: Config, changes: list[FileChange],
                 commits: list[gitutil.Commit], logins: dict[str, str]) -> list[Finding]:
    """IG910: protected files (`changes`) changed by a commit (of `commits`, those touching them)
    or a pull request that a coding agent made."""
    pr_agent = identity.agent_for(login=event.author_login or "")
    by_path: dict[str, list[str]] = {}
    paths = {p for c in changes for p in (c.path, c.old_path) if p}
    for commit in commits[:200]:
        found = agent_of_commit(repo, commit, logins.get(commit.sha))
        if found:
            for p in paths.intersection(commit.paths):
                by_path.setdefault(p, []).append(f"{commit.sha[:10]} ({found[1]}: {found[0]})")
    base = event.base_sha if gitutil.commit_exists(repo, event.base_sha or "") else scope.base
    out = []
    for change in changes:
        if change.status == "D":
            continue
        who = by_path.get(change.path, []) + (by_path.get(change.old_path, []) if change.old_path else [])
        if not who and not pr_agent:
            continue
        how = ", ".join(who[:5]) if who else f"the pull request was opened by the agent account @{visible(event.author_login or '', 60)} ({pr_agent})"
        f = _finding("IG910", change, f"{change.path} changed by a coding agent: {visible(how, 300)}", scope, config,
                     agents=sorted({w.rsplit(': ', 1)[-1].rstrip(')') for w in who} | ({pr_agent} if pr_agent else set())))
        if _approved_in_base_store(repo, base, config, change.path, scope.head):
            f.severity = f.severity.lowered(2)
            f.properties["approved-in-trust-store"] = True
        out.append(f)
    return out
