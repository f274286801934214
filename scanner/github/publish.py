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

from ..models import ScanResult
from .. import inert

# The types and fixes live in publish_contract (channels.py imports them without importing this module).
from .publish_contract import (CHANNEL_REVIEW, CHANNEL_SUMMARY, CHANNEL_UPLOAD, DEFAULT_API_URL,  # noqa: F401
                               DEFAULT_SERVER_URL, FIX_ENABLE_CODE_SCANNING, FIX_FORK, FIX_NO_TOKEN, FIX_PULL_REQUESTS,
                               FIX_SECURITY_EVENTS, PublishContext, PublishOutcome)


def publish(doc: dict, result: ScanResult, ctx: PublishContext, *, upload: bool, comment: bool) -> list[PublishOutcome]:
    """Upload `doc` (the SARIF log) and/or comment `result` on the pull request. Never raises."""
    from .channels import publish_all

    try:
        return publish_all(doc, result, ctx, upload=upload, comment=comment)
    except Exception as exc:  # noqa: BLE001 - a publishing bug must not cost the scan its report
        return [_crashed(exc)]


def run_publish_mode(sarif_path: str, pr_number: int | None, ctx: PublishContext, *, upload: bool = True,
                     comment: bool = True) -> list[PublishOutcome]:
    """`mode: publish`: publish an earlier run's SARIF artifact. Never reads the PR's code."""
    from .channels import publish_artifact

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
