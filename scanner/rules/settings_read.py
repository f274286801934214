"""Agent settings read by meaning: which file is which agent's settings, its parse (JSON, JSONC,
TOML; never evaluated), and the one command grader every extracted command goes through.

`grade_command(cmd)` is the single seam for grading a command line an agent or editor runs
(hooks, status lines, credential helpers, folder-open tasks, devcontainer and package
lifecycle scripts, MCP launchers, Gemini `!{...}` injections). It is built on today's
detectors (prose_code's shapes, scripts/shell_flow's parse, scanner/hosts) so that it can be
switched to the scripts helper's grader in one place.
"""
from __future__ import annotations

import posixpath
import shlex
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from .. import hosts
from ..document import Document
from ..matching import rx
from ..models import Severity
from .phrases import cached
from .prose_code import _DECODE_EXEC, _PIPE_TO_SHELL, _REVERSE_SHELL


# -- data -----------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def data(name: str) -> dict:
    return yaml.safe_load(resources.files("scanner").joinpath("data", name).read_text("utf-8")) or {}


def keys() -> dict:
    return data("settings_keys.yml")


# -- which file is this ---------------------------------------------------------------------
def settings_role(path: str) -> str:
    """The settings format a path holds ('' when none these rules read)."""
    p = path.replace("\\", "/").lower()
    name = posixpath.basename(p)
    parent = posixpath.basename(posixpath.dirname(p))
    grand = posixpath.basename(posixpath.dirname(posixpath.dirname(p)))
    if parent in (".claude", ".factory") and name.startswith("settings") and name.endswith(".json"):
        return "claude"
    if parent == ".vscode" and name == "settings.json":
        return "vscode"
    if parent == ".vscode" and name == "tasks.json":
        return "vscode-tasks"
    if parent in (".gemini", ".qwen", ".iflow") and name == "settings.json":
        return "gemini"
    if name.endswith(".toml") and "/.gemini/commands/" in "/" + p:
        return "gemini-command"
    if name == "environment.json" and parent == ".cursor":
        return "cursor-env"
    if name in ("cli.json", "cli-config.json") and parent == ".cursor":
        return "cursor-cli"
    if name == "plugin.json" and parent == ".claude-plugin":
        return "claude-plugin"
    if name == "marketplace.json" and parent == ".claude-plugin":
        return "claude-marketplace"
    if name == "gemini-extension.json":
        return "gemini-extension"
    if parent == ".continue" and name in ("config.yaml", "config.yml", "config.json") or grand == ".continue" and name.endswith((".yaml", ".yml", ".json")):
        return "continue"
    if name in ("copilot-setup-steps.yml", "copilot-setup-steps.yaml") and parent == "workflows":
        return "copilot-setup"
    if (name == "hooks.json" and parent in (".cursor", ".windsurf", ".codeium", "hooks")) or (parent == "hooks" and name.endswith(".json") and grand in (".github", ".copilot", ".windsurf", ".cursor")):
        return "hooks"
    if name.endswith(".kiro.hook") or (parent == "hooks" and grand == ".kiro" and name.endswith((".json", ".hook"))):
        return "kiro-hook"
    if name == "devcontainer.json" or name == ".devcontainer.json":
        return "devcontainer"
    if name == "package.json" and "/node_modules/" not in "/" + p:
        return "package"
    if name == "config.toml" and parent == ".codex":
        return "codex"
    if name == "settings.json" and parent == ".zed":
        return "zed"
    if name in ("opencode.json", "opencode.jsonc"):
        return "opencode"
    if name in (".mcp.json", "mcp.json", "claude_desktop_config.json", "mcp_config.json", "mcp_settings.json", "cline_mcp_settings.json"):
        return "mcp"
    return ""


def load(doc: Document) -> tuple[Any, str | None]:
    """(data, error) for a settings file: JSON/JSONC through agent_config's parser, TOML
    through tomllib, a Kiro hook as JSON. Never evaluated."""
    name = doc.path.lower()
    if name.endswith((".yaml", ".yml")):
        def parse_yaml() -> tuple[Any, str | None]:
            try:
                return yaml.safe_load(doc.text), None
            except (yaml.YAMLError, ValueError, RecursionError) as exc:
                return None, str(exc)[:200]
        return cached(doc, "yaml", parse_yaml)
    if name.endswith(".toml"):
        def parse_toml() -> tuple[Any, str | None]:
            import tomllib
            try:
                return tomllib.loads(doc.text), None
            except (ValueError, RecursionError) as exc:
                return None, str(exc)[:200]
        return cached(doc, "toml", parse_toml)
    from .agent_config import parsed
    return parsed(doc)


