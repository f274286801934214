"""The Cisco engine: run Cisco's skill-scanner beside the native engine on the skills in scope.

Cisco's tool (PyPI `cisco-ai-skill-scanner`, command `skill-scanner`) adds YARA signatures and
Python/shell dataflow analysis. It runs once per scan (`scan-all` over a staging folder: its
start-up, about 20 s of rule loading, dominates, so one process for all skills), offline,
with `--use-behavioral`, no LLM and no API key, with a time limit, and without network where
the kernel allows a private network namespace. Its SARIF run is merged into ours as a second
run (cisco_sarif.py) and its results become our Findings for every other consumer.

A failure of the tool (crash, hang, unparsable or empty output, a skill it did not report on)
is EngineRun(status=FAILED): an engine that did not run is not a clean scan. Nothing from the
scanned repository is executed: the executable is never looked up inside it.
"""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..config import Config
from ..errors import UsageError
from ..models import EngineRun, EngineStatus, ScanResult
from ..targets import TargetSet
from . import cisco_sarif, cisco_stage

ENGINE = cisco_sarif.ENGINE
DISTRIBUTION = "cisco-ai-skill-scanner"
PINNED_VERSION = "2.3.2"  # keep in step with .ci/setup-cisco.sh and cisco/Dockerfile
ENV_EXECUTABLE = "INSTRUCTION_GUARD_CISCO"
COMMAND = "skill-scanner"
# The dev/CI install made by .ci/setup-cisco.sh, next to this package's checkout (never the scanned repository's).
BUNDLED_VENV = Path(__file__).resolve().parents[2] / ".venv-cisco"
INSTALL_HINT = f"run `bash .ci/setup-cisco.sh`, or `pip install {DISTRIBUTION}=={PINNED_VERSION}` and set {ENV_EXECUTABLE} to its skill-scanner"
MAX_REPORT_BYTES = 64 * 1024 * 1024
VERSION_TIMEOUT = 60.0
_VERSION_LINE = re.compile(r"^skill-scanner (\d+\.\d+\.\d+\S*)$")


class CiscoUnavailable(UsageError):
    """`cisco` was requested explicitly and Cisco's skill-scanner cannot be used; exit 2."""


@dataclass(frozen=True)
class Executable:
    path: str
    version: str
    source: str  # where it was found: config, env, bundled venv, PATH


def candidates(config: Config) -> list[tuple[str, str]]:
    """(path, source) in the order they are tried; the first that exists is the one used."""
    out: list[tuple[str, str]] = []
    if config.cisco_executable:
        out.append((config.cisco_executable, "config cisco.executable"))
    env = os.environ.get(ENV_EXECUTABLE, "")
    if env:
        out.append((env, f"${ENV_EXECUTABLE}"))
    if not out:
        out.append((str(BUNDLED_VENV / "bin" / COMMAND), "the .venv-cisco next to instruction-guard"))
        on_path = shutil.which(COMMAND)
        if on_path:
            out.append((on_path, "PATH"))
    return out


def _distribution_version(exe: str) -> str | None:
    """Version of cisco-ai-skill-scanner in the environment the executable belongs to, read from
    its dist-info on disk (no code runs). None: that environment does not hold Cisco's package."""
    real = Path(os.path.realpath(exe))
    prefixes = [real.parent.parent]
    try:
        first = real.read_bytes()[:256].split(b"\n", 1)[0]
    except OSError:
        first = b""
    if first.startswith(b"#!"):
        interpreter = first[2:].decode("utf-8", "replace").strip().split(" ")[0]
        if interpreter:
            prefixes.append(Path(interpreter).parent.parent)
    for prefix in dict.fromkeys(prefixes):
        pattern = str(prefix / "lib" / "python3*" / "site-packages" / "cisco_ai_skill_scanner-*.dist-info" / "METADATA")
        for meta in sorted(glob.glob(pattern)):
            try:
                head = Path(meta).read_text("utf-8", "replace")[:4096]
            except OSError:
                continue
            found = re.search(r"^Version: (\S+)$", head, re.MULTILINE)
            if found:
                return found.group(1)
    return None


