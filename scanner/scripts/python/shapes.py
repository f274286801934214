"""Host, network, injection and collection shapes of python.behaviour (one function a shape).

Each takes the Behaviour index (calls, strings, loops, dicts, ifs of one file, plus which
functions an agent's tool reaches and which names carry its arguments) and emits facts.
"""
from __future__ import annotations

import ast

from ...models import Confidence, Severity
from .. import common as c
from .. import fact_kinds as K
from . import behaviour_kinds as b
from . import reach as pr
from .walk import children, walk

_SCAN_WORDS = ("port", "subnet", "ip_range", "iprange", "cidr", "ip_network", "hosts(")  # in _label's text


def system_enumeration(x) -> None:
    """/etc/shadow or another process's environment anywhere; accounts, processes, mounts and
    hardware identifiers, or the whole environment walked, from code an agent's tool reaches."""
    if not any(g in x.text for g in ("/etc/", "/proc", "/sys/", "/dev/disk", "psutil", "pwd", "grp", "environ", "/var/lib")):
        return
    for node, s in x.strings:
        # A bare path in a list is more often a signature list (scanners, deny lists) than a read;
        # it counts only where an agent-callable tool is defined beside it.
        if s[:1] == "/" and b.STRONG_SYSTEM.search(s) and (id(node) not in x.listed or x.reach.tools):
            x.emit(K.SYSTEM_ENUM, node, "Reads a system secret store or another process's memory or environment",
                   Severity.MEDIUM, Confidence.MEDIUM, path=s.replace("\x00", "*")[:80])
    if not x.reach.tools:
        return
    from .. import facts_for

    if any(f.kind == K.RECON for f in facts_for(x.doc)):
        return  # IG717 already reports the survey as a whole
    for fn, node in x.reached_nodes():
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and b.WEAK_SYSTEM.search(node.value):
            x.emit(K.SYSTEM_ENUM, node, "An agent-callable tool reads host account, process, mount or hardware details",
                   Severity.MEDIUM, Confidence.LOW, path=node.value[:80], tool_reachable=True)
        elif isinstance(node, ast.JoinedStr):
            s = "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "0" for v in node.values)
            if b.WEAK_SYSTEM.search(s):
                x.emit(K.SYSTEM_ENUM, node, "An agent-callable tool reads host process or mount details",
                       Severity.MEDIUM, Confidence.LOW, path=s[:80], tool_reachable=True)
        elif isinstance(node, ast.Call) and (x.q(node) in b.SYSTEM_CALLS or _lists_proc(x, node)):
            x.emit(K.SYSTEM_ENUM, node, "An agent-callable tool enumerates the host's accounts, processes or disks",
                   Severity.MEDIUM, Confidence.LOW, call=x.q(node), tool_reachable=True)
        elif isinstance(node, (ast.For, ast.comprehension)) and _walks_environ(x, node.iter):
            x.emit(K.SYSTEM_ENUM, node.iter, "An agent-callable tool walks every environment variable of the host",
                   Severity.MEDIUM, Confidence.LOW, tool_reachable=True)


def _walks_environ(x, it: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and pr.dotted(n, x.imports) == "os.environ" for n in walk(it))


def _lists_proc(x, call: ast.Call) -> bool:
    return x.q(call) in ("os.listdir", "os.scandir", "glob.glob") and bool(call.args) and \
        isinstance(call.args[0], ast.Constant) and str(call.args[0].value).startswith("/proc")


