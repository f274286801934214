"""Runs the publishing channels and turns every answer from GitHub into a PublishOutcome.

Order: the code scanning upload first (its outcome is quoted in the summary comment), then the
review, then the summary comment. A channel that fails does not stop the others, and nothing
here raises for GitHub's answers: the exit code depends only on the findings.
"""
from __future__ import annotations

from ..models import ScanResult
from . import review as rv
from . import sarif_findings, upload as up
from .api import APIError, GitHubAPI
from .comments import summary_body
from .pulls import Pulls
from .publish_contract import (CHANNEL_REVIEW, CHANNEL_SUMMARY, CHANNEL_UPLOAD, FIX_ENABLE_CODE_SCANNING, FIX_FORK, FIX_NO_TOKEN,
                      FIX_PULL_REQUESTS, FIX_SECURITY_EVENTS, PublishContext, PublishOutcome)


def _client(ctx: PublishContext) -> GitHubAPI:
    """The code scanning upload's client: raw requests, because PyGithub has no call for
    `POST /repos/{owner}/{repo}/code-scanning/sarifs` nor for its processing status."""
    return GitHubAPI(ctx.api_url, ctx.token, budget_seconds=ctx.request_budget_seconds, sleep=ctx.sleep)


def _pulls(ctx: PublishContext) -> Pulls:
    """Everything on the pull request (files, reviews, comments) goes through PyGithub. Raises APIError."""
    return Pulls(ctx.api_url, ctx.token, ctx.repository, budget_seconds=ctx.request_budget_seconds, sleep=ctx.sleep)


def _clean(text: str, limit: int = 400) -> str:
    """GitHub's own error text, bounded and kept on one line for tables."""
    return " ".join(str(text).split())[:limit]


def _permission_fix(exc: APIError, ctx: PublishContext, write_fix: str) -> str:
    if exc.status == 0 and exc.message.startswith("cannot send to"):
        return "set GITHUB_API_URL to the API's address (GitHub Enterprise Server: https://HOST/api/v3)"
    if exc.status == 0 or exc.status >= 500:
        return "GitHub did not answer in time: re-run the job"
    if exc.rate_limited:
        return "the token hit GitHub's rate limit: re-run the job later"
    if exc.status in (401,):
        return "the token is invalid or expired: pass a valid `token`"
    if ctx.head_is_fork and exc.status in (403, 404):
        return FIX_FORK
    return write_fix


def _upload_failure(exc: APIError, ctx: PublishContext) -> PublishOutcome:
    msg = exc.message.lower()
    if exc.status == 403 and ("advanced security" in msg or "not enabled" in msg or "code security" in msg):
        fix = FIX_ENABLE_CODE_SCANNING
    elif exc.status == 403 and "archived" in msg:
        fix = "the repository is archived: code scanning accepts no uploads"
    elif exc.status == 413:
        fix = "the SARIF is over GitHub's size limit even after cutting: narrow `scan-scope` or the configured paths"
    elif exc.status in (400, 422):
        fix = "GitHub refused the request itself: report this with the SARIF file attached"
    elif exc.status == 404 and not ctx.head_is_fork:
        fix = f"{FIX_SECURITY_EVENTS} (a 404 also means the token cannot see {ctx.repository})"
    else:
        fix = _permission_fix(exc, ctx, FIX_SECURITY_EVENTS)
    return PublishOutcome(CHANNEL_UPLOAD, "failed", f"GitHub answered {exc.status or 'nothing'}: {_clean(exc.message)}", fix)


