"""Provenance: who changed the agent files of a pull request, and whether the project trusts them.

External, as issue 4 defines it:
  1. the pull request's author_association is not OWNER, MEMBER or COLLABORATOR and the login is
     not in trusted-users;
  2. the pull request comes from a fork (or from a deleted repository);
  3. a commit in base..head touching a protected path was authored by someone untrusted. Trusted
     commit authors: emails with commits in the base branch's history, trusted-users (logins or
     emails), and a trusted pull request author's own GitHub noreply addresses. Bots are judged
     like people unless trusted by name (e.g. `dependabot[bot]` in trusted-users).
Protected paths: the agent-file catalog (which includes this tool's configuration and trust
store), plus a configuration path or trust store named elsewhere.

Every protected file an external contributor changed gets its own finding (IG901, or IG902 for
an untrusted commit inside a trusted author's pull request), even when its content is clean;
its severity comes from `provenance.external-severity`. A change to the tool's own configuration
is always reported (IG903). Git author emails are not authenticated: rule 3 catches mistakes and
smuggled commits, not an author who forges a maintainer's address; rules 1 and 2 come from
GitHub itself. Only pull requests are assessed; pushes and manual runs are scanned for content.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import hashlib

from .. import gitutil, identity
from ..authors import UNOWNED_EMAILS, TrustedAuthors
from ..agent_map import Catalog
from ..config import DEFAULT_PATH as CONFIG_PATH
from ..config import Config
from ..models import Finding, Span
from ..inert import visible
from .event import Event
from ..git_targets import Scope
from .change import FileChange

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


def trusted_authors(repo: str, event: Event, config: Config, base_rev: str | None) -> TrustedAuthors:
    emails = {u.strip().lower() for u in config.trusted_users if "@" in u}
    logins = {u.strip().lower() for u in config.trusted_users if "@" not in u}
    if base_rev:
        emails |= gitutil.authors_in_history(repo, base_rev)
    if event.author_login and event.author_is_trusted(config.trusted_users):
        login = event.author_login.lower()
        logins.add(login)
        emails.add(f"{login}@users.noreply.github.com")
        if event.author_id is not None:
            emails.add(f"{event.author_id}+{login}@users.noreply.github.com")
    return TrustedAuthors(frozenset(emails - UNOWNED_EMAILS), frozenset(logins))


def _finding(rule_id: str, change: FileChange, message: str, scope: Scope, config: Config, severity=None, **props) -> Finding:
    from ..findings import file_finding

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
    who = f"@{event.author_login}" if event.author_login else "an unknown author"
    if not event.author_is_trusted(config.trusted_users):
        prov.reasons.append(f"{who} is {event.author_association or 'NONE'}, not an owner, member or collaborator, and not in trusted-users")
    if event.fork:
        prov.reasons.append(f"the pull request comes from {'the fork ' + event.head_repository if event.head_repository else 'a deleted repository'}")
    protected = {p for c in prov.protected_changes for p in (c.path, c.old_path) if p}
    touched_by: dict[str, list[gitutil.Commit]] = {}
    if scope.history and scope.base and protected:
        trusted = trusted_authors(repo, event, config, event.base_sha if gitutil.commit_exists(repo, event.base_sha or "") else scope.base)
        logins = commit_logins or {}
        for commit in gitutil.log_authors(repo, f"{scope.base}..{scope.head}"):
            hit = protected.intersection(commit.paths)
            if not hit or trusted.trusts(commit.author_email, logins.get(commit.sha)):
                continue
            prov.untrusted_commits.append(commit)
            for p in hit:
                touched_by.setdefault(p, []).append(commit)
        if prov.untrusted_commits:
            authors = sorted({visible(c.author_email, 80) for c in prov.untrusted_commits})
            prov.reasons.append(f"{len(prov.untrusted_commits)} commit(s) touching agent files by untrusted author(s): {', '.join(authors)}")
    elif protected and not scope.history:
        prov.notes.append("commit authors were not checked: the clone has no history for base..head (set `fetch-depth: 0`)")
    if protected:
        prov.findings.extend(_agent_edits(repo, event, scope, config, prov.protected_changes, commit_logins or {}))
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


def _agent_of_commit(repo: str, commit: gitutil.Commit, login: str | None) -> tuple[str, str] | None:
    """(agent, how) when a coding agent authored, committed or co-authored the commit."""
    for how, agent in (("author", identity.agent_for(commit.author_name, commit.author_email, login or "")),
                       ("committer", identity.agent_for(commit.committer_name, commit.committer_email))):
        if agent:
            return agent, how
    try:
        trailers = gitutil.co_authors(repo, commit.sha)
    except gitutil.GitError:
        trailers = []
    for value in trailers:
        agent = identity.agent_in_trailer(value)
        if agent:
            return agent, "co-author"
    return None


def _approved_in_base_store(repo: str, base: str | None, config: Config, path: str, head: str | None) -> bool:
    """The base branch's trust store approves exactly the content this change gives the file."""
    if not base or not head:
        return False
    from ..integrity.store import StoreError, loads

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
                 logins: dict[str, str]) -> list[Finding]:
    """IG910: protected files changed by a commit or a pull request that a coding agent made."""
    pr_agent = identity.agent_for(login=event.author_login or "")
    by_path: dict[str, list[str]] = {}
    if scope.history and scope.base:
        paths = {p for c in changes for p in (c.path, c.old_path) if p}
        commits = gitutil.log_authors(repo, f"{scope.base}..{scope.head}")
        for commit in [c for c in commits if paths.intersection(c.paths)][:200]:
            found = _agent_of_commit(repo, commit, logins.get(commit.sha))
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