def locate(doc: Document, *needles: str) -> tuple[int, int]:
    """Offsets of the first needle found in the text (as written, or JSON-escaped)."""
    import json
    for needle in needles:
        if not needle:
            continue
        for form in (needle, json.dumps(needle)[1:-1]):
            i = doc.text.find(form[:200])
            if i >= 0:
                return i, i + min(len(form), 200)
    return 0, 0


def commands_of(value: Any) -> list[str]:
    """Command lines in a settings value: a string, an argv list, or an object of named
    commands (devcontainer lifecycle form)."""
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        parts = [v for v in value if isinstance(v, (str, int, float))]
        return [" ".join(shlex.quote(str(p)) if " " in str(p) and i == 0 else str(p) for i, p in enumerate(parts))] if parts else []
    if isinstance(value, dict):
        out: list[str] = []
        for v in list(value.values())[:50]:
            out.extend(commands_of(v))
        return out
    return []


# -- the command grader ------------------------------------------------------------------------
@dataclass(frozen=True)
class Graded:
    severity: Severity
    reason: str
    kind: str  # remote-exec | exfil | send | reverse-shell | decode-exec | fetch | code-load
    host: str = ""


_WRAPPER_FLAGS = ("-c", "/c", "/k", "-command", "-c:", "-e", "--eval", "-encodedcommand")
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "fish", "cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh", "pwsh.exe"}
_INLINE = rx(r"(?:^|[\s;&|(])(?:python[23]?(?:\.\d+)?|py|node|nodejs|bun|deno\s+eval|ruby|perl|php)\s+(?:-\S+\s+)*?(?:-c|-e|-r|--eval|-E|-p|--print)\s")
_INLINE_NET = rx(r"(?:require\(\s*['\"](?:node:)?https?['\"]\s*\)|from\s+['\"](?:node:)?https?['\"]|urlopen|urllib|requests\.|httpx|http\.client|\bfetch\s*\(|https?\.(?:get|request)\s*\(|axios|xmlhttprequest|net::http|open-uri|uri\.open|\bopen\s*\(\s*[\"']https?:|lwp|http::tiny|io::socket|socket\.|websocket)")
_INLINE_EXEC = rx(r"(?:\bexec\s*\(|\beval\b|new\s+function|\bfunction\s*\(|execsync|child_process|subprocess|os\.system|os\.popen|instance_eval|\bsystem\s*\(|`[^`]+`|\bspawn\s*\()")
_INLINE_SECRET = rx(r"(?:os\.environ|getenv|process\.env|\benv\[|%env|\.ssh|\.aws|credentials|\.netrc|\.npmrc|\.pypirc|\.git-credentials|id_(?:rsa|ed25519)|\.kube|\.docker/config|\.env\b|keychain)")
_INLINE_SEND = rx(r"(?:\bdata\s*=|method\s*:\s*[\"']?(?:post|put)|\.post\s*\(|\.put\s*\(|body\s*:|\.send\s*\(|\bpost\b)")
# curl's data flags are case-sensitive (-F form, -f fail; -T upload, -t telnet option): read the original text
_CURL_SEND = rx(r"\b[cC][uU][rR][lL]\b[^\n]*?(?:\s-d\b|\s-F\b|\s-T\b|--data|--form|--upload-file|--json|\s-X\s*['\"]?(?i:post|put|patch)|--request[\s=]+['\"]?(?i:post|put|patch)|\s-[a-zA-Z]*[dFT]\s)")
_NET_SEND = rx(
    r"(?:\bwget\b[^\n]*--(?:post|body|method)"
    r"|\b(?:invoke-webrequest|invoke-restmethod|iwr|irm)\b[^\n]*-(?:method\s+(?:post|put)|body|infile)"
    r"|\b(?:nc|ncat|netcat|socat|telnet)\s+(?:-\S+\s+)*[\w.-]+\s+\d{2,5})"
)
_PIPED_INTO_SENDER = rx(r"\|\s*(?:\S+=\S+\s+)*(?:xargs\s+(?:-\S+\s+)*)?(?:curl|wget|nc|ncat|netcat|socat|openssl\s+s_client)\b|@-")
_CRED_SOURCE = rx(
    r"(?:\bgh\s+auth\s+token\b|export-credentials|\bsecurity\s+find-(?:generic|internet)-password|\bgit\s+credential\s+fill|"
    r"\bprintenv\b|(?:^|[;&|(]\s*)env\s*(?:\||>|$)|\bcat\s+[^\n|;]*(?:\.env\b|credentials|\.netrc|\.npmrc|\.pypirc|id_(?:rsa|ed25519)|\.git-credentials|kube/config|docker/config)|"
    r"(?:~|\$home|\$\{home\}|\$env:userprofile|%userprofile%|/home/\w+|/root|/users/\w+)[/\\]\.(?:ssh|aws|gnupg|kube|azure|config[/\\]gh|docker|netrc|npmrc|git-credentials)|"
    r"\bgcloud\s+auth\s+print-\w*token|\baz\s+account\s+get-access-token|\baws\s+(?:sts\s+get-session-token|configure\s+get)|\bop\s+read\b|"
    r"\bkeyring\s+get|\bsecret-tool\s+lookup)"
)
_LOCAL_DATA = rx(r"(?:\$\(\s*cat\s*-?\s*\)|\$\(\s*(?:whoami|hostname|id|uname[^)]*|pwd|ls[^)]*|env|printenv)\s*\)|</dev/stdin|\bhistory\b|\bcat\s*(?:\||$|-\s)|\btar\s+[^\n|]*\||\bzip\s+-r|\bfind\s+/|\bgit\s+(?:diff|log|show)\b|\bls\s+-\w*r)")
_SECRET_VAR = rx(r"\$(?:env:)?\{?([a-z_][a-z0-9_]*)")
_URL = rx(r"(?:https?|ftp|wss?)://[^\s\"'`<>|;]+")
_SOCKET_HOST = rx(r"(?:\b(?:nc|ncat|netcat|telnet)\s+(?:-\S+\s+)*([a-z0-9][\w.-]*)\s+\d{2,5}|\bs_client\s+(?:-\S+\s+)*-connect\s+([a-z0-9][\w.-]*):\d+|\bsocat\b[^\n]*?tcp4?:([a-z0-9][\w.-]*):\d+)")
_LOLBIN = rx(r"(?:\bcertutil(?:\.exe)?\b[^\n]*-urlcache|\bbitsadmin(?:\.exe)?\b[^\n]*/transfer|\bmshta(?:\.exe)?\s+[\"']?(?:https?:|vbscript:|javascript:)|\bregsvr32(?:\.exe)?\b[^\n]*/i:\s*https?:|\brundll32(?:\.exe)?\b[^\n]*javascript:|\bmsiexec(?:\.exe)?\b[^\n]*/(?:i|package)\s+https?:)")
_SCLIENT_SHELL = rx(r"(?:s_client\b[^\n]*\|\s*(?:/bin/)?(?:ba|z|da)?sh\b|(?:ba|z|da)?sh\s+-i\b[^\n]*\|\s*openssl\s+s_client|mkfifo\b[^\n]*openssl\s+s_client)")
_DENO_REMOTE = rx(r"\bdeno\s+(?:run|install|x)\b[^\n]*?\s(https?://\S+)")


