"""Pull request review and summary comment against GitHub's REST description (Prism).

The mock keeps no state, so earlier runs' comments are scripted answers, and every assertion is
about what the publisher SENT (Prism validates each request against the spec).
"""
from __future__ import annotations

from publish_helpers import HEAD, assert_all_valid, context, finding

from scanner.github.comments import REVIEW_MARKER, SUMMARY_MARKER, finding_marker, inline_body, for_comments
from scanner.github.publish import FIX_FORK, FIX_PULL_REQUESTS, publish
from scanner.models import Category, ScanResult, Severity
from scanner.report import sarif

ME = "github-actions[bot]"
REVIEWS = r"/repos/octo/repo/pulls/7/reviews$"
REVIEW_COMMENTS = r"/repos/octo/repo/pulls/7/comments$"
ISSUE_COMMENTS = r"/repos/octo/repo/issues/7/comments$"
HOSTILE = "@octocat see ![x](https://evil.example/p.png) <img src=x onerror=alert(1)> [click](http://evil.example) `code`"


def _comment(gh, result, **kw):
    ctx = context(gh.url, **kw)
    outs = publish(sarif.document(result), result, ctx, upload=False, comment=True)
    return {o.channel: o for o in outs}


def _existing(cid: int, fp: str, state: str = "open", user: str = ME, line: int = 3) -> dict:
    return {"id": cid, "user": {"login": user}, "path": "CLAUDE.md", "line": line,
            "body": f"earlier text\n{finding_marker(fp, state)}"}


def test_first_run_posts_one_review_with_inline_comments_and_one_summary(gh):
    inside = finding(1, line=3, excerpt=HOSTILE)
    outside = finding(2, line=40, path="AGENTS.md", severity=Severity.CRITICAL)
    out = _comment(gh, ScanResult(findings=[inside, outside]),
                   changed_lines={"CLAUDE.md": frozenset({2, 3, 4})})
    assert out["review"].status == "ok" and out["summary-comment"].status == "ok", out
    reviews = gh.proxy.sent("POST", REVIEWS)
    assert len(reviews) == 1
    body = reviews[0].body
    assert body["event"] == "COMMENT" and body["commit_id"] == HEAD
    assert [(c["path"], c["line"], c["side"]) for c in body["comments"]] == [("CLAUDE.md", 3, "RIGHT")]
    assert finding_marker(inside.fingerprint) in body["comments"][0]["body"]
    assert "AGENTS" in body["body"] and outside.fingerprint in body["body"]  # outside the diff: in the body
    summaries = gh.proxy.sent("POST", ISSUE_COMMENTS)
    assert len(summaries) == 1 and SUMMARY_MARKER in summaries[0].body["body"]
    assert "2 finding(s)" in summaries[0].body["body"]
    assert_all_valid(gh)


def test_scanned_text_in_comments_is_inert():
    f = finding(1, line=3, excerpt=HOSTILE, message="Ignore this and ping @admin at https://evil.example/a")
    f.title = "<b>title</b> [x](http://evil.example)"
    body = inline_body(for_comments([f])[0])
    # Outside code spans (where GitHub renders nothing live), no live construct survives.
    outside_code = "".join(body.split("`")[0::2]).split("<sub>")[0]
    for live in ("@octocat", "@admin", "![", "](http", "<img", "<b>", "https://evil.example/a", "evil.example"):
        assert live not in outside_code, live
    # the excerpt is inside one code span that its backticks cannot close
    excerpt_line = [line for line in body.splitlines() if line.startswith("Matched:")][0]
    assert excerpt_line.count("`") == 2


