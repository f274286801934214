"""The Cisco engine: run Cisco's skill-scanner beside the native engine on the skills in scope.

Cisco's tool (PyPI `cisco-ai-skill-scanner`, command `skill-scanner`) adds YARA signatures and
Python/shell dataflow analysis. It runs once per scan (`scan-all` over a staging folder: its
start-up, its rule loading, dominates, so one process for all skills), offline,
with `--use-behavioral`, no LLM and no API key, with a time limit, and without network where
the kernel allows a private network namespace. Its SARIF run is merged into ours as a second
run (cisco_sarif.py) and its results become our Findings for every other consumer.

A failure of the tool (crash, hang, unparsable or empty output, a skill it did not report on)
is EngineRun(status=FAILED): an engine that did not run is not a clean scan. Nothing from the
scanned repository is executed: an executable that its configuration names (or PATH finds)
inside it is refused, and the tool only reads a copy of the skills.
"""
from __future__ import annotations

import atexit
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
from ..inert import visible
from ..targets import TargetSet
from . import cisco_sarif, cisco_stage

ENGINE = cisco_sarif.ENGINE
DISTRIBUTION = "cisco-ai-skill-scanner"
PINNED_VERSION = "2.3.2"  # keep in step with .ci/setup-cisco.sh and cisco.Dockerfile (a test checks)
ENV_EXECUTABLE = "INSTRUCTION_GUARD_CISCO"
COMMAND = "skill-scanner"
# The dev/CI install made by .ci/setup-cisco.sh, next to this package's checkout (never the scanned repository's).
BUNDLED_VENV = Path(__file__).resolve().parents[2] / ".venv-cisco"
CONFIG_SOURCE = "config cisco.executable"
BUNDLED_SOURCE = "the .venv-cisco next to instruction-guard"
INSTALL_HINT = f"run `bash .ci/setup-cisco.sh`, or `pip install {DISTRIBUTION}=={PINNED_VERSION}` and set {ENV_EXECUTABLE} to its skill-scanner"
MAX_REPORT_BYTES = 64 * 1024 * 1024


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
        out.append((config.cisco_executable, CONFIG_SOURCE))
    env = os.environ.get(ENV_EXECUTABLE, "")
    if env:
        out.append((env, f"${ENV_EXECUTABLE}"))
    if not out:
        out.append((str(BUNDLED_VENV / "bin" / COMMAND), BUNDLED_SOURCE))
        on_path = shutil.which(COMMAND)
        if on_path:
            out.append((on_path, "PATH"))
    return out


@dataclass(frozen=True)
class Distribution:
    version: str
    entry_module: str  # module of its `skill-scanner` console script, e.g. skill_scanner.cli.cli


def _distribution(exe: str) -> Distribution | None:
    """Cisco's package in the environment the executable belongs to, read from its dist-info on
    disk (nothing runs). None: that environment does not hold cisco-ai-skill-scanner."""
    real = Path(os.path.realpath(exe))
    prefixes = [real.parent.parent]
    first = _head(real).split(b"\n", 1)[0]
    if first.startswith(b"#!"):
        interpreter = first[2:].decode("utf-8", "replace").strip().split(" ")[0]
        if interpreter:
            prefixes.append(Path(interpreter).parent.parent)
    for prefix in dict.fromkeys(prefixes):
        pattern = str(prefix / "lib" / "python3*" / "site-packages" / "cisco_ai_skill_scanner-*.dist-info")
        for info in sorted(glob.glob(pattern)):
            try:
                meta = Path(info, "METADATA").read_text("utf-8", "replace")[:4096]
                entry = Path(info, "entry_points.txt").read_text("utf-8", "replace")[:4096]
            except OSError:
                continue
            name = re.search(r"^Name: (\S+)$", meta, re.MULTILINE)
            version = re.search(r"^Version: (\S+)$", meta, re.MULTILINE)
            script = re.search(r"^skill-scanner\s*=\s*([\w.]+):", entry, re.MULTILINE)
            if name and name.group(1).lower() == DISTRIBUTION and version and script:
                return Distribution(version.group(1), script.group(1))
    return None


def _head(path: Path, size: int = 4096) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError:
        return b""


