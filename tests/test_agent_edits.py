"""IG910: a coding agent that edits the files steering agents is a high finding of its own, in a
member's pull request on a real git history (entrypoint.py as a subprocess)."""
from __future__ import annotations

import hashlib
import json

import pytest

from action_support import MAINTAINER, MEMBER, GitRepo, pull_request_event, require_npm_data, run_action
from scanner import identity

CLAUDE = "# Project\n\nRun `pytest -q` before committing.\n"
EDIT = CLAUDE + "Prefer small functions.\n"
COPILOT = ("copilot-swe-agent[bot]", "198982749+Copilot@users.noreply.github.com")


@pytest.fixture(autouse=True)
def _npm_data():
    require_npm_data()


@pytest.fixture
def repo(tmp_path) -> GitRepo:
    r = GitRepo(tmp_path / "repo")
    r.commit({"CLAUDE.md": CLAUDE, "src/app.py": "print('hi')\n"}, "base", MAINTAINER)
    r.commit({"src/app.py": "print('hello')\n"}, "member work", MEMBER)
    return r


def test_copilot_agent_commit_in_member_pull_request_is_high(tmp_path, repo):
    base = repo.head()
    repo.branch("pr")
    head = repo.commit({"CLAUDE.md": EDIT}, "Update CLAUDE.md", COPILOT)
    run = run_action(tmp_path, repo.path, "pull_request", pull_request_event(base, head, login="max", association="MEMBER"))
    assert "Traceback" not in run.stderr
    hits = run.results_for("IG910")
    assert len(hits) == 1, run.rule_ids()
    assert hits[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "CLAUDE.md"
    assert float(hits[0]["properties"]["security-severity"]) >= 7.0
    assert run.returncode == 1 and run.outputs["verdict"] == "fail"


def test_co_authored_by_trailer_counts(tmp_path, repo):
    base = repo.head()
    repo.branch("pr")
    head = repo.commit({"CLAUDE.md": EDIT}, "Tidy\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n", MEMBER)
    run = run_action(tmp_path, repo.path, "pull_request", pull_request_event(base, head, login="max", association="MEMBER"))
    assert [r["ruleId"] for r in run.results()] == ["IG910"]
    assert "co-author: claude" in run.results_for("IG910")[0]["message"]["text"]


def test_same_edit_by_a_person_draws_nothing(tmp_path, repo):
    base = repo.head()
    repo.branch("pr")
    head = repo.commit({"CLAUDE.md": EDIT, "src/app.py": "x = 1\n"}, "Tidy", MEMBER)
    run = run_action(tmp_path, repo.path, "pull_request", pull_request_event(base, head, login="max", association="MEMBER"))
    assert run.results() == [] and run.returncode == 0


def test_agent_commit_to_other_files_draws_nothing(tmp_path, repo):
    base = repo.head()
    repo.branch("pr")
    head = repo.commit({"src/app.py": "x = 2\n"}, "Fix", COPILOT)
    run = run_action(tmp_path, repo.path, "pull_request", pull_request_event(base, head, login="max", association="MEMBER"))
    assert run.results_for("IG910") == []


def test_approved_in_base_trust_store_is_lowered(tmp_path, repo):
    store = {"version": 1, "files": {"CLAUDE.md": {"sha256": hashlib.sha256(EDIT.encode()).hexdigest(),
                                                     "approved_by": "mona", "approved_at": "2026-11-30T00:00:00Z",
                                                     "size": len(EDIT)}}}
    repo.commit({".github/instruction-guard-trust.json": json.dumps(store)}, "approve", MAINTAINER)
    base = repo.head()
    repo.branch("pr")
    head = repo.commit({"CLAUDE.md": EDIT}, "Update CLAUDE.md", COPILOT)
    run = run_action(tmp_path, repo.path, "pull_request", pull_request_event(base, head, login="max", association="MEMBER"))
    hits = run.results_for("IG910")
    assert hits and float(hits[0]["properties"]["security-severity"]) < 7.0
    assert hits[0]["properties"]["approved-in-trust-store"] is True


@pytest.mark.parametrize("who,agent", [
    ({"login": "copilot-swe-agent[bot]"}, "copilot"), ({"login": "devin-ai-integration[bot]"}, "devin"),
    ({"login": "google-labs-jules[bot]"}, "jules"), ({"name": "Jane Doe (aider)"}, "aider"),
    ({"email": "cursoragent@cursor.com"}, "cursor"), ({"name": "Mona", "email": "mona@example.org"}, None),
    ({"login": "dependabot[bot]"}, None), ({"name": "Claudette", "email": "claudette@example.org"}, None),
])
def test_identities(who, agent):
    assert identity.agent_for(**who) == agent