def verify(path: str, source: str, scanned_root: str) -> Executable:
    """Check that `path` is Cisco's skill-scanner; raise CiscoUnavailable with the reason if not."""
    if not os.path.isabs(path):
        raise CiscoUnavailable(f"{source} must be an absolute path, not {path!r}")
    real = os.path.realpath(path)
    root = os.path.realpath(scanned_root)
    if os.path.commonpath([root, real]) == root:
        # Running a program from the repository under scan would execute its content.
        raise CiscoUnavailable(f"{source} {path} lies inside the scanned repository; install Cisco's skill-scanner outside it")
    if not (os.path.isfile(real) and os.access(real, os.X_OK)):
        raise CiscoUnavailable(f"Cisco's skill-scanner is not installed ({source}: {path} is not an executable file); {INSTALL_HINT}")
    dist = _distribution_version(path)
    if dist is None:
        raise CiscoUnavailable(f"{path} ({source}) is not Cisco's skill-scanner: no {DISTRIBUTION} next to it "
                               f"(the unrelated PyPI package 'skill-scanner' installs the same command); {INSTALL_HINT}")
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT,
                              env=_child_env(tempfile.gettempdir()), stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CiscoUnavailable(f"{path} --version failed ({exc}); {INSTALL_HINT}") from None
    line = (proc.stdout or proc.stderr).strip().splitlines()[:1]
    match = _VERSION_LINE.match(line[0].strip()) if line else None
    if proc.returncode != 0 or not match:
        raise CiscoUnavailable(f"{path} --version did not answer 'skill-scanner X.Y.Z' (exit {proc.returncode}); {INSTALL_HINT}")
    if match.group(1) != dist:
        raise CiscoUnavailable(f"{path} says version {match.group(1)} but {DISTRIBUTION} {dist} is installed; reinstall it")
    if int(dist.split(".")[0]) != int(PINNED_VERSION.split(".")[0]):
        raise CiscoUnavailable(f"{DISTRIBUTION} {dist} at {path} is not a {PINNED_VERSION.split('.')[0]}.x release; {INSTALL_HINT}")
    return Executable(path, dist, source)


def locate(config: Config, scanned_root: str) -> Executable:
    """The first existing candidate, verified; CiscoUnavailable says why none can be used."""
    tried = candidates(config)
    for path, source in tried:
        explicit = source != "the .venv-cisco next to instruction-guard"
        if explicit or os.path.lexists(path):
            return verify(path, source, scanned_root)
    raise CiscoUnavailable(f"Cisco's skill-scanner is not installed (looked in {', '.join(p for p, _ in tried)}); {INSTALL_HINT}")


def _child_env(home: str) -> dict[str, str]:
    """A minimal environment: no tokens or API keys reach the tool, proxies point nowhere."""
    dead = "http://127.0.0.1:9"  # the discard port: any HTTP client honouring proxies fails at once
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200", "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8", "HTTP_PROXY": dead, "HTTPS_PROXY": dead, "http_proxy": dead,
        "https_proxy": dead, "NO_PROXY": "", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
    }


