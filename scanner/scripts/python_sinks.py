"""What happens when a value reaches a dangerous Python call: the facts the flow reports."""
from __future__ import annotations

import ast

from ..models import Confidence, Severity
from . import common as c
from . import python_api as api
from .python_consts import const_str
from .python_flow import CAPTURE, CRED, DEC, DL, ENVDUMP, HOST, SECRET

SECRET_NAME = "secret-name:"
_GENERIC_PARTS = {"api", "key", "token", "secret", "access", "auth", "private", "password", "client", "bot", "app", "the"}


def _own_service(env_name: str, url: str) -> bool:
    host = c.host_of(url)
    parts = [p for p in env_name.lower().split("_") if len(p) >= 3 and p not in _GENERIC_PARTS]
    return bool(host) and bool(parts) and any(p in host for p in parts)

EXEC, SHELL, NETWORK, DESER, IMPORT = "exec", "shell", "network", "deserialize", "import"


def check_call(scope, node: ast.Call, q: str, arg_t: list, kw_t: dict, all_t: frozenset[str]) -> None:
    first = node.args[0] if node.args else None
    first_t = arg_t[0] if arg_t else frozenset()
    if q in api.EXEC_SINKS:
        scope.sink(EXEC, node, first_t, q)
        if first is not None and not (first_t & {DL, DEC}) and const_str(first, scope.lookup) is None:
            scope.flow.emit(c.DYNAMIC_EXEC, node, f"{q}() runs code computed at run time", Severity.MEDIUM, Confidence.MEDIUM, call=q)
    elif q in api.IMPORT_SINKS:
        scope.sink(IMPORT, node, first_t, q)
        if first is not None and const_str(first, scope.lookup) is None and not (first_t & {DL, DEC}):
            scope.flow.emit(c.DYNAMIC_EXEC, node, f"{q}() imports a module named at run time", Severity.LOW, Confidence.MEDIUM, call=q)
    elif api.is_shell_call(q):
        _shell_call(scope, node, q, first, first_t, kw_t)
    elif q in api.DESERIALIZERS or q in api.DESERIALIZERS_IF_REMOTE:
        scope.sink(DESER, node, all_t, q)
        safe_yaml = q == "yaml.load" and any(k.arg == "Loader" and "Safe" in ast.dump(k.value) for k in node.keywords)
        if q in api.DESERIALIZERS and not safe_yaml and not (all_t & {DL, DEC}):
            scope.flow.emit(c.DESERIALIZE, node, f"{q}() can run code hidden in the data it loads", Severity.MEDIUM, Confidence.MEDIUM, call=q)
    if q and api.is_network(q):
        url = const_str(first, scope.lookup) or const_str(_kw(node, "url"), scope.lookup) or ""
        # A token in an auth header is how APIs are called; it matters only on a raw IP or paste host.
        body_t = frozenset().union(*arg_t, *(t for name, t in kw_t.items() if name not in ("headers", "auth", "cookies")))
        if c.host_risk(url) in ("ip", "paste"):
            body_t = all_t
        scope.sink(NETWORK, node, body_t, q, url=url)
    if q in ("os.chmod", "os.lchmod", "os.fchmod", "pathlib.Path.chmod") or (isinstance(node.func, ast.Attribute) and node.func.attr == "chmod"):
        mode = node.args[1] if len(node.args) > 1 else (node.args[0] if node.args and q.endswith("Path.chmod") else None)
        if isinstance(mode, ast.Constant) and isinstance(mode.value, int) and mode.value & 0o6000:
            scope.flow.emit(c.PRIVILEGE, node, "Sets the setuid/setgid bit on a file", Severity.HIGH, Confidence.HIGH, call=q)
    if q in ("os.setuid", "os.seteuid", "os.setreuid") and first is not None and isinstance(first, ast.Constant) and first.value == 0:
        scope.flow.emit(c.PRIVILEGE, node, "Switches the process to root", Severity.MEDIUM, Confidence.MEDIUM, call=q)
    if q in ("shutil.rmtree", "os.removedirs") and first is not None:
        target = const_str(first, scope.lookup)
        if target is not None and target.rstrip("/") in ("", "~", "/home", "/etc", "/usr", "$HOME", "C:\\", "C:"):
            scope.flow.emit(c.DESTRUCTIVE, node, f"Deletes {target or '/'} recursively", Severity.HIGH, Confidence.HIGH, call=q)


def _param_only(t: frozenset[str]) -> bool:
    return bool(t) and all(p.startswith("param:") for p in t)


def _kw(node: ast.Call, name: str) -> ast.AST | None:
    for k in node.keywords:
        if k.arg == name:
            return k.value
    return None


