"""The workflow event the Action runs for: which commits to compare and who asked.

Read from `$GITHUB_EVENT_PATH` (the webhook payload) and the `GITHUB_*` variables. Every problem
becomes an EventError whose one-line message says what to change in the workflow.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import UsageError

PULL_REQUEST_EVENTS = ("pull_request", "pull_request_target")
HANDLED_EVENTS = (*PULL_REQUEST_EVENTS, "push", "workflow_dispatch")
TRUSTED_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})
ZERO_SHA = "0" * 40
_SHA = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")
MAX_PAYLOAD_BYTES = 25 * 1024 * 1024  # GitHub caps webhook payloads at 25 MB


class EventError(UsageError):
    """The event cannot be used; the message says what to change in the workflow."""


@dataclass(frozen=True)
class Event:
    name: str
    repository: str  # owner/name of the repository the workflow runs in
    head_sha: str  # the commit whose files are scanned
    base_sha: str | None = None  # the commit the change is compared with; None: scan everything
    ref: str = ""  # the ref results belong to: refs/pull/N/merge or refs/heads/...
    commit_sha: str = ""  # GITHUB_SHA: what the runner checked out (the merge commit for pull_request)
    pr_number: int | None = None
    author_login: str | None = None
    author_id: int | None = None
    author_association: str | None = None
    head_repository: str | None = None
    fork: bool = False
    base_ref: str | None = None
    sender_login: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_pull_request(self) -> bool:
        return self.pr_number is not None

    def author_is_trusted(self, trusted_users: tuple[str, ...] = ()) -> bool:
        if self.author_login and self.author_login.lower() in {u.lower() for u in trusted_users}:
            return True
        return (self.author_association or "").upper() in TRUSTED_ASSOCIATIONS


def _sha(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _SHA.match(value):
        raise EventError(f"the event payload has no valid {what}; run the action on an unmodified GitHub event")
    return value


def _dig(payload: Mapping[str, Any], *keys: str) -> Any:
    cur: Any = payload
    for k in keys:
        if not isinstance(cur, Mapping):
            return None
        cur = cur.get(k)
    return cur


def read_payload(path: str | None) -> dict[str, Any]:
    if not path:
        raise EventError("GITHUB_EVENT_PATH is not set; run the action as a step of a GitHub Actions job")
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_PAYLOAD_BYTES + 1)
    except OSError as exc:
        raise EventError(f"cannot read the event payload {path} ({exc.strerror}); run the action as a step of a GitHub Actions job") from None
    if len(data) > MAX_PAYLOAD_BYTES:
        raise EventError(f"the event payload {path} is larger than GitHub's 25 MB limit; it was not written by GitHub")
    try:
        payload = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise EventError(f"the event payload {path} is not valid JSON ({type(exc).__name__}); do not replace GITHUB_EVENT_PATH in the workflow") from None
    if not isinstance(payload, dict):
        raise EventError(f"the event payload {path} is not a JSON object; do not replace GITHUB_EVENT_PATH in the workflow")
    return payload


def from_pull_request(name: str, payload: dict[str, Any], env: Mapping[str, str]) -> Event:
    pr = payload.get("pull_request")
    if not isinstance(pr, dict):
        raise EventError(f"the {name} payload has no pull_request object; run the action on an unmodified GitHub event")
    number = pr.get("number", payload.get("number"))
    if not isinstance(number, int) or number <= 0:
        raise EventError(f"the {name} payload has no pull request number; run the action on an unmodified GitHub event")
    head_sha = _sha(_dig(pr, "head", "sha"), "pull_request.head.sha")
    base_sha = _sha(_dig(pr, "base", "sha"), "pull_request.base.sha")
    base_repo = _dig(pr, "base", "repo", "full_name") or _dig(payload, "repository", "full_name")
    head_repo = _dig(pr, "head", "repo", "full_name")
    # A deleted fork leaves head.repo null: treat it as a fork, since it was not this repository.
    fork = bool(_dig(pr, "head", "repo", "fork")) or head_repo is None or (head_repo or "").lower() != (base_repo or "").lower()
    user = pr.get("user") if isinstance(pr.get("user"), dict) else {}
    author_id = user.get("id") if isinstance(user.get("id"), int) else None
    return Event(
        name=name,
        repository=env.get("GITHUB_REPOSITORY") or str(base_repo or ""),
        head_sha=head_sha,
        base_sha=base_sha,
        ref=f"refs/pull/{number}/merge" if name == "pull_request" else f"refs/pull/{number}/head",
        commit_sha=env.get("GITHUB_SHA") or head_sha,
        pr_number=number,
        author_login=user.get("login") if isinstance(user.get("login"), str) else None,
        author_id=author_id,
        author_association=str(pr.get("author_association") or "NONE").upper(),
        head_repository=head_repo,
        fork=fork,
        base_ref=_dig(pr, "base", "ref"),
        sender_login=_dig(payload, "sender", "login"),
        extra={"changed_files": pr.get("changed_files")} if isinstance(pr.get("changed_files"), int) else {},
    )


def from_push(payload: dict[str, Any], env: Mapping[str, str]) -> Event:
    after = payload.get("after") or env.get("GITHUB_SHA")
    head = _sha(after, "head commit (after)")
    if head == ZERO_SHA:
        raise EventError("this push deleted a branch; there is nothing to scan (add `branches-ignore` or an `if: ${{ !github.event.deleted }}` to the job)")
    before = payload.get("before")
    base = before if isinstance(before, str) and _SHA.match(before) and before != ZERO_SHA else None
    return Event(
        name="push", repository=env.get("GITHUB_REPOSITORY") or str(_dig(payload, "repository", "full_name") or ""),
        head_sha=head, base_sha=base, ref=str(payload.get("ref") or env.get("GITHUB_REF") or ""),
        commit_sha=env.get("GITHUB_SHA") or head, sender_login=_dig(payload, "sender", "login"),
        author_login=_dig(payload, "pusher", "name"),
    )


def from_dispatch(payload: dict[str, Any], env: Mapping[str, str]) -> Event:
    head = _sha(env.get("GITHUB_SHA"), "commit (GITHUB_SHA)")
    return Event(
        name="workflow_dispatch", repository=env.get("GITHUB_REPOSITORY") or "",
        head_sha=head, ref=env.get("GITHUB_REF") or str(payload.get("ref") or ""), commit_sha=head,
        sender_login=_dig(payload, "sender", "login"),
    )


def load_event(env: Mapping[str, str]) -> Event:
    name = env.get("GITHUB_EVENT_NAME", "")
    if not name:
        raise EventError("GITHUB_EVENT_NAME is not set; run the action as a step of a GitHub Actions job")
    if name not in HANDLED_EVENTS:
        raise EventError(f"the action does not handle the {name!r} event; trigger the workflow on pull_request, "
                         "pull_request_target, push or workflow_dispatch (use mode: publish for workflow_run)")
    payload = read_payload(env.get("GITHUB_EVENT_PATH"))
    if name in PULL_REQUEST_EVENTS:
        return from_pull_request(name, payload, env)
    if name == "push":
        return from_push(payload, env)
    return from_dispatch(payload, env)