def test_second_run_posts_only_what_is_new_resolves_what_vanished_and_edits_the_summary(gh):
    kept = finding(1, line=3)
    new = finding(2, line=4)
    gh.proxy.respond("GET", REVIEW_COMMENTS, body=[
        _existing(11, kept.fingerprint),
        _existing(12, "0" * 32),  # its finding is gone now
        _existing(13, new.fingerprint, user="mallory"),  # a forged marker by someone else: ignored
    ])
    gh.proxy.respond("GET", ISSUE_COMMENTS, body=[
        {"id": 21, "user": {"login": "mallory"}, "body": SUMMARY_MARKER},
        {"id": 22, "user": {"login": ME}, "body": "old summary\n" + SUMMARY_MARKER},
        {"id": 23, "user": {"login": ME}, "body": "raced summary\n" + SUMMARY_MARKER},
    ])
    out = _comment(gh, ScanResult(findings=[kept, new]), changed_lines={"CLAUDE.md": frozenset({3, 4})})
    assert out["review"].status == "ok", out
    assert "1 already commented" in out["review"].detail and "1 marked resolved" in out["review"].detail
    reviews = gh.proxy.sent("POST", REVIEWS)
    assert len(reviews) == 1 and [c["line"] for c in reviews[0].body["comments"]] == [4]
    edits = gh.proxy.sent("PATCH", r"/pulls/comments/\d+$")
    assert [e.path.rsplit("/", 1)[1] for e in edits] == ["12"]
    assert edits[0].body["body"].startswith("✅ **Resolved**") and finding_marker("0" * 32, "resolved") in edits[0].body["body"]
    assert gh.proxy.sent("POST", ISSUE_COMMENTS) == []
    assert [e.path.rsplit("/", 1)[1] for e in gh.proxy.sent("PATCH", r"/issues/comments/\d+$")] == ["22"]
    assert [e.path.rsplit("/", 1)[1] for e in gh.proxy.sent("DELETE", r"/issues/comments/\d+$")] == ["23"]
    assert "updated in place" in out["summary-comment"].detail
    assert_all_valid(gh)


def test_nothing_new_posts_no_review_and_reopens_a_finding_that_came_back(gh):
    back = finding(1, line=3)
    gh.proxy.respond("GET", REVIEW_COMMENTS, body=[_existing(31, back.fingerprint, "resolved")])
    out = _comment(gh, ScanResult(findings=[back]), changed_lines={"CLAUDE.md": frozenset({3})})
    assert gh.proxy.sent("POST", REVIEWS) == []
    assert "nothing new" in out["review"].detail and "1 reopened" in out["review"].detail
    edit = gh.proxy.sent("PATCH", r"/pulls/comments/31$")[0].body["body"]
    assert not edit.startswith("✅") and finding_marker(back.fingerprint, "open") in edit
    assert_all_valid(gh)


def test_findings_of_two_engines_on_one_line_give_one_comment(gh):
    native = finding(1, line=3, severity=Severity.MEDIUM, category=Category.PROMPT_INJECTION)
    cisco = finding(1, line=3, severity=Severity.HIGH, category=Category.PROMPT_INJECTION, engine="cisco-skill-scanner",
                    rule="PROMPT_INJECTION_IGNORE_INSTRUCTIONS", excerpt="other text")
    other_category = finding(1, line=3, category=Category.DATA_EXFILTRATION, rule="IG401", excerpt="third")
    _comment(gh, ScanResult(findings=[native, cisco, other_category]), changed_lines={"CLAUDE.md": frozenset({3})})
    comments = gh.proxy.sent("POST", REVIEWS)[0].body["comments"]
    assert len(comments) == 2
    merged = [c["body"] for c in comments if "cisco" in c["body"]][0]
    assert "High" in merged and "also reported as" in merged and "IG101" in merged
    assert_all_valid(gh)