def network_scan(x) -> None:
    """Network calls in a loop over ports, a subnet's hosts or a port-sized range; private
    address ranges written out beside network calls."""
    t = x.text
    if not any(g in t for g in ("socket", "requests", "httpx", "urllib", "aiohttp")):
        return
    netfuncs = None
    for loop in x.loops:
        if isinstance(loop, ast.While):
            continue
        it = loop.iter
        label = _label(it)
        big_range = isinstance(it, ast.Call) and pr.callee_name(it) == "range" and any(
            isinstance(a, ast.Constant) and isinstance(a.value, int) and 1000 <= a.value <= 70000 for a in it.args)
        if not (big_range or any(w in label for w in _SCAN_WORDS)):
            continue
        if netfuncs is None:
            netfuncs = x.net_funcs()
        body = loop.body if isinstance(loop, (ast.For, ast.AsyncFor)) else [_comp_owner(x, loop)]
        for st in body:
            if st is None:
                continue
            hit = next((n for n in walk(st) if isinstance(n, ast.Call) and (x.is_net(n) or pr.callee_name(n) in netfuncs)), None)
            if hit is not None:
                x.emit(K.NETWORK_SCAN, hit, "Connects to many ports or addresses in a loop (network scan)",
                       Severity.MEDIUM, Confidence.MEDIUM, iterates=label[:80])
                return
    _rebinding(x)
    if any(x.is_net(cl) for cl in x.calls):
        for node, s in x.strings:
            if s[:1].isdigit() and "/" in s and b.PRIVATE_CIDR.search(s):
                x.emit(K.NETWORK_SCAN, node, "Names a private address range beside network calls (internal network sweep)",
                       Severity.MEDIUM, Confidence.LOW, range=s)
                return


def _rebinding(x) -> None:
    """The same URL fetched twice around a sleep, outside any error handler: a DNS-rebinding
    probe (the name is re-resolved after its short TTL expires, now to an internal address)."""
    if "sleep" not in x.text:
        return
    for fn in x.defs:
        calls = x.fn_calls.get(id(fn), ())
        if len(calls) < 3 or not any(pr.callee_name(n) == "sleep" for n in calls) or sum(map(x.is_net, calls)) < 2:
            continue
        handlers = [(h.lineno, h.end_lineno or h.lineno) for h in walk(fn) if isinstance(h, ast.ExceptHandler)]
        fetches: dict[str, list[ast.Call]] = {}
        sleeps = []
        for n in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            if any(a <= n.lineno <= z for a, z in handlers):
                continue
            if pr.callee_name(n) == "sleep":
                sleeps.append(n.lineno)
            elif x.is_net(n) and n.args and not isinstance(n.args[0], ast.Constant):
                fetches.setdefault(ast.dump(n.args[0]), []).append(n)
        for same in fetches.values():
            if len(same) >= 2 and any(same[0].lineno < ln < same[-1].lineno for ln in sleeps):
                x.emit(K.NETWORK_SCAN, same[-1], "Fetches the same address twice around a pause (DNS rebinding towards internal services)",
                       Severity.MEDIUM, Confidence.LOW)
                return


def _label(node: ast.AST) -> str:
    """The names, attributes and calls of an expression, lower-cased: `scanner.ports` -> "scanner ports"."""
    out = []
    for n in walk(node):
        if isinstance(n, ast.Name):
            out.append(n.id)
        elif isinstance(n, ast.Attribute):
            out.append(n.attr)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            out.append(n.func.attr + "(")
    return " ".join(out).lower()


def _comp_owner(x, comp: ast.comprehension):
    for node in walk(x.tree):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and comp in node.generators:
            return node
    return None


def web_shell(x) -> None:
    """A PHP/JSP web shell carried as text; a web request parameter, or a tool argument matched
    against a magic string, that reaches exec, eval or a shell."""
    for node, s in x.strings:
        if "$_" in s or "getRuntime" in s or "<%" in s:
            if b.WEB_SHELL_TEXT.search(s):
                x.emit(K.WEB_SHELL, node, "Carries a web shell: a request parameter handed to eval/system",
                       Severity.MEDIUM, Confidence.HIGH)
                return
    if "request" in x.text:
        for fn in x.defs:
            if id(fn) not in x.request_fns:
                continue
            tainted = pr.request_tainted(fn)
            for n in walk(fn):
                if isinstance(n, ast.Call) and x.q(n) in b.EXEC_SINKS and n.args and \
                        (pr.names_in(n.args[0]) & tainted or pr.is_request_read(n.args[0])):
                    x.emit(K.WEB_SHELL, n, "A web request parameter reaches exec/eval or a shell (web shell)",
                           Severity.MEDIUM, Confidence.MEDIUM, sink=x.q(n))
                    return
    for node in x.ifs:
        if not _magic_test(x, node.test):
            continue
        sink = next((n for st in node.body for n in walk(st) if isinstance(n, ast.Call) and x.q(n) in b.EXEC_SINKS), None)
        if sink is not None:
            x.emit(K.WEB_SHELL, sink, "A secret trigger string unlocks command or code execution (backdoor)",
                   Severity.MEDIUM, Confidence.MEDIUM, sink=x.q(sink))
            return


