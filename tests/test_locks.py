"""The images install their Python dependencies from hash locks (issue 15, "Locked dependencies"):
requirements.lock for the scanner, requirements-cisco.lock for Cisco's engine, both written by
scripts/refresh_locks.sh. These checks keep the locks complete and the Dockerfiles using them."""
from __future__ import annotations

import importlib.metadata as metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def read_lock(name: str) -> dict[str, tuple[Version, list[str], str]]:
    """{canonical name: (version, hashes, marker)}; fails on any requirement line that is not an
    exact pin, since pip's --require-hashes needs one."""
    pins: dict[str, tuple[Version, list[str], str]] = {}
    current = None
    for line in (REPO / name).read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("--hash=sha256:"):
            assert current is not None, line
            digest = stripped.split(":", 1)[1].rstrip(" \\")
            assert re.fullmatch(r"[0-9a-f]{64}", digest), line
            pins[current][1].append(digest)
            continue
        m = PIN.match(stripped)
        assert m, f"{name}: not an exact pin: {line!r}"
        current = canonicalize_name(m.group(1))
        key = current if current not in pins else f"{current} ; {m.group(3)}"
        pins[key] = (Version(m.group(2)), [], (m.group(3) or "").strip())
        current = key
    return pins


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _applies(marker: str, python: str) -> bool:
    if not marker:
        return True
    env = dict(default_environment(), python_version=python, python_full_version=python + ".0",
               sys_platform="linux", platform_system="Linux", platform_machine="x86_64",
               implementation_name="cpython", platform_python_implementation="CPython")
    from packaging.markers import Marker

    return Marker(marker).evaluate(env)


def _pinned_for(pins, name: str, python: str) -> Version | None:
    for key, (version, _hashes, marker) in pins.items():
        if key.split(" ;")[0] == name and _applies(marker, python):
            return version
    return None


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-cisco.lock"])
def test_every_pin_is_exact_and_hashed(lock):
    pins = read_lock(lock)
    assert pins
    assert all(hashes for _v, hashes, _m in pins.values()), [k for k, v in pins.items() if not v[1]]


@pytest.mark.parametrize("python", ["3.11", "3.12"])
def test_the_lock_covers_every_runtime_dependency_and_the_build_backend(python):
    project = _pyproject()
    pins = read_lock("requirements.lock")
    wanted = [Requirement(r) for r in project["project"]["dependencies"] + project["build-system"]["requires"]]
    for req in wanted:
        version = _pinned_for(pins, canonicalize_name(req.name), python)
        assert version is not None, f"{req.name} is not in requirements.lock: run `bash scripts/refresh_locks.sh`"
        assert req.specifier.contains(version, prereleases=True), f"requirements.lock pins {req.name} {version}, outside {req.specifier}"


def test_the_lock_is_closed_under_the_installed_dependencies():
    """Every dependency of every locked package (as this environment's installed metadata states
    it, for Linux and Python 3.11) is itself locked: `pip install --no-deps` would leave it out."""
    pins = read_lock("requirements.lock")
    names = {k.split(" ;")[0] for k in pins}
    env = {"extra": ""}
    missing = []
    for name in sorted(names):
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for raw in requires:
            req = Requirement(raw)
            if req.marker is not None and not req.marker.evaluate(dict(env, python_version="3.11", sys_platform="linux")):
                continue
            if canonicalize_name(req.name) not in names:
                missing.append(f"{name} -> {req.name}")
    assert missing == []


def test_the_cisco_lock_pins_the_version_the_dockerfile_names():
    dockerfile = (REPO / "cisco.Dockerfile").read_text(encoding="utf-8")
    version = re.search(r"^ARG CISCO_SKILL_SCANNER_VERSION=(\S+)$", dockerfile, re.M).group(1)
    pins = read_lock("requirements-cisco.lock")
    assert str(pins["cisco-ai-skill-scanner"][0]) == version
    assert len(pins) > 50  # its whole dependency tree, not the top package only


@pytest.mark.parametrize("dockerfile,locks", [("Dockerfile", ["requirements.lock"]),
                                              ("cisco.Dockerfile", ["requirements-cisco.lock", "requirements.lock"])])
def test_dockerfiles_install_only_from_the_locks(dockerfile, locks):
    text = (REPO / dockerfile).read_text(encoding="utf-8").replace("\\\n", " ")
    installs = [line for line in text.splitlines() if "pip install" in line]
    commands = [c.strip() for line in installs for c in line.split("&&") if "pip install" in c]
    for lock in locks:
        assert any(f"--require-hashes --no-deps --only-binary=:all: -r {lock}" in c for c in commands), commands
    for c in commands:
        if "--require-hashes" not in c:  # the package itself: nothing resolved, nothing fetched
            assert "--no-deps" in c and "--no-build-isolation" in c and c.endswith(" ."), c
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
    for lock in locks:
        assert f"!{lock}" in ignored  # the build context must carry it


def test_refresh_script_writes_both_locks():
    script = (REPO / "scripts" / "refresh_locks.sh").read_text(encoding="utf-8")
    assert "--generate-hashes" in script and "requirements.lock" in script and "requirements-cisco.lock" in script
    for lock in ("requirements.lock", "requirements-cisco.lock"):
        assert "bash scripts/refresh_locks.sh" in (REPO / lock).read_text(encoding="utf-8").split("\n", 3)[1]


def test_the_test_setup_installs_cisco_from_the_same_lock():
    setup = (REPO / ".ci" / "setup-cisco.sh").read_text(encoding="utf-8").replace("\\\n", " ")
    assert re.search(r"pip install .*--require-hashes --no-deps --only-binary=:all: -r \"\$ROOT/requirements-cisco.lock\"", setup)