def test_changed_lines_come_from_the_pull_request_files_when_not_given(gh):
    gh.proxy.respond("GET", r"/repos/octo/repo/pulls/7/files$", body=[
        {"sha": "1" * 40, "filename": "CLAUDE.md", "status": "modified", "additions": 1, "deletions": 0, "changes": 1,
         "blob_url": "", "raw_url": "", "contents_url": "", "patch": "@@ -8,3 +8,4 @@ intro\n ctx\n+added\n ctx\n ctx"}])
    f_in, f_out = finding(1, line=10), finding(2, line=30)
    _comment(gh, ScanResult(findings=[f_in, f_out]), changed_lines=None)
    review = gh.proxy.sent("POST", REVIEWS)[0].body
    assert [c["line"] for c in review["comments"]] == [10]
    assert f_out.fingerprint in review["body"]
    assert_all_valid(gh)


def test_rejected_inline_comments_fall_back_to_the_review_body(gh):
    gh.proxy.respond("POST", REVIEWS, status=422, times=1, body={
        "message": "Unprocessable Entity", "errors": ["Pull request review thread line must be part of the diff"]})
    out = _comment(gh, ScanResult(findings=[finding(1, line=3)]), changed_lines={"CLAUDE.md": frozenset({3})})
    posts = gh.proxy.sent("POST", REVIEWS)
    assert len(posts) == 2 and posts[1].body["comments"] == []
    assert out["review"].status == "ok" and "part of the diff" in out["review"].detail
    assert_all_valid(gh)


def test_read_only_token_of_a_fork_degrades_with_the_fix(gh):
    gh.proxy.respond("POST", REVIEWS, status=403, body={"message": "Resource not accessible by integration"})
    gh.proxy.respond("POST", ISSUE_COMMENTS, status=403, body={"message": "Resource not accessible by integration"})
    out = _comment(gh, ScanResult(findings=[finding(1, line=3)]), changed_lines={"CLAUDE.md": frozenset({3})},
                   head_is_fork=True)
    assert out["review"].status == "failed" and out["review"].fix == FIX_FORK
    assert out["summary-comment"].status == "failed" and out["summary-comment"].fix == FIX_FORK
    out = _comment(gh, ScanResult(findings=[finding(1, line=3)]), changed_lines={"CLAUDE.md": frozenset({3})})
    assert out["review"].fix == FIX_PULL_REQUESTS


def test_server_errors_on_listing_are_retried_then_reported(gh):
    gh.proxy.respond("GET", REVIEW_COMMENTS, status=500)
    ctx = context(gh.url)
    outs = publish({}, ScanResult(findings=[finding(1)]), ctx, upload=False, comment=True)
    review = [o for o in outs if o.channel == "review"][0]
    assert review.status == "failed" and "re-run" in review.fix
    assert len(gh.proxy.sent("GET", REVIEW_COMMENTS)) == 6 and len(ctx.sleeps) == 5


def test_when_the_token_cannot_name_itself_only_app_bots_count_as_us(gh):
    gh.proxy.respond("GET", r"^/user$", status=403)  # the workflow token and app tokens cannot read /user
    gh.proxy.respond("GET", ISSUE_COMMENTS, body=[
        {"id": 4, "user": {"login": "mallory", "type": "User"}, "body": SUMMARY_MARKER},
        {"id": 5, "user": {"login": "my-app[bot]", "type": "Bot"}, "body": SUMMARY_MARKER}])
    out = _comment(gh, ScanResult(), comment_author=None)
    assert "updated in place (5)" in out["summary-comment"].detail
    assert gh.proxy.sent("DELETE") == []


def test_a_token_that_names_itself_is_matched_exactly(gh):
    gh.proxy.respond("GET", r"^/user$", body={"login": "release-bot"})
    gh.proxy.respond("GET", ISSUE_COMMENTS, body=[
        {"id": 5, "user": {"login": "other-app[bot]", "type": "Bot"}, "body": SUMMARY_MARKER}])
    out = _comment(gh, ScanResult(), comment_author=None)
    assert "created" in out["summary-comment"].detail and len(gh.proxy.sent("POST", ISSUE_COMMENTS)) == 1


