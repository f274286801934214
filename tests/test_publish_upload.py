"""Code scanning upload against GitHub's REST description (Prism), asserting on what was sent."""
from __future__ import annotations

import copy

from publish_helpers import HEAD, assert_all_valid, context, decode_sarif, many

from scanner.github import upload as up
from scanner.github.publish import FIX_ENABLE_CODE_SCANNING, FIX_FORK, FIX_NO_TOKEN, FIX_SECURITY_EVENTS, publish
from scanner.report import sarif

SARIFS = r"/repos/octo/repo/code-scanning/sarifs$"
STATUS = r"/repos/octo/repo/code-scanning/sarifs/[^/]+$"


def _upload(gh, result, **kw):
    ctx = context(gh.url, **kw)
    outcomes = publish(sarif.document(result), result, ctx, upload=True, comment=False)
    return ctx, outcomes[0]


def test_2000_findings_go_up_in_one_valid_request_under_the_limit(gh):
    ctx, out = _upload(gh, many(2000))
    assert out.channel == "code-scanning" and out.status == "ok", out
    assert "processing complete" in out.detail
    posts = gh.proxy.sent("POST", SARIFS)
    assert len(posts) == 1
    body = posts[0].body
    assert body["commit_sha"] == ctx.commit_sha and body["ref"] == "refs/pull/7/merge"
    assert body["tool_name"] == "instruction-guard" and body["checkout_uri"] == "file:///github/workspace/"
    assert len(body["sarif"]) * 3 / 4 < up.MAX_GZIP_BYTES
    sent = decode_sarif(body["sarif"])
    assert len(sent["runs"][0]["results"]) == 2000
    assert up.CUTS_KEY not in sent["runs"][0].get("properties", {})
    assert len(gh.proxy.sent("GET", STATUS)) == 1  # polled once: Prism's example says complete
    assert_all_valid(gh)
    assert posts[0].headers["Authorization"] == "Bearer ghs_test"
    assert posts[0].headers["Accept"] == "application/vnd.github+json"


def test_30000_findings_are_cut_to_the_most_severe_25000_and_the_cut_is_reported(gh):
    _, out = _upload(gh, many(30000))
    assert out.status == "ok"
    assert "kept the 25000 most severe of 30000" in out.detail and "5000 info" in out.detail
    posts = gh.proxy.sent("POST", SARIFS)
    assert len(posts) == 1
    run = decode_sarif(posts[0].body["sarif"])["runs"][0]
    assert len(run["results"]) == 25000
    from collections import Counter
    kept = Counter(r["properties"]["severity"] for r in run["results"])
    assert kept == {"critical": 6000, "high": 6000, "medium": 6000, "low": 6000, "info": 1000}
    cut = run["properties"][up.CUTS_KEY][0]
    assert cut["resultsBefore"] == 30000 and cut["droppedBySeverity"] == {"info": 5000}
    assert_all_valid(gh)


def test_size_limit_cuts_further_keeping_the_most_severe():
    doc = sarif.document(many(3000))
    prepared = up.prepare(doc, max_gzip=40_000)
    assert prepared.gzip_bytes <= 40_000 and not prepared.too_large
    assert 0 < prepared.results_kept < 3000
    assert any("after gzip" in c for c in prepared.cuts)
    ranks = [up.result_rank(r) for r in prepared.doc["runs"][0]["results"]]
    dropped_best = max(up.result_rank(r) for r in doc["runs"][0]["results"]) if prepared.results_kept < 600 else 0
    assert min(ranks) >= 0 and max(ranks) >= dropped_best
    assert len(doc["runs"][0]["results"]) == 3000  # the caller's log is untouched


