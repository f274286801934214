"""Facts the script analysers report, and the shapes they share across languages.

A Fact is one dangerous operation found in a script (a download reaching an interpreter, a
credential reaching the network, ...). The rules in scanner/rules/scripts.py turn facts of
their kind into hits; the analysers only describe what the code does.
"""
from __future__ import annotations

import posixpath
from functools import lru_cache
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from .. import hosts as H
from ..matching import rx
from ..models import Confidence, Severity
from . import sink_table as T

# The kinds of fact (Fact.kind) are named in fact_kinds, the one table of them.


@dataclass(frozen=True)
class Fact:
    kind: str
    start: int  # character offsets into Document.text
    end: int
    message: str
    severity: Severity
    confidence: Confidence = Confidence.MEDIUM
    properties: dict[str, Any] = field(default_factory=dict)

    def lowered(self, steps: int, why: str) -> "Fact":
        reasons = list(self.properties.get("lowered-because", ())) + [why]
        # Context lowers, never hides: a lowered fact stays at low or above.
        severity = max(self.severity.lowered(steps), min(self.severity, Severity.LOW))
        return replace(self, severity=severity, properties={**self.properties, "lowered-because": reasons})


# Credential-shaped paths. STRONG: reading one is a finding on its own; WEAK (.env, token
# files) is ordinary for a script to read and matters only when it reaches the network.
CRED_STRONG = rx(
    r"(?i)(?:\.ssh(?:/|\\|$)|id_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws[/\\]credentials|\.aws[/\\]config|"
    r"\.azure[/\\]|gcloud[/\\](?:credentials|application_default|legacy_credentials)|\.kube[/\\]config|"
    r"\.docker[/\\]config\.json|\.npmrc|\.pypirc|\.netrc|\.git-credentials|\.gnupg|\.password-store|"
    r"keychains?(?:/|\\|\b)|login\s?data|(?:^|/|\\)cookies(?:\.sqlite)?$|key[34]\.db|logins\.json|wallet\.dat|"
    r"\.bitcoin|\.ethereum|electrum[/\\]wallets|exodus[/\\]|metamask|/etc/shadow|/etc/sudoers|/etc/gshadow|"
    r"\.bash_history|\.zsh_history|\.vault-token|\.terraform\.d[/\\]credentials|\.config[/\\]gh[/\\]hosts\.yml|"
    r"(?:chrome|chromium|brave|edge|firefox|mozilla|safari|opera)[^\n]{0,80}(?:[/\\]history$|places\.sqlite|web data|[/\\]cookies)|"
    r"\.clawdbot|\.openclaw[/\\]|\.moltbot[/\\]|\.claude[/\\]\.credentials|\.codex[/\\]auth\.json|\.config[/\\]solana|\.purple[/\\]accounts|"
    # registry logins of podman/skopeo/buildah, cargo, Composer and RubyGems
    r"containers[/\\]auth\.json|\.cargo[/\\]credentials|composer[/\\]auth\.json|\.gem[/\\]credentials)"
)
# Credential folders themselves (`tar czf - ~/.aws ~/.kube`, `cp -R ~/.ssh`), not files under them as
# CRED_STRONG reads them: an archiver given one carries every key in it.
CRED_DIR = rx(r"(?i)(?:^|/|~)\.(?:aws|azure|kube|docker|gnupg|ssh|password-store|config/gcloud|config/gh)/?$")
CRED_WEAK = rx(r"(?i)(?:(?:^|/|\\|~)\.env(?:\.[a-z]+)?$|credentials\.json$|token\.json$|secrets?\.(?:json|ya?ml|toml)$|/etc/passwd)")
SECRET_ENV = rx(
    r"(?i)(?:token|secret|passw(?:or)?d|passwd|api_?key|access_?key|private_?key|credential|"
    r"(?:^|_)auth(?:_|$)|session|cookie|_key$|^key$|webhook)"
)
# Values that name a secret but are not one.
NOT_SECRET_ENV = rx(r"(?i)(?:public_?key|_path$|_file$|_dir$|_url$|_endpoint$|_host$|_id$|_name$|max_tokens|token_limit|tokens?_per)")