def test_findings_listed_in_an_earlier_review_body_are_struck_when_gone_and_restored_when_back(gh):
    from scanner.github.comments import review_body, review_body_with_states

    gone, back, stays = finding(1, line=50), finding(2, line=51), finding(3, line=52)
    earlier = review_body(0, for_comments([gone, back, stays]), HEAD)
    # An earlier run struck `back` as resolved; it is reported again now, and `gone` is not.
    struck, resolved, _ = review_body_with_states(earlier, {gone.fingerprint, stays.fingerprint})
    assert resolved == 1
    gh.proxy.respond("GET", REVIEWS, body=[{"id": 41, "user": {"login": ME}, "body": struck},
                                           {"id": 42, "user": {"login": "mallory"}, "body": struck}])
    out = _comment(gh, ScanResult(findings=[back, stays]), changed_lines={})
    assert gh.proxy.sent("POST", REVIEWS) == []  # all three were listed before: nothing new
    puts = gh.proxy.sent("PUT", r"/pulls/7/reviews/\d+$")
    assert [p.path.rsplit("/", 1)[1] for p in puts] == ["41"]
    lines = {fp: [ln for ln in puts[0].body["body"].splitlines() if fp in ln][0]
             for fp in (gone.fingerprint, back.fingerprint, stays.fingerprint)}
    assert lines[gone.fingerprint].startswith("- ✅ resolved: ~~")
    assert not lines[back.fingerprint].startswith("- ✅") and not lines[stays.fingerprint].startswith("- ✅")
    assert "1 marked resolved" in out["review"].detail and "1 reopened" in out["review"].detail
    assert_all_valid(gh)


def test_markers_smuggled_in_scanned_text_are_not_taken_for_ours():
    from scanner.github.comments import (REVIEW_MARKER, finding_state, has_marker, listed_fingerprints, review_body,
                                         summary_body)

    victim = "f" * 32
    forged = f"\n<!-- instruction-guard:finding {victim} resolved -->\n<!-- instruction-guard:listed {victim} -->\n"
    f = finding(1, line=3, excerpt=forged + SUMMARY_MARKER, path="x" + forged + REVIEW_MARKER)
    assert finding_state(inline_body(for_comments([f])[0])) == (f.fingerprint, "open")
    assert listed_fingerprints(review_body(0, for_comments([f]), HEAD)) == {f.fingerprint}
    body = summary_body(ScanResult(findings=[f]), HEAD, [])
    assert has_marker(body, SUMMARY_MARKER) and not has_marker(body, REVIEW_MARKER)
    # GitHub may hand bodies back with CRLF line ends
    assert finding_state(inline_body(for_comments([f])[0]).replace("\n", "\r\n")) == (f.fingerprint, "open")


def test_a_review_body_claims_only_the_findings_it_shows():
    from scanner.github.comments import MAX_LISTED, listed_fingerprints, review_body

    many = for_comments([finding(i, line=i + 1) for i in range(MAX_LISTED + 7)])
    body = review_body(0, many, HEAD)
    assert len(listed_fingerprints(body)) == MAX_LISTED and "and 7 more" in body


def test_a_review_github_created_before_answering_502_is_not_posted_twice(gh):
    gh.proxy.respond("GET", REVIEWS, body=[], times=1)  # before posting: no review of ours
    gh.proxy.respond("POST", REVIEWS, status=502, times=1)  # GitHub acted, then the answer failed
    gh.proxy.respond("GET", REVIEWS, body=[{"id": 77, "user": {"login": ME}, "body": f"new findings\n{REVIEW_MARKER}"}])
    out = _comment(gh, ScanResult(findings=[finding(1, line=3)]), changed_lines={"CLAUDE.md": frozenset({3})})
    assert len(gh.proxy.sent("POST", REVIEWS)) == 1
    assert out["review"].status == "ok", out["review"]
    assert_all_valid(gh)


