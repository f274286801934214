"""`mode: publish`: an earlier run's SARIF artifact is published without reading the PR's code.

The artifact of a fork's run is under the fork's control, so these tests also feed hostile SARIF.
"""
from __future__ import annotations

import json

from publish_helpers import HEAD, assert_all_valid, context, decode_sarif, finding

from scanner.github import sarif_findings
from scanner.github.publish import run_publish_mode
from scanner.models import ScanResult, Severity
from scanner.report import sarif

PULL = r"/repos/octo/repo/pulls/7$"


def _artifact(tmp_path, doc) -> str:
    path = tmp_path / "instruction-guard.sarif"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc, encoding="utf-8")
    return str(path)


def _pull(head: str) -> dict:
    return {"number": 7, "head": {"sha": head}}


def test_artifact_is_uploaded_to_the_pr_head_and_commented(gh, tmp_path):
    result = ScanResult(findings=[finding(1, line=3), finding(2, line=9, severity=Severity.CRITICAL, path="AGENTS.md")])
    path = _artifact(tmp_path, sarif.document(result))
    gh.proxy.respond("GET", PULL, body=_pull(HEAD))
    ctx = context(gh.url, commit_sha=HEAD, ref="", pr_number=None, checkout_uri=None,
                  changed_lines={"CLAUDE.md": frozenset({3})})
    outs = {o.channel: o for o in run_publish_mode(path, 7, ctx)}
    assert all(o.status == "ok" for o in outs.values()), outs
    post = gh.proxy.sent("POST", r"/code-scanning/sarifs$")[0].body
    assert post["ref"] == "refs/pull/7/head" and post["commit_sha"] == HEAD and "checkout_uri" not in post
    assert len(decode_sarif(post["sarif"])["runs"][0]["results"]) == 2
    review = gh.proxy.sent("POST", r"/pulls/7/reviews$")[0].body
    assert [c["line"] for c in review["comments"]] == [3]
    fps = {f.fingerprint for f in result.findings}
    assert all(fp in json.dumps(review) for fp in fps)  # fingerprints survive the round trip
    assert len(gh.proxy.sent("POST", r"/issues/7/comments$")) == 1
    # Nothing but the API: the PR's files were never fetched from contents endpoints.
    assert not [e for e in gh.proxy.exchanges if "/contents/" in e.path or "/git/" in e.path]
    assert_all_valid(gh)


def test_an_artifact_naming_another_pull_request_is_refused(gh, tmp_path):
    path = _artifact(tmp_path, sarif.document(ScanResult(findings=[finding(1)])))
    gh.proxy.respond("GET", PULL, body=_pull("f" * 40))
    outs = run_publish_mode(path, 7, context(gh.url, commit_sha=HEAD, ref="", pr_number=None))
    assert {o.status for o in outs} == {"skipped"} and "not the analysed commit" in outs[0].detail
    assert [e.method for e in gh.proxy.exchanges] == ["GET"]


def test_hostile_sarif_is_read_defensively_and_shown_inert(gh, tmp_path):
    evil = "@maintainer <img src=x> [x](https://evil.example) ![i](https://evil.example/i.png)"
    doc = {"version": "2.1.0", "runs": [
        {"tool": {"driver": {"name": evil, "rules": [{"id": "R1", "shortDescription": {"text": evil}}]}},
         "results": [
             {"ruleId": "R1", "ruleIndex": 0, "level": "error", "message": {"text": evil},
              "locations": [{"physicalLocation": {"artifactLocation": {"uri": "CLAUDE.md"},
                                                  "region": {"startLine": 3, "snippet": {"text": evil}}}}],
              "partialFingerprints": {"instructionGuard/v1": "<script>"}},
             {"ruleId": "R1", "message": {"text": "x"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "../../etc/passwd"}}}]},
             {"ruleId": "R1", "message": {"text": "x"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "file:///etc/passwd"}}}]},
             {"ruleId": 5, "message": "not an object", "locations": "nope", "properties": []},
             "not a result",
         ]},
        "not a run",
    ]}
    path = _artifact(tmp_path, doc)
    rebuilt = sarif_findings.findings(sarif_findings.load(path))
    assert [f.path for f in rebuilt.findings] == ["CLAUDE.md"]
    assert rebuilt.findings[0].fingerprint.isalnum()
    assert rebuilt.not_scanned and "4 result(s)" in rebuilt.not_scanned[0].detail
    gh.proxy.respond("GET", PULL, body=_pull(HEAD))
    ctx = context(gh.url, commit_sha=HEAD, ref="", pr_number=None, changed_lines={"CLAUDE.md": frozenset({3})})
    outs = run_publish_mode(path, 7, ctx, upload=False)
    assert [o.status for o in outs] == ["skipped", "ok", "ok"], outs
    sent = [gh.proxy.sent("POST", r"/pulls/7/reviews$")[0].body["comments"][0]["body"],
            gh.proxy.sent("POST", r"/issues/7/comments$")[0].body["body"]]
    for body in sent:
        outside_code = "".join(body.split("`")[0::2])
        for live in ("@maintainer", "<img", "](https", "![", "evil.example", "<script>"):
            assert live not in outside_code, (live, body)
    assert_all_valid(gh)


def test_unreadable_artifacts_fail_without_sending(gh, tmp_path):
    for content in ("{not json", json.dumps({"runs": "x"}), json.dumps([1, 2])):
        outs = run_publish_mode(_artifact(tmp_path, content), 7, context(gh.url, commit_sha=HEAD, ref=""))
        assert {o.status for o in outs} == {"failed"} and "artifact" in outs[0].fix
    outs = run_publish_mode(str(tmp_path / "missing.sarif"), 7, context(gh.url))
    assert outs[0].status == "failed" and "cannot read" in outs[0].detail
    assert gh.proxy.exchanges == []


def test_publish_mode_for_a_push_uploads_to_the_branch(gh, tmp_path):
    path = _artifact(tmp_path, sarif.document(ScanResult(findings=[finding(1)])))
    outs = run_publish_mode(path, None, context(gh.url, commit_sha=HEAD, ref="refs/heads/main", pr_number=None))
    assert [o.status for o in outs] == ["ok", "skipped", "skipped"]
    assert gh.proxy.sent("POST", r"/code-scanning/sarifs$")[0].body["ref"] == "refs/heads/main"
    assert gh.proxy.sent("GET", r"/pulls/") == []


def test_the_artifacts_failed_engines_and_unscanned_files_reach_the_summary(gh, tmp_path):
    from scanner.models import EngineRun, EngineStatus, NotScanned

    scan = ScanResult(findings=[finding(1)], not_scanned=[NotScanned("big/CLAUDE.md", "too-large", "3 MB")],
                      engines=[EngineRun("native", EngineStatus.FAILED, detail="boom")])
    path = _artifact(tmp_path, sarif.document(scan))
    rebuilt = sarif_findings.findings(sarif_findings.load(path))
    assert [(n.path, n.reason) for n in rebuilt.not_scanned] == [("big/CLAUDE.md", "too-large")]
    assert [(e.name, e.status) for e in rebuilt.engines] == [("instruction-guard", EngineStatus.FAILED)]
    gh.proxy.respond("GET", PULL, body=_pull(HEAD))
    run_publish_mode(path, 7, context(gh.url, commit_sha=HEAD, ref="", pr_number=None, changed_lines={}), upload=False)
    body = gh.proxy.sent("POST", r"/issues/7/comments$")[0].body["body"]
    assert "too-large" in body and "instruction-guard failed" in body