@lru_cache(maxsize=1)
def _netns_prefix() -> tuple[str, ...]:
    """`unshare --net` when this process may create a network namespace (only loopback inside)."""
    unshare = shutil.which("unshare")
    if not unshare:
        return ()
    try:
        ok = subprocess.run([unshare, "--net", "--", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return (unshare, "--net", "--") if ok else ()


@dataclass
class Outcome:
    returncode: int | None  # None: killed at the time limit
    stdout: str
    stderr: str
    seconds: float


def _tail(text: str, limit: int = 300) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return (lines[-1] if lines else "")[:limit]


def run_tool(argv: list[str], cwd: str, home: str, timeout: float) -> Outcome:
    """Run with a time limit; on expiry kill its whole process group (it starts helpers)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=_child_env(home), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        code = None
    dec = lambda b: (b or b"")[-65536:].decode("utf-8", "replace")  # noqa: E731
    return Outcome(code, dec(out), dec(err), time.perf_counter() - started)


def _read_report(path: str, what: str) -> dict:
    """Parse one of the tool's reports; ValueError with a one-line reason when it is unusable."""
    try:
        size = os.path.getsize(path)
    except OSError:
        raise ValueError(f"wrote no {what} report") from None
    if size == 0:
        raise ValueError(f"wrote an empty {what} report")
    if size > MAX_REPORT_BYTES:
        raise ValueError(f"{what} report is {size} bytes, over the {MAX_REPORT_BYTES}-byte limit")
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{what} report is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{what} report is not a JSON object")
    return data


def _mode(config: Config) -> str:
    if config.cisco_mode != "off":
        return config.cisco_mode
    return "on" if "cisco" in config.engines else "off"


def scan(ts: TargetSet, config: Config) -> ScanResult:
    """Run Cisco's skill-scanner on the skills in scope; never prints or exits."""
    mode = _mode(config)
    result = ScanResult()
    if mode == "off":
        return result
    try:
        exe = locate(config, ts.root)
    except CiscoUnavailable as exc:
        if mode == "on":
            raise
        result.engines.append(EngineRun(ENGINE, EngineStatus.SKIPPED, detail=f"cisco: auto and not available: {exc}"))
        return result
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ig-cisco-") as work:
        staged = cisco_stage.stage(ts, os.path.join(work, "skills"), config.limits)
        result.not_scanned.extend(staged.not_scanned)
        if not staged.skills:
            result.engines.append(EngineRun(ENGINE, EngineStatus.SKIPPED, exe.version, detail="no skill folder in the scan"))
            return result
        run, cov = _run_and_merge(exe, staged, work, config.cisco_timeout)
    run.seconds = time.perf_counter() - started
    result.engines.append(run)
    if cov is not None and run.sarif_run is not None:
        result.findings.extend(cisco_sarif.translate(run.sarif_run, staged))
        result.notes.extend(cov.notes)
        result.not_scanned.extend(cov.not_scanned)
    return result


def _run_and_merge(exe: Executable, staged: cisco_stage.Staged, work: str,
                   timeout: float) -> tuple[EngineRun, cisco_sarif.Coverage | None]:
    home = os.path.join(work, "home")
    os.makedirs(home)
    sarif_out, json_out = os.path.join(work, "cisco.sarif"), os.path.join(work, "cisco.json")
    isolation = _netns_prefix()
    argv = [*isolation, exe.path, "scan-all", staged.folder, "--use-behavioral",
            "--format", "sarif", "--format", "json", "--output-sarif", sarif_out, "--output-json", json_out]
    failed = lambda why: (EngineRun(ENGINE, EngineStatus.FAILED, exe.version, detail=f"skill-scanner {exe.version} {why}"), None)  # noqa: E731
    try:
        outcome = run_tool(argv, cwd=staged.folder, home=home, timeout=timeout)
    except OSError as exc:
        return failed(f"could not start: {exc.strerror or exc}")
    if outcome.returncode is None:
        return failed(f"was stopped after the {timeout:g}-second time limit (cisco.timeout)")
    # Exit 1 means findings at a --fail-on threshold, but also "no skills found" or an error:
    # the reports decide. Without reports, its last output line says what went wrong.
    why = _tail(outcome.stderr) or _tail(outcome.stdout) or "no output"
    if outcome.returncode not in (0, 1):
        return failed(f"exited with {_describe_exit(outcome.returncode)}: {why}")
    try:
        sarif = _read_report(sarif_out, "SARIF")
        report = _read_report(json_out, "JSON")
        cov = cisco_sarif.coverage(report, staged)
        network = "none (own network namespace)" if isolation else "proxy variables point to a closed local port"
        merged = cisco_sarif.merge(sarif, staged, exe.version, exe.source, network)
    except ValueError as exc:
        detail = f"{exc}" + (f" (exit {outcome.returncode}: {why})" if outcome.returncode else "")
        return failed(detail)
    return EngineRun(ENGINE, EngineStatus.OK, exe.version,
                     detail=f"{len(staged.skills)} skill(s), {len(merged.get('results', []))} result(s), exit {outcome.returncode}",
                     sarif_run=merged), cov


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"