def test_runs_locations_and_duplicate_categories_are_fixed_before_sending():
    doc = sarif.document(many(3))
    run = doc["runs"][0]
    run["results"][0]["locations"] = run["results"][0]["locations"] * 1200
    run["tool"]["driver"]["rules"][0]["properties"]["tags"] = [f"t{i}" for i in range(30)]
    run["tool"]["extensions"] = [{"name": f"ext{i}"} for i in range(120)]
    twin = copy.deepcopy(run)
    doc["runs"] = [run, twin] + [copy.deepcopy(run) for _ in range(20)]
    for i, r in enumerate(doc["runs"][2:]):
        r["automationDetails"] = {"id": f"other/{i}/"}
    prepared = up.prepare(doc)
    runs = prepared.doc["runs"]
    assert len(runs) == up.MAX_RUNS
    keys = [(r["tool"]["driver"]["name"], r["automationDetails"]["id"]) for r in runs]
    assert len(set(keys)) == len(keys)
    assert runs[1]["automationDetails"]["id"] == "instruction-guard/native-2/"
    assert len(runs[0]["results"][0]["locations"]) == up.MAX_LOCATIONS_PER_RESULT
    text = " ".join(prepared.cuts)
    assert "beyond GitHub's 20" in text and "repeated category" in text and "1000 locations" in text
    assert "cut to 20 tags" in text and "20 tool extension(s) beyond 100" in text
    assert len(runs[0]["tool"]["driver"]["rules"][0]["properties"]["tags"]) == up.MAX_TAGS_PER_RULE
    assert len(runs[0]["tool"]["extensions"]) == up.MAX_EXTENSIONS_PER_RUN
    assert len(doc["runs"][0]["tool"]["driver"]["rules"][0]["properties"]["tags"]) == 30
    # the caller's log is untouched
    assert len(doc["runs"]) == 22 and len(doc["runs"][0]["results"][0]["locations"]) == 1200
    assert doc["runs"][1]["automationDetails"]["id"] == "instruction-guard/native/"
    assert up.CUTS_KEY not in doc["runs"][1].get("properties", {})


def test_ghes_api_url_is_honoured(gh):
    _, out = _upload(gh, many(5), api_url=gh.url + "/api/v3")
    assert out.status == "ok", out
    assert [e.path for e in gh.proxy.exchanges][0] == "/api/v3/repos/octo/repo/code-scanning/sarifs"
    assert_all_valid(gh)


def test_code_scanning_disabled_403_is_reported_with_the_fix(gh):
    gh.proxy.respond("POST", SARIFS, status=403, body={
        "message": "Advanced Security must be enabled for this repository to use code scanning.",
        "documentation_url": "https://docs.github.com/rest"})
    _, out = _upload(gh, many(5))
    assert out.status == "failed" and "403" in out.detail and out.fix == FIX_ENABLE_CODE_SCANNING
    assert len(gh.proxy.sent("POST", SARIFS)) == 1  # a plain 403 is final
    assert_all_valid(gh)


def test_spec_shaped_403_without_permission_names_the_permission(gh):
    gh.proxy.respond("POST", SARIFS, status=403)  # Prism answers with the spec's 403 example
    _, out = _upload(gh, many(5))
    assert out.status == "failed" and out.fix in (FIX_SECURITY_EVENTS, FIX_ENABLE_CODE_SCANNING)
    gh.proxy.reset()
    gh.proxy.respond("POST", SARIFS, status=403, body={"message": "Resource not accessible by integration"})
    _, out = _upload(gh, many(5), head_is_fork=True)
    assert out.status == "failed" and out.fix == FIX_FORK


def test_404_and_422_are_final_and_reported(gh):
    for status in (404, 400):
        gh.proxy.reset()
        gh.proxy.respond("POST", SARIFS, status=status)
        _, out = _upload(gh, many(5))
        assert out.status == "failed" and str(status) in out.detail and out.fix
        assert len(gh.proxy.sent("POST", SARIFS)) == 1


def test_5xx_is_retried_with_backoff_then_succeeds(gh):
    gh.proxy.respond("POST", SARIFS, status=502, times=2)
    ctx, out = _upload(gh, many(5))
    assert out.status == "ok", out
    assert len(gh.proxy.sent("POST", SARIFS)) == 3
    assert len(ctx.sleeps) == 2 and ctx.sleeps[0] < ctx.sleeps[1] <= 30


def test_persistent_503_gives_up_within_bounds(gh):
    gh.proxy.respond("POST", SARIFS, status=503)
    ctx, out = _upload(gh, many(5))
    assert out.status == "failed" and "gave up" in out.detail and "re-run" in out.fix
    assert len(gh.proxy.sent("POST", SARIFS)) == 6
    assert sum(ctx.sleeps) < 120


def test_secondary_rate_limit_waits_as_told(gh):
    gh.proxy.respond("POST", SARIFS, status=403, times=1, headers={"Retry-After": "7"},
                     body={"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."})
    ctx, out = _upload(gh, many(5))
    assert out.status == "ok", out
    assert ctx.sleeps[0] == 7.0 and len(gh.proxy.sent("POST", SARIFS)) == 2


