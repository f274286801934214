"""Builders shared by the publishing tests: findings, contexts, and decoding what was sent."""
from __future__ import annotations

import base64
import gzip
import json

from scanner.github.publish import PublishContext
from scanner.models import Category, Confidence, Finding, ScanResult, Severity, Span

HEAD = "c0ffee" + "0" * 34
MERGE = "abcdef" + "1" * 34


def finding(i: int = 0, *, path: str = "CLAUDE.md", line: int | None = None, severity: Severity = Severity.HIGH,
            rule: str = "IG101", excerpt: str | None = None, engine: str = "native",
            category: Category = Category.HIDDEN_CONTENT, message: str = "Hidden instruction") -> Finding:
    return Finding(rule, "Hidden Unicode tag characters", message, severity, Confidence.HIGH, category, path,
                   Span(line if line is not None else i + 1, 1), excerpt=excerpt if excerpt is not None else f"payload {i}",
                   engine=engine)


def many(n: int) -> ScanResult:
    """n findings over 40 files, severities cycling critical..info."""
    sev = [Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW, Severity.INFO]
    return ScanResult(findings=[finding(i, path=f"skills/s{i % 40}/SKILL.md", line=i // 40 + 1, severity=sev[i % 5])
                                for i in range(n)])


def context(url: str, **kw) -> PublishContext:
    sleeps: list[float] = []
    base = dict(token="ghs_test", repository="octo/repo", commit_sha=MERGE, ref="refs/pull/7/merge", api_url=url,
                server_url="http://127.0.0.1", pr_number=7, head_sha=HEAD, checkout_uri="file:///github/workspace/",
                poll_seconds=6, poll_interval=3, comment_author="github-actions[bot]", sleep=sleeps.append)
    base.update(kw)
    ctx = PublishContext(**base)
    ctx.sleeps = sleeps  # type: ignore[attr-defined]
    return ctx


def decode_sarif(payload: str) -> dict:
    return json.loads(gzip.decompress(base64.b64decode(payload)))


def assert_all_valid(mock) -> None:
    """Prism found nothing wrong with any request that was sent."""
    bad = [(e.method, e.path, e.request_violations) for e in mock.proxy.exchanges if e.request_violations]
    assert not bad, bad
    assert mock.proxy.exchanges, "nothing was sent"
