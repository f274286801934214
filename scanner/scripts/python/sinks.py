"""What happens when a value reaches a dangerous Python call: the facts the flow reports."""
from __future__ import annotations

import ast
import bisect
from functools import lru_cache

from ...models import Confidence, Severity
from ... import hosts as H
from .. import common as c
from .. import fact_kinds as K
from . import api
from ..test_inputs import rejected_node
from .. import sink_table as T
from .consts import const_str
from .taint import CAPTURE, CRED, DEC, DL, EMPTY, ENVDUMP, FILE, HOST, SAVED, SECRET
from .walk import walk

SECRET_NAME = "secret-name:"
# Parts of a secret variable's name that name no vendor (WEATHER_API_KEY -> weather), not secret words.
_GENERIC_PARTS = {"api", "key", "token", "secret", "access", "auth", "private", "password", "client", "bot", "app", "the"}


def _own_service(env_name: str, url: str) -> bool:
    host = c.host_of(url)
    parts = [p for p in env_name.lower().split("_") if len(p) >= 3 and p not in _GENERIC_PARTS]
    # The key's name is the label of the domain its holder registered (api.weather.example for
    # WEATHER_API_KEY), not any substring: ANTHROPIC_API_KEY to api.anthropic-edge.com stays critical.
    label = H.registrable_domain(host).split(".")[0] if host else ""
    return bool(label) and bool(parts) and label in parts

EXEC, SHELL, NETWORK, DESER, IMPORT = "exec", "shell", "network", "deserialize", "import"
SHELL_STRING, QUERY, TEMPLATE = "shell-string", "query", "template"
_SESSIONS = ("requests.Session.", "httpx.Client.", "httpx.AsyncClient.", "aiohttp.ClientSession.", "urllib3.PoolManager.")
TEMPLATE_CLASSES = T.names("python", "sinks", "template")
_UNTRUSTED_WHAT = {EXEC: "code execution", IMPORT: "a module import", SHELL_STRING: "a shell command",
                   QUERY: "a database/LDAP/XPath query", TEMPLATE: "a template engine", DESER: "a deserialiser"}


# SQL methods first, then the LDAP/XPath/document queries (which emit only on untrusted input).
_QUERY_ATTRS = T.ordered("python", "methods", "sql") + T.ordered("python", "methods", "query")
_CHMOD_CALLS = T.ordered("python", "sinks", "chmod")
_ROOT_CALLS = T.ordered("python", "sinks", "setuid")
_RMTREE_CALLS = T.ordered("python", "sinks", "rmtree")
# Method names check_call acts on whatever the receiver (see its tests below).
_SINK_ATTRS = frozenset(_QUERY_ATTRS + T.ordered("python", "methods", "template") + T.ordered("python", "methods", "chmod"))
# Resolved names check_call tests for by equality (its shell and network tests are predicates); python.sink_gate reads it too.
SINK_NAMES = (api.EXEC_SINKS | api.IMPORT_SINKS | api.DESERIALIZERS | api.DESERIALIZERS_IF_REMOTE | TEMPLATE_CLASSES
              | frozenset(_CHMOD_CALLS + _ROOT_CALLS + _RMTREE_CALLS))


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def _may_sink(q: str) -> bool:
    """Whether check_call can act on a call named `q`, its method name apart: every test of q it makes."""
    return q in SINK_NAMES or api.is_shell_call(q) or (bool(q) and api.is_network(q))