def verify(path: str, source: str, scanned_root: str) -> Executable:
    """Check that `path` is Cisco's skill-scanner at a supported version, without running it;
    raise CiscoUnavailable with the reason and the fix if not."""
    if not os.path.isabs(path):
        raise CiscoUnavailable(f"{source} must be an absolute path, not {path!r}")
    real = os.path.realpath(path)
    root = os.path.realpath(scanned_root)
    if source in (CONFIG_SOURCE, "PATH") and os.path.commonpath([root, real]) == root:
        # The scanned repository's own configuration (or a PATH entry inside it) must not make
        # us run a program it ships: that would execute its content.
        raise CiscoUnavailable(f"{source} {path} lies inside the scanned repository; install Cisco's skill-scanner outside it")
    if not (os.path.isfile(real) and os.access(real, os.X_OK)):
        raise CiscoUnavailable(f"Cisco's skill-scanner is not installed ({source}: {path} is not an executable file); {INSTALL_HINT}")
    dist = _distribution(path)
    not_cisco = (f"{path} ({source}) is not Cisco's skill-scanner: the unrelated PyPI package 'skill-scanner' "
                 f"installs the same command; {INSTALL_HINT}")
    if dist is None:
        raise CiscoUnavailable(not_cisco)
    head = _head(Path(real))
    if head.startswith(b"#!") and dist.entry_module.encode() not in head:
        # A text console script that does not import Cisco's entry point is another package's.
        raise CiscoUnavailable(not_cisco)
    major = PINNED_VERSION.split(".")[0]
    if dist.version.split(".")[0] != major:
        raise CiscoUnavailable(f"{DISTRIBUTION} {dist.version} at {path} is not a {major}.x release; {INSTALL_HINT}")
    return Executable(path, dist.version, source)


def locate(config: Config, scanned_root: str) -> Executable:
    """The first existing candidate, verified; CiscoUnavailable says why none can be used."""
    tried = candidates(config)
    for path, source in tried:
        explicit = source != BUNDLED_SOURCE
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


def _tail(path: str, limit: int = 300) -> str:
    """The last non-blank line the tool wrote to a stream (its error message, when it fails)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(max(os.path.getsize(path) - 65536, 0))
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return visible(lines[-1], limit) if lines else ""


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


def requested(config: Config) -> bool:
    """Whether this scan runs Cisco's scanner (on, or auto): it needs every target before it starts."""
    return _mode(config) != "off"