def do_upload(api: GitHubAPI, doc: dict, ctx: PublishContext) -> PublishOutcome:
    problem = up.valid_target(ctx.commit_sha, ctx.ref)
    if problem:
        return PublishOutcome(CHANNEL_UPLOAD, "failed", f"not uploaded: {problem}",
                              "run on `push`/`pull_request` so GITHUB_SHA and GITHUB_REF are set, or pass them")
    prepared = up.prepare(doc)
    cut = ("; " + "; ".join(prepared.cuts)) if prepared.cuts else ""
    if prepared.too_large:
        return PublishOutcome(CHANNEL_UPLOAD, "failed",
                              f"the SARIF is {prepared.gzip_bytes} bytes after gzip even after cutting, over GitHub's "
                              f"{up.MAX_GZIP_BYTES} bytes{cut}", "narrow `scan-scope` or the configured paths")
    try:
        res = up.upload(api, ctx.repository, prepared, commit_sha=ctx.commit_sha, ref=ctx.ref,
                        checkout_uri=ctx.checkout_uri, tool_name=ctx.tool_name, poll_seconds=ctx.poll_seconds,
                        poll_interval=ctx.poll_interval, sleep=ctx.sleep)
    except APIError as exc:
        return _upload_failure(exc, ctx)
    fix = "" if res.status == "ok" else "fix the SARIF errors GitHub listed, or report them as a bug"
    return PublishOutcome(CHANNEL_UPLOAD, res.status, _clean(res.detail + cut, 2000), fix)


def _comment(pulls: Pulls | None, result: ScanResult, ctx: PublishContext, upload_outcome: PublishOutcome | None) -> list[PublishOutcome]:
    assert ctx.pr_number is not None
    out: list[PublishOutcome] = []
    commit = ctx.head_sha or ctx.commit_sha
    try:
        api = pulls or _pulls(ctx)
    except APIError as exc:
        fix = _permission_fix(exc, ctx, FIX_PULL_REQUESTS)
        return [PublishOutcome(ch, "failed", f"not sent: {_clean(exc.message)}", fix) for ch in (CHANNEL_REVIEW, CHANNEL_SUMMARY)]
    me = rv.identity(api, ctx.comment_author)
    try:
        changed = ctx.changed_lines if ctx.changed_lines is not None else rv.changed_lines(api, ctx.repository, ctx.pr_number)
        report = rv.post_review(api, ctx.repository, ctx.pr_number, result.findings, changed, me=me,
                                head_sha=ctx.head_sha, commit=commit, run_url=ctx.run_url)
        status = "ok"
        out.append(PublishOutcome(CHANNEL_REVIEW, status, report.describe(),
                                  FIX_PULL_REQUESTS if report.edit_errors else ""))
    except APIError as exc:
        out.append(PublishOutcome(CHANNEL_REVIEW, "failed", f"GitHub answered {exc.status or 'nothing'}: {_clean(exc.message)}",
                                  _permission_fix(exc, ctx, FIX_PULL_REQUESTS) if exc.status != 422
                                  else "GitHub refused the review body: report this as a bug"))
    published = []
    if upload_outcome is not None:
        line = f"Code scanning upload: **{upload_outcome.status}**."
        if upload_outcome.ok:  # GITHUB_SERVER_URL: GitHub Enterprise Server links stay on the server
            line += (f" Alerts: {ctx.server_url.rstrip('/')}/{ctx.repository}/security/code-scanning"
                     f"?query=pr%3A{ctx.pr_number}")
        published.append(line)
    try:
        body = summary_body(result, commit, published, ctx.run_url)
        detail = rv.upsert_summary(api, ctx.repository, ctx.pr_number, body, me=me)
        out.append(PublishOutcome(CHANNEL_SUMMARY, "ok", detail))
    except APIError as exc:
        out.append(PublishOutcome(CHANNEL_SUMMARY, "failed", f"GitHub answered {exc.status or 'nothing'}: {_clean(exc.message)}",
                                  _permission_fix(exc, ctx, FIX_PULL_REQUESTS) if exc.status != 422
                                  else "GitHub refused the comment body: report this as a bug"))
    return out


