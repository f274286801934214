"""Integrity and .rune findings survive SARIF: schema-valid, and the Multitool finds no error."""
from __future__ import annotations

import json

from scanner.cli import main
from tests.integrity_support import ALICE, MALLORY, Repo
from tests.sarif_validators import multitool_errors, validate_schema


def test_sarif_with_integrity_and_rune_findings_validates(tmp_path, capsys):
    repo = Repo(tmp_path / "repo")
    repo.commit({"CLAUDE.md": "# Project\n", ".rune/decisions.md": "# Decisions Log\n"}, "initial", ALICE)
    assert main(["trust", "--all", "--root", str(repo.path)]) == 0
    repo.commit({".github/instruction-guard-trust.json": (repo.path / ".github/instruction-guard-trust.json").read_text()},
                "baseline", ALICE)
    repo.commit({"CLAUDE.md": "# Project\nChanged.\n", "AGENTS.md": "# New\n",
                 ".rune/decisions.md": "# Decisions Log\n\n## oops\n\n`pip install reqeusts`\n"}, "edit", MALLORY)
    out = tmp_path / "out.sarif"
    capsys.readouterr()
    assert main(["scan", str(repo.path), "--format", "sarif", "--output", str(out), "--fail-on", "never"]) == 0
    doc = json.loads(out.read_text())
    rule_ids = {r["ruleId"] for run in doc["runs"] for r in run["results"]}
    assert {"IG921", "IG923", "IG801", "IG803"} <= rule_ids
    assert validate_schema(doc) == []
    assert multitool_errors(str(out)) == []
