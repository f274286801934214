"""The pull request review and the summary comment, written idempotently.

Every run reads what we already wrote (review comments, reviews, issue comments) and writes only
the difference: inline comments for findings not commented before, one review holding them (and
the new findings outside the diff), edits that mark vanished findings resolved (REST cannot
resolve threads) or reopen ones that came back, and one summary comment edited in place.
Only comments written by our own login count: anyone can paste our hidden markers into a comment.
Every call goes through PyGithub (scanner/github/pulls.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..models import Finding
from .api import APIError
from .pulls import Pulls
from .comments import (REVIEW_MARKER, SUMMARY_MARKER, CommentFinding, finding_state, for_comments, has_marker, inline_body,
                       listed_fingerprints, reopened_body, resolved_body, review_body, review_body_with_states,
                       right_lines_from_patch)

MAX_INLINE = 30  # inline comments per review; more go to the review body


def identity(api: Pulls, configured: str | None) -> str:
    """The login our comments are written as, or "" when the token cannot tell (the workflow
    token and GitHub App tokens cannot read /user); then any GitHub App bot counts as us."""
    if configured:
        return configured
    try:
        return api.login()
    except APIError:
        return ""


def _author(item: dict) -> str:
    user = item.get("user") if isinstance(item, dict) else None
    return str(user.get("login") or "") if isinstance(user, dict) else ""


def _is_ours(item, me: str) -> bool:
    """Written by us. Only apps installed on the repository (or its workflow token) are bots that
    can comment on it; a person pasting our markers is never taken for us."""
    if not isinstance(item, dict):
        return False
    if me:
        return _author(item) == me
    user = item.get("user") if isinstance(item.get("user"), dict) else {}
    return user.get("type") == "Bot" and _author(item).endswith("[bot]")


def changed_lines(api: Pulls, repository: str, pr: int) -> dict[str, frozenset[int]]:
    """Commentable right-side lines per file, from the hunk headers of the pull request's files."""
    out: dict[str, frozenset[int]] = {}
    for item in api.files(pr):
        if isinstance(item, dict) and item.get("status") != "removed" and isinstance(item.get("patch"), str):
            out[str(item.get("filename"))] = right_lines_from_patch(item["patch"])
    return out


@dataclass
class ReviewReport:
    inline: int = 0
    in_body: int = 0
    already: int = 0
    resolved: int = 0
    reopened: int = 0
    review_id: int | None = None
    fallback: str = ""  # why inline comments went to the body instead
    edit_errors: list[str] = field(default_factory=list)

    def describe(self) -> str:
        parts = []
        if self.review_id is not None:
            parts.append(f"review posted with {self.inline} inline comment(s) and {self.in_body} finding(s) in its body")
        else:
            parts.append("nothing new to review")
        if self.already:
            parts.append(f"{self.already} already commented")
        if self.resolved:
            parts.append(f"{self.resolved} marked resolved")
        if self.reopened:
            parts.append(f"{self.reopened} reopened")
        if self.fallback:
            parts.append(f"inline comments moved to the review body because GitHub refused them: {self.fallback}")
        if self.edit_errors:
            parts.append(f"{len(self.edit_errors)} comment edit(s) refused: {self.edit_errors[0]}")
        return "; ".join(parts)


def _our_comments(api: Pulls, repository: str, pr: int, me: str) -> dict[str, tuple[int, str, str]]:
    """fingerprint -> (comment id, open|resolved, body) for our earlier inline comments."""
    out: dict[str, tuple[int, str, str]] = {}
    for c in api.review_comments(pr):
        if not _is_ours(c, me) or not isinstance(c.get("id"), int):
            continue
        body = str(c.get("body") or "")
        state = finding_state(body)
        if state and state[0] not in out:
            out[state[0]] = (c["id"], state[1], body)
    return out


def _our_reviews(api: Pulls, repository: str, pr: int, me: str) -> list[tuple[int, str]]:
    """(review id, body) of our earlier reviews."""
    out = []
    for r in api.reviews(pr):
        body = str(r.get("body") or "") if isinstance(r, dict) else ""
        if _is_ours(r, me) and has_marker(body, REVIEW_MARKER) and isinstance(r.get("id"), int):
            out.append((r["id"], body))
    return out