def test_rate_limit_reset_beyond_the_budget_is_not_waited_for(gh):
    gh.proxy.respond("POST", SARIFS, status=429, headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": "9999999999"},
                     body={"message": "API rate limit exceeded"})
    ctx, out = _upload(gh, many(5))
    assert out.status == "failed" and "beyond the time budget" in out.detail
    assert ctx.sleeps == [] and len(gh.proxy.sent("POST", SARIFS)) == 1


def test_processing_is_polled_until_done_and_failures_reported(gh):
    gh.proxy.respond("GET", STATUS, body={"processing_status": "pending"}, times=2)
    ctx, out = _upload(gh, many(5))
    assert out.status == "ok" and "processing complete" in out.detail
    assert len(gh.proxy.sent("GET", STATUS)) == 3 and ctx.sleeps == [3, 3]
    gh.proxy.reset()
    gh.proxy.respond("GET", STATUS, body={"processing_status": "failed", "errors": ["locationFromSarifResult: bad uri"]})
    _, out = _upload(gh, many(5))
    assert out.status == "failed" and "bad uri" in out.detail
    gh.proxy.reset()
    gh.proxy.respond("GET", STATUS, body={"processing_status": "pending"})
    _, out = _upload(gh, many(5))
    assert out.status == "ok" and "still processing" in out.detail
    assert len(gh.proxy.sent("GET", STATUS)) == 3  # bounded by poll_seconds


def test_no_token_and_bad_ref_send_nothing(gh):
    result = many(3)
    outs = publish(sarif.document(result), result, context(gh.url, token=None), upload=True, comment=True)
    assert [o.status for o in outs] == ["skipped"] * 3 and outs[0].fix == FIX_NO_TOKEN
    _, out = _upload(gh, many(3), ref="main", commit_sha=HEAD)
    assert out.status == "failed" and "ref 'main'" in out.detail
    assert gh.proxy.exchanges == []


def test_a_log_that_cannot_be_cut_under_the_limit_is_not_sent(gh, monkeypatch):
    monkeypatch.setattr(up, "MAX_GZIP_BYTES", 2_000)  # the rule descriptors alone are bigger
    _, out = _upload(gh, many(50))
    assert out.status == "failed" and "after gzip even after cutting" in out.detail and out.fix
    assert gh.proxy.exchanges == []


def test_hunk_headers_give_the_commentable_right_side_lines():
    from scanner.github.comments import right_lines_from_patch

    patch = "@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n@@ -20 +21 @@ def f():\n-x\n+y\n@@ -40,2 +42,0 @@\n-gone\n-gone"
    assert right_lines_from_patch(patch) == frozenset({1, 2, 3, 4, 21})
    assert right_lines_from_patch("+@@ -1 +99,5 @@ inside added text\n") == frozenset()


def test_unreachable_or_malformed_api_urls_are_outcomes_not_crashes():
    from publish_helpers import context

    result = many(2)
    for url in ("not a url", "http://127.0.0.1:9"):  # nothing listens on the discard port
        ctx = context(url, request_budget_seconds=5)
        outs = publish(sarif.document(result), result, ctx, upload=True, comment=True)
        assert [o.status for o in outs] == ["failed", "failed", "failed"], outs
        assert all(o.fix for o in outs)
        assert ("GITHUB_API_URL" in outs[0].fix) == (url == "not a url")


def test_the_mock_really_rejects_malformed_requests(gh):
    """The validity checks above mean something: Prism flags requests that break GitHub's description."""
    from scanner.github.api import APIError, GitHubAPI

    api = GitHubAPI(gh.url, "t", sleep=lambda s: None)
    bad = [("POST", "/repos/o/r/code-scanning/sarifs", {"commit_sha": "abc", "ref": "main", "sarif": "x", "extra": 1}),
           ("POST", "/repos/o/r/pulls/7/reviews", {"event": "SHOUT", "comments": [{"line": "3"}]}),
           ("PATCH", "/repos/o/r/issues/comments/5", {"text": "no body field"})]
    for method, path, body in bad:
        try:
            api.request(method, path, json=body)
        except APIError as exc:
            assert exc.status in (400, 422)
    flagged = [e for e in gh.proxy.exchanges if e.request_violations]
    assert len(flagged) == 3, [(e.path, e.prism_status) for e in gh.proxy.exchanges]
    gh.proxy.reset()  # the fixture's own validity check is for the publisher's requests
