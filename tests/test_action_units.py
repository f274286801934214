"""The Action's parts on their own: git helpers on awkward paths, the REST fallback for shallow
clones, outputs, inputs, annotations and the job summary's caps."""
from __future__ import annotations

import json
import subprocess

import pytest

from action_support import MAINTAINER, MEMBER, OUTSIDER, ROOT, GitRepo
from scanner import gitutil
from scanner.action.inputs import parse_inputs
from scanner.action.outputs import format_output, parse_outputs
from scanner.config import Config
from scanner.errors import UsageError
from scanner.github.event import Event
from scanner.git_targets import build_scope
from scanner.github.change import ScopeError, parse_patch
from scanner.models import Category, Confidence, Finding, ScanResult, Severity, Span
from scanner.policy import decide
from scanner.report import annotations, summary

OPENAPI = ROOT / "node_modules" / "@octokit" / "openapi" / "generated" / "api.github.com.json"


def test_git_helpers_survive_awkward_paths(tmp_path):
    r = GitRepo(tmp_path / "r")
    odd = 'we ird/tab\t"q".md'
    base = r.commit({"CLAUDE.md": "a\nb\nc\n", odd: "x\n", "sp ace/SKILL.md": "s\n"}, "base")
    r.branch("pr")
    r.git("mv", "sp ace", "moved dir")
    head = r.commit({"CLAUDE.md": "a\nB\nc\nd\n", odd: "x\ny\n"}, "pr", OUTSIDER)
    changes = {(c.status, c.path, c.old_path) for c in gitutil.diff_name_status(str(r.path), base, head)}
    assert changes == {("M", "CLAUDE.md", None), ("M", odd, None), ("R", "moved dir/SKILL.md", "sp ace/SKILL.md")}
    assert gitutil.changed_lines_by_path(str(r.path), base, head) == {"CLAUDE.md": frozenset({2, 4}), odd: frozenset({2})}
    assert gitutil.read_blob(str(r.path), head, odd) == b"x\ny\n"
    assert gitutil.read_blob(str(r.path), head, "missing.md") is None
    [commit] = gitutil.log_authors(str(r.path), f"{base}..{head}")
    assert commit.author_email == OUTSIDER[1] and set(commit.paths) == {"CLAUDE.md", odd, "moved dir/SKILL.md", "sp ace/SKILL.md"}
    assert gitutil.authors_in_history(str(r.path), base) == {MAINTAINER[1]}
    assert not gitutil.commit_exists(str(r.path), "--help") and not gitutil.commit_exists(str(r.path), "0" * 40)
    assert "moved dir/SKILL.md" in gitutil.list_dirs(str(r.path), head, ["moved dir"])


def test_git_never_runs_a_textconv_driver_from_the_repository(tmp_path):
    r = GitRepo(tmp_path / "r")
    marker = tmp_path / "ran"
    base = r.commit({".gitattributes": "*.md diff=evil\n", "CLAUDE.md": "a\n"}, "base")
    r.git("config", "diff.evil.textconv", f"touch {marker}; cat")
    r.git("config", "diff.external", f"sh -c 'touch {marker}'")
    head = r.commit({"CLAUDE.md": "a\nb\n"}, "pr")
    assert gitutil.changed_lines(str(r.path), base, head, "CLAUDE.md") == frozenset({2})
    assert not marker.exists()


def _diff_entries(repo: GitRepo, base: str, head: str) -> list[dict]:
    """GitHub's `pulls/{n}/files` answer built from the full repository (validated against the REST description)."""
    import jsonschema

    statuses = {"A": "added", "M": "modified", "D": "removed", "R": "renamed"}
    entries = []
    for c in gitutil.diff_name_status(str(repo.path), base, head):
        diff = repo.git("diff", "-M", f"{base}...{head}", "--", c.path)
        patch = diff[diff.index("@@"):] if "@@" in diff else None
        e = {"sha": head, "filename": c.path, "status": statuses[c.status], "additions": 1, "deletions": 0, "changes": 1,
             "blob_url": f"https://github.com/o/r/blob/{head}/{c.path}", "raw_url": f"https://github.com/o/r/raw/{head}/{c.path}",
             "contents_url": f"https://api.github.com/repos/o/r/contents/{c.path}?ref={head}"}
        if patch:
            e["patch"] = patch
        if c.old_path:
            e["previous_filename"] = c.old_path
        entries.append(e)
    spec = json.loads(OPENAPI.read_text("utf-8"))
    jsonschema.Draft7Validator(spec["components"]["schemas"]["diff-entry"]).validate(entries[0])
    return entries