def post_review(api: Pulls, repository: str, pr: int, findings: list[Finding], changed: dict[str, frozenset[int]],
                *, me: str, head_sha: str | None, commit: str, run_url: str = "") -> ReviewReport:
    """Raises APIError when the review itself cannot be read or posted."""
    report = ReviewReport()
    ours = _our_comments(api, repository, pr, me)
    reviews = _our_reviews(api, repository, pr, me)
    listed = set().union(*(listed_fingerprints(body) for _, body in reviews))
    current = {f.fingerprint for f in findings if f.suppressed_by is None}
    inline: list[CommentFinding] = []
    outside: list[CommentFinding] = []
    reopen: list[tuple[int, str]] = []
    for c in for_comments(findings):
        fp = c.finding.fingerprint
        if fp in ours:
            report.already += 1
            cid, state, body = ours[fp]
            if state == "resolved":
                reopen.append((cid, reopened_body(body)))
            continue
        if c.finding.line in changed.get(c.finding.path, ()) and len(inline) < MAX_INLINE:
            inline.append(c)
        elif fp not in listed:
            outside.append(c)
        else:
            report.already += 1
    if inline or outside:
        def posted_meanwhile() -> dict | None:  # our review that an unanswered POST created
            known = {rid for rid, _ in reviews}
            return next(({"id": rid} for rid, _ in _our_reviews(api, repository, pr, me) if rid not in known), None)

        report.review_id = _submit(api, repository, pr, inline, outside, head_sha, commit, run_url, report,
                                   posted_meanwhile)
    for fp, (cid, state, body) in ours.items():
        if state == "open" and fp not in current:
            if _edit(api, repository, cid, resolved_body(body, commit), report):
                report.resolved += 1
    for cid, body in reopen:
        if _edit(api, repository, cid, body, report):
            report.reopened += 1
    for rid, body in reviews:  # findings listed in earlier review bodies (outside the diff)
        new_body, resolved, reopened = review_body_with_states(body, current)
        if new_body != body:
            try:
                api.edit_review(pr, rid, new_body)
                report.resolved += resolved
                report.reopened += reopened
            except APIError as exc:
                report.edit_errors.append(f"{exc.status} {exc.message[:160]}")
    return report


def _submit(api: Pulls, repository: str, pr: int, inline: list[CommentFinding], outside: list[CommentFinding],
            head_sha: str | None, commit: str, run_url: str, report: ReviewReport,
            posted_meanwhile: Callable[[], dict | None]) -> int | None:
    payload: dict = {"event": "COMMENT", "body": review_body(len(inline), outside, commit, run_url),
                     "comments": [{"path": c.finding.path, "line": c.finding.line, "side": "RIGHT",
                                   "body": inline_body(c)} for c in inline]}
    if head_sha:
        payload["commit_id"] = head_sha
    try:
        review = api.create_review(pr, payload, posted_meanwhile)
        report.inline, report.in_body = len(inline), len(outside)
    except APIError as exc:
        if exc.status != 422 or not inline:
            raise
        # GitHub refuses the whole review when one line is outside the diff: keep them in the body.
        report.fallback = exc.message[:200]
        everything = sorted(inline + outside, key=lambda c: c.finding.sort_key())
        payload["body"] = review_body(0, everything, commit, run_url)
        payload["comments"] = []
        review = api.create_review(pr, payload, posted_meanwhile)
        report.inline, report.in_body = 0, len(everything)
    rid = review.get("id") if isinstance(review, dict) else None
    return rid if isinstance(rid, int) else 0


def _edit(api: Pulls, repository: str, comment_id: int, body: str, report: ReviewReport) -> bool:
    try:
        api.edit_review_comment(comment_id, body)
        return True
    except APIError as exc:
        report.edit_errors.append(f"{exc.status} {exc.message[:160]}")
        return False


def upsert_summary(api: Pulls, repository: str, pr: int, body: str, *, me: str) -> str:
    """Edit our summary comment in place (found by its marker), or create it once."""
    ours = [c for c in api.issue_comments(pr)
            if _is_ours(c, me) and has_marker(str(c.get("body") or ""), SUMMARY_MARKER)
            and isinstance(c.get("id"), int)]
    if not ours:
        def posted_meanwhile() -> dict | None:  # our summary that an unanswered POST created
            return next((c for c in api.issue_comments(pr)
                         if _is_ours(c, me) and has_marker(str(c.get("body") or ""), SUMMARY_MARKER)), None)

        created = api.create_issue_comment(pr, body, posted_meanwhile)
        cid = created.get("id") if isinstance(created, dict) else None
        return f"summary comment created ({cid})"
    ours.sort(key=lambda c: c["id"])
    api.edit_issue_comment(ours[0]["id"], body)
    removed = 0
    for extra in ours[1:]:  # left over from a race between two runs: there is only one summary
        try:
            api.delete_issue_comment(extra["id"])
            removed += 1
        except APIError:
            pass
    return f"summary comment updated in place ({ours[0]['id']})" + (f"; {removed} duplicate(s) removed" if removed else "")
