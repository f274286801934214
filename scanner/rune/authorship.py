"""Who changed `.rune/` state: commits by authors outside the trusted set.

The trusted set is the Action's (scanner/authors.py, as scanner/github/provenance.py builds it): emails with commits in the base
history, `trusted-users` logins or emails, GitHub noreply forms of trusted logins. Outside a pull
request there is no base unless one is given, so the set is `trusted-users` alone; with neither,
the check says it did not run rather than passing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import gitutil
from ..config import Config
from ..authors import UNOWNED_EMAILS, TrustedAuthors
from . import is_rune_path

MAX_COMMITS = 20  # per file in one finding; the rest are counted


@dataclass
class Authorship:
    checked: bool
    note: str = ""
    by_path: dict[str, list[gitutil.Commit]] = field(default_factory=dict)  # untrusted commits, newest first


def trusted_set(repo: str, config: Config, base: str | None) -> TrustedAuthors | None:
    emails = {u.strip().lower() for u in config.trusted_users if "@" in u}
    logins = {u.strip().lower() for u in config.trusted_users if "@" not in u}
    if base:
        emails |= gitutil.authors_in_history(repo, base)
    if not emails and not logins:
        return None
    return TrustedAuthors(frozenset(emails - UNOWNED_EMAILS), frozenset(logins))


def untrusted_rune_commits(repo: str, rune_paths: list[str], config: Config, base: str | None = None,
                           head: str = "HEAD", trusted: TrustedAuthors | None = None) -> Authorship:
    """Commits (base..head, or all of head's history) touching the rune files by untrusted authors."""
    paths = [p for p in rune_paths if is_rune_path(p)]
    if not paths:
        return Authorship(True, "no .rune/ files")
    try:
        if not gitutil.is_repository(repo):
            return Authorship(False, "authorship not checked: not a git repository")
        if base is not None:
            base = gitutil.rev_parse(repo, base)
        trusted = trusted or trusted_set(repo, config, base)
        if trusted is None:
            return Authorship(False, "authorship not checked: no trusted set (list trusted-users in the configuration, "
                                     "or give a base revision whose authors are trusted)")
        top = gitutil.top_level(repo)
        import os

        rel = os.path.relpath(os.path.realpath(repo), os.path.realpath(top)).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        rev_range = f"{base}..{head}" if base else head
        commits = gitutil.log_authors(top, rev_range, [prefix + p for p in paths])
    except gitutil.GitError as exc:
        return Authorship(False, f"authorship not checked: {exc}")
    result = Authorship(True)
    wanted = {prefix + p: p for p in paths}
    for c in commits:
        if trusted.trusts(c.author_email):
            continue
        for p in c.paths:
            if p in wanted:
                result.by_path.setdefault(wanted[p], []).append(c)
    return result


def findings(auth: Authorship, engine: str = "integrity") -> list:
    """One IG805 finding per `.rune/` file with commits by untrusted authors."""
    from ..findings import file_finding

    out = []
    for path, commits in sorted(auth.by_path.items()):
        listed = ", ".join(f"{c.sha[:10]} by {c.author_name} <{c.author_email}>" for c in commits[:5])
        more = f" and {len(commits) - 5} more" if len(commits) > 5 else ""
        f = file_finding("IG805", path, f"{path} changed by author(s) outside the trusted set: {listed}{more}",
                         commits=[{"sha": c.sha, "author": c.author_name, "email": c.author_email}
                                  for c in commits[:MAX_COMMITS]])
        f.engine = engine
        out.append(f)
    return out
