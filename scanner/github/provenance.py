"""Provenance facts: who opened a pull request, who authored the commits that touched given
paths, and whether the project trusts them.

External, as issue 4 defines it:
  1. the pull request's author_association is not OWNER, MEMBER or COLLABORATOR and the login is
     not in trusted-users;
  2. the pull request comes from a fork (or from a deleted repository);
  3. a commit in base..head touching a protected path was authored by someone untrusted. Trusted
     commit authors: emails with commits in the base branch's history, trusted-users (logins or
     emails), and a trusted pull request author's own GitHub noreply addresses. Bots are judged
     like people unless trusted by name (e.g. `dependabot[bot]` in trusted-users).
This module answers for whatever paths it is given; which paths are protected, and the findings
for them, are decided after the targets are known (scanner/engines/provenance_findings.py). Git
author emails are not authenticated: rule 3 catches mistakes and smuggled commits, not an author
who forges a maintainer's address; rules 1 and 2 come from GitHub itself.
"""
from __future__ import annotations

from .. import gitutil, identity
from ..authors import UNOWNED_EMAILS, TrustedAuthors
from ..config import Config
from .event import Event


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


def author_reasons(event: Event, trusted_users: tuple[str, ...]) -> list[str]:
    """Why the pull request itself is external (rules 1 and 2); empty when it is not."""
    reasons: list[str] = []
    who = f"@{event.author_login}" if event.author_login else "an unknown author"
    if not event.author_is_trusted(trusted_users):
        reasons.append(f"{who} is {event.author_association or 'NONE'}, not an owner, member or collaborator, and not in trusted-users")
    if event.fork:
        reasons.append(f"the pull request comes from {'the fork ' + event.head_repository if event.head_repository else 'a deleted repository'}")
    return reasons


def commits_touching(repo: str, base: str, head: str, paths: set[str]) -> list[gitutil.Commit]:
    """The commits of base..head that touch any of `paths`, in git log's order."""
    return [c for c in gitutil.log_authors(repo, f"{base}..{head}") if paths.intersection(c.paths)]


def agent_of_commit(repo: str, commit: gitutil.Commit, login: str | None) -> tuple[str, str] | None:
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