PERSISTENCE_PATH = rx(
    r"(?i)(?:authorized_keys|crontab|/etc/cron|/var/spool/cron|\.bashrc|\.bash_profile|\.zshrc|\.zprofile|"
    r"(?:^|/|~)\.profile$|/etc/profile|/etc/rc\.local|/etc/systemd/system|\.config/systemd/user|"
    r"launchagents|launchdaemons|currentversion\\run|/etc/ld\.so\.preload|/etc/init\.d|\.config/autostart|"
    r"startup\\|schtasks|\bat\s+now\b|site-packages/|dist-packages/|sitecustomize\.py|usercustomize\.py|\.pth$)"
)
CLOUD_METADATA_HOST = rx(r"(?i)(?:169\.254\.169\.254|metadata\.google\.internal|100\.100\.100\.200|fd00:ec2::254|metadata\.azure\.com|169\.254\.170\.2)")
_PLAIN_WORD = rx(r"^[A-Za-z][a-z]*[,.:;]?$")
_SHELL_MARKS = ("|", "$(", "`", ";", "&&", ">", "<", "\n")


def reads_as_advice(s: str) -> bool:
    """A string that is a sentence told to a person ("Submit http://169.254.169.254/ in URL fields."):
    it opens with a capitalised word, ends with a full stop, holds no shell operator or option flag,
    and most of its words are plain words. No HTTP client or shell requests it as it stands; a URL
    alone, or a command line (`curl -s http://...`), is no such sentence."""
    t = s.strip()
    words = t.split()
    if len(words) < 5 or not t.endswith(".") or any(m in t for m in _SHELL_MARKS):
        return False
    if not (words[0][:1].isupper() and words[0].isalpha()) or any(w.startswith("-") for w in words):
        return False
    plain = sum(1 for w in words if _PLAIN_WORD.test(w))
    return plain >= 4 and plain * 2 >= len(words)


EVASION_TEXT = rx(
    r"(?i)(?:^(?:/var)?/tmp/\.[a-z0-9_]|^/dev/shm/|/var/log/|\.bash_history|history\s+-c|unset\s+histfile|histfile=/dev/null|setenforce\s+0|"
    r"auditctl\s+-[de]|wevtutil\s+cl|clear-eventlog|ufw\s+disable|systemctl\s+(?:stop|disable)\s+(?:apparmor|auditd|firewalld|falcon|osquery)|"
    r"isdebuggerpresent|tracerpid|/\.dockerenv|vboxservice|vmtoolsd|sandboxie|ld_preload|/proc/self/status|"
    r"kill\s+-9\s+.*(?:auditd|syslog)|shred\s+-|touch\s+-[a-z]*[dr]|timestomp)"
)
DESTRUCTIVE_TEXT = rx(r"(?i)(?:\brm\s+-(?:rf|fr|r\s+-f)\s+[^;&|\n]*(?:\.\./\*|~/\*|\$home/\*|\$\{home\}/\*)|\brm\s+-(?:rf|fr|r\s+-f)\s+(?:/|~|\$home|/\*|\"/\")\s*(?:$|[;&|\"'])|mkfs\.|dd\s+if=/dev/(?:zero|urandom)\s+of=/dev/|:\(\)\s*\{\s*:\|:&\s*\};:)")
PRIVILEGE_TEXT = rx(r"(?i)(?:chmod\s+(?:-R\s+)?0?777\b|chmod\s+[ugo]*\+s\b|chmod\s+[0-7]?[4-7][0-7]{3}\b|nopasswd|/var/run/docker\.sock|/run/docker\.sock|/etc/sudoers|setuid\(0\)|usermod\s+-ag\s+(?:sudo|wheel|docker))")

RECON_TEXT = rx(
    r"(?i)(?:/etc/passwd|/etc/group\b|/proc/net/|/proc/\d+/|/proc/\*/|/proc/self/environ|/proc/mounts|/etc/fstab|"
    r"/sys/class/dmi|/etc/hosts$|\barp\s+-a|\bip\s+(?:route|addr|neigh)|\bnetstat\b|\bdmidecode\b|\blsblk\b|"
    r"getent\s+passwd|/var/log/auth\.log|/etc/resolv\.conf|\bifconfig\b|\bwhoami\b|\blast\s+-|/etc/os-release|"
    r"psutil\.(?:process_iter|net_connections|users)|\bps\s+aux\b|\buname\s+-a|/var/run/docker\.sock)"
)
GEO_HOSTS = ("ipapi.co", "ipinfo.io", "ip-api.com", "ifconfig.me", "api.ipify.org", "geolocation-db.com", "ipgeolocation.io",
             "freegeoip", "extreme-ip-lookup.com", "ipwho.is", "checkip.amazonaws.com", "icanhazip.com", "wtfismyip.com")
