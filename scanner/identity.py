"""Coding agents' identities (data/agent_identities.yml): who is an agent when a commit or pull
request changes the files that steer agents. Read by provenance (pull requests) and by the
integrity check (`verify`); nothing here touches the network or the environment."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .packaged import data_yaml


@dataclass(frozen=True)
class AgentIdentity:
    agent: str
    logins: frozenset[str]
    emails: frozenset[str]
    names: frozenset[str]
    email_domains: frozenset[str]
    name_suffixes: tuple[str, ...]


def _low(values) -> frozenset[str]:
    return frozenset(str(v).strip().lower() for v in values or ())


@lru_cache(maxsize=1)
def identities() -> tuple[AgentIdentity, ...]:
    raw = data_yaml("agent_identities.yml")
    return tuple(AgentIdentity(name, _low(e.get("logins")), _low(e.get("emails")), _low(e.get("names")),
                               _low(e.get("email_domains")), tuple(sorted(_low(e.get("name_suffixes")))))
                 for name, e in raw["agents"].items())


def _split_person(value: str) -> tuple[str, str]:
    """'Name <email>' (a Co-authored-by value) -> (name, email)."""
    value = value.strip()
    if value.endswith(">") and "<" in value:
        name, _, email = value[:-1].rpartition("<")
        return name.strip(), email.strip()
    return value, ""


def agent_for(name: str = "", email: str = "", login: str = "") -> str | None:
    """The agent a git identity or GitHub login belongs to, or None for a person."""
    name, email, login = name.strip().lower(), email.strip().lower(), login.strip().lower()
    domain = email.rpartition("@")[2] if "@" in email else ""
    for ident in identities():
        if (login and login in ident.logins) or (email and email in ident.emails) or (name and name in ident.names) \
                or (domain and domain in ident.email_domains) \
                or (name and any(name.endswith(" " + s) or name == s for s in ident.name_suffixes)):
            return ident.agent
    return None


def agent_in_trailer(value: str) -> str | None:
    """The agent a `Co-authored-by:` trailer value names, or None."""
    name, email = _split_person(value)
    return agent_for(name=name, email=email)