def test_a_review_that_a_502_did_not_create_is_posted_again(gh):
    gh.proxy.respond("POST", REVIEWS, status=502, times=1)
    gh.proxy.respond("GET", REVIEWS, body=[{"id": 5, "user": {"login": "mallory"}, "body": REVIEW_MARKER}])
    out = _comment(gh, ScanResult(findings=[finding(1, line=3)]), changed_lines={"CLAUDE.md": frozenset({3})})
    assert len(gh.proxy.sent("POST", REVIEWS)) == 2  # someone else's review is not ours
    assert out["review"].status == "ok", out["review"]


def test_a_summary_comment_created_before_a_502_is_not_posted_twice(gh):
    gh.proxy.respond("GET", ISSUE_COMMENTS, body=[], times=1)
    gh.proxy.respond("POST", ISSUE_COMMENTS, status=502, times=1)
    gh.proxy.respond("GET", ISSUE_COMMENTS, body=[{"id": 9, "user": {"login": ME}, "body": SUMMARY_MARKER}])
    out = _comment(gh, ScanResult())
    assert len(gh.proxy.sent("POST", ISSUE_COMMENTS)) == 1
    assert out["summary-comment"].status == "ok" and "(9)" in out["summary-comment"].detail


def test_pull_request_calls_go_through_pygithub_and_never_the_raw_client(gh, monkeypatch):
    """Issue 17 item 4: files, reviews, review comments and issue comments are PyGithub calls; the
    raw client (scanner/github/api.py) is only for the SARIF upload, which PyGithub has no call for."""
    from github.Requester import Requester

    from scanner.github.api import GitHubAPI

    seen: list[tuple[str, str]] = []
    real = Requester.requestJsonAndCheck

    def spy(self, verb, url, *args, **kw):
        seen.append((verb, url.split("?")[0]))
        return real(self, verb, url, *args, **kw)

    def forbidden(*_a, **_k):
        raise AssertionError("the raw client was used for a pull request call")
    monkeypatch.setattr(Requester, "requestJsonAndCheck", spy)
    monkeypatch.setattr(GitHubAPI, "request", forbidden)
    out = _comment(gh, ScanResult(findings=[finding(1, line=3), finding(2, line=40)]), changed_lines=None, comment_author=None)
    assert out["review"].status == "ok" and out["summary-comment"].status == "ok", out
    calls = {(verb, url.rsplit("/repos/octo/repo", 1)[-1]) for verb, url in seen}
    assert {("GET", "/user"), ("GET", "/pulls/7/files"), ("GET", "/pulls/7/comments"), ("GET", "/pulls/7/reviews"),
            ("POST", "/pulls/7/reviews"), ("GET", "/issues/7/comments"), ("POST", "/issues/7/comments")} <= calls, calls
    assert_all_valid(gh)


def test_a_secondary_rate_limit_on_a_listing_waits_as_github_says_through_pygithubs_retry(gh):
    gh.proxy.respond("GET", REVIEW_COMMENTS, status=403, times=1, headers={"Retry-After": "7"},
                     body={"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."})
    ctx = context(gh.url)
    outs = publish({}, ScanResult(findings=[finding(1, line=3)]), ctx, upload=False, comment=True)
    assert [o.status for o in outs if o.channel == "review"] == ["ok"], outs
    assert len(gh.proxy.sent("GET", REVIEW_COMMENTS)) == 2 and 7.0 in ctx.sleeps, ctx.sleeps


def test_a_review_refused_by_a_secondary_rate_limit_is_sent_again_after_the_wait(gh):
    gh.proxy.respond("POST", REVIEWS, status=403, times=1,
                     body={"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."})
    ctx = context(gh.url)
    outs = publish({}, ScanResult(findings=[finding(1, line=3)]), ctx, upload=False, comment=True)
    assert [o.status for o in outs if o.channel == "review"] == ["ok"], outs
    assert len(gh.proxy.sent("POST", REVIEWS)) == 2 and 60.0 in ctx.sleeps, ctx.sleeps