def _magic_test(x, test: ast.AST) -> bool:
    """`arg == "s3cr3t"`, `"trigger" in arg`, `arg.startswith("!!")` on a tool argument."""
    tainted = set()
    for fn in x.reach.reached_defs():
        if fn.lineno <= test.lineno <= (fn.end_lineno or fn.lineno):
            tainted |= x.reach.tainted.get(id(fn), set())
    if not tainted:
        return False
    for n in walk(test):
        if isinstance(n, ast.Compare) and isinstance(n.ops[0], (ast.Eq, ast.In)):
            sides = [n.left] + n.comparators
            if any(isinstance(s, ast.Constant) and isinstance(s.value, str) and len(s.value) >= 4 for s in sides) and \
                    any(pr.names_in(s) & tainted for s in sides):
                return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("startswith", "endswith") and \
                pr.names_in(n.func.value) & tainted and n.args and isinstance(n.args[0], ast.Constant):
            return True
    return False


def query_injection(x) -> None:
    """An LDAP filter with values pasted in unescaped; a MongoDB query taking `$where`
    code or a whole JSON document from the caller."""
    t = x.text
    if "ldap" in x.low_text and "escape_filter" not in t:
        for node, s in x.strings:
            if "\x00" in s and b.LDAP_FILTER.search(s):
                x.emit(K.QUERY_INJECTION, node, "Builds an LDAP filter by pasting values in without escaping (LDAP injection)",
                       Severity.MEDIUM, Confidence.MEDIUM)
                break
    if "$where" in t or "mongo" in x.low_text:
        for d in x.dicts:
            for k, v in zip(d.keys, d.values):
                if isinstance(k, ast.Constant) and k.value in ("$where", "$function", "$accumulator") and not isinstance(v, ast.Constant):
                    x.emit(K.QUERY_INJECTION, d, "Runs JavaScript built at run time inside a MongoDB query ($where)",
                           Severity.MEDIUM, Confidence.MEDIUM)
                    return
        if "mongo" in x.low_text:
            _mongo_operator_injection(x)


def _mongo_operator_injection(x) -> None:
    """A caller's JSON document (json.loads of a non-literal) handed to or merged into a query,
    or a caller's value used as a `$regex`, lets the caller add operators of their own."""
    parsed: set[str] = set()  # names holding json.loads(<not a literal>)
    for fn in x.defs:
        for n in walk(fn):
            if isinstance(n, ast.Assign) and _loads_input(x, n.value):
                parsed |= {tg.id for tg in n.targets if isinstance(tg, ast.Name)}
    for cl in x.calls:
        if isinstance(cl.func, ast.Attribute) and cl.func.attr in _QUERY_METHODS and cl.args:
            a = cl.args[0]
            if _loads_input(x, a) or (isinstance(a, ast.Name) and a.id in parsed):
                x.emit(K.QUERY_INJECTION, cl, "Merges a caller-supplied JSON document into a MongoDB query (operator injection)",
                       Severity.MEDIUM, Confidence.MEDIUM)
                return
    for d in x.dicts:
        for k, v in zip(d.keys, d.values):
            if isinstance(k, ast.Constant) and k.value == "$regex" and isinstance(v, (ast.Name, ast.Attribute, ast.Subscript)):
                x.emit(K.QUERY_INJECTION, d, "Uses a caller's text as a MongoDB $regex without escaping (query and ReDoS injection)",
                       Severity.MEDIUM, Confidence.LOW)
                return


_QUERY_METHODS = frozenset({"update", "find", "find_one", "aggregate", "delete_many", "delete_one", "update_many", "count_documents"})


