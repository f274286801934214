"""Publishing a scan to GitHub: the contract the Action calls.

`publish()` uploads the SARIF log to code scanning and/or writes the pull request review and
summary comment. It never raises for anything GitHub answers and never decides the exit code:
every channel ends as a `PublishOutcome` (ok, skipped or failed) whose `fix` names the exact
permission or workflow change that would make it work. The caller writes the SARIF file and the
job summary first, then calls this, then shows the outcomes.

`run_publish_mode()` is the fork-safe `workflow_run` half: it reads a SARIF file that an earlier
(unprivileged) run left as an artifact, and publishes it without checking out or reading the pull
request's code. That SARIF is attacker-controllable, so it is parsed defensively, everything in it
is shown inert, and the pull request number is checked against the run's head commit.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

from .. import TOOL_NAME
from ..models import ScanResult
from ..report import inert

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


def publish(doc: dict, result: ScanResult, ctx: PublishContext, *, upload: bool, comment: bool) -> list[PublishOutcome]:
    """Upload `doc` (the SARIF log) and/or comment `result` on the pull request. Never raises."""
    from .runner import publish_all

    try:
        return publish_all(doc, result, ctx, upload=upload, comment=comment)
    except Exception as exc:  # noqa: BLE001 - a publishing bug must not cost the scan its report
        return [_crashed(exc)]


def run_publish_mode(sarif_path: str, pr_number: int | None, ctx: PublishContext, *, upload: bool = True,
                     comment: bool = True) -> list[PublishOutcome]:
    """`mode: publish`: publish an earlier run's SARIF artifact. Never reads the PR's code."""
    from .runner import publish_artifact

    try:
        return publish_artifact(sarif_path, pr_number, ctx, upload=upload, comment=comment)
    except Exception as exc:  # noqa: BLE001 - same contract as publish()
        return [_crashed(exc)]


def _crashed(exc: Exception) -> PublishOutcome:
    return PublishOutcome("publish", "failed", f"publishing stopped on an internal error: {type(exc).__name__}: {exc}",
                          "report this as a bug with the job log")


def outcomes_markdown(outcomes: list[PublishOutcome]) -> str:
    """A short markdown section for the job summary: what was published, what was not and why."""
    if not outcomes:
        return ""
    icons = {"ok": "✅", "skipped": "⏭️", "failed": "❌"}
    lines = ["### Publishing", "", "| Channel | Status | Detail | Fix |", "|---|---|---|---|"]
    for o in outcomes:
        # Details quote GitHub's answers and, in publish mode, names from an untrusted artifact.
        cells = [o.channel, f"{icons.get(o.status, '')} {o.status}", inert.markdown(o.detail, 2000), o.fix]
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    return "\n".join(lines) + "\n"
