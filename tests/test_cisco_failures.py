"""The Cisco engine's failure paths, with a stand-in for Cisco's skill-scanner.

The real tool cannot be made to crash, hang or write garbage on demand, so each test writes a
small stand-in: a fake installation (bin/skill-scanner plus the dist-info that identifies Cisco's
package) whose behaviour is baked into its script. Every failure must end as an engine FAILED
(never a clean scan) and fail the verdict; a missing tool requested explicitly is exit 2.
"""
from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from scanner import cli
from scanner.config import Config, load_text
from scanner.engines import cisco, cisco_sarif, cisco_stage, run_engines
from scanner.models import EngineStatus, Severity
from scanner.policy import decide
from scanner.targets import Target, TargetSet

REPO = Path(__file__).resolve().parent.parent

# The stand-in's common part: argument parsing and report writing like the real `scan-all`.
STANDIN_HEAD = '''#!{python}
import json, os, sys, time
from skill_scanner.cli.cli import main  # noqa: the fake package below, as in a real console script
args = sys.argv[1:]
if args[:1] == ["--version"]:
    print("skill-scanner {version}"); sys.exit(0)
folder = args[1]
opt = lambda name: args[args.index(name) + 1]
slots = sorted(d for d in os.listdir(folder) if os.path.isfile(os.path.join(folder, d, "SKILL.md")))
def sarif(results):
    return {{"version": "2.1.0", "runs": [{{"tool": {{"driver": {{"name": "skill-scanner", "version": "1.0.0",
        "rules": [{{"id": "STANDIN_RULE", "shortDescription": {{"text": "stand-in rule"}}}}]}}}},
        "results": results, "invocations": [{{"executionSuccessful": True}}]}}]}}
def report(covered):
    return {{"summary": {{"total_skills_scanned": len(covered)}}, "results": [{{"skill_path": os.path.join(folder, s),
        "analyzers_used": ["static_analyzer", "behavioral_analyzer"], "findings": []}} for s in covered]}}
def result(uri, line=None, severity="HIGH", category="data_exfiltration", snippet=None):
    loc = {{"physicalLocation": {{"artifactLocation": {{"uri": uri, "uriBaseId": "%SRCROOT%"}}}}}}
    if line:
        loc["physicalLocation"]["region"] = {{"startLine": line}}
        if snippet:
            loc["physicalLocation"]["region"]["snippet"] = {{"text": snippet}}
    return {{"ruleId": "STANDIN_RULE", "level": "error", "message": {{"text": "stand-in finding"}},
        "properties": {{"category": category, "severity": severity}}, "locations": [loc],
        "fingerprints": {{"primaryLocationLineHash": "STANDIN_" + uri}}}}
def write(results=None, covered=None):
    json.dump(sarif(results if results is not None else []), open(opt("--output-sarif"), "w"))
    json.dump(report(slots if covered is None else covered), open(opt("--output-json"), "w"))
'''