def _unwrap(command: str, depth: int = 0) -> list[str]:
    """The command and the inline scripts it hands to a shell (`sh -c '...'`, `powershell -c`)."""
    out = [command]
    if depth > 2 or len(command) > 20000:
        return out
    try:
        argv = shlex.split(command, posix=True)
    except ValueError:
        argv = command.split()
    for i, arg in enumerate(argv[:-1]):
        base = posixpath.basename(arg.replace("\\", "/")).lower()
        if base in _SHELLS:
            for j in range(i + 1, min(i + 6, len(argv) - 1)):
                if argv[j].lower() in _WRAPPER_FLAGS:
                    out.extend(_unwrap(argv[j + 1], depth + 1))
                    break
    return out


def _secret_vars(low: str) -> list[str]:
    from ..scripts.common import is_secret_env_name
    return [m.group(1).decode() for m in _SECRET_VAR.finditer(low.encode("utf-8", "surrogatepass"))
            if is_secret_env_name(m.group(1).decode())]


def _urls(text: str) -> list[str]:
    return [m.group(0).decode("utf-8", "replace") for m in _URL.finditer(text.encode("utf-8", "surrogatepass"))][:20]


def _local(host: str) -> bool:
    return host in ("localhost", "0.0.0.0", "::1") or host.startswith("127.") or host.endswith((".localhost", ".local", ".internal"))


