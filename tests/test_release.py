"""The release path (issue 17 item 2): .github/workflows/release.yml builds, pushes, signs and
attests the image on a version tag, and scripts/release_action.py writes the released action.yml
that runs it by digest. actionlint and zizmor lint the workflow in tests/test_lint.py (it lints
every file of .github/workflows); these checks keep its shape."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import yaml

from test_lint import _run, _tool

REPO = Path(__file__).resolve().parent.parent
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
DIGEST = "sha256:" + "ab" * 32
REFERENCE = "ghcr.io/owner/instruction-guard@" + DIGEST


def _release_action():
    spec = importlib.util.spec_from_file_location("release_action", REPO / "scripts" / "release_action.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _steps(job: str) -> list[dict]:
    return _workflow()["jobs"][job]["steps"]


def test_release_runs_on_version_tags_only_with_minimal_permissions():
    wf = _workflow()
    on = wf[True]  # YAML 1.1 reads the key `on` as true
    assert list(on) == ["push"] and list(on["push"]) == ["tags"]
    assert wf["permissions"] == {}
    image = wf["jobs"]["image"]["permissions"]
    assert image == {"contents": "read", "packages": "write", "id-token": "write", "attestations": "write"}
    assert wf["jobs"]["action"]["permissions"] == {"contents": "write"}


def test_every_action_is_pinned_by_full_commit_sha_with_its_version():
    text = WORKFLOW.read_text(encoding="utf-8")
    uses = re.findall(r"^[ -]*uses:\s*(\S+)(.*)", text, re.M)
    assert uses
    for ref, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", ref), ref
        assert re.fullmatch(r"\s*# v\d+(\.\d+)*", comment), (ref, comment)


def test_the_image_is_pushed_signed_verified_and_attested_by_digest():
    steps = _steps("image")
    names = [s.get("uses", "").split("@")[0] for s in steps]
    for needed in ("docker/login-action", "docker/build-push-action", "sigstore/cosign-installer",
                   "actions/attest-build-provenance"):
        assert needed in names, needed
    build = next(s for s in steps if s.get("uses", "").startswith("docker/build-push-action@"))
    assert build["with"]["push"] is True and build["with"]["file"] == "Dockerfile"
    assert "cache-from" not in build["with"]  # no cache a pull request could have poisoned
    login = next(s for s in steps if s.get("uses", "").startswith("docker/login-action@"))
    assert login["with"] == {"registry": "ghcr.io", "username": "${{ github.actor }}", "password": "${{ secrets.GITHUB_TOKEN }}"}
    sign = next(s for s in steps if "cosign sign" in s.get("run", ""))
    assert '"${IMAGE}@${DIGEST}"' in sign["run"] and "cosign verify" in sign["run"]
    attest = next(s for s in steps if s.get("uses", "").startswith("actions/attest-build-provenance@"))
    assert attest["with"]["subject-digest"] == "${{ steps.build.outputs.digest }}"
    assert attest["with"]["push-to-registry"] is True


def test_no_expression_is_expanded_inside_a_shell_script():
    for job in _workflow()["jobs"].values():
        for step in job["steps"]:
            assert "${{" not in step.get("run", ""), step.get("name")
            if "uses" in step and step["uses"].startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False


def test_the_released_action_runs_the_image_by_digest_and_passes_the_schema(tmp_path):
    module = _release_action()
    text = (REPO / "action.yml").read_text(encoding="utf-8")
    out = module.released(text, REFERENCE)
    data = yaml.safe_load(out)
    assert data["runs"] == {"using": "docker", "image": "docker://" + REFERENCE}
    assert data["inputs"] == yaml.safe_load(text)["inputs"] and data["outputs"] == yaml.safe_load(text)["outputs"]
    assert out.replace("docker://" + REFERENCE, "Dockerfile") == text  # one line changed, nothing else
    released = tmp_path / "action.yml"
    released.write_text(out, encoding="utf-8")
    proc = _run([_tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", str(released)])
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("reference", ["ghcr.io/owner/instruction-guard:v1.2.3", "ghcr.io/Owner/x@" + DIGEST,
                                       "ghcr.io/owner/x@sha256:abc", "owner@" + DIGEST, REFERENCE + "\nimage: evil"])
def test_only_a_lowercase_reference_by_full_digest_is_accepted(reference):
    with pytest.raises(ValueError):
        _release_action().released((REPO / "action.yml").read_text(encoding="utf-8"), reference)


def test_the_script_rewrites_the_file_and_refuses_twice(tmp_path):
    module = _release_action()
    target = tmp_path / "action.yml"
    target.write_text((REPO / "action.yml").read_text(encoding="utf-8"), encoding="utf-8")
    assert module.main([REFERENCE, "--action", str(target)]) == 0
    assert f"image: docker://{REFERENCE}\n" in target.read_text(encoding="utf-8")
    assert module.main([REFERENCE, "--action", str(target)]) == 2  # already released: no Dockerfile line left