CLIPBOARD_COMMANDS = T.names("shell", "clipboard")


def is_geo_lookup(url: str) -> bool:
    host = host_of(url)
    return bool(host) and any(host == g or host.endswith("." + g) or g in host for g in GEO_HOSTS)


# Hosts are graded by scanner/hosts.py (data/hosts/installers.yml and paste.yml), on the URL's
# registrable domain: the one place for host logic, shared with the command grader and prose rules.
IPV4 = rx(r"^\d{1,3}(?:\.\d{1,3}){3}$")
URL_IN_TEXT = rx(r"(?i)\b(?:https?|ftp|wss?)://[^\s'\"`<>)\]}]+")
HEX64 = rx(r"\b[0-9a-fA-F]{64}\b")


def host_of(url: str) -> str:
    try:
        return (urlsplit(url.strip()).hostname or "").lower()
    except ValueError:
        return ""


def urls_in(text: str) -> list[str]:
    data = text.encode("utf-8", "surrogatepass")
    return [m.group(0).decode("utf-8", "replace") for m in URL_IN_TEXT.finditer(data)][:20]


def is_vendor(url: str) -> bool:
    """An https URL on a curated installer vendor's registrable domain (scanner/hosts.py)."""
    return H.is_vendor_installer(url)


def host_risk(url: str) -> str:
    """'ip', 'paste', 'vendor', 'unknown' or 'none' (no URL known)."""
    if not url:
        return "none"
    host = host_of(url)
    if host and H.is_ip(host) and not host.startswith("127."):
        return "ip"
    if H.is_paste_or_relay(url):
        return "paste"
    if is_vendor(url):
        return "vendor"
    return "unknown"


# Cheap substring gates in front of the RE2 patterns: most strings in a script contain none
# of these, and a Python `in` test is far cheaper than an RE2 call per string.
_CRED_KEYS = T.ordered("credentials", "path_gate")  # one of them is in every CRED_STRONG or CRED_WEAK match
_SHAPE_KEYS = ("authorized_keys", "cron", ".bashrc", ".bash_profile", ".zshrc", ".zprofile", ".profile", "rc.local",
               "systemd", "launchagents", "launchdaemons", "currentversion", "ld.so", "init.d", "autostart", "startup",
               "schtasks", "at now", "site-packages", "dist-packages", "customize.py", ".pth", "169.254", "metadata", "100.100.100.200", "fd00:ec2", "/var/log", "history",
               "histfile", "setenforce", "auditctl", "wevtutil", "clear-eventlog", "ufw", "systemctl", "debugger",
               "tracerpid", "dockerenv", "/tmp/.", "/dev/shm", "vbox", "vmtoolsd", "sandboxie", "ld_preload", "/proc/", "kill", "shred",
               "touch", "timestomp", "rm ", "mkfs", "dd ", ":()", "chmod", "777", "nopasswd", "sudoers", "setuid", "usermod",
               "/etc/", "docker.sock", "arp", "ip ", "netstat", "dmidecode", "lsblk", "getent", "/sys/", "ifconfig", "whoami", "last ",
               "psutil", "ps aux", "uname", "docker.sock")


def _literal_set(keys: tuple[str, ...]):
    # One RE2 pass for the whole key set: a Python loop of `in` tests cost ~80 steps per string.
    return rx("|".join("".join("\\" + ch if not ch.isalnum() else ch for ch in k) for k in keys))


_GATES: dict[int, object] = {}


def _gate(s: str, keys: tuple[str, ...]) -> bool:
    gate = _GATES.get(id(keys))
    if gate is None:
        gate = _GATES[id(keys)] = _literal_set(keys)
    return gate.test(s.lower())