def check_call(scope, node: ast.Call, q: str, arg_t: list, kw_t: dict, all_t: frozenset[str]) -> None:
    attr = node.func.attr if isinstance(node.func, ast.Attribute) else ""
    if attr not in _SINK_ATTRS and not _may_sink(q):
        return  # most calls: no test below can hold (keep _may_sink and _SINK_ATTRS in step with them)
    first = node.args[0] if node.args else None
    first_t = arg_t[0] if arg_t else frozenset()
    if SAVED in all_t or scope.flow.__dict__.get("saved_paths"):
        _runs_saved(scope, node, q, first, arg_t)
    if q in api.EXEC_SINKS:
        scope.sink(EXEC, node, first_t, q)
        if first is not None and not (first_t & {DL, DEC}) and const_str(first, scope.lookup) is None:
            scope.flow.emit(K.DYNAMIC_EXEC, node, f"{q}() runs code computed at run time", Severity.MEDIUM, Confidence.MEDIUM, call=q)
    elif q in api.IMPORT_SINKS:
        scope.sink(IMPORT, node, frozenset().union(*arg_t) if arg_t else first_t, q)
        if first is not None and const_str(first, scope.lookup) is None and not (first_t & {DL, DEC}):
            scope.flow.emit(K.DYNAMIC_EXEC, node, f"{q}() imports a module named at run time", Severity.LOW, Confidence.MEDIUM, call=q)
    elif api.is_shell_call(q):
        _shell_call(scope, node, q, first, first_t, kw_t)
    elif q in api.DESERIALIZERS or q in api.DESERIALIZERS_IF_REMOTE:
        url = ""
        if q in api.DESERIALIZERS_FETCHING and first is not None:
            # pandas.read_pickle("https://..."): the loader downloads its input itself, so what it
            # unpickles is the network's (a URL literal, a built one, or an env var's default)
            from .urls import url_of

            u = url_of(scope, first)
            if isinstance(u, str) and u.lower().startswith(("https://", "http://")):
                url, all_t = u, all_t | {DL}
        scope.sink(DESER, node, all_t, q, url=url)
        safe_yaml = q == "yaml.load" and any(k.arg == "Loader" and "Safe" in ast.dump(k.value) for k in node.keywords)
        if q in api.DESERIALIZERS and not safe_yaml and not (all_t & {DL, DEC}):
            scope.flow.emit(K.DESERIALIZE, node, f"{q}() can run code hidden in the data it loads", Severity.MEDIUM, Confidence.MEDIUM, call=q)
    if attr in _QUERY_ATTRS and first is not None \
            and (_built_string(first) or (not isinstance(first, (ast.Constant, ast.Dict)) and const_str(first, scope.lookup) is None
                                          and attr in ("execute", "executemany", "executescript", "raw", "xpath", "search_s"))):
        scope.sink(QUERY, node, first_t, q or attr)
        built = _built_string(first) or (isinstance(first, ast.Name) and first.id in scope.built)
        if built and attr in ("execute", "executemany", "executescript", "raw") and any(p.startswith("param:") for p in first_t):
            scope.flow.emit(K.INPUT_TO_SINK, node, f"A function argument is interpolated into an SQL query ({q or attr})",
                            Severity.MEDIUM, Confidence.LOW, sink=q or attr, sink_kind=QUERY)
    if q in TEMPLATE_CLASSES or attr == "from_string" or (attr == "format" and isinstance(node.func, ast.Attribute)
                                                           and not isinstance(node.func.value, ast.Constant)):
        t = first_t if attr != "format" else scope.expr(node.func.value)
        scope.sink(TEMPLATE, node, t, q or attr)
    if q and api.is_network(q):
        url = const_str(first, scope.lookup) or const_str(_kw(node, "url"), scope.lookup) or ""
        # A token in an auth header is how APIs are called; it matters only on a raw IP or paste host.
        body_t = frozenset().union(*arg_t, *(t for name, t in kw_t.items() if name not in _KEYED_KWARGS))
        # ... but a credential file's contents or the whole environment is no API token: in a header,
        # a cookie, or the headers of the session or client making the call (`s.headers[..] = ...`), it is sent
        carried = frozenset().union(*(t for name, t in kw_t.items() if name in ("headers", "cookies", "metadata")))
        if isinstance(node.func, ast.Attribute) and q.startswith(_SESSIONS):
            carried |= scope.expr(node.func.value)
        if carried & {CRED, ENVDUMP}:
            body_t |= carried & ({CRED, ENVDUMP} | {p for p in carried if p.startswith("cred:")})
        keyed = carried | kw_t.get("auth", EMPTY)
        if url and SECRET in keyed and not _publishes(url):
            # A key in the headers of a request to a written-out host: API use where the host is its
            # vendor's (or named like the key), sent away anywhere else.
            # (a key a command prints, `*command*`, is judged by the any-language pass: its keychain
            # item or vault entry may name the host)
            names = [p[len(SECRET_NAME):] for p in keyed if p.startswith(SECRET_NAME) and not p[len(SECRET_NAME):].startswith("*")]
            if names and not all(H.credential_goes_home(n, url) or _own_service(n, url) for n in names):
                body_t |= keyed
        if not url and "params" in kw_t and not (kw_t["params"] & _NOT_A_KEY) and not ((first_t | kw_t.get("url", EMPTY)) & {DEC, DL}):
            # params={"apikey": key} (or a dict filled so) to a URL set elsewhere (a setting's table, a
            # parameter, the command line): the key authenticates to whatever service is configured, as
            # a key in the headers does. A key to a written-out host is judged there, a decoded one too.
            body_t = frozenset().union(*arg_t, *(t for name, t in kw_t.items() if name not in _KEYED_KWARGS and name != "params"))
        if c.host_risk(url) in ("ip", "paste"):
            body_t = all_t
        if FILE in body_t and url and not _publishes(url):
            # A file given to a vendor's API with the user's own key for it in the headers (a document
            # to summarise, an image to describe) is that API's input, kept in the user's own account.
            names = [p[len(SECRET_NAME):] for p in carried | kw_t.get("auth", frozenset()) if p.startswith(SECRET_NAME)]
            if names and CRED not in carried and all(H.credential_goes_home(n, url) for n in names):
                body_t = body_t - {FILE}
        recv = node.func.value if isinstance(node.func, ast.Attribute) else None
        if isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name) and recv.value.id in ("self", "cls") \
                and recv.attr in scope.flow.attr_types:
            # self.session.get(self.base_url + ..., params={"api_key": self.api_key}): a client class's own
            # key to its own service, its URL built from attributes; only what no API takes counts here
            # (nor a caller's value handed in: a response's taint through a parameter is the same key again)
            body_t = frozenset(p for p in body_t if p != SECRET and not p.startswith(("secret-name:", "param:")))
        scope.sink(NETWORK, node, body_t, q, url=url)
        if url and c.is_geo_lookup(url):
            scope.flow.emit(K.SURVEILLANCE, node, f"Looks up the machine's public IP address and location ({c.host_of(url)})",
                            Severity.MEDIUM, Confidence.MEDIUM)
    if q in _CHMOD_CALLS or attr == "chmod":
        mode = node.args[1] if len(node.args) > 1 else (node.args[0] if node.args and q.endswith("Path.chmod") else None)
        if isinstance(mode, ast.Constant) and isinstance(mode.value, int) and mode.value & 0o6000:
            scope.flow.emit(K.PRIVILEGE, node, "Sets the setuid/setgid bit on a file", Severity.HIGH, Confidence.HIGH, call=q)
        elif isinstance(mode, ast.Constant) and isinstance(mode.value, int) and mode.value & 0o002:
            scope.flow.emit(K.PRIVILEGE, node, "Makes a file world-writable", Severity.MEDIUM, Confidence.MEDIUM, call=q)
    if q in _ROOT_CALLS and first is not None and isinstance(first, ast.Constant) and first.value == 0:
        scope.flow.emit(K.PRIVILEGE, node, "Switches the process to root", Severity.MEDIUM, Confidence.MEDIUM, call=q)
    if q in _RMTREE_CALLS and first is not None:
        target = const_str(first, scope.lookup)
        if target is not None and target.rstrip("/") in ("", "~", "/home", "/etc", "/usr", "$HOME", "C:\\", "C:"):
            scope.flow.emit(K.DESTRUCTIVE, node, f"Deletes {target or '/'} recursively", Severity.HIGH, Confidence.HIGH, call=q)


