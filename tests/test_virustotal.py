"""The opt-in VirusTotal hash lookup against the API description served by Prism
(../shared/specs/virustotal-v3-file-lookup.yaml): hash-only GETs, verdicts as findings in a SARIF
run of their own, pacing, cache, budget, and "unchecked" (never clean) when the lookup fails."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prism_support import PrismMock, RecordingProxy, available
from sarif_validators import multitool_errors, validate_schema
from scanner.config import Config, VirusTotalSettings
from scanner.engines import virustotal
from scanner.models import EngineStatus
from scanner.targets import TargetSet, Target

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("IG_SHARED") or ROOT.parent / "shared")
SPEC = SHARED / "specs" / "virustotal-v3-file-lookup.yaml"
EICAR_LIKE = b"X5O!P%@AP[4\\PZX54(P^)7CC)7}$-INSTRUCTION-GUARD-TEST-FILE-NOT-A-VIRUS\n"


@pytest.fixture(scope="module")
def vt(tmp_path_factory):
    if available():
        pytest.fail(available())
    if not SPEC.is_file():
        pytest.fail(f"{SPEC} missing: the VirusTotal API description lives in ../shared/specs beside the clone")
    work = tmp_path_factory.mktemp("vt")
    mock = PrismMock(str(SPEC), str(work / "prism.log"))
    proxy = RecordingProxy(mock.url)
    yield proxy
    proxy.stop()
    mock.stop()


@pytest.fixture
def skill(tmp_path):
    root = tmp_path / "repo"
    folder = root / ".claude" / "skills" / "pdf"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: pdf\n---\nUse scripts/run.py.\n")
    (folder / "scripts" / "run.py").write_text("print('hi')\n")
    (folder / "tool.bin").write_bytes(EICAR_LIKE)
    return root


def settings(vt, tmp_path, **kw) -> Config:
    s = VirusTotalSettings(enabled=True, api_key="test-key", base_url=vt.url, per_minute=0,
                           cache_file=str(tmp_path / "cache.json"), **kw)
    return Config(virustotal=s)


def run_scan(root: Path, config: Config):
    from scanner.pipeline import scan_tree

    return scan_tree(str(root), [], config)


def test_lookups_are_hash_only_gets_and_valid(vt, skill, tmp_path):
    vt.reset()
    result = run_scan(skill, settings(vt, tmp_path))
    sent = vt.sent()
    assert sent and all(e.method == "GET" and e.path.startswith("/files/") for e in sent)
    assert all(not e.request_violations for e in sent), [e.request_violations for e in sent]
    assert all(e.headers.get("x-apikey") == "test-key" for e in sent)
    files = {p.relative_to(skill).as_posix() for p in skill.rglob("*") if p.is_file()}
    hashes = {hashlib.sha256((skill / f).read_bytes()).hexdigest() for f in files}
    assert {e.path.rsplit("/", 1)[1] for e in sent} == hashes
    run = [e for e in result.engines if e.name == "virustotal"][0]
    assert run.status == EngineStatus.OK


def test_malicious_is_high_in_its_own_sarif_run(vt, skill, tmp_path):
    from scanner.report import sarif

    vt.reset()
    vt.respond("GET", r"^/files/", prefer="example=malicious")
    result = run_scan(skill, settings(vt, tmp_path))
    hits = [f for f in result.findings if f.rule_id == "IG911"]
    assert hits and all(f.severity.label == "high" for f in hits)
    assert "61 of" in hits[0].message
    doc = sarif.document(result)
    validate_schema(doc)
    out = tmp_path / "vt.sarif"
    out.write_text(sarif.dumps(doc))
    assert multitool_errors(str(out)) == []
    vt_runs = [r for r in doc["runs"] if r["automationDetails"]["id"] == "instruction-guard/virustotal/"]
    assert len(vt_runs) == 1 and {r["ruleId"] for r in vt_runs[0]["results"]} == {"IG911"}
    assert not any(r["ruleId"] == "IG911" for r in doc["runs"][0]["results"])


def test_not_found_is_unknown_info_and_cached(vt, skill, tmp_path):
    vt.reset()
    vt.respond("GET", r"^/files/", status=404)
    cfg = settings(vt, tmp_path)
    first = run_scan(skill, cfg)
    assert {f.rule_id for f in first.findings if f.engine == "virustotal"} == {"IG913"}
    n = len(vt.sent())
    second = run_scan(skill, cfg)
    assert len(vt.sent()) == n  # every answer came from the cache
    assert {f.rule_id for f in second.findings if f.engine == "virustotal"} == {"IG913"}


def test_quota_is_unchecked_never_clean(vt, skill, tmp_path):
    vt.reset()
    vt.respond("GET", r"^/files/", status=429)
    result = run_scan(skill, settings(vt, tmp_path))
    assert {f.rule_id for f in result.findings if f.engine == "virustotal"} == {"IG914"}
    assert [e.status for e in result.engines if e.name == "virustotal"] == [EngineStatus.FAILED]


def test_budget_spent_is_unchecked(vt, skill, tmp_path):
    vt.reset()
    result = run_scan(skill, settings(vt, tmp_path, scan_budget=1))
    assert len(vt.sent()) == 1
    assert sum(f.rule_id == "IG914" for f in result.findings) == 2


def test_unreachable_service_completes_and_says_so(skill, tmp_path):
    s = VirusTotalSettings(enabled=True, api_key="k", base_url="http://127.0.0.1:9", per_minute=0, timeout=2)
    result = run_scan(skill, Config(virustotal=s))
    assert {f.rule_id for f in result.findings if f.engine == "virustotal"} == {"IG914"}
    from scanner.policy import decide
    from scanner.models import Severity

    assert not decide(result, Severity.MEDIUM).failed or any(
        f.severity >= Severity.MEDIUM and f.engine != "virustotal" for f in result.findings)
    strict = Config(virustotal=VirusTotalSettings(**{**s.__dict__, "strict": True}))
    assert decide(run_scan(skill, strict), Severity.CRITICAL).failed  # strict: unchecked fails


def test_pacing_waits_between_lookups(vt, skill, tmp_path):
    vt.reset()
    waits: list[float] = []
    now = [0.0]
    cfg = settings(vt, tmp_path)
    cfg = Config(virustotal=VirusTotalSettings(**{**cfg.virustotal.__dict__, "per_minute": 4}))
    ts = TargetSet(root=str(skill))
    from scanner.pipeline import targets_for

    ts = targets_for(str(skill), [], cfg)
    virustotal.scan(ts, cfg, sleep=lambda s: waits.append(s), clock=lambda: now[0])
    assert waits and all(abs(w - 15.0) < 1e-6 for w in waits)


def test_the_spec_refuses_uploads(vt):
    # The negative control: the description has no upload route, so a POST is refused; the
    # engine's only request is the GET above (no code path in it posts).
    import urllib.error
    import urllib.request

    req = urllib.request.Request(vt.url + "/files", data=b"x", method="POST", headers={"x-apikey": "k"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=10)
    assert err.value.code in (404, 405)
    src = (ROOT / "scanner" / "engines" / "virustotal.py").read_text()
    assert ".post(" not in src and "upload" not in src.replace("never an upload", "")


def test_cli_without_key_completes(skill, tmp_path):
    (skill / ".claude" / "skills" / "pdf" / "tool.bin").unlink()  # a binary in a skill is a native high finding
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INSTRUCTION_GUARD_CACHE_DIR": str(tmp_path / "c")}
    env.pop("VT_API_KEY", None)
    proc = subprocess.run([sys.executable, "-m", "scanner", "scan", str(skill), "--virustotal", "--format", "json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert any(f["rule_id"] == "IG914" for f in doc["findings"])


def test_action_input_without_key_completes_and_says_so(tmp_path):
    from action_support import MAINTAINER, MEMBER, GitRepo, pull_request_event, require_npm_data, run_action

    require_npm_data()
    repo = GitRepo(tmp_path / "repo")
    repo.commit({"CLAUDE.md": "# P\nUse pytest.\n"}, "base", MAINTAINER)
    base = repo.head()
    repo.branch("pr")
    head = repo.commit({".claude/skills/fmt/SKILL.md": "---\nname: fmt\n---\nFormat code with ruff.\n",
                        ".claude/skills/fmt/data.csv": "a,b\n1,2\n"}, "skill", MEMBER)
    env = {k: v for k, v in os.environ.items() if k != "VT_API_KEY"}
    run = run_action(tmp_path, repo.path, "pull_request", pull_request_event(base, head, login="max", association="MEMBER"),
                     inputs={"virustotal": "true", "upload-sarif": "false", "comment": "false"}, extra_env=env)
    assert "Traceback" not in run.stderr
    assert run.returncode == 0, run.stdout[-2000:]
    assert any(r["ruleId"] == "IG914" for r in run.results())
    runs = [r for r in run.sarif["runs"] if r["automationDetails"]["id"] == "instruction-guard/virustotal/"]
    assert runs and runs[0]["invocations"][0]["executionSuccessful"] is False