def _vendor(url: str) -> bool:
    """An https URL on a curated installer vendor: scanner/hosts' list, or prose_code's older
    list matched the same way (label-wise on the host, by path prefix on shared hosts)."""
    if hosts.is_vendor_installer(url):
        return True
    if not url.lower().startswith("https://"):
        return False
    from .prose_code import VENDOR_INSTALLERS
    host = hosts.host_of(url)
    rest = url.split("://", 1)[1].lower()
    for entry in VENDOR_INSTALLERS:
        if "." not in entry:
            continue
        if "/" in entry:
            if rest.startswith(entry + "/") or rest == entry:
                return True
        elif hosts.host_in(host, (entry,)):
            return True
    return False


def _known_service(host: str) -> bool:
    """A host on the own domain of a vendor this project lists (credential vendors, brands)."""
    if not host or hosts.is_ip(host) or hosts.look_alike_brand(host):
        return False
    domains = {d for ds in hosts.credential_vendors().values() for d in ds} | {d for ds in hosts.brands().values() for d in ds}
    return hosts.host_in(host, domains)


def _describe(host: str) -> str:
    if not host:
        return ""
    brand = hosts.look_alike_brand(host)
    return f" {host}" + (f" (a look-alike of {brand}'s domains)" if brand else "")


def _grade_text(text: str) -> Graded | None:
    low = text.lower()
    data_b = low.encode("utf-8", "surrogatepass")
    urls = _urls(low)
    for m in _SOCKET_HOST.finditer(low.encode("utf-8", "surrogatepass")):
        h = next((g.decode() for g in m.groups() if g), "")
        if h and "." in h:
            urls.append(f"tcp://{h}")
    remote = [u for u in urls if not _local(hosts.host_of(u))]
    host = hosts.host_of(remote[0]) if remote else ""
    if _REVERSE_SHELL.search(data_b) is not None or _SCLIENT_SHELL.search(data_b) is not None:
        return Graded(Severity.CRITICAL, "opens a reverse shell", "reverse-shell", host)
    if _LOLBIN.search(data_b) is not None and remote:
        return Graded(Severity.CRITICAL, f"fetches and runs code through a Windows system binary from{_describe(host)}", "remote-exec", host)
    if _DECODE_EXEC.search(data_b) is not None:
        return Graded(Severity.CRITICAL, "decodes and executes a payload", "decode-exec", host)
    if _PIPE_TO_SHELL.search(data_b) is not None:
        if remote and all(_vendor(u) for u in remote):
            return Graded(Severity.MEDIUM, f"downloads and runs a vendor installer ({host})", "remote-exec", host)
        why = "a raw IP address" if hosts.is_ip(host) else "a paste or relay service" if remote and hosts.is_paste_or_relay(remote[0]) else "a host that is not a known vendor's" if host else "a URL that is not literal"
        # unknown https host: high (fails the default gate); a bare IP, plain http, a paste/relay or a look-alike: critical
        worst = (not host or hosts.is_ip(host) or hosts.is_paste_or_relay(remote[0]) or hosts.look_alike_brand(host)
                 or remote[0].startswith("http://")) if remote else True
        return Graded(Severity.CRITICAL if worst else Severity.HIGH, f"downloads code from {why}{_describe(host) if host else ''} and runs it", "remote-exec", host)
    inline = _INLINE.search(data_b) is not None
    if inline and _INLINE_NET.search(data_b) is not None:
        if _INLINE_EXEC.search(data_b) is not None and remote:
            return Graded(Severity.CRITICAL, f"inline code downloads code from{_describe(host)} and runs it", "remote-exec", host)
        if _INLINE_SECRET.search(data_b) is not None and remote:
            return Graded(Severity.CRITICAL, f"inline code reads credentials or the environment and sends them to{_describe(host)}", "exfil", host)
        if _INLINE_SEND.search(data_b) is not None and remote:
            return Graded(Severity.HIGH, f"inline code sends data to{_describe(host)}", "send", host)
    m = _DENO_REMOTE.search(data_b)
    if m is not None:
        url = m.group(1).decode("utf-8", "replace")
        h = hosts.host_of(url)
        if not hosts.host_in(h, ("deno.land", "jsr.io", "esm.sh")):
            return Graded(Severity.HIGH, f"runs remote code fetched at start from{_describe(h)}", "remote-exec", h)
    # command output carried in the URL itself, or in a header of the same request
    in_url = any("$(" in u or "`" in u for u in remote) or (remote and ("curl" in low or "wget" in low) and "$(" in low
                                                             and _LOCAL_DATA.search(data_b) is not None)
    sending = in_url or _NET_SEND.search(data_b) is not None or _CURL_SEND.search(text.encode("utf-8", "surrogatepass")) is not None or (_PIPED_INTO_SENDER.search(data_b) is not None and ("curl" in low or "wget" in low or " nc " in low or "ncat" in low))
    secrets = _secret_vars(low)
    if remote and (sending or secrets):
        if secrets and all(hosts.credential_goes_home(s, remote[0]) for s in secrets) and _CRED_SOURCE.search(data_b) is None:
            return Graded(Severity.LOW, f"sends {secrets[0].upper()} to its own vendor ({host})", "send", host)
        if _CRED_SOURCE.search(data_b) is not None or (secrets and (sending or "?" in low or "/$" in low)):
            what = secrets[0].upper() if secrets else "credentials"
            return Graded(Severity.CRITICAL, f"sends {what} to{_describe(host)}", "exfil", host)
        if sending and (_PIPED_INTO_SENDER.search(data_b) is not None or _LOCAL_DATA.search(data_b) is not None):
            # to a well-known service's own domain (an observability or chat vendor) it is a choice to review, not an attack shape
            sev = Severity.MEDIUM if _known_service(host) else Severity.HIGH
            return Graded(sev, f"sends local data (its input, history or files) to{_describe(host)}", "send", host)
        if sending:
            brand = hosts.look_alike_brand(host)
            return Graded(Severity.HIGH if brand else Severity.MEDIUM, f"sends data over the network to{_describe(host)}", "send", host)
    if not remote and sending and _CRED_SOURCE.search(data_b) is not None and ("nc " in low or "socat" in low or "s_client" in low):
        return Graded(Severity.HIGH, "sends credentials over a raw socket", "exfil", "")
    pkg = _package_run(text)
    if pkg is not None:
        return pkg
    try:
        from ..scripts.shell_flow import analyze_text
        facts = analyze_text(text) if len(text) < 20000 else []
    except Exception:  # a parser problem is not a finding
        facts = []
    best = max(facts, key=lambda f: f.severity, default=None)
    if best is not None and best.severity >= Severity.MEDIUM:
        return Graded(best.severity, best.message[0].lower() + best.message[1:], best.kind, host)
    if remote and ("curl" in low or "wget" in low or "iwr" in low or "invoke-webrequest" in low) and not all(_vendor(u) for u in remote):
        brand = hosts.look_alike_brand(host)
        return Graded(Severity.MEDIUM if brand else Severity.LOW, f"fetches from{_describe(host)}", "fetch", host)
    return None