def test_shallow_merge_checkout_falls_back_to_the_rest_file_list(tmp_path):
    r = GitRepo(tmp_path / "r")
    r.commit({"CLAUDE.md": "# P\nRun tests.\n", "AGENTS.md": "x\n"}, "base", MAINTAINER)
    base = r.head()
    r.branch("pr")
    head = r.commit({"CLAUDE.md": "# P\nRun tests.\nAlso lint.\n", "AGENTS.md": None}, "pr", OUTSIDER)
    r.git("checkout", "-q", "main")
    r.git("merge", "-q", "--no-ff", "-m", "merge", "pr", author=MEMBER)
    merge = r.head()
    entries = _diff_entries(r, base, head)
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{r.path}", str(shallow)], check=True, capture_output=True)
    event = Event("pull_request", "o/r", head_sha=head, base_sha=base, commit_sha=merge, pr_number=5,
                  author_login="otto", author_association="NONE")
    with pytest.raises(ScopeError, match="fetch-depth: 0"):
        build_scope(str(shallow), event, Config(), "changed", None)
    asked = []
    scope = build_scope(str(shallow), event, Config(), "changed", lambda repo, n: asked.append((repo, n)) or entries)
    assert asked == [("o/r", 5)] and scope.source == "rest-api" and not scope.history
    assert scope.head == merge
    [target] = scope.targets.targets
    assert target.path == "CLAUDE.md" and target.blob.endswith(b"Also lint.\n") and target.changed_lines == frozenset({3})
    assert [f.rule_id for f in scope.findings] == ["IG904"]
    assert any("REST API" in n for n in scope.notes)


def test_parse_patch_counts_head_side_lines():
    patch = "@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n@@ -10,2 +11,2 @@\n x\n+y\n\\ No newline at end of file"
    assert parse_patch(patch) == frozenset({2, 4, 12})


def test_outputs_cannot_be_forged_by_a_value():
    value = "1\nverdict<<EOF\npass\nEOF\nghadelimiter_x"
    text = format_output("findings", value) + format_output("verdict", "fail")
    assert parse_outputs(text) == {"findings": value, "verdict": "fail"}


def test_inputs_hyphens_and_validation():
    env = {"INPUT_FAIL-ON": "Medium", "INPUT_SCAN-SCOPE": "all", "INPUT_TRUSTED-USERS": "@alice,\nbob@example.org",
           "INPUT_ENGINES": "native,cisco:auto", "INPUT_UPLOAD-SARIF": "false", "INPUT_PR-NUMBER": "12"}
    got = parse_inputs(env)
    assert got.fail_on == Severity.MEDIUM and got.fail_on_given and got.scan_scope == "all"
    assert got.trusted_users == ("alice", "bob@example.org") and got.engines == ("native", "cisco") and got.cisco_mode == "auto"
    assert got.upload_sarif is False and got.comment is True and got.pr_number == 12
    assert parse_inputs({"INPUT_FAIL_ON": "never"}).fail_on is None  # underscore spelling from other runners
    for bad in ({"INPUT_MODE": "deploy"}, {"INPUT_PR-NUMBER": "-1"}, {"INPUT_COMMENT": "perhaps"}):
        with pytest.raises(UsageError):
            parse_inputs(bad)


def _finding(i: int, severity: Severity, text: str = "x") -> Finding:
    return Finding("IG102", "t", f"msg {i} {text}", severity, Confidence.HIGH, Category.HIDDEN_CONTENT,
                   f"dir/file{i}.md", Span(i + 1), excerpt=text)


def test_annotations_capped_most_severe_first_and_escaped():
    findings = [_finding(i, Severity.MEDIUM) for i in range(12)] + [_finding(100 + i, Severity.CRITICAL, "a,b:c%\n::x") for i in range(11)]
    notes = annotations.build(findings)
    assert len(notes.lines) == 20 and notes.omitted == {"error": 1, "warning": 2}
    assert notes.lines[0].startswith("::error file=dir/file100.md,line=101,title=IG102 t::")
    assert all("\n" not in line for line in notes.lines) and "c%25<U+000A>::x" in notes.lines[0]


def test_summary_stays_under_githubs_limit():
    big = "A" * 150
    result = ScanResult(findings=[_finding(i, Severity.HIGH, big) for i in range(20000)])
    text = summary.render(result, decide(result, Severity.HIGH), budget=summary.BUDGET)
    assert len(text.encode()) < summary.MAX_BYTES
    assert "Summary truncated" in text