def _mode(config: Config) -> str:
    if config.cisco_mode != "off":
        return config.cisco_mode
    return "on" if "cisco" in config.engines else "off"


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Pending:
    """A Cisco run under way in its own process (started before the native engine, so the two
    overlap); finish() waits for it within the time limit and returns its ScanResult."""

    def __init__(self, result: ScanResult, exe: Executable | None = None, staged: cisco_stage.Staged | None = None,
                 work: tempfile.TemporaryDirectory | None = None, timeout: float = 0.0) -> None:
        self.result = result
        self.exe, self.staged, self.work, self.timeout = exe, staged, work, timeout
        self.proc: subprocess.Popen | None = None
        self.isolation: tuple[str, ...] = ()
        self.started = time.perf_counter()
        self.start_error = ""

    def path(self, name: str) -> str:
        assert self.work is not None
        return os.path.join(self.work.name, name)

    def spawn(self) -> None:
        assert self.exe is not None and self.staged is not None
        home = self.path("home")
        os.makedirs(home)
        self.isolation = _netns_prefix()
        argv = [*self.isolation, self.exe.path, "scan-all", self.staged.folder, "--use-behavioral",
                "--format", "sarif", "--format", "json",
                "--output-sarif", self.path("cisco.sarif"), "--output-json", self.path("cisco.json")]
        # Streams go to files: a full pipe would block the tool while the native engine runs.
        with open(self.path("stdout"), "wb") as out, open(self.path("stderr"), "wb") as err:
            try:
                # cwd is the staging folder, so its URIs read `<slot>/<path in skill>`.
                self.proc = subprocess.Popen(argv, cwd=self.staged.folder, env=_child_env(home), stdin=subprocess.DEVNULL,
                                             stdout=out, stderr=err, start_new_session=True)
            except OSError as exc:
                self.start_error = exc.strerror or str(exc)
        _LIVE.add(self)

    def abandon(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            _kill_group(self.proc)
            self.proc.wait()
        if self.work is not None:
            self.work.cleanup()
        _LIVE.discard(self)

    def finish(self) -> ScanResult:
        if self.exe is None or self.staged is None:
            return self.result
        try:
            run, cov = self._wait_and_merge()
            run.seconds = time.perf_counter() - self.started
            self.result.engines.append(run)
            if cov is not None and run.sarif_run is not None:
                self.result.findings.extend(cisco_sarif.translate(run.sarif_run, self.staged))
                self.result.notes.extend(cov.notes)
                self.result.not_scanned.extend(cov.not_scanned)
        finally:
            self.abandon()
        return self.result

    def _wait_and_merge(self) -> tuple[EngineRun, cisco_sarif.Coverage | None]:
        exe, staged = self.exe, self.staged
        assert exe is not None and staged is not None
        failed = lambda why: (EngineRun(ENGINE, EngineStatus.FAILED, exe.version, detail=f"skill-scanner {exe.version} {why}"), None)  # noqa: E731
        if self.proc is None:
            return failed(f"could not start: {self.start_error}")
        remaining = self.timeout - (time.perf_counter() - self.started)
        try:
            code = self.proc.wait(timeout=max(remaining, 0.01))
        except subprocess.TimeoutExpired:
            return failed(f"was stopped after the {self.timeout:g}-second time limit (cisco.timeout)")
        finally:
            _kill_group(self.proc)  # helpers it started (and left behind) go too
        # Exit 1 means findings at a --fail-on threshold, but also "no skills found" or an error:
        # the reports decide. Without reports, its last output line says what went wrong.
        why = _tail(self.path("stderr")) or _tail(self.path("stdout")) or "no output"
        if code not in (0, 1):
            return failed(f"exited with {_describe_exit(code)}: {why}")
        try:
            sarif = _read_report(self.path("cisco.sarif"), "SARIF")
            report = _read_report(self.path("cisco.json"), "JSON")
            cov = cisco_sarif.coverage(report, staged)
            network = "none (own network namespace)" if self.isolation else "proxy variables point to a closed local port"
            merged = cisco_sarif.merge(sarif, staged, exe.version, exe.source, network)
        except ValueError as exc:
            return failed(f"{exc}" + (f" (exit {code}: {why})" if code else ""))
        detail = f"{len(staged.skills)} skill(s), {len(merged.get('results', []))} result(s)"
        return EngineRun(ENGINE, EngineStatus.OK, exe.version, detail=detail, sarif_run=merged), cov


_LIVE: set[Pending] = set()


@atexit.register
def _abandon_all() -> None:
    """A scan that raised before finish(): leave no Cisco process or staging folder behind."""
    for pending in list(_LIVE):
        pending.abandon()


def start(ts: TargetSet, config: Config) -> Pending | None:
    """Start Cisco's skill-scanner on the skills in scope; None when it is not requested.

    Raises CiscoUnavailable (exit 2) when it was requested explicitly and cannot be used.
    """
    mode = _mode(config)
    if mode == "off":
        return None
    result = ScanResult()
    try:
        exe = locate(config, ts.root)
    except CiscoUnavailable as exc:
        if mode == "on":
            raise
        result.engines.append(EngineRun(ENGINE, EngineStatus.SKIPPED, detail=f"cisco: auto and not available: {exc}"))
        return Pending(result)
    work = tempfile.TemporaryDirectory(prefix="ig-cisco-")
    staged = cisco_stage.stage(ts, os.path.join(work.name, "skills"), config.limits)
    result.not_scanned.extend(staged.not_scanned)
    if not staged.skills:
        work.cleanup()
        result.engines.append(EngineRun(ENGINE, EngineStatus.SKIPPED, exe.version, detail="no skill folder in the scan"))
        return Pending(result)
    pending = Pending(result, exe, staged, work, config.cisco_timeout)
    pending.spawn()
    return pending


def scan(ts: TargetSet, config: Config) -> ScanResult:
    """Run Cisco's skill-scanner on the skills in scope and wait for it; never prints or exits."""
    pending = start(ts, config)
    return pending.finish() if pending is not None else ScanResult()


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"