_RUNNERS = {"npx", "bunx", "pnpx", "uvx", "pipx", "npm", "pnpm", "yarn", "bun", "uv", "pip", "pip3"}
_INDEX_FLAGS = ("--registry", "--index-url", "-i", "--extra-index-url", "--default-index", "--index")


def _install_specs(seg: list[str]) -> list[tuple[str, str]]:
    """(ecosystem, spec) of the packages a `pip install` / `npm install` segment names."""
    if len(seg) < 3:
        return []
    base = posixpath.basename(seg[0]).lower()
    rest = seg[1:]
    if base in ("python", "python3") and rest[:2] == ["-m", "pip"]:
        base, rest = "pip", rest[2:]
    if base == "uv" and rest[:1] == ["pip"]:
        base, rest = "pip", rest[1:]
    eco = "pypi" if base in ("pip", "pip3", "pipx") else "npm" if base in ("npm", "pnpm", "yarn", "bun") else ""
    if not eco or not rest or rest[0] not in ("install", "i", "add"):
        return []
    out: list[tuple[str, str]] = []
    skip = False
    for t in rest[1:40]:
        if skip:
            skip = False
            continue
        if t.startswith("-"):
            skip = t in ("-r", "-c", "-e", "--requirement", "--constraint", "-i", "--index-url", "--extra-index-url", "--registry", "--target", "-t", "--prefix")
            continue
        if t.startswith((".", "/")) or t.endswith((".txt", ".toml")):
            continue
        out.append((eco, t))
    return out[:20]


