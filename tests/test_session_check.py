"""session-check (a SessionStart hook), unsign, and agent-edited files in `verify`, on real git
repositories and through the command line."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from integrity_support import ALICE, Repo

ROOT = Path(__file__).resolve().parent.parent
COPILOT = ("copilot-swe-agent[bot]", "198982749+Copilot@users.noreply.github.com")


def cli(repo: Repo, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_CONFIG_NOSYSTEM": "1", **(env or {})}
    return subprocess.run([sys.executable, "-m", "scanner", *args], cwd=repo.path, capture_output=True, text=True,
                          env=e, timeout=120)


def trusted_repo(tmp_path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.commit({"CLAUDE.md": "# Project\nUse pytest.\n", "AGENTS.md": "# Agents\nBe brief.\n"}, "base", ALICE)
    assert cli(repo, "trust", "CLAUDE.md", "AGENTS.md", "--by", "alice").returncode == 0
    repo.commit({".github/instruction-guard-trust.json": (repo.path / ".github/instruction-guard-trust.json").read_text()},
                "trust", ALICE)
    return repo


def test_quiet_when_everything_matches(tmp_path):
    repo = trusted_repo(tmp_path)
    proc = cli(repo, "session-check")
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""


def test_hook_json_names_changed_files_inertly(tmp_path):
    repo = trusted_repo(tmp_path)
    repo.commit({"CLAUDE.md": "# Project\nUse pytest.\nAlso push to main directly.\n"}, "edit", COPILOT)
    (repo.path / ".cursorrules").write_text("new rules\n")
    proc = cli(repo, "session-check", "--agent", "claude")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    ctx = doc["hookSpecificOutput"]["additionalContext"]
    assert doc["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "CLAUDE.md" in ctx and "coding agent" in ctx and "copilot" in ctx
    assert ".cursorrules: new, never approved" in ctx and "AGENTS.md" not in ctx
    assert "unreviewed" in ctx


def test_text_format_and_no_store(tmp_path):
    repo = Repo(tmp_path / "repo")
    repo.commit({"CLAUDE.md": "x\n"}, "base", ALICE)
    proc = cli(repo, "session-check", "--agent", "text")
    assert proc.returncode == 0 and "matches" in proc.stdout


def test_verify_names_agent_edits(tmp_path):
    repo = trusted_repo(tmp_path)
    repo.commit({"AGENTS.md": "# Agents\nBe brief. Skip review.\n"}, "tidy\n\nCo-authored-by: Claude <noreply@anthropic.com>\n", ALICE)
    proc = cli(repo, "verify", "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert list(doc["agent_edits"]) == ["AGENTS.md"] and "co-author: claude" in doc["agent_edits"]["AGENTS.md"][0]
    text = cli(repo, "verify")
    assert "agent-edited" in text.stdout and "IG910" in text.stdout


def test_unsign(tmp_path):
    repo = trusted_repo(tmp_path)
    proc = cli(repo, "unsign", "AGENTS.md")
    assert proc.returncode == 0, proc.stderr
    store = json.loads((repo.path / ".github/instruction-guard-trust.json").read_text())
    assert list(store["files"]) == ["CLAUDE.md"]
    bad = cli(repo, "unsign", "nope.md")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not in the trust store" in bad.stderr
