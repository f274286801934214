"""Trusted commit authors, as event intake judges them: who may change the files that steer agents.

Shared by the Action's provenance (scanner/github/provenance.py, pull requests) and by `.rune/`
authorship (scanner/rune/authorship.py, a checkout), so neither stage imports the other for it.
Trusted: emails with commits in the base history, `trusted-users` logins or emails, and GitHub
noreply forms of trusted logins. Git author emails are not authenticated (see provenance.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_NOREPLY = re.compile(r"^(?:(\d+)\+)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\[bot\])?)@users\.noreply\.github\.com$")
# Addresses anyone can write into a commit and that name no person.
UNOWNED_EMAILS = frozenset({"noreply@github.com", ""})


def noreply_login(email: str) -> str | None:
    m = _NOREPLY.match(email.strip().lower())
    return m.group(2) if m else None


@dataclass(frozen=True)
class TrustedAuthors:
    emails: frozenset[str]
    logins: frozenset[str]

    def trusts(self, email: str, login: str | None = None) -> bool:
        email = email.strip().lower()
        if email in self.emails and email not in UNOWNED_EMAILS:
            return True
        login = (login or noreply_login(email) or "").lower()
        return bool(login) and login in self.logins
