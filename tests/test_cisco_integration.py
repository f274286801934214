"""The real Cisco skill-scanner (pinned, in .venv-cisco made by .ci/setup-cisco.sh) beside ours.

Three fixture skills under tests/fixtures/cisco/skills: one poisoned (an override instruction in
SKILL.md, a credential-stealing script), two clean. One scan of them with both engines; the
merged SARIF must hold two runs with distinct categories, URIs that exist in this repository,
Cisco's findings on the lines that carry the attack, and pass the OASIS schema and the SARIF
Multitool's GitHub rules.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest

from scanner.config import Config
from scanner.engines import cisco
from scanner.models import Category, EngineStatus, Severity
from scanner.pipeline import scan_tree
from scanner.policy import decide
from scanner.report import jsonout, sarif

REPO = Path(__file__).resolve().parent.parent
SKILLS = "tests/fixtures/cisco/skills"
POISONED = f"{SKILLS}/poisoned-helper"
CLEAN = (f"{SKILLS}/pdf-tables", f"{SKILLS}/release-notes")

pytestmark = pytest.mark.skipif(
    not (cisco.BUNDLED_VENV / "bin" / "skill-scanner").exists(),
    reason="Cisco's skill-scanner is not installed in .venv-cisco: run `bash .ci/setup-cisco.sh` (.ci/run does)",
)


def line_of(path: str, needle: str) -> int:
    for number, line in enumerate((REPO / path).read_text().splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    config = Config(engines=("native", "cisco"), cisco_mode="on", cisco_timeout=900)
    result = scan_tree(str(REPO), [SKILLS], config)
    doc = sarif.document(result)
    path = tmp_path_factory.mktemp("cisco") / "merged.sarif"
    path.write_text(sarif.dumps(doc), encoding="utf-8")
    return result, doc, path, config


def cisco_findings(result):
    return [f for f in result.findings if f.engine == cisco.ENGINE]


def test_the_real_tool_ran_at_the_pinned_version(scanned):
    result, _, _, _ = scanned
    runs = {e.name: e for e in result.engines}
    assert runs[cisco.ENGINE].status == EngineStatus.OK, runs[cisco.ENGINE].detail
    assert runs[cisco.ENGINE].version == cisco.PINNED_VERSION
    assert runs["native"].status == EngineStatus.OK


def test_two_runs_with_distinct_tools_and_categories(scanned):
    _, doc, _, _ = scanned
    assert len(doc["runs"]) == 2
    native, theirs = doc["runs"]
    assert native["automationDetails"]["id"] != theirs["automationDetails"]["id"]
    assert theirs["automationDetails"]["id"] == "instruction-guard/cisco-skill-scanner/"
    assert native["tool"]["driver"]["name"] != theirs["tool"]["driver"]["name"] == "skill-scanner"
    assert theirs["tool"]["driver"]["version"] == cisco.PINNED_VERSION
    props = theirs["properties"]["instructionGuard"]
    assert props["augmentations"]["tool.driver.version"]["written"] == "1.0.0"
    assert sorted(props["skills"]) == sorted([POISONED, *CLEAN])


def test_every_uri_exists_in_the_repository(scanned):
    _, doc, _, _ = scanned
    uris = set()
    for run in doc["runs"]:
        for res in run["results"]:
            for loc in res["locations"]:
                art = loc["physicalLocation"]["artifactLocation"]
                assert art["uriBaseId"] == "%SRCROOT%"
                uris.add(unquote(art["uri"]))
    assert uris, "no results at all"
    missing = sorted(u for u in uris if not (REPO / u).is_file())
    assert missing == []


def test_cisco_results_are_kept_as_written_plus_fingerprints(scanned):
    _, doc, _, _ = scanned
    for res in doc["runs"][1]["results"]:
        assert res["ruleId"] and not res["ruleId"].startswith("cisco.")  # its own ids in its own run
        assert res["fingerprints"] and res["partialFingerprints"]


def test_findings_on_the_lines_that_carry_the_attack(scanned):
    result, _, _, _ = scanned
    found = cisco_findings(result)
    override = line_of(f"{POISONED}/SKILL.md", "Ignore all previous instructions")
    assert any(f.path == f"{POISONED}/SKILL.md" and f.line == override and f.category == Category.PROMPT_INJECTION
               and f.severity >= Severity.HIGH for f in found), [(f.rule_id, f.path, f.line) for f in found]
    send = line_of(f"{POISONED}/scripts/setup.py", "urllib.request.urlopen(")
    exfil = [f for f in found if f.path == f"{POISONED}/scripts/setup.py" and f.category == Category.DATA_EXFILTRATION]
    assert send in {f.line for f in exfil}, [(f.rule_id, f.line) for f in exfil]
    assert any(f.severity >= Severity.HIGH for f in exfil)


def test_clean_skills_have_no_cisco_findings(scanned):
    result, _, _, _ = scanned
    on_clean = [(f.rule_id, f.path) for f in cisco_findings(result) if f.path.startswith(CLEAN)]
    assert on_clean == []


def test_translated_findings_carry_the_engine_prefix_and_severity(scanned):
    result, doc, _, _ = scanned
    by_fp = {}
    for res in doc["runs"][1]["results"]:
        by_fp.setdefault(res["ruleId"], set()).add(res["properties"]["severity"])
    found = cisco_findings(result)
    assert len(found) == len(doc["runs"][1]["results"])
    for f in found:
        assert f.rule_id.startswith("cisco.") and f.engine == "cisco-skill-scanner"
        assert f.severity.name in by_fp[f.rule_id[len("cisco."):]]
        assert len(f.excerpt) <= 170
    assert decide(result, Severity.HIGH).failed
    body = json.loads(jsonout.render(result, decide(result, Severity.HIGH)))
    assert any(e.get("name") == cisco.ENGINE for e in body["engines"])


def test_merged_sarif_is_valid_for_the_schema_and_github(scanned):
    from sarif_validators import multitool_errors, validate_schema

    _, doc, path, _ = scanned
    assert validate_schema(doc) == []
    assert multitool_errors(path) == []