def _public_key(s: str) -> bool:
    """`~/.ssh/id_ed25519.pub`, `$key.pub`: the public half of a key pair is meant to be shared."""
    return s.rstrip().rstrip("\"'`").lower().endswith(".pub")


@lru_cache(maxsize=8192)
def is_credential_path(s: str) -> bool:
    if not _gate(s, _CRED_KEYS) or _public_key(s):
        return False
    if ".env." in s.lower():  # .env.example / .env.sample: a template with no secret in it
        data = s.encode("utf-8", "surrogatepass")
        kept, pos = [], 0
        for m in _ENV_TEMPLATE.finditer(data):
            kept.append(data[pos:m.start()])
            pos = m.end()
        s = (b"".join(kept) + data[pos:]).decode("utf-8", "surrogatepass")
    return CRED_STRONG.test(s) or CRED_WEAK.test(s)


_ENV_TEMPLATE = rx(r"(?i)\.env\.(?:example|sample|template|dist|tmpl|defaults?)\b")


@lru_cache(maxsize=8192)
def is_strong_credential_path(s: str) -> bool:
    return _gate(s, _CRED_KEYS) and not _public_key(s) and CRED_STRONG.test(s)


def may_have_shape(s: str) -> bool:
    """False when no persistence/evasion/metadata/privilege/recon pattern can match s."""
    return _gate(s, _SHAPE_KEYS)


def is_secret_env_name(name: str) -> bool:
    return bool(name) and SECRET_ENV.test(name) and not NOT_SECRET_ENV.test(name)


def documented_hosts(skill_text: str) -> frozenset[str]:
    """Hosts a skill's own SKILL.md names: a POST there is the skill doing what it says."""
    return frozenset(h for h in (host_of(u) for u in urls_in(skill_text)) if h)


def host_documented(url: str, hosts: frozenset[str]) -> bool:
    host = host_of(url)
    if not host or not hosts:
        return False
    base = ".".join(host.split(".")[-2:])
    return any(host == h or host.endswith("." + h) or ".".join(h.split(".")[-2:]) == base for h in hosts)


def apply_url_context(fact: Fact, url: str, doc_hosts: frozenset[str] = frozenset()) -> Fact:
    """Lower a download/upload fact by where it goes; raw IPs and paste hosts stay as they are."""
    risk = host_risk(url)
    props = dict(fact.properties, host_risk=risk)
    if url:
        props["url"] = url[:200]
    fact = replace(fact, properties=props)
    if risk == "vendor":
        return fact.lowered(2, "installer from a well-known vendor")
    if risk == "unknown" and host_documented(url, doc_hosts):
        return fact.lowered(2, "host named in the skill's own SKILL.md")
    return fact


# Files that hold data, not code: a script that runs one is running a payload kept out of sight.
DATA_EXTENSIONS = frozenset({
    ".dat", ".txt", ".bin", ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".svg", ".webp", ".pdf", ".log", ".db", ".sqlite",
    ".ttf", ".otf", ".woff", ".woff2", ".mp3", ".mp4", ".wav", ".pkl", ".cache", ".tmp", ".res", ".rsrc", ".blob", ".lock",
})  # opaque formats; structured config (json, yaml, ini) is parsed, and eval of one of its values is a weakness, not a payload


def is_data_file(path: str) -> bool:
    name = posixpath.basename(path.strip().strip("'\"")).lower()
    if "." not in name or name.startswith(".") and name.count(".") == 1:
        return False
    return name[name.rfind("."):] in DATA_EXTENSIONS


def basename(path: str) -> str:
    return posixpath.basename(path)


_ESC_ONE = rx(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{4}))")


def unescape(raw: bytes) -> str:
    """The text printf or $'...' makes of octal, hex and \\u escapes (other bytes kept as they are)."""
    out, last = [], 0
    for m in _ESC_ONE.finditer(raw):
        out.append(raw[last:m.start()].decode("utf-8", "replace"))
        o, x, u = m.group(1), m.group(2), m.group(3)
        out.append(chr(int(o, 8) & 0xFF) if o else chr(int(x, 16)) if x else chr(int(u, 16)))
        last = m.end()
    out.append(raw[last:].decode("utf-8", "replace"))
    return "".join(out)