def make_standin(base: Path, body: str, version: str = cisco.PINNED_VERSION, dist: str = "cisco-ai-skill-scanner",
                 entry: str = "skill_scanner.cli.cli") -> str:
    """A fake installation under `base`: bin/skill-scanner and the dist-info that names it."""
    site = base / "lib" / "python3.11" / "site-packages"
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[console_scripts]\nskill-scanner = {entry}:main\n")
    pkg = site / "skill_scanner" / "cli"
    pkg.mkdir(parents=True)
    (site / "skill_scanner" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "cli.py").write_text("def main():\n    return 0\n")
    exe = base / "bin" / "skill-scanner"
    exe.parent.mkdir(parents=True)
    head = STANDIN_HEAD.format(python=sys.executable, version=version)
    head = head.replace("from skill_scanner", f"sys.path.insert(0, {str(site)!r})\nfrom skill_scanner", 1)
    exe.write_text(head + textwrap.dedent(body))
    exe.chmod(0o755)
    return str(exe)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with two skills (one with a script) and an ordinary instruction file."""
    root = tmp_path / "repo"
    (root / "skills" / "alpha" / "scripts").mkdir(parents=True)
    (root / "skills" / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: does alpha\n---\nAlpha.\n")
    (root / "skills" / "alpha" / "scripts" / "run.py").write_text("print('alpha')\nprint('two')\n")
    (root / "skills" / "beta").mkdir(parents=True)
    (root / "skills" / "beta" / "SKILL.md").write_text("---\nname: beta\ndescription: does beta\n---\nBeta.\n")
    (root / "CLAUDE.md").write_text("Use tabs.\n")
    return root


def scan_with(repo: Path, exe: str, timeout: float = 60.0, mode: str = "on"):
    from scanner.pipeline import scan_tree

    config = Config(engines=("native", "cisco"), cisco_mode=mode, cisco_timeout=timeout, cisco_executable=exe)
    return scan_tree(str(repo), [], config), config


def cisco_run(result):
    runs = [e for e in result.engines if e.name == cisco.ENGINE]
    assert len(runs) == 1, result.engines
    return runs[0]


def assert_failed(result, config, *words: str):
    run = cisco_run(result)
    assert run.status == EngineStatus.FAILED, run
    assert run.sarif_run is None
    for w in words:
        assert w in run.detail, run.detail
    assert not [f for f in result.findings if f.engine == cisco.ENGINE]
    verdict = decide(result, config.fail_on)
    assert verdict.failed and "engine failed" in verdict.reason and cisco.ENGINE in verdict.reason


def test_stand_in_success_is_merged_and_translated(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", """
        uri = slots[0] + "/scripts/run.py"
        write([result(uri, line=2, snippet="print('two')"), result(slots[1] + "/SKILL.md", severity="LOW", category="obfuscation")])
    """)
    result, config = scan_with(repo, exe)
    run = cisco_run(result)
    assert run.status == EngineStatus.OK, run.detail
    assert run.version == cisco.PINNED_VERSION
    merged = run.sarif_run
    assert merged["automationDetails"]["id"] == "instruction-guard/cisco-skill-scanner/"
    assert merged["tool"]["driver"]["version"] == cisco.PINNED_VERSION
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in merged["results"]]
    assert uris == ["skills/alpha/scripts/run.py", "skills/beta/SKILL.md"]
    assert all(r["partialFingerprints"] for r in merged["results"])
    # Cisco's fingerprints are left as written.
    assert merged["results"][0]["fingerprints"] == {"primaryLocationLineHash": "STANDIN_000/scripts/run.py"}
    aug = merged["properties"]["instructionGuard"]["augmentations"]
    assert aug["tool.driver.version"] == {"set": cisco.PINNED_VERSION, "written": "1.0.0"}
    assert aug["artifactLocation.uri"]["rebased"] == 2 and aug["partialFingerprints"]["added"] == 2
    found = sorted((f for f in result.findings if f.engine == cisco.ENGINE), key=lambda f: f.path)
    assert [(f.rule_id, f.path, f.line, f.severity) for f in found] == [
        ("cisco.STANDIN_RULE", "skills/alpha/scripts/run.py", 2, Severity.HIGH),
        ("cisco.STANDIN_RULE", "skills/beta/SKILL.md", 1, Severity.LOW),
    ]
    assert found[0].category.value == "data_exfiltration" and found[1].category.value == "hidden_content"
    assert found[0].excerpt == "print('two')" and found[0].new is None


def test_crash_is_an_engine_failure(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", """
        sys.stderr.write("Traceback (most recent call last):\\nRuntimeError: yara rules failed to compile\\n")
        sys.exit(1)
    """)
    result, config = scan_with(repo, exe)
    assert_failed(result, config, "wrote no SARIF report", "yara rules failed to compile")


def test_killed_by_a_signal_is_an_engine_failure(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", """
        import signal
        os.kill(os.getpid(), signal.SIGSEGV)
    """)
    result, config = scan_with(repo, exe)
    assert_failed(result, config, "SIGSEGV")


def test_hang_past_the_time_limit_is_killed_with_its_helpers(repo, tmp_path):
    pid_file = tmp_path / "helper.pid"
    exe = make_standin(tmp_path / "fake", f"""
        import subprocess
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(pid_file)!r}, "w").write(str(helper.pid))
        time.sleep(600)
    """)
    started = time.monotonic()
    result, config = scan_with(repo, exe, timeout=3)
    assert time.monotonic() - started < 30
    assert_failed(result, config, "time limit")
    helper = int(pid_file.read_text())
    for _ in range(50):  # the helper was killed with the group; give the kernel a moment to reap it
        try:
            os.kill(helper, 0)
            stat = Path(f"/proc/{helper}/stat").read_text().split()[2]
            if stat == "Z":
                break
        except (ProcessLookupError, FileNotFoundError):
            break
        time.sleep(0.1)
    else:
        pytest.fail("the stand-in's helper process outlived the time limit")


def test_unparsable_output_is_an_engine_failure(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", """
        open(opt("--output-sarif"), "w").write("{ this is not json")
        json.dump(report(slots), open(opt("--output-json"), "w"))
    """)
    result, config = scan_with(repo, exe)
    assert_failed(result, config, "SARIF report is not valid JSON")


@pytest.mark.parametrize("body, words", [
    ('json.dump({"version": "2.1.0", "runs": []}, open(opt("--output-sarif"), "w")); json.dump(report(slots), open(opt("--output-json"), "w"))', ("empty run",)),
    ('open(opt("--output-sarif"), "w").close(); json.dump(report(slots), open(opt("--output-json"), "w"))', ("empty SARIF report",)),
    ('print("No skills found to scan."); sys.exit(1)', ("wrote no SARIF report", "No skills found to scan.")),
    ("write([], covered=slots[:1])", ("reported on 1 of 2 skill(s)", "skills/beta")),
    ('write([result("../../etc/passwd", line=1)])', ("outside the skills given to it",)),
], ids=["no-runs", "zero-bytes", "nothing-to-scan", "skill-missing", "uri-outside"])
def test_empty_or_incomplete_runs_are_engine_failures(repo, tmp_path, body, words):
    exe = make_standin(tmp_path / "fake", body + "\n")
    result, config = scan_with(repo, exe)
    assert_failed(result, config, *words)


def test_exit_one_with_complete_reports_means_findings_not_failure(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", """
        write([result(slots[0] + "/SKILL.md", line=4)])
        sys.exit(1)
    """)
    result, config = scan_with(repo, exe)
    assert cisco_run(result).status == EngineStatus.OK
    assert [f.rule_id for f in result.findings if f.engine == cisco.ENGINE] == ["cisco.STANDIN_RULE"]


def test_a_uri_naming_no_file_points_at_the_skill_manifest(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", 'write([result(slots[1] + "/beta")])\n')
    result, _ = scan_with(repo, exe)
    res = cisco_run(result).sarif_run["results"][0]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "skills/beta/SKILL.md"
    assert res["properties"]["instructionGuard/originalUri"] == "001/beta"


def test_explicit_cisco_not_installed_is_exit_2_with_a_fix(repo, tmp_path, capsys):
    missing = tmp_path / "nowhere" / "skill-scanner"
    (repo / ".github").mkdir()
    (repo / ".github" / "instruction-guard.yml").write_text(f"cisco:\n  executable: {missing}\n")
    code = cli.main(["scan", str(repo), "--engines", "native,cisco"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and "not installed" in err and "setup-cisco.sh" in err


def test_auto_mode_without_the_tool_is_skipped_and_says_so(repo, tmp_path):
    result, config = scan_with(repo, str(tmp_path / "nowhere" / "skill-scanner"), mode="auto")
    run = cisco_run(result)
    assert run.status == EngineStatus.SKIPPED and "not installed" in run.detail
    assert not decide(result, config.fail_on).failed
    assert {e.name for e in result.engines} >= {"native", cisco.ENGINE}


def test_the_unrelated_skill_scanner_package_is_refused(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", "write()\n", version="0.3.3", dist="skill-scanner")
    with pytest.raises(cisco.CiscoUnavailable, match="not Cisco's skill-scanner"):
        scan_with(repo, exe)


def test_a_console_script_of_another_package_is_refused(repo, tmp_path):
    exe = make_standin(tmp_path / "fake", "write()\n", entry="some_other_tool.main")
    with pytest.raises(cisco.CiscoUnavailable, match="not Cisco's skill-scanner"):
        scan_with(repo, exe)


def test_an_executable_inside_the_scanned_repository_is_never_run(repo, tmp_path):
    marker = tmp_path / "ran"
    exe = make_standin(repo / "tools", f"open({str(marker)!r}, 'w').write('ran')\nwrite()\n")
    with pytest.raises(cisco.CiscoUnavailable, match="inside the scanned repository"):
        scan_with(repo, exe)
    assert not marker.exists()


def test_relative_executable_in_config_is_refused(repo):
    with pytest.raises(cisco.CiscoUnavailable, match="absolute path"):
        scan_with(repo, "tools/skill-scanner")


def test_config_reads_the_executable_and_engine_modes():
    cfg = load_text("cisco:\n  mode: auto\n  timeout: 42\n  executable: /opt/cisco/bin/skill-scanner\n")
    assert (cfg.cisco_mode, cfg.cisco_timeout, cfg.cisco_executable) == ("auto", 42.0, "/opt/cisco/bin/skill-scanner")
    assert "cisco" in cfg.engines
    assert cisco.start(TargetSet(root="/nonexistent"), Config()) is None  # not requested: nothing runs


def test_no_secret_or_token_reaches_the_tool(repo, tmp_path, monkeypatch):
    env_dump = tmp_path / "env.json"
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_should_not_leak")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-leak")
    exe = make_standin(tmp_path / "fake", f"json.dump(dict(os.environ), open({str(env_dump)!r}, 'w'))\nwrite()\n")
    scan_with(repo, exe)
    seen = json.loads(env_dump.read_text())
    assert "GITHUB_TOKEN" not in seen and "OPENAI_API_KEY" not in seen
    assert seen["HTTPS_PROXY"].startswith("http://127.0.0.1:")


def test_pull_request_staging_takes_changed_files_from_git_and_the_rest_from_the_tree(repo, tmp_path):
    """Only changed skills are staged; their changed file from its blob, unchanged files from the tree."""
    ts = TargetSet(root=str(repo), skill_roots=frozenset({"skills/alpha", "skills/beta"}))
    ts.targets.append(Target("skills/alpha/scripts/run.py", "skill", changed_lines=frozenset({2}),
                             blob=b"print('alpha')\nprint('from the head commit')\n", skill_root="skills/alpha"))
    staged = cisco_stage.stage(ts, str(tmp_path / "stage"))
    assert [s.root for s in staged.skills] == ["skills/alpha"]
    alpha = staged.skills[0]
    assert sorted(alpha.files) == ["SKILL.md", "scripts/run.py"]
    assert (tmp_path / "stage" / "000" / "scripts" / "run.py").read_text().endswith("from the head commit')\n")
    assert alpha.changed == {"skills/alpha/scripts/run.py": frozenset({2}), "skills/alpha/SKILL.md": frozenset()}
    exe = make_standin(tmp_path / "fake", """
        write([result(slots[0] + "/scripts/run.py", line=2), result(slots[0] + "/scripts/run.py", line=1),
               result(slots[0] + "/SKILL.md", line=3)])
    """)
    config = Config(engines=("native", "cisco"), cisco_mode="on", cisco_executable=exe)
    result = run_engines(ts, config)
    new = {(f.path, f.line): f.new for f in result.findings if f.engine == cisco.ENGINE}
    assert new == {("skills/alpha/scripts/run.py", 2): True, ("skills/alpha/scripts/run.py", 1): False,
                   ("skills/alpha/SKILL.md", 3): False}


def test_a_skill_without_a_readable_manifest_is_reported_not_scanned(tmp_path):
    ts = TargetSet(root=str(tmp_path), skill_roots=frozenset({"gone"}))
    ts.targets.append(Target("gone/helper.sh", "skill", blob=b"echo hi\n", skill_root="gone"))
    staged = cisco_stage.stage(ts, str(tmp_path / "stage"))
    assert staged.skills == []
    assert [(n.path, n.reason) for n in staged.not_scanned] == [("gone/SKILL.md", "cisco-no-manifest")]


def test_every_cisco_category_maps_onto_ours():
    known = ["prompt_injection", "command_injection", "data_exfiltration", "unauthorized_tool_use", "obfuscation",
             "hardcoded_secrets", "social_engineering", "resource_abuse", "policy_violation", "malware",
             "harmful_content", "skill_discovery_abuse", "transitive_trust_abuse", "autonomy_abuse",
             "tool_chaining_abuse", "unicode_steganography", "supply_chain_attack"]
    assert sorted(cisco_sarif.CATEGORY_MAP) == sorted(known)


def test_the_pinned_version_is_the_same_everywhere():
    setup = (REPO / ".ci" / "setup-cisco.sh").read_text()
    assert f"VERSION={cisco.PINNED_VERSION} " in setup
    dockerfile = (REPO / "cisco.Dockerfile").read_text()
    assert f"ARG CISCO_SKILL_SCANNER_VERSION={cisco.PINNED_VERSION}\n" in dockerfile


def test_the_cisco_action_mirrors_the_main_action():
    """cisco/action.yml: same inputs and outputs as action.yml, engines default native,cisco, and an
    image path GitHub builds with the repository root as context (the image needs scanner/)."""
    import yaml

    top = yaml.safe_load((REPO / "action.yml").read_text())
    variant = yaml.safe_load((REPO / "cisco" / "action.yml").read_text())
    assert variant["outputs"] == top["outputs"]
    assert set(variant["inputs"]) == set(top["inputs"])
    for name, spec in top["inputs"].items():
        if name != "engines":
            assert variant["inputs"][name] == spec, name
    assert variant["inputs"]["engines"]["default"] == "native,cisco"
    assert variant["runs"] == {"using": "docker", "image": "../cisco.Dockerfile"}
    # The runner builds with the Dockerfile's parent folder as context: it must be the repository root.
    assert (REPO / "cisco" / variant["runs"]["image"]).resolve().parent == REPO