def _publishes(url: str) -> bool:
    """An endpoint whose purpose is publishing (a paste or relay host, a forge's gists API)."""
    return H.is_paste_or_relay(url) or "/gists" in url.lower()


def _built_string(node: ast.AST) -> bool:
    """A string put together at run time (f-string, +, %, .format): the shape of injection."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"


def _shell_dash_c(scope, first) -> bool:
    parts = [const_str(e, scope.lookup) for e in first.elts]
    return len(parts) >= 2 and (parts[0] or "").rsplit("/", 1)[-1] in api.SHELL_NAMES and parts[1] in ("-c", "/c", "-Command")


def untrusted_outcome(scope, kind: str, node: ast.Call, name: str, via_helper: bool) -> None:
    what = _UNTRUSTED_WHAT.get(kind)
    if what is None:
        return
    via = " through a helper function" if via_helper else ""
    scope.flow.emit(K.INPUT_TO_SINK, node, f"A tool argument or command-line input reaches {what} ({name}){via}",
                    Severity.MEDIUM, Confidence.MEDIUM, sink=name, sink_kind=kind)


def _param_only(t: frozenset[str]) -> bool:
    return bool(t) and all(p.startswith("param:") for p in t)


# Where a call carries its key rather than its body: HTTP headers, auth and cookies, and gRPC's metadata
# (call metadata is its headers: an API key there authenticates, as in an Authorization header).
_KEYED_KWARGS = frozenset({"headers", "auth", "cookies", "metadata"})
_NOT_A_KEY = frozenset({CRED, ENVDUMP, FILE, HOST, CAPTURE})  # what no API takes as its key: sent wherever it goes


def _kw(node: ast.Call, name: str) -> ast.AST | None:
    for k in node.keywords:
        if k.arg == name:
            return k.value
    return None


def _runs_saved(scope, node: ast.Call, q: str, first, arg_t: list) -> None:
    """A file the script filled with downloaded bytes is run: as the program of a process call
    (`subprocess.run([path, ...])`, `os.execv(path, ...)`, or after a shell or interpreter), or loaded
    as code (`runpy.run_path(path)`, `spec_from_file_location(name, path)`)."""
    runs = False
    saved = scope.flow.__dict__.get("saved_paths") or ()

    def holds(expr) -> bool:
        return SAVED in scope.expr(expr) or (bool(saved) and const_str(expr, scope.lookup) in saved)

    if q in api.EXEC_SINKS or q in api.IMPORT_SINKS:
        runs = any(SAVED in t for t in arg_t) or any(holds(a) for a in node.args[:3])
    elif api.is_shell_call(q) and first is not None:
        if isinstance(first, (ast.List, ast.Tuple)) and first.elts:
            elts = first.elts
            head = const_str(elts[0], scope.lookup)
            if head is None and scope.qualname(elts[0]) == "sys.executable":
                head = "python"
            if head is None or head in saved:
                runs = holds(elts[0])
            elif head.rsplit("/", 1)[-1] in api.INTERPRETER_NAMES and len(elts) >= 2:
                runs = holds(elts[1])  # ["bash", path], [sys.executable, path]
        elif isinstance(first, ast.JoinedStr) and first.values and isinstance(first.values[0], ast.FormattedValue):
            runs = holds(first.values[0].value)  # os.system(f"{path} --all")
        else:
            runs = SAVED in arg_t[0] or (bool(saved) and (const_str(first, scope.lookup) or "").split(" ")[0] in saved)
    if runs:
        scope.flow.emit(K.REMOTE_EXEC, node, f"A file written from a download is run by {q}()", Severity.HIGH, Confidence.MEDIUM, sink=q)


def _shell_call(scope, node: ast.Call, q: str, first, first_t: frozenset[str], kw_t: dict) -> None:
    shell_kw = _kw(node, "shell")
    uses_shell = q in api.SHELL_ALWAYS or (isinstance(shell_kw, ast.Constant) and bool(shell_kw.value))
    text = _command_text(scope, first)
    scope.sink(SHELL, node, first_t | kw_t.get("input", frozenset()), q)
    # Without a shell, an argument vector (a list, or a name bound to one) is never parsed by a
    # shell: input in it is an argument, not injection (issue 14 item 7). Only a shell (shell=True,
    # os.system, `bash -c`) turns a string into commands.
    if uses_shell or (isinstance(first, (ast.List, ast.Tuple)) and _shell_dash_c(scope, first)):
        scope.sink(SHELL_STRING, node, first_t, q)
    if text is not None:
        shell_facts = analyze_cached(text, frozenset((getattr(scope.flow.doc, "context", None) or {}).get("skill_hosts", ()))) \
            if scope.flow.emit_on and _worth_parsing(text) else ()
        for f in shell_facts:
            scope.flow.emit(f.kind, node, f"{f.message} (command run by {q})", f.severity, f.confidence,
                            url=f.properties.get("url", ""), embedded_shell=text[:200])
        argv0 = text.split(None, 1)[0].rsplit("/", 1)[-1] if text.strip() else ""
        if argv0.lower() in c.CLIPBOARD_COMMANDS:
            scope.flow.emit(K.SURVEILLANCE, node, f"Reads the clipboard ({argv0})", Severity.MEDIUM, Confidence.MEDIUM)
        if argv0 in ("curl", "wget", "nc", "ncat", "scp") and first_t & {CRED, SECRET, ENVDUMP}:
            scope.flow.emit(K.CRED_EXFIL, node, f"Credential data handed to {argv0}", Severity.CRITICAL, Confidence.MEDIUM)
        else:
            published(scope, node, text, first_t | kw_t.get("input", frozenset()))
    elif uses_shell and first is not None and not (first_t & {DL, DEC}):
        scope.flow.emit(K.SHELL_INJECTION, node, f"{q}() runs a command string built at run time through a shell",
                        Severity.MEDIUM, Confidence.MEDIUM, call=q)


# A forge's command line that publishes text: an issue, gist, pull request, release note or
# comment (gh, glab, tea, hub), or any call of its REST API. What it is given is posted to a
# server, often in public.
_PUBLISH = None


def published(scope, node: ast.Call, text: str | None, t: frozenset[str], via: str = "") -> bool:
    """Emits when command `text` publishes through a forge's CLI and its arguments or input carry
    secrets, credential files or the whole environment."""
    global _PUBLISH
    if not text or not (t & {CRED, SECRET, ENVDUMP}):
        return False
    if _PUBLISH is None:
        from ...matching import rx

        _PUBLISH = rx(r"^(?:\S*/)?(?:gh|glab|tea|hub)(?:\.exe)?\s+(?:(?:issue|gist|pr|mr|release|discussion|snippet|repo)\s+(?:create|comment|edit|new|upload)\b|api\b)")
    if _PUBLISH.search(text.strip().encode("utf-8", "surrogatepass")) is None:
        return False
    what = "credential data" if CRED in t else "secrets" if SECRET in t else "the whole environment"
    scope.flow.emit(K.CRED_EXFIL, node, f"{what[0].upper() + what[1:]} published through {' '.join(text.split()[:3])}{via}",
                    Severity.CRITICAL if CRED in t else Severity.HIGH, Confidence.MEDIUM)
    return True


_SHELL_SIGNALS = ("|", "$(", "`", "<(", ">", "curl", "wget", "nc ", "ncat", "socat", "/dev/tcp", "base64", "xxd", "eval",
                  "crontab", "chmod", "rm ", "history", "scp", "rsync", "pbpaste", "xclip", "xsel", "wl-paste", "git remote",
                  "bash", " sh", "sh ", "python", "perl", "ruby", "node", "169.254", "shred", "mkfs", "dd ", "setenforce")


def _worth_parsing(text: str) -> bool:
    """Most commands scripts run (git status, ls) cannot hold a dangerous shape: skip the parse."""
    low = text.lower()
    return any(sig in low for sig in _SHELL_SIGNALS)


@lru_cache(maxsize=1024)
def analyze_cached(text: str, hosts: frozenset[str]):
    """The shell analysis of a command string a script runs, plus the command grader's forms it
    does not read (python -c / node -e one-liners, runners, Windows binaries)."""
    from ..shell.flow import analyze_text
    from ..command_grader import grade_command

    facts = list(analyze_text(text, {"skill_hosts": hosts}))
    for g in grade_command(text):
        if not any(f.kind == g.kind for f in facts):
            facts.append(c.Fact(g.kind, g.start, g.end, g.message, g.severity, Confidence.MEDIUM,
                                {"analysis": "command-grader", **({"url": g.url} if g.url else {})}))
    return facts


def _command_text(scope, first) -> str | None:
    if first is None:
        return None
    s = const_str(first, scope.lookup)
    if s is not None:
        return s
    if isinstance(first, (ast.List, ast.Tuple)):
        parts = [const_str(e, scope.lookup) for e in first.elts]
        known = [p for p in parts if p is not None]
        if not known:
            return None
        # ["bash", "-c", "curl ... | sh"]: the script after -c is what the shell parses
        if len(known) >= 3 and known[1] in ("-c", "-lc", "/c", "-Command") and known[0].rsplit("/", 1)[-1] in api.SHELL_NAMES:
            return known[2]
        return " ".join(p if p is not None else "X" for p in parts)
    return None


def sink_outcome(scope, kind: str, node: ast.Call, t: frozenset[str], name: str, via_helper: bool, url: str) -> None:
    emit = scope.flow.emit
    via = " through a helper function" if via_helper else ""
    if kind in (EXEC, SHELL, IMPORT, DESER):
        if DL in t:
            emit(K.REMOTE_EXEC, node, f"Downloaded content reaches {name}(){via}", Severity.CRITICAL, Confidence.HIGH,
                 url=url, sink=name, sources=sorted(t & {DL, DEC}))
        elif DEC in t and kind != DESER:
            emit(K.DECODE_EXEC, node, f"Decoded (base64/hex/compressed) content reaches {name}(){via}", Severity.CRITICAL,
                 Confidence.HIGH, sink=name)
        elif DEC in t:
            emit(K.DECODE_EXEC, node, f"Decoded content is deserialised by {name}(){via}", Severity.HIGH, Confidence.MEDIUM, sink=name)
    elif kind == NETWORK:
        if t & {CRED, SECRET}:
            what = "credential file" if CRED in t else "secret environment variable"
            names = sorted(p[len(SECRET_NAME):] for p in t if p.startswith(SECRET_NAME))
            sev = Severity.CRITICAL
            dotenv_only = "cred:dotenv" in t and "cred:file" not in t  # LUMA_API_KEY read from ./.env when unset
            if (CRED not in t or dotenv_only) and names and url and all(H.credential_goes_home(n, url) for n in names):
                sev = Severity.LOW  # NAMECHEAP_API_KEY sent to api.namecheap.com: the vendor's own service (scanner/hosts.py)
            elif CRED not in t and names and url and all(_own_service(n, url) for n in names):
                sev = Severity.MEDIUM  # WEATHER_API_KEY sent to api.weather.example: named for the host it goes to
            emit(K.CRED_EXFIL, node, f"A {what} reaches a network call ({name}){via}", sev, Confidence.HIGH,
                 url=url, sink=name, sources=sorted(t & {CRED, SECRET}), secrets=names,
                 **({"lowered-because": ["secret sent to the service it belongs to"]} if sev < Severity.CRITICAL else {}))
        elif ENVDUMP in t:
            emit(K.CRED_EXFIL, node, f"The whole process environment reaches a network call ({name}){via}", Severity.HIGH,
                 Confidence.HIGH, url=url, sink=name)
        elif CAPTURE in t:
            emit(K.HOST_DATA_EXFIL, node, f"Captured keystrokes, clipboard or screen reach a network call ({name}){via}",
                 Severity.HIGH, Confidence.HIGH, url=url, sink=name)
        elif FILE in t and url and c.host_risk(url) != "vendor":
            emit(K.HOST_DATA_EXFIL, node, f"Local file contents are sent to a fixed address ({name}){via}",
                 Severity.MEDIUM, Confidence.LOW, url=url, sink=name)
        elif HOST in t and url:
            emit(K.HOST_DATA_EXFIL, node, f"Host details (user, host name, files) are sent to a fixed address ({name}){via}",
                 Severity.MEDIUM, Confidence.LOW, url=url, sink=name)


# -- shapes named by the strings a script carries --------------------------------------------------
def constant_shapes(flow) -> None:
    """Persistence, cloud-metadata, defence-evasion, privilege and sensitive-file shapes in string constants."""
    docstrings = flow.docstrings
    writes = flow.writes
    flow.emit_on = True
    seen: set[tuple[str, str]] = set()
    recon: dict[str, ast.AST] = {}
    test_memo: dict = {}  # a unit test's input whose refusal it asserts is not text the script acts on
    data, starts, cred_hits = flow.string_index
    shape_gate = _gate_hits(_SHAPE_GATE, data, starts)  # = c.may_have_shape(low) for every string
    strings, lows = flow.strings, flow.string_lows
    # A string in neither gate can give nothing below (no shape test, no credential test, no
    # recon): only those in a gate are read, in the order of the strings.
    for i in sorted(shape_gate | cred_hits):
        node = strings[i]
        if id(node) in docstrings:
            continue
        s = node.value
        if len(s) > 400 or _looks_like_regex(s) or len(s.split()) > 12:
            continue
        low = lows[i]
        pathlike = s.count(" ") <= 3
        shaped, cred_key = i in shape_gate, i in cred_hits  # cred_hits: the credential gate, already run over every string
        for kind, test, sev, msg in (constant_tests(writes, low, pathlike) if shaped else ()):
            if test.test(s) and (kind, low) not in seen and not rejected_node(flow.doc, node, test_memo):
                seen.add((kind, low))
                if kind == K.CLOUD_METADATA and c.reads_as_advice(s):
                    sev, msg = Severity.MEDIUM, msg + ", named in a sentence of advice"  # a tester told what to try
                flow.emit(kind, node, msg, sev, Confidence.MEDIUM, value=s[:120])
        if pathlike and cred_key and c.is_strong_credential_path(s) and (K.SENSITIVE_READ, low) not in seen:
            seen.add((K.SENSITIVE_READ, low))
            flow.emit(K.SENSITIVE_READ, node, "Names a credential store or system secret file", Severity.MEDIUM, Confidence.MEDIUM, value=s[:120])
        if shaped and c.RECON_TEXT.test(s):
            recon.setdefault(low, node)
    if len(recon) >= 2:
        first = min(recon.values(), key=lambda n: (n.lineno, n.col_offset))
        flow.emit(K.RECON, first, f"Collects system account, process, network or hardware details ({len(recon)} sources)",
                  Severity.MEDIUM, Confidence.LOW, sources=sorted(recon)[:10])


# The literal gates of scanner.scripts.common, run once over all of a script's strings instead of
# once per string (an RE2 call per string was most of this pass). No key holds a newline, so a
# match found in the newline-joined text lies inside one string.
_SHAPE_GATE, _CRED_GATE = c._literal_set(c._SHAPE_KEYS), c._literal_set(c._CRED_KEYS)
if any("\n" in k for k in c._SHAPE_KEYS + c._CRED_KEYS):
    raise ValueError("a gate key holds a newline: strings can no longer be gated joined by newlines")


def _joined(lows: list[str]) -> tuple[bytes, list[int]]:
    """The (lower-cased) strings joined by newlines as UTF-8, and the byte offset where each starts."""
    joined = "\n".join(lows)
    if joined.isascii():  # the usual case: byte offsets are character offsets, one encode for all
        data, sizes = joined.encode("ascii"), [len(low) for low in lows]
    else:
        parts = [low.encode("utf-8", "surrogatepass") for low in lows]
        data, sizes = b"\n".join(parts), [len(p) for p in parts]
    starts, pos = [], 0
    for n in sizes:
        starts.append(pos)
        pos += n + 1
    return data, starts


def _gate_hits(gate, data: bytes, starts: list[int]) -> set[int]:
    """Indices of the joined strings in which `gate` finds a key: `gate.test(low)` for each."""
    found: set[int] = set()
    for m in gate.finditer(data):
        found.add(bisect.bisect_right(starts, m.start()) - 1)
    return found


def strings_without_credential_keys(strings: list[ast.Constant]) -> tuple[set[int], list[str], tuple]:
    """ids of string constants in which common.is_credential_path's literal gate finds no key;
    every string lower-cased; and (joined strings, their starts, indices the gate found a key
    in), which constant_shapes reads again with its own gate."""
    lows = [n.value.lower() for n in strings]
    data, starts = _joined(lows)
    hits = _gate_hits(_CRED_GATE, data, starts)
    return {id(n) for i, n in enumerate(strings) if i not in hits}, lows, (data, starts, hits)


def constant_tests(writes: bool, low: str, pathlike: bool):
    strong = any(k in low for k in ("authorized_keys", "cron", "systemd", "launchagents", "launchdaemons", "ld.so.preload", "rc.local", "currentversion\\run"))
    out = [
        (K.CLOUD_METADATA, c.CLOUD_METADATA_HOST, Severity.HIGH, "Cloud instance-metadata endpoint (instance credentials)"),
        (K.DEFENSE_EVASION, c.EVASION_TEXT, Severity.MEDIUM, "Log, history, debugger or sandbox tampering, or a hidden file in a shared temp folder (defence evasion)"),
        (K.DESTRUCTIVE, c.DESTRUCTIVE_TEXT, Severity.HIGH, "Destroys the file system or machine"),
        (K.PRIVILEGE, c.PRIVILEGE_TEXT, Severity.MEDIUM, "Privilege escalation (setuid, sudoers, privileged groups)"),
    ]
    if pathlike and ("/" in low or "\\" in low or low.startswith(".") or low.strip() in ("crontab", "schtasks", "launchagents", "launchdaemons")):
        # os.path.join(home, "Library", "LaunchAgents", name): the start-up folder named as one path part
        out.append((K.PERSISTENCE, c.PERSISTENCE_PATH, Severity.HIGH if writes and strong else Severity.MEDIUM,
                    "Start-up, scheduler or login-key location (persistence)"))
    return out


def _looks_like_regex(s: str) -> bool:
    return "(?" in s or "\\s" in s or "\\b" in s or "\\." in s or "\\d" in s or "\\w" in s or ".*" in s or "[^" in s


def writes_files(node: ast.Call) -> bool:
    """Does this call write files or run commands (what turns a named persistence path into an act)?"""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    if name in ("write_text", "write_bytes", "symlink_to", "copy", "copyfile", "copy2", "symlink",
                "system", "run", "Popen", "call", "check_call", "check_output"):
        return True
    if name == "open":
        mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
        return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and bool(set(mode.value) & set("wa+"))
    return False


SECRET_WORDS = T.names("python", "sources", "secret_words")
BULK_SOURCES = ("glob", "rglob", "iglob", "listdir", "walk", "scandir", "iterdir")


def loop_shapes(flow) -> None:
    """Shapes of loops: secret-named environment variables harvested; processes forked, ports
    probed or files deleted inside a loop. Calls are placed in loops by line span, so nested
    loops cost no extra tree walks."""
    spans = []  # (start line, end line, iterates a directory listing)
    for node in flow.loops:
        if isinstance(node, ast.While):
            iters = []
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            iters = [node.iter]
        else:
            iters = [g.iter for g in node.generators]
        dotted = [_dotted_expr(it) for it in iters]
        if any(d.startswith("os.environ") for d in dotted):
            words = {n.value.lower() for n in walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            if words & SECRET_WORDS:
                flow.emit(K.SENSITIVE_READ, node, "Harvests every environment variable whose name looks like a secret",
                          Severity.MEDIUM, Confidence.MEDIUM, words=sorted(words & SECRET_WORDS))
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            bulk = any(d.rsplit(".", 1)[-1] in BULK_SOURCES for d in dotted)
            spans.append((node.lineno, node.end_lineno or node.lineno, bulk))
    if not spans:
        return
    done: set[str] = set()
    for name, call in flow.loop_calls:
        line = call.lineno
        inside = [bulk for a, b, bulk in spans if a <= line <= b]
        if not inside or name in done:
            continue
        if name == "connect_ex":
            flow.emit(K.RECON, call, "Probes many addresses or ports in a loop (network scan)", Severity.MEDIUM, Confidence.MEDIUM)
        elif name == "fork":
            flow.emit(K.DESTRUCTIVE, call, "Forks processes in a loop (fork bomb)", Severity.HIGH, Confidence.MEDIUM)
        elif any(inside):
            flow.emit(K.DESTRUCTIVE, call, "Deletes files in bulk from a directory listing", Severity.MEDIUM, Confidence.LOW)
        else:
            continue
        done.add(name if name in ("connect_ex", "fork") else "delete")
        if name not in ("connect_ex", "fork"):
            done.update(("unlink", "remove", "rmtree", "rmdir"))


def _dotted_expr(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        return _dotted_expr(node) + "." + ".".join(reversed(parts))
    return ".".join(reversed(parts))
