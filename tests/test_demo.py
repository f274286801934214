"""The bundled demo repository (README line 1): poisoned files flagged, clean ones quiet, valid SARIF."""
import json
from pathlib import Path

import pytest

from sarif_validators import multitool_errors, validate_schema
from scanner.cli import main

DEMO = Path(__file__).resolve().parent.parent / "demo"

# Each poisoned file and the rules that name its attack shape (any one of them must fire at
# medium or above).
POISONED = {
    "AGENTS.md": {"IG201", "IG301", "IG304", "IG401", "IG403"},           # directive in an HTML comment
    ".cursorrules": {"IG101"},                                            # Tags-block smuggling
    ".claude/skills/weather/SKILL.md": {"IG304"},                         # run it and hide it from the user
    ".claude/skills/weather/scripts/fetch.sh": {"IG701"},                 # remote download piped into bash
    ".vscode/settings.json": {"IG601"},                                   # chat.tools.autoApprove
    ".rune/decisions.md": {"IG105"},                                      # look-alike package name
}
CLEAN = [
    "CLAUDE.md",
    ".claude/skills/changelog/SKILL.md",
    ".claude/skills/changelog/scripts/summarize.sh",
    ".rune/progress.md",
]


@pytest.fixture(scope="module")
def demo_scan(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    report, sarif = out / "demo.json", out / "demo.sarif"
    rc = main(["scan", str(DEMO), "--format", "json", "--output", str(report), "--sarif", str(sarif), "--fail-on", "never"])
    assert rc == 0, "--fail-on never must exit 0"
    return json.loads(report.read_text("utf-8")), sarif


def _findings(doc, path):
    return [f for f in doc["findings"] if f["path"] == path]


def test_demo_tree_is_complete_and_every_agent_file_is_scanned(demo_scan):
    doc, _ = demo_scan
    on_disk = {p.relative_to(DEMO).as_posix() for p in DEMO.rglob("*") if p.is_file()} - {"README.md"}
    assert on_disk == set(POISONED) | set(CLEAN)
    scanned = {s["path"] for s in doc["scanned"]}
    assert on_disk <= scanned, f"not scanned: {sorted(on_disk - scanned)}; not_scanned={doc['not_scanned']}"
    assert doc["not_scanned"] == []


@pytest.mark.parametrize("path", CLEAN)
def test_clean_demo_files_draw_no_finding(demo_scan, path):
    doc, _ = demo_scan
    assert _findings(doc, path) == []


@pytest.mark.parametrize("path", sorted(POISONED))
def test_poisoned_demo_files_draw_a_medium_or_higher_finding(demo_scan, path):
    doc, _ = demo_scan
    found = {(f["rule_id"], f["severity"]) for f in _findings(doc, path)}
    strong = {rule for rule, severity in found if severity in ("medium", "high", "critical")}
    assert strong & POISONED[path], f"{path}: expected one of {sorted(POISONED[path])} at medium+, got {sorted(found)}"


def test_tag_smuggling_is_decoded_for_the_reader(demo_scan):
    doc, _ = demo_scan
    tag = [f for f in _findings(doc, ".cursorrules") if f["rule_id"] == "IG101"]
    assert tag and "eval(input())" in tag[0]["excerpt"]
    assert tag[0]["severity"] == "critical" and tag[0]["start_line"] == 1


def test_demo_sarif_passes_the_oasis_schema_and_the_multitool(demo_scan):
    _, sarif = demo_scan
    doc = json.loads(sarif.read_text("utf-8"))
    assert doc["runs"][0]["results"]
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"] for loc in r["locations"]}
    assert uris <= set(POISONED), f"results outside the poisoned files: {sorted(uris - set(POISONED))}"
    assert validate_schema(doc) == []
    assert multitool_errors(sarif) == []


def test_demo_text_report_names_the_poisoned_files(capsys):
    rc = main(["scan", str(DEMO), "--fail-on", "never", "--color", "never"])
    out = capsys.readouterr().out
    assert rc == 0
    assert ".cursorrules" in out and "IG101" in out