def publish_all(doc: dict, result: ScanResult, ctx: PublishContext, *, upload: bool, comment: bool,
                api: GitHubAPI | None = None, pulls: Pulls | None = None) -> list[PublishOutcome]:
    outcomes: list[PublishOutcome] = []
    wanted = [(CHANNEL_UPLOAD, upload, "upload-sarif is off"),
              (CHANNEL_REVIEW, comment, "comment is off"), (CHANNEL_SUMMARY, comment, "comment is off")]
    if not ctx.token:
        return [PublishOutcome(ch, "skipped", "no token" if on else why, FIX_NO_TOKEN if on else "")
                for ch, on, why in wanted]
    upload_outcome = None
    if upload:
        upload_outcome = do_upload(api or _client(ctx), doc, ctx)
        outcomes.append(upload_outcome)
    else:
        outcomes.append(PublishOutcome(CHANNEL_UPLOAD, "skipped", "upload-sarif is off"))
    if ctx.pr_number is None or not comment:
        why = "not a pull request" if ctx.pr_number is None else "comment is off"
        outcomes += [PublishOutcome(CHANNEL_REVIEW, "skipped", why), PublishOutcome(CHANNEL_SUMMARY, "skipped", why)]
    else:
        outcomes += _comment(pulls, result, ctx, upload_outcome)
    return outcomes


def _verify_pull_request(pulls: Pulls, ctx: PublishContext, pr: int) -> str | None:
    """The artifact names the pull request; believe it only if its head is the run's commit."""
    expected = ctx.head_sha or ctx.commit_sha
    pull = pulls.pull(pr)
    head = str(((pull or {}).get("head") or {}).get("sha") or "") if isinstance(pull, dict) else ""
    if head.lower() != (expected or "").lower():
        return (f"pull request #{pr} is at {head[:12] or 'an unknown commit'}, not the analysed commit "
                f"{(expected or '?')[:12]}: the artifact does not belong to it, or a newer push will publish")
    return None


def publish_artifact(sarif_path: str, pr_number: int | None, ctx: PublishContext, *, upload: bool = True,
                     comment: bool = True, api: GitHubAPI | None = None, pulls: Pulls | None = None) -> list[PublishOutcome]:
    """`mode: publish`: the SARIF comes from an untrusted run; nothing of the PR's code is read."""
    try:
        doc = sarif_findings.load(sarif_path)
    except sarif_findings.ArtifactError as exc:
        return [PublishOutcome(ch, "failed", str(exc), "upload the SARIF as an artifact in the scanning workflow "
                               "and download it before `mode: publish`") for ch in (CHANNEL_UPLOAD, CHANNEL_REVIEW)]
    if pr_number is not None and not isinstance(pr_number, int):
        raise TypeError("pr_number must be an int")
    if pr_number is None and not ctx.ref:
        # Another run's artifact (workflow_run: head_sha is that run's) without a pull request
        # number: the only way to a ref would be the run's head_branch, which a fork names (`main`).
        return [PublishOutcome(ch, "skipped", "no pull request number: an artifact is published only to the pull "
                               "request it names, after checking that its head is the run's commit",
                               "pass `pr-number` (see the README's fork-safe pattern)")
                for ch in (CHANNEL_UPLOAD, CHANNEL_REVIEW, CHANNEL_SUMMARY)]
    if pr_number is not None and ctx.token:
        try:
            pulls = pulls or _pulls(ctx)
            problem = _verify_pull_request(pulls, ctx, pr_number)
        except APIError as exc:
            problem = f"cannot read pull request #{pr_number}: {exc.status} {_clean(exc.message, 200)}"
        if problem:
            return [PublishOutcome(ch, "skipped", problem, "") for ch in (CHANNEL_UPLOAD, CHANNEL_REVIEW, CHANNEL_SUMMARY)]
        if not ctx.ref:
            ctx.ref = f"refs/pull/{pr_number}/head"
        ctx.pr_number = pr_number
    result = sarif_findings.findings(doc)
    # Never upload the artifact as it is: its tool names, categories and properties are the fork's
    # choice (it could upload as another tool and replace that tool's analysis). What goes up is
    # rebuilt from the parsed findings, under this tool's own name and category.
    rebuilt = sarif_findings.rebuild(result)
    return publish_all(rebuilt, result, ctx, upload=upload, comment=comment, api=api, pulls=pulls)