def _loads_input(x, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and x.q(node) in ("json.loads", "bson.json_util.loads") and bool(node.args) and \
        not isinstance(node.args[0], ast.Constant)


def path_traversal(x) -> None:
    """A tool argument joined into a path and opened, listed or deleted, in a file that never
    normalises a path or checks it against a base folder."""
    if any(g in x.text for g in b.PATH_GUARDS):
        return
    if not x.reach.tools:
        _confined_in_name_only(x)
        return
    for fn in x.reach.reached_defs():
        tainted = x.reach.tainted.get(id(fn), set())
        if not tainted:
            continue
        for n in walk(fn):
            if not isinstance(n, ast.Call):
                continue
            q = x.q(n)
            arg = n.args[0] if n.args else None
            if q in b.FILE_SINKS and arg is not None and pr.names_in(arg) & tainted:
                pass
            elif isinstance(n.func, ast.Attribute) and n.func.attr in b.PATH_METHODS and pr.names_in(n.func.value) & tainted:
                pass
            else:
                continue
            x.emit(K.PATH_TRAVERSAL, n, "A tool argument is used as a file path with no normalisation or base-folder check (path traversal)",
                   Severity.MEDIUM, Confidence.MEDIUM, sink=q)
            return


def _confined_in_name_only(x) -> None:
    """A function's parameter appended to a fixed absolute folder (`os.path.join("/srv/docs", name)`,
    `f"/etc/app/{name}"`) and opened: the folder says the caller is meant to stay inside it, and
    nothing checks that `name` does not climb out with `../`."""
    for fn in x.defs:
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs} - {"self", "cls"}
        if not params:
            continue
        calls = [cl for cl in x.fn_calls.get(id(fn), ()) if cl.args and pr.callee_name(cl) == "open" and x.q(cl) in ("open", "io.open")]
        if not calls:
            continue
        held = {t.id for n in walk(fn) if isinstance(n, ast.Assign) for t in _assign_targets(n) if _under_fixed_base(x, n.value, params)}
        for cl in calls:
            arg = cl.args[0]
            if _under_fixed_base(x, arg, params) or (isinstance(arg, ast.Name) and arg.id in held):
                x.emit(K.PATH_TRAVERSAL, cl, "Opens a path made of a fixed folder and a parameter, never checked for ../ (path traversal)",
                       Severity.MEDIUM, Confidence.LOW, sink=x.q(cl))
                return


def _assign_targets(st: ast.stmt) -> list:
    return [t for t in st.targets if isinstance(t, ast.Name)] if isinstance(st, ast.Assign) else []


def _under_fixed_base(x, node: ast.AST, params: set[str]) -> bool:
    if isinstance(node, ast.JoinedStr) and node.values:
        head = node.values[0]
        return isinstance(head, ast.Constant) and isinstance(head.value, str) and head.value.startswith("/") and \
            any(isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name) and v.value.id in params for v in node.values)
    if isinstance(node, ast.Call) and x.q(node) in ("os.path.join", "posixpath.join") and len(node.args) >= 2:
        base = node.args[0]
        fixed = isinstance(base, ast.Constant) and isinstance(base.value, str) and base.value.startswith("/")
        if isinstance(base, ast.Name):  # base_dir = "/home/user/documents" earlier in the function
            fixed = x.local_consts(base.id)
        return fixed and any(isinstance(a, ast.Name) and a.id in params for a in node.args[1:])
    return False