def _package_run(text: str) -> Graded | None:
    """A package fetched and run (npx, bunx, pnpm dlx, uvx, pipx run) or installed from an index:
    a look-alike of an official or popular name, code from a URL or git ref, or an index on a
    look-alike host or bare IP."""
    if not any(r in text for r in ("npx", "bunx", "pnpx", "uvx", "pipx", "dlx", "npm", "pip", "uv ")):
        return None
    from .mcp_supply import launch_of, npm_look_alike, npm_name, pypi_look_alike, pypi_name
    try:
        argv = shlex.split(text, posix=True)
    except ValueError:
        argv = text.split()
    for i, a in enumerate(argv[:400]):
        base = posixpath.basename(a).lower()
        if base not in _RUNNERS:
            continue
        seg: list[str] = []
        for t in argv[i:]:
            if t in ("&&", "||", ";", "|", "&") or t.endswith(";"):
                break
            seg.append(t)
        for j, flag in enumerate(seg):
            val = seg[j + 1] if j + 1 < len(seg) else ""
            f, eq, inline = flag.partition("=")
            if f in _INDEX_FLAGS and (inline or val):
                h = hosts.host_of(inline or val)
                if h and (hosts.is_ip(h) and not _local(h) or hosts.look_alike_brand(h)):
                    return Graded(Severity.HIGH, f"installs packages from{_describe(h)}", "remote-exec", h)
        installs = _install_specs(seg)
        for eco, spec in installs:
            if "://" in spec:
                h = hosts.host_of(spec.split("@", 1)[-1] if spec.startswith(("git+", "pkg@")) else spec)
                if h and (hosts.look_alike_brand(h) or (hosts.is_ip(h) and not _local(h)) or spec.lower().startswith(("http://", "git+http://"))):
                    return Graded(Severity.HIGH, f"installs a package from{_describe(h)}", "remote-exec", h)
                continue
            name = (npm_name(spec) if eco == "npm" else pypi_name(spec))[0]
            target = npm_look_alike(name) if eco == "npm" else pypi_look_alike(name)
            if target:
                return Graded(Severity.HIGH, f"installs {name!r}, a look-alike of the package {target!r}", "remote-exec", "")
        launch = launch_of(seg)
        if not launch.spec or launch.ecosystem not in ("npm", "pypi"):
            continue
        spec = launch.spec
        if "://" in spec:
            h = hosts.host_of(spec)
            if h and (hosts.look_alike_brand(h) or hosts.is_ip(h) or spec.lower().startswith("http://")):
                return Graded(Severity.HIGH, f"runs a package archive from{_describe(h)}", "remote-exec", h)
            continue
        name = (npm_name(spec) if launch.ecosystem == "npm" else pypi_name(spec))[0]
        target = npm_look_alike(name) if launch.ecosystem == "npm" else pypi_look_alike(name)
        if target:
            return Graded(Severity.HIGH, f"runs {name!r}, a look-alike of the package {target!r}", "remote-exec", "")
    return None


def grade_command(command: str) -> Graded | None:
    """The one grader for a command an agent or editor runs: the worst shape found in the
    command or in any script it hands to a shell, or None when nothing stands out."""
    if not isinstance(command, str) or not command.strip():
        return None
    best: Graded | None = None
    for text in _unwrap(command[:20000]):
        g = _grade_text(text)
        if g is not None and (best is None or g.severity > best.severity):
            best = g
    return best


def volume_source(spec: str) -> str:
    """The host side of a docker `-v`/`--mount` spec: `src:dst[:opts]`, `type=bind,source=...`,
    `${localEnv:HOME}/.ssh:/x` (colons inside `${...}` are not separators), `C:\\x:/y`."""
    spec = spec.strip().strip("'\"")
    if spec.startswith(("type=", "src=", "source=")) or ("=" in spec.split(",")[0] and "," in spec):
        parts = dict(p.split("=", 1) for p in spec.split(",") if "=" in p)
        return parts.get("source") or parts.get("src") or ""
    depth, start = 0, 2 if len(spec) > 2 and spec[1] == ":" and spec[0].isalpha() else 0
    for i in range(start, len(spec)):
        ch = spec[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif ch == ":" and depth == 0:
            return spec[:i]
    return spec