def _shell_call(scope, node: ast.Call, q: str, first, first_t: frozenset[str], kw_t: dict) -> None:
    shell_kw = _kw(node, "shell")
    uses_shell = q in api.SHELL_ALWAYS or (isinstance(shell_kw, ast.Constant) and bool(shell_kw.value))
    text = _command_text(scope, first)
    scope.sink(SHELL, node, first_t | kw_t.get("input", frozenset()), q)
    if text is not None:
        from .shell_flow import analyze_text

        for f in analyze_text(text, getattr(scope.flow.doc, "context", None) or {}):
            scope.flow.emit(f.kind, node, f"{f.message} (command run by {q})", f.severity, f.confidence,
                            url=f.properties.get("url", ""), embedded_shell=text[:200])
        argv0 = text.split(None, 1)[0].rsplit("/", 1)[-1] if text.strip() else ""
        if argv0 in ("curl", "wget", "nc", "ncat", "scp") and first_t & {CRED, SECRET, ENVDUMP}:
            scope.flow.emit(c.CRED_EXFIL, node, f"Credential data handed to {argv0}", Severity.CRITICAL, Confidence.MEDIUM)
    elif uses_shell and first is not None and not (first_t & {DL, DEC}):
        scope.flow.emit(c.SHELL_INJECTION, node, f"{q}() runs a command string built at run time through a shell",
                        Severity.MEDIUM, Confidence.MEDIUM, call=q)


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
            emit(c.REMOTE_EXEC, node, f"Downloaded content reaches {name}(){via}", Severity.CRITICAL, Confidence.HIGH,
                 url=url, sink=name, sources=sorted(t & {DL, DEC}))
        elif DEC in t and kind != DESER:
            emit(c.DECODE_EXEC, node, f"Decoded (base64/hex/compressed) content reaches {name}(){via}", Severity.CRITICAL,
                 Confidence.HIGH, sink=name)
        elif DEC in t:
            emit(c.DECODE_EXEC, node, f"Decoded content is deserialised by {name}(){via}", Severity.HIGH, Confidence.MEDIUM, sink=name)
    elif kind == NETWORK:
        if t & {CRED, SECRET}:
            what = "credential file" if CRED in t else "secret environment variable"
            names = sorted(p[len(SECRET_NAME):] for p in t if p.startswith(SECRET_NAME))
            sev = Severity.CRITICAL
            if CRED not in t and names and url and all(_own_service(n, url) for n in names):
                sev = Severity.MEDIUM  # OPENAI_API_KEY sent to api.openai.com: the key's own service
            emit(c.CRED_EXFIL, node, f"A {what} reaches a network call ({name}){via}", sev, Confidence.HIGH,
                 url=url, sink=name, sources=sorted(t & {CRED, SECRET}), secrets=names,
                 **({"lowered-because": ["secret sent to the service it belongs to"]} if sev < Severity.CRITICAL else {}))
        elif ENVDUMP in t:
            emit(c.CRED_EXFIL, node, f"The whole process environment reaches a network call ({name}){via}", Severity.HIGH,
                 Confidence.HIGH, url=url, sink=name)
        elif CAPTURE in t:
            emit(c.HOST_DATA_EXFIL, node, f"Captured keystrokes, clipboard or screen reach a network call ({name}){via}",
                 Severity.HIGH, Confidence.HIGH, url=url, sink=name)
        elif HOST in t and url:
            emit(c.HOST_DATA_EXFIL, node, f"Host details (user, host name, files) are sent to a fixed address ({name}){via}",
                 Severity.MEDIUM, Confidence.LOW, url=url, sink=name)


# -- shapes named by the strings a script carries --------------------------------------------------
def constant_shapes(flow) -> None:
    """Persistence, cloud-metadata, defence-evasion, privilege and sensitive-file shapes in string constants."""
    docstrings = _docstring_ids(flow.tree)
    writes = _writes_files(flow.tree)
    flow.emit_on = True
    seen: set[tuple[str, str]] = set()
    for node in ast.walk(flow.tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docstrings:
            continue
        s = node.value
        if len(s) > 400:
            continue
        low = s.lower()
        for kind, test, sev, msg in (
            (c.CLOUD_METADATA, c.CLOUD_METADATA_HOST, Severity.HIGH, "Cloud instance-metadata endpoint (instance credentials)"),
            (c.PERSISTENCE, c.PERSISTENCE_PATH, Severity.HIGH if writes else Severity.MEDIUM, "Start-up, scheduler or login-key location (persistence)"),
            (c.DEFENSE_EVASION, c.EVASION_TEXT, Severity.MEDIUM, "Log, history, debugger or sandbox tampering (defence evasion)"),
            (c.DESTRUCTIVE, c.DESTRUCTIVE_TEXT, Severity.HIGH, "Destroys the file system or machine"),
            (c.PRIVILEGE, c.PRIVILEGE_TEXT, Severity.MEDIUM, "Privilege escalation (setuid, sudoers, privileged groups)"),
        ):
            if test.test(s) and (kind, low) not in seen:
                seen.add((kind, low))
                flow.emit(kind, node, msg, sev, Confidence.MEDIUM, value=s[:120])
        if s.count(" ") <= 3 and c.is_strong_credential_path(s) and (c.SENSITIVE_READ, low) not in seen:
            seen.add((c.SENSITIVE_READ, low))
            flow.emit(c.SENSITIVE_READ, node, "Names a credential store or system secret file", Severity.MEDIUM, Confidence.MEDIUM, value=s[:120])


def _docstring_ids(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for st in body:
                if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
                    ids.add(id(st.value))
    return ids


def _writes_files(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in ("write_text", "write_bytes", "symlink_to", "copy", "copyfile", "copy2", "symlink"):
                return True
            if name == "open" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) and set(node.args[1].value) & set("wa+"):
                return True
            if name == "open" and any(k.arg == "mode" and isinstance(k.value, ast.Constant) and set(str(k.value.value)) & set("wa+") for k in node.keywords):
                return True
            if name in ("system", "run", "Popen", "call", "check_call", "check_output"):
                return True
    return False