def hidden_collection(x) -> None:
    """A tool that posts its arguments to a fixed outside URL and ignores the answer: the
    caller's data is collected, not used, and the tool's description does not say so."""
    if not x.reach.tools or not any(g in x.text for g in ("requests", "httpx", "urllib")):
        return
    disclosed = " ".join(x.reach.docstrings).lower()
    ctx_hosts = getattr(x.doc, "context", None) or {}
    ctx_hosts = set(ctx_hosts.get("skill_hosts", ()) if isinstance(ctx_hosts, dict) else ())
    hosts = set()
    first = None
    for fn in x.reach.reached_defs():
        tainted = x.reach.tainted.get(id(fn), set())
        for st in walk(fn):
            if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)):
                continue
            cl = st.value
            q = x.q(cl)
            if not (q.startswith(("requests.", "httpx.")) and q.rsplit(".", 1)[-1] in b.SEND_ATTRS) or not cl.args:
                continue
            url = cl.args[0]
            if not (isinstance(url, ast.Constant) and isinstance(url.value, str) and url.value.startswith("http")):
                continue
            payload = [kw.value for kw in cl.keywords if kw.arg in ("json", "data", "params", "files")]
            if not payload or not any(pr.names_in(p) & tainted for p in payload):
                continue
            host = c.host_of(url.value)
            if not host or host in ctx_hosts or host in disclosed or host.split(".")[-2:][0] in disclosed:
                continue
            hosts.add(host)
            first = first or cl
    if first is not None:
        x.emit(K.HIDDEN_COLLECTION, first, "An agent-callable tool posts its data to an outside service its description does not name, and ignores the reply",
               Severity.MEDIUM, Confidence.LOW, hosts=sorted(hosts)[:5])


_PASSWORD_WORDS = ("password", "passwd", "passphrase", "pass_word")
_STORE_METHODS = frozenset({"append", "extend", "update", "add", "insert", "setdefault"})


def credential_hoarding(x) -> None:
    """A tool handed a password keeps it in module-level state (`LOG.append({... password})`),
    where it outlives the call and every later tool can read it."""
    if not x.reach.tools or not any(w in x.low_text for w in _PASSWORD_WORDS):
        return
    module_names = {tg.id for st in x.tree.body if isinstance(st, (ast.Assign, ast.AnnAssign))
                    for tg in (st.targets if isinstance(st, ast.Assign) else [st.target]) if isinstance(tg, ast.Name)}
    for fn in x.reach.tools:
        secrets = {p for p in x.reach.tainted.get(id(fn), set()) if any(w in p.lower() for w in _PASSWORD_WORDS)}
        if not secrets:
            continue
        for n in walk(fn):
            target = value = None
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _STORE_METHODS:
                target, value = n.func.value, ast.Tuple(elts=list(n.args), ctx=ast.Load())
            elif isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript):
                target, value = n.targets[0].value, n.value
            if isinstance(target, ast.Name) and target.id in module_names and _kept_names(value) & secrets:
                x.emit(K.CREDENTIAL_HOARD, n, "A tool stores the password it is given in module-level state",
                       Severity.MEDIUM, Confidence.MEDIUM, store=target.id)
                return


def _kept_names(node: ast.AST) -> set[str]:
    """Names whose value is stored as is: arguments of calls (check(user, password)) are used, not kept."""
    out, stack = set(), [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Call):
            continue
        else:
            stack.extend(children(n))
    return out


_CLAIMS_CRYPTO = ("encrypt", "aes", "cipher", "pbkdf2", "rsa-", "rsa ", "chacha")
_CRYPTO_MODULES = ("cryptography", "Crypto", "Cryptodome", "nacl", "pyaes", "gnupg", "pgpy", "age", "jwcrypto", "jose",
                   "tink", "fernet", "M2Crypto", "OpenSSL", "ssl", "hashlib.pbkdf2_hmac", "hashlib.scrypt", "boto3", "kms")


def fake_security(x) -> None:
    """A tool whose description promises encryption while the file has no cryptography at all:
    the data the user believes protected is only encoded (base64) or hashed."""
    if not x.reach.tools or "base64" not in x.text:
        return
    if any(m.split(".")[0] in _CRYPTO_MODULES or m in _CRYPTO_MODULES for m in x.imports.values()):
        return
    if any(w in x.text for w in ("subprocess", "gpg", "openssl", "pbkdf2_hmac", "scrypt")):
        return
    for fn in x.reach.tools:
        doc = (ast.get_docstring(fn) or "").lower()
        if any(w in doc for w in _CLAIMS_CRYPTO) and any(x.q(cl).startswith("base64.") and "encode" in x.q(cl)
                                                           for cl in x.calls):
            x.emit(K.FAKE_SECURITY, fn.body[0], "A tool's description promises encryption but the file only base64-encodes; no cipher is used",
                   Severity.MEDIUM, Confidence.LOW, tool=fn.name)
            return
