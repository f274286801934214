"""What publishing is given and what it answers: the context (where, as what, with which token
and time budget), the outcome of each channel, and the exact fixes an outcome may name.

Kept apart from scanner/github/publish.py (the entry points) so that the channels
(scanner/github/channels.py) import these types without importing the entry points that call them.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

from .. import TOOL_NAME

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_SERVER_URL = "https://github.com"

CHANNEL_UPLOAD = "code-scanning"
CHANNEL_REVIEW = "review"
CHANNEL_SUMMARY = "summary-comment"

FIX_NO_TOKEN = "pass a token: `with: token: ${{ github.token }}` (the default) and do not blank it"
FIX_SECURITY_EVENTS = "add `permissions: security-events: write` to the job"
FIX_PULL_REQUESTS = "add `permissions: pull-requests: write` to the job"
FIX_FORK = ("pull requests from forks get a read-only token: scan on `pull_request`, keep the SARIF as "
            "an artifact, and publish from a `workflow_run` job with `mode: publish`")
FIX_ENABLE_CODE_SCANNING = ("enable code scanning in Settings → Code security (private repositories "
                            "need GitHub Advanced Security / Code Security)")


@dataclass
class PublishContext:
    """Where and as what to publish. Built by the Action from GITHUB_* variables and the event."""

    token: str | None
    repository: str  # "owner/name"
    commit_sha: str  # the analysed commit (for pull requests: the merge commit GITHUB_SHA)
    ref: str  # refs/pull/N/merge or refs/heads/<branch>
    api_url: str = DEFAULT_API_URL  # GITHUB_API_URL (GHES: https://HOST/api/v3)
    server_url: str = DEFAULT_SERVER_URL  # GITHUB_SERVER_URL
    pr_number: int | None = None
    # The pull request's head commit (event pull_request.head.sha; for `mode: publish` the
    # workflow_run's head_sha). Reviews are anchored to it; publish mode checks the PR against it.
    head_sha: str | None = None
    checkout_uri: str | None = None  # file:// URI of the checkout root, as code scanning wants it
    # Right-side line numbers GitHub accepts review comments on, per repository path: the lines
    # inside the pull request's diff hunks. None: unknown (fetched from the API when commenting).
    changed_lines: dict[str, frozenset[int]] | None = None
    head_is_fork: bool = False  # a fork's token is read-only: say so in the fix
    tool_name: str = TOOL_NAME
    workflow: str = ""  # GITHUB_WORKFLOW, shown in comments
    run_url: str = ""  # link to the workflow run, shown in comments
    # Bounded time: retries/back-off for all requests, and polling the upload's processing.
    request_budget_seconds: float = 120.0
    poll_seconds: float = 60.0
    poll_interval: float = 3.0
    # Login our comments are written as; markers in comments by anyone else are ignored.
    # None: ask GET /user, falling back to github-actions[bot] for the workflow token.
    comment_author: str | None = None
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    @property
    def owner(self) -> str:
        return self.repository.split("/", 1)[0]

    @property
    def name(self) -> str:
        return self.repository.split("/", 1)[1] if "/" in self.repository else ""

    @classmethod
    def urls_from_env(cls, env: dict[str, str] | None = None) -> tuple[str, str]:
        """GITHUB_API_URL and GITHUB_SERVER_URL with GitHub.com defaults (GHES sets both)."""
        env = os.environ if env is None else env
        api = (env.get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/")
        server = (env.get("GITHUB_SERVER_URL") or DEFAULT_SERVER_URL).rstrip("/")
        return api, server


@dataclass(frozen=True)
class PublishOutcome:
    channel: str  # code-scanning | review | summary-comment
    status: str  # ok | skipped | failed
    detail: str
    fix: str = ""  # the exact permission or workflow change that would fix it

    @property
    def ok(self) -> bool:
        return self.status == "ok"