def test_trusted_authors_commit_counts_as_theirs_through_its_github_login(tmp_path):
    from scanner.engines import provenance_findings as provenance

    r = GitRepo(tmp_path / "r")
    base = r.commit({"CLAUDE.md": "a\n"}, "base", MAINTAINER)
    r.branch("pr")
    head = r.commit({"CLAUDE.md": "a\nb\n"}, "from a laptop", ("Max", "max@laptop.local"))
    event = Event("pull_request", "o/r", head_sha=head, base_sha=base, pr_number=3, author_login="max", author_association="MEMBER")
    scope = build_scope(str(r.path), event, Config(), "changed")
    by_email = provenance.assess(str(r.path), event, scope, Config())
    assert [f.rule_id for f in by_email.findings] == ["IG902"] and by_email.external
    by_login = provenance.assess(str(r.path), event, scope, Config(), commit_logins={head: "Max"})
    assert by_login.findings == [] and not by_login.external and by_login.verdict == "trusted"
    # A login that is not trusted does not help, and bots are people unless trusted by name.
    bot = provenance.assess(str(r.path), event, scope, Config(), commit_logins={head: "renovate[bot]"})
    assert [f.rule_id for f in bot.findings] == ["IG902"]
    named = provenance.assess(str(r.path), event, scope, Config(trusted_users=("renovate[bot]",)), commit_logins={head: "renovate[bot]"})
    assert named.findings == []


def test_text_renamed_into_an_agent_file_is_all_new(tmp_path):
    r = GitRepo(tmp_path / "r")
    base = r.commit({"docs/notes.md": "one\ntwo\u202e\nthree\n", "AGENTS.md": "keep\n"}, "base", MAINTAINER)
    r.branch("pr")
    (r.path / "sub").mkdir()
    r.git("mv", "docs/notes.md", "CLAUDE.md")
    r.git("mv", "AGENTS.md", "sub/AGENTS.md")
    head = r.commit({}, "rename", MEMBER)
    event = Event("pull_request", "o/r", head_sha=head, base_sha=base, pr_number=3, author_login="max", author_association="MEMBER")
    scope = build_scope(str(r.path), event, Config(), "changed")
    lines = {t.path: t.changed_lines for t in scope.targets.targets}
    assert lines == {"CLAUDE.md": frozenset({1, 2, 3, 4}), "sub/AGENTS.md": frozenset()}


def test_links_are_resolved_and_what_cannot_be_read_is_a_finding(tmp_path):
    from scanner.engines import run_engines
    from scanner.targets import Limits

    r = GitRepo(tmp_path / "r")
    base = r.commit({"README.md": "x\n"}, "base")
    r.branch("pr")
    (r.path / "CLAUDE.md").symlink_to("/home/runner/.ssh/id_rsa")
    (r.path / ".cursorrules").symlink_to("README.md")
    r.git("add", "CLAUDE.md", ".cursorrules")
    r.git("update-index", "--add", "--cacheinfo", f"160000,{base},AGENTS.md")
    head = r.commit({"GEMINI.md": "y\n" * 600}, "links", MEMBER)
    event = Event("pull_request", "o/r", head_sha=head, base_sha=base, pr_number=3, author_login="max", author_association="MEMBER")
    config = Config(limits=Limits(max_file_bytes=1000))
    scope = build_scope(str(r.path), event, config, "changed")
    reasons = {n.path: n.reason for n in scope.targets.not_scanned}
    assert reasons == {"AGENTS.md": "gitlink", "GEMINI.md": "too-large"}
    assert scope.targets.links == [("CLAUDE.md", "/home/runner/.ssh/id_rsa")]
    # A link inside the repository is read as an agent reads it: README.md's text, as .cursorrules.
    assert [(t.path, t.blob) for t in scope.targets.targets] == [(".cursorrules", b"x\n")]
    result = run_engines(scope.targets, config)
    # Each exactly once: the submodule from scope (IG906), the rest from the coverage engine's table
    # (IG951 a link leaving the repository, IG955 over the size cap); IG907 is no longer raised.
    found = sorted((f.rule_id, f.path) for f in result.findings + scope.findings)
    assert found == [("IG906", "AGENTS.md"), ("IG951", "CLAUDE.md"), ("IG955", "GEMINI.md")], found

