"""One scope (module body or one function) of the Python flow analysis, in statement order."""
from __future__ import annotations

import ast

from ... import hosts as H
from ...models import Confidence, Severity
from .. import common as c
from .. import fact_kinds as K
from . import api
from .consts import const_str
from .taint import _MUTATORS, CAPTURE, CRED, DEC, DL, EMPTY, ENVDUMP, FILE, HOST, REAL_SOURCES, SAVED, SECRET, UNTRUSTED, Summary
from .sinks import _built_string, _publishes, check_call, sink_outcome, untrusted_outcome
from .walk import children

_MAX_DEPTH = 60  # expression nesting we follow; deeper is left alone (ast.parse caps nesting too)
# Method names too common to map onto a same-named local function when the receiver is unknown.
_COMMON_METHODS = frozenset({
    "get", "set", "run", "read", "write", "format", "join", "append", "update", "items", "keys", "values", "open",
    "close", "send", "post", "put", "execute", "render", "load", "loads", "dump", "dumps", "start", "stop", "call",
    "main", "process", "handle", "parse", "encode", "decode", "copy", "pop", "add", "remove", "delete", "connect",
})
# Node types read on every expression, bound once (a module global is one lookup, ast.X two).
_Constant, _Name, _Call, _Attribute, _Subscript = ast.Constant, ast.Name, ast.Call, ast.Attribute, ast.Subscript


class Scope:
    def __init__(self, flow, env: dict, strs: dict, fn) -> None:
        self.flow = flow
        self.env: dict[str, frozenset[str]] = env
        self.strs: dict[str, str] = strs
        self.lookup = strs.get  # const_str's name -> known string (strs is never rebound)
        self.types: dict[str, str] = {}
        self.refs: dict[str, str] = {}
        self.fn = fn
        self.returns: frozenset[str] = EMPTY
        self.loops = 0
        self.tool = False  # an MCP/agent tool: what it returns goes to the model
        self.built: set[str] = set()  # names holding strings put together at run time
        self.param_sinks: dict[int, set[str]] = {}
        self.param_urls: dict[int, str] = {}
        self.param_url_args: dict[int, int] = {}  # parameter -> the parameter holding the URL it is sent to
        self.open_files: dict[str, ast.AST] = {}  # name of a file opened for writing -> the path it was opened on
        self.filled: set[int] = set()  # parameters naming a file this function fills with downloaded bytes

    # -- statements ----------------------------------------------------------------------
    def block(self, body: list[ast.stmt]) -> None:
        stmt = self.stmt
        for st in body:
            stmt(st)

    def stmt(self, st: ast.stmt) -> None:
        tp = type(st)  # parse() builds exact node types: identity tests, not isinstance chains
        if tp is ast.Expr:  # the commonest statement: a call whose value is dropped
            self.expr(st.value)
            return
        if tp is ast.FunctionDef or tp is ast.AsyncFunctionDef:
            for d in st.decorator_list:
                self.expr(d)
            return
        if tp is ast.ClassDef:
            for s in st.body:  # class attributes live with self.x
                if isinstance(s, (ast.Assign, ast.AnnAssign)) and self.fn is None:
                    value = s.value
                    t = self.expr(value) if value is not None else EMPTY
                    for tgt in (s.targets if isinstance(s, ast.Assign) else [s.target]):
                        if isinstance(tgt, ast.Name):
                            self._bind_attr(tgt.id, value, t)
            return
        if tp is ast.Assign:
            t = self.expr(st.value)
            for tgt in st.targets:
                self.bind(tgt, st.value, t)
        elif tp is ast.AugAssign:
            t = self.expr(st.value) | self.expr(st.target)
            self.bind(st.target, None, t)
        elif tp is ast.AnnAssign:
            if st.value is not None:
                self.bind(st.target, st.value, self.expr(st.value))
        elif tp is ast.For or tp is ast.AsyncFor:
            self.bind(st.target, None, self.expr(st.iter))
            self.loops += 1
            self.block(st.body)
            if self.loops == 1:
                self.block(st.body)  # outermost loop, a second time: values assigned late reach its start
            self.loops -= 1
            self.block(st.orelse)
        elif tp is ast.While:
            self.expr(st.test)
            self.block(st.body)
            self.block(st.orelse)
        elif tp is ast.If:
            self.expr(st.test)
            self.block(st.body)
            self.block(st.orelse)
        elif tp is ast.With or tp is ast.AsyncWith:
            for item in st.items:
                t = self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, item.context_expr, t)
            self.block(st.body)
        elif tp is ast.Try or tp.__name__ == "TryStar":
            self.block(st.body)
            for h in st.handlers:
                self.block(h.body)
            self.block(st.orelse)
            self.block(st.finalbody)
        elif tp is ast.Return:
            t = self.expr(st.value)
            self.returns |= t
            if self.tool and t & {ENVDUMP, SECRET, CRED}:
                what = "the whole environment" if ENVDUMP in t else ("credential file contents" if CRED in t else "a secret environment variable")
                self.flow.emit(K.SENSITIVE_READ, st, f"An agent tool hands {what} back to the model (and its transcript)",
                               Severity.MEDIUM, Confidence.MEDIUM)
        elif tp is ast.Match:
            self.expr(st.subject)
            for case in st.cases:
                self.block(case.body)
        else:
            for child in children(st):
                if isinstance(child, ast.expr):
                    self.expr(child)

    def bind(self, tgt: ast.AST, value: ast.AST | None, t: frozenset[str]) -> None:
        if isinstance(tgt, ast.Name):
            self.env[tgt.id] = t
            if value is not None:
                if _built_string(value):
                    self.built.add(tgt.id)
                else:
                    self.built.discard(tgt.id)
            s = const_str(value, self.lookup) if value is not None else None
            if s is not None:
                self.strs[tgt.id] = s
            else:
                self.strs.pop(tgt.id, None)
            if isinstance(value, ast.Call):
                ref = self.qualname(value)  # getattr(os, "system"), __import__("os")
                q = self.qualname(value.func)
                if q in _OPENERS and value.args and _write_mode(value):
                    self.open_files[tgt.id] = value.args[0]
                elif q == "os.fdopen" and value.args and type(value.args[0]) is _Name and value.args[0].id in self.open_files:
                    self.open_files[tgt.id] = self.open_files[value.args[0].id]  # os.fdopen(fd, "wb") of mkstemp's fd
                else:
                    self.open_files.pop(tgt.id, None)
                if ref and q in ("getattr", "__import__", "importlib.import_module"):
                    self.refs[tgt.id] = ref
                elif q and api.CONSTRUCTOR_ALIASES.get(q, q) in api.TRACKED_TYPES:
                    self.types[tgt.id] = api.CONSTRUCTOR_ALIASES.get(q, q)
                else:
                    self.types.pop(tgt.id, None)
            elif value is not None:
                ref = self.qualname(value) if isinstance(value, (ast.Name, ast.Attribute, ast.Subscript)) else ""
                if ref:
                    self.refs[tgt.id] = ref
        elif isinstance(tgt, (ast.Tuple, ast.List)):
            for e in tgt.elts:
                self.bind(e, None, t)
            if isinstance(value, ast.Call) and len(tgt.elts) == 2 and all(type(e) is _Name for e in tgt.elts) \
                    and self.qualname(value.func) in _TEMP_DESCRIPTORS:
                self.open_files[tgt.elts[0].id] = tgt.elts[1]  # fd, path = mkstemp(): what fd is written with lands at path
        elif isinstance(tgt, ast.Starred):
            self.bind(tgt.value, None, t)
        elif isinstance(tgt, ast.Attribute):
            if isinstance(tgt.value, ast.Name) and tgt.value.id in ("self", "cls"):
                self._bind_attr(tgt.attr, value, t)
                if isinstance(value, ast.Call):
                    q = self.qualname(value.func)
                    if q and api.CONSTRUCTOR_ALIASES.get(q, q) in api.TRACKED_TYPES:
                        self.flow.attr_types[tgt.attr] = api.CONSTRUCTOR_ALIASES.get(q, q)
            else:
                self._merge_into(tgt.value, t)
        elif isinstance(tgt, ast.Subscript):
            self._merge_into(tgt.value, t)

    def _bind_attr(self, name: str, value: ast.AST | None, t: frozenset[str]) -> None:
        self.flow.attrs[name] = self.flow.attrs.get(name, EMPTY) | t
        s = const_str(value, self.lookup) if value is not None else None
        if s is not None:
            self.flow.attr_strs[name] = s

    def _merge_into(self, container: ast.AST, t: frozenset[str]) -> None:
        # down the chain to what owns it: `s.headers["X"] = v` and `self.s.headers["X"] = v` put v
        # into the session s / self.s, whose later requests carry it
        for _ in range(6):
            if isinstance(container, ast.Name):
                self.env[container.id] = self.env.get(container.id, EMPTY) | t
                return
            if isinstance(container, ast.Attribute) and isinstance(container.value, ast.Name) and container.value.id in ("self", "cls"):
                self.flow.attrs[container.attr] = self.flow.attrs.get(container.attr, EMPTY) | t
                return
            if not isinstance(container, (ast.Attribute, ast.Subscript)):
                return
            container = container.value

    # -- names -----------------------------------------------------------------------------
    def qualname(self, node: ast.AST, depth: int = 0) -> str:
        """Dotted name of what an expression refers to, through imports, aliases and getattr."""
        if depth > 12:
            return ""
        tp = type(node)  # parse() builds exact node types: identity tests, not isinstance chains
        if tp is _Name:  # every value stored in refs, types and imports is non-empty
            n = node.id
            return self.refs.get(n) or self.types.get(n) or self.flow.imports.get(n) or n
        if tp is _Attribute:
            if node.attr in self.flow.attr_types and type(node.value) is _Name and node.value.id in ("self", "cls"):
                return self.flow.attr_types[node.attr]
            base = self.qualname(node.value, depth + 1)
            return api.normalize(f"{base}.{node.attr}") if base else ""
        if tp is _Call:
            f = self.qualname(node.func, depth + 1)
            if f == "getattr" and len(node.args) >= 2:
                attr = const_str(node.args[1], self.lookup)
                base = self.qualname(node.args[0], depth + 1)
                if attr and base:
                    return api.normalize(f"{base}.{attr}")
                return ""
            if f in ("__import__", "importlib.import_module") and node.args:
                return const_str(node.args[0], self.lookup) or ""
            if f in ("globals", "locals", "vars") and not node.args:
                return "builtins"
            f = api.CONSTRUCTOR_ALIASES.get(f, f)  # boto3.session.Session() is a boto3.Session, get_session() a botocore Session
            return f if f in api.CONSTRUCTOR_ALIASES.values() else ""
        if tp is _Subscript:
            base = self.qualname(node.value, depth + 1)
            key = const_str(node.slice, self.lookup)
            if key and base in ("builtins", "__builtins__", "builtins.__dict__", "__builtins__.__dict__", "sys.modules"):
                return api.normalize(key if base != "sys.modules" else key)
            return ""
        return ""

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.AST | None, depth: int = 0) -> frozenset[str]:
        if node is None or depth > _MAX_DEPTH:
            return EMPTY
        d = depth + 1
        tp = type(node)  # parse() builds exact node types: identity tests before isinstance chains
        if tp is _Constant:
            v = node.value
            if type(v) is str and len(v) < 300 and id(node) not in self.flow.cred_clear and c.is_credential_path(v):
                return _cred(v)
            return EMPTY
        if tp is _Name:  # qualname() of a Name, inlined (the commonest expression; every value stored is non-empty)
            n = node.id
            if (self.refs.get(n) or self.types.get(n) or self.flow.imports.get(n) or n) == "os.environ":
                return frozenset({ENVDUMP})
            return self.env.get(n, EMPTY)
        if tp is _Call:
            return self.call(node, d)
        if tp is _Attribute:
            q = self.qualname(node)
            if q in ("os.environ", "os.environb"):
                return frozenset({ENVDUMP})
            if q in api.UNTRUSTED_VALUES:
                return frozenset({UNTRUSTED})
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                return self.flow.attrs.get(node.attr, EMPTY)
            return self.expr(node.value, d) | self.flow.attrs.get(node.attr, EMPTY)
        if tp is _Subscript:
            if self.qualname(node.value) in ("os.environ", "os.environb"):
                key = const_str(node.slice, self.lookup)
                if key is None and _listed_secret_names(self.flow):
                    return frozenset({SECRET, "secret-name:*listed*"})  # os.environ[name] over a list of secret names
                if key is None and DEC in self.expr(node.slice, d):
                    return _HIDDEN_NAMES  # os.environ[name] over names the script decodes: which variables it reads is hidden
                return frozenset({SECRET, "secret-name:" + key}) if key and c.is_secret_env_name(key) else EMPTY
            return self.expr(node.value, d) | self.expr(node.slice, d)
        t = EMPTY
        if tp is ast.BinOp or tp is ast.JoinedStr:
            s = const_str(node, self.lookup)
            if s is not None and len(s) < 300 and c.is_credential_path(s):
                t = _cred(s)
        if tp is ast.Lambda:
            return t | self.expr(node.body, d)
        kids = _KIDS.get(tp)  # the commonest compound expressions, without the generic field walk
        if kids is not None:
            for child in kids(node):
                if child is not None:
                    t |= self.expr(child, d)
            return t
        for child in children(node):
            if isinstance(child, ast.comprehension):
                it = self.expr(child.iter, d)
                self.bind(child.target, None, it)
                t |= it
                for cond in child.ifs:
                    self.expr(cond, d)
            elif isinstance(child, ast.expr):
                t |= self.expr(child, d)
            elif isinstance(child, ast.keyword):
                t |= self.expr(child.value, d)
        return t

    def call(self, node: ast.Call, depth: int) -> frozenset[str]:
        func = node.func
        if type(func) is _Name:  # qualname() of a Name, inlined (every value stored is non-empty)
            n = func.id
            q = self.refs.get(n) or self.types.get(n) or self.flow.imports.get(n) or n
            attr = ""
        else:
            q = self.qualname(func)
            attr = func.attr if type(func) is _Attribute else ""
        expr, args, keywords = self.expr, node.args, node.keywords
        # Empty argument lists skip the comprehensions (each is a function call of its own).
        arg_t = [expr(a, depth) for a in args] if args else []
        kw_t = {k.arg: expr(k.value, depth) for k in keywords} if keywords else {}
        all_t = EMPTY.union(*arg_t, *kw_t.values()) if arg_t or kw_t else EMPTY
        recv_t = EMPTY
        if attr and q not in api.ENV_GETTERS:
            recv_t = expr(func.value, depth)
        result = all_t | recv_t
        if q in _REQUEST_BUILDERS:
            # Request(url, data, headers) with a vendor's token in its headers for that vendor's own constant URL
            # is how its API is called; the request then carries only what its body carries.
            hdr_t = EMPTY.union(*arg_t[2:], *(t for k, t in kw_t.items() if k in ("headers", "auth", "cookies")))
            first_url = node.args[0] if node.args else next((k.value for k in keywords if k.arg == "url"), None)
            url = const_str(first_url, self.lookup) if first_url is not None else None
            if url is None and hdr_t and first_url is not None:
                url = _built_url(self, first_url)
            names = [p[len("secret-name:"):] for p in hdr_t if p.startswith("secret-name:")]
            if url and names and CRED not in hdr_t and all(H.credential_goes_home(n, url) for n in names):
                result = EMPTY.union(*arg_t[:2], *(t for k, t in kw_t.items() if k not in ("headers", "auth", "cookies")))
                if FILE in result and not _publishes(url):
                    # A file given to the vendor's API with the user's own key for it (a document to
                    # summarise, an image to describe) is that API's input, kept in the user's account.
                    result = result - {FILE}
            elif not url and (names or any(p[:6] == "param:" for p in hdr_t)) and first_url is not None and not (hdr_t & {CRED, ENVDUMP}) \
                    and not (expr(first_url, depth) & {DEC, DL}) and self._destination_set_elsewhere(first_url):
                # A token in the headers of a request to a URL set elsewhere (the command line, a
                # setting, a caller in another file): it authenticates to the service the user pointed
                # the script at, as requests' headers are read (sinks.py). A decoded or downloaded
                # URL, or a caller here passing a written-out host, is judged as the URL it is.
                result = EMPTY.union(*arg_t[:2], *(t for k, t in kw_t.items() if k not in ("headers", "auth", "cookies")))
        if q:
            self.flow.calls.append((q, node))
        if q in api.DECODERS or attr == "fromhex" or (attr in ("decode", "encode") and self._codec_arg(node)):
            result |= {DEC}
        if q and api.is_download(q):
            if q not in _REQUEST_BUILDERS and result and api.is_network(q):
                # A response is the server's data: the key sent in its headers or body is not in it.
                result = frozenset(p for p in result if p not in _SENT and p[:12] != "secret-name:" and p[:6] != "param:")
            result |= {DL}
        if q in api.ENV_GETTERS and node.args:
            key = const_str(node.args[0], self.lookup)
            result -= {ENVDUMP}
            if key and c.is_secret_env_name(key):
                result |= {SECRET, "secret-name:" + key}
            elif key is None and _listed_secret_names(self.flow):
                result |= {SECRET, "secret-name:*listed*"}  # os.getenv(name) over a list of secret names
            elif key is None and arg_t and DEC in arg_t[0]:
                result |= _HIDDEN_NAMES  # os.getenv(name) over names the script decodes (a base64 list beside it)
        if q in api.HOST_INFO and not (q in api.PROCESS_CALLS and node.args and _revision_command(node.args[0], self.lookup)):
            result |= {HOST}
        if node.args and (q in api.PROCESS_CALLS or q in api.SHELL_ALWAYS) and (vendor := _credential_command(node.args[0], self.lookup)):
            # subprocess.run(["git", "credential", "fill"]), os.popen("gh auth token"): prints a secret. Named for its
            # vendor (gh -> GitHub) so a token sent to that vendor's own API is ordinary use, as for a secret variable.
            result |= {SECRET, "secret-name:" + vendor}
        if q in api.SDK_CREDENTIALS:
            # boto3.Session().get_credentials(): the user's resolved cloud keys, named for their vendor so that
            # the SDK's own calls (and a request to that vendor) stay ordinary use
            result |= {SECRET, "secret-name:" + api.SDK_CREDENTIALS[q]}
        if q in ("open", "io.open", "codecs.open") or attr in ("read_text", "read_bytes"):
            result |= {FILE}
        if q in api.UNTRUSTED_CALLS:
            result |= {UNTRUSTED}
        if q in api.CAPTURE or attr in api.CAPTURE_METHODS:
            result |= {CAPTURE}
            self.flow.emit(K.SURVEILLANCE, node, f"Captures user input or screen ({q or attr})", Severity.MEDIUM, call=q or attr)
        if attr in _MUTATORS and all_t:
            self._merge_into(func.value, all_t)  # items.append(secret): the container now holds it
        if DL in all_t or q in _SAVERS:
            self._saves_download(node, q, attr, arg_t)
        summary = self._summary_for(func)
        if summary is not None:
            # What a local function returns is what its summary says, not every argument it was given:
            # _download(url) after _poll(id, key) does not receive the key.
            fn = self.flow.funcs.get(attr or func.id if type(func) is _Name else attr)
            result = (result - all_t) | recv_t | summary.returns | _kept_args(fn, summary, arg_t, kw_t)
            by_kw = {names.index(k): t for names in [_param_names(fn) if fn is not None and kw_t else []]
                     for k, t in kw_t.items() if k in names} if kw_t else {}
            if node.args and fn is not None and _runs_its_arguments(fn, self.flow):
                # sh("gh", "issue", "create", "--body-file", path): a helper that runs its arguments as a command
                from .sinks import _command_text, published

                first = node.args[0]
                text = _command_text(self, first) if len(node.args) == 1 else \
                    " ".join(w if w is not None else "X" for w in (const_str(a, self.lookup) for a in node.args[:12]))
                published(self, node, text, frozenset().union(*arg_t), " through a helper function")
            for i in summary.filled:
                if i < len(node.args) and type(node.args[i]) is _Name:
                    self.env[node.args[i].id] = self.env.get(node.args[i].id, EMPTY) | {SAVED}  # fetch_tool(path) filled path
            for i, kinds in summary.param_sinks.items():
                t_i = arg_t[i] if i < len(arg_t) else by_kw.get(i)
                if t_i is not None:
                    for kind in kinds:
                        url = summary.param_urls.get(i, "")
                        if not url and kind == "network" and summary.param_url_args.get(i, -1) < len(node.args):
                            url = _built_url(self, node.args[summary.param_url_args[i]]) if i in summary.param_url_args else ""
                        self.sink(kind, node, t_i, q or attr, via_helper=True, url=url)
        check_call(self, node, q, arg_t, kw_t, all_t | recv_t if attr in ("write", "send") else all_t)
        return result

    def _saves_download(self, node: ast.Call, q: str, attr: str, arg_t: list) -> None:
        """f.write(resp.read()) with f = open(path, "wb"), shutil.copyfileobj(resp, f), urlretrieve(url, path),
        Path(path).write_bytes(body): the file at `path` now holds the download."""
        func, args = node.func, node.args
        path = None
        if q == "os.write" and len(args) >= 2 and DL in arg_t[1] and type(args[0]) is _Name and args[0].id in self.open_files:
            path = self.open_files[args[0].id]  # os.write(fd, body) with fd, path = mkstemp()
        elif attr in ("write", "writelines") and type(func) is _Attribute:
            recv = func.value
            if type(recv) is _Name and recv.id in self.open_files:
                path = self.open_files[recv.id]
            elif type(recv) is _Call and self.qualname(recv.func) in _OPENERS and recv.args and _write_mode(recv):
                path = recv.args[0]  # open(path, "wb").write(body)
        elif q == "shutil.copyfileobj" and len(args) >= 2 and DL in arg_t[0] and type(args[1]) is _Name and args[1].id in self.open_files:
            path = self.open_files[args[1].id]
        elif q in _SAVERS and len(args) >= 2:
            path = args[1]  # urlretrieve(url, path): the download is saved there
        elif attr in ("write_bytes", "write_text") and type(func) is _Attribute:
            recv = func.value
            path = recv.args[0] if type(recv) is _Call and recv.args and self.qualname(recv.func) in ("pathlib.Path", "Path") else recv
        if path is None:
            return
        fixed = const_str(path, self.lookup)
        if fixed:
            self.flow.__dict__.setdefault("saved_paths", set()).add(fixed)  # urlretrieve(u, "/tmp/helper"): that path
        if type(path) is _Name:
            self.env[path.id] = self.env.get(path.id, EMPTY) | {SAVED}
        for p in self.expr(path):
            if p.startswith("param:"):
                self.filled.add(int(p[6:]))

    def _codec_arg(self, node: ast.Call) -> bool:
        arg = const_str(node.args[0], self.lookup) if node.args else None
        return bool(arg) and arg.replace("-", "_").lower() in api.CODEC_NAMES

    def _summary_for(self, func: ast.AST) -> Summary | None:
        if isinstance(func, ast.Name) and func.id in self.flow.funcs and func.id not in self.flow.imports:
            return self.flow.summaries.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id not in self.flow.imports:
            if func.attr in self.flow.funcs and (func.value.id in ("self", "cls") or func.value.id[:1].isupper()
                                                 or (func.attr not in _COMMON_METHODS and func.value.id not in self.types)):
                return self.flow.summaries.get(func.attr)
        return None

    # -- sinks -------------------------------------------------------------------------------
    def sink(self, kind: str, node: ast.Call, t: frozenset[str], name: str, via_helper: bool = False, url: str = "") -> None:
        if not url and kind == "network" and not via_helper and node.args and (t & _SENT or any(p[:6] == "param:" for p in t)):
            url = url_of(node.args[0], self)
        for p in t:
            if p.startswith("param:"):
                self.param_sinks.setdefault(int(p[6:]), set()).add(kind)
                if isinstance(url, int):
                    self.param_url_args[int(p[6:])] = url
                elif url:
                    self.param_urls[int(p[6:])] = url
        if isinstance(url, int):
            url = ""
            names = [p[len("secret-name:"):] for p in t if p.startswith("secret-name:")]
            if kind == "network" and names and CRED not in t and node.args:
                # call(method, path) sending its own env key: where the callers' paths lead decides
                from .urls import resolved_by_callers

                urls = resolved_by_callers(self, node.args[0])  # urlopen(req): urls.py follows req to its Request
                if urls and all(H.credential_goes_home(n, u) for n in names for u in urls):
                    url = urls[0]
        if UNTRUSTED in t:
            untrusted_outcome(self, kind, node, name, via_helper)
        if t & REAL_SOURCES:
            sink_outcome(self, kind, node, t, name, via_helper, url)

    def _destination_set_elsewhere(self, url_node: ast.AST) -> bool:
        """The URL is no written-out host but the user's: a setting or a table read at run time, the
        command line, or a parameter of a helper that no caller here fills, or whose callers hand
        on their own parameter or the command line (a caller passing a value read from a response,
        the environment or a blob is judged as the URL it is)."""
        from .urls import ParamURL, _argument, _calls_of, _value, resolved_by_callers

        if resolved_by_callers(self, url_node):
            return False  # every caller here names its host: judged by those hosts
        v = _value(self, url_node, 0)
        if not isinstance(v, ParamURL) or self.fn is None or not hasattr(self.fn, "name"):
            return True
        for call, owner in _calls_of(self.flow.tree, self.fn.name)[:50]:
            arg = _argument(self.fn, v, call)
            if arg is None or not _from_command_line_or_caller(arg, owner):
                return False
        return True

    def summary(self) -> Summary:
        params = frozenset(int(p[6:]) for p in self.returns if p.startswith("param:"))
        names = frozenset(p for p in self.returns if p[:12] == "secret-name:" or p[:5] == "cred:")  # which key a helper returns: its vendor
        return Summary(frozenset(self.returns & (REAL_SOURCES | {SAVED})) | names, params, self.param_sinks, self.param_urls, self.param_url_args,
                       frozenset(self.filled))


def _from_command_line_or_caller(arg: ast.AST, owner: ast.AST | None) -> bool:
    """`sys.argv[1]`, `sys.argv[1].rstrip("/")`, `args.url` (argparse), or a parameter of the calling function."""
    node = arg
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("rstrip", "strip", "lstrip"):
            node = node.func.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            break
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return (node.value.id, node.attr) == ("sys", "argv") or node.value.id in ("args", "opts", "options", "ns", "cli")
    if isinstance(node, ast.Name) and owner is not None and hasattr(owner, "args"):
        a = owner.args
        return node.id in {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    return False


_REQUEST_BUILDERS = frozenset({"urllib.request.Request", "urllib2.Request", "requests.Request"})
_SENT = frozenset({SECRET, CRED})


_DOTENV, _CRED_FILE = frozenset({CRED, "cred:dotenv"}), frozenset({CRED, "cred:file"})


def _cred(path: str) -> frozenset[str]:
    """A credential file's taint, marked dotenv (a project's .env, read for one named key) or not."""
    return _DOTENV if path.replace("\\", "/").rsplit("/", 1)[-1].lower().startswith(".env") else _CRED_FILE


def _kept_args(fn, summary, arg_t, kw_t) -> frozenset[str]:
    keep = EMPTY.union(*(t for i, t in enumerate(arg_t) if i in summary.passthrough))
    if kw_t:
        names = _param_names(fn) if fn is not None else []
        for k, t in kw_t.items():
            if k is None or k not in names or names.index(k) in summary.passthrough:
                keep |= t
    return keep


def _param_names(fn) -> list[str]:
    a = fn.args
    names = [p.arg for p in a.posonlyargs + a.args]
    return (names[1:] if names and names[0] in ("self", "cls") else names) + [p.arg for p in a.kwonlyargs]


_RUNNERS = frozenset({"run", "call", "check_call", "check_output", "Popen", "system", "popen", "getoutput", "getstatusoutput", "spawnvp", "execvp"})


def _runs_its_arguments(fn, flow) -> bool:
    """Does function `fn` hand one of its parameters (or *args) to a process call as the command?
    Answered once per function of the flow: every call of a local function asked it again, walking
    the function's whole body each time (the functions live as long as the flow, so ids are stable)."""
    memo = flow.__dict__.setdefault("_runs_its_arguments", {})
    hit = memo.get(id(fn))
    if hit is None:
        hit = memo[id(fn)] = _walk_runs_its_arguments(fn)
    return hit


def _walk_runs_its_arguments(fn) -> bool:
    a = fn.args
    names = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs} | ({a.vararg.arg} if a.vararg else set())
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in names:
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in _RUNNERS:
                return True
    return False


def url_of(node, scope):
    """The built URL of a network call a secret reaches (scanner/scripts/python/urls.py), asked
    only there: a str, the index of the parameter holding it, or ""."""
    from .urls import url_of as _url_of

    v = _url_of(scope, node)
    return v if v is not None else ""


def _built_url(scope, node) -> str:
    v = url_of(node, scope)
    return v if isinstance(v, str) else ""


def _credential_command(arg: ast.AST, lookup) -> str:
    """The vendor ("*command*" when none) of a process call's command (a string or a list of constant
    words) that prints a credential; "" for any other command."""
    if isinstance(arg, (ast.List, ast.Tuple)):
        words = [const_str(e, lookup) for e in arg.elts[:8]]
        text = " ".join(w for w in words if w)
    else:
        text = const_str(arg, lookup) or ""
    if not text or len(text) > 400:
        return ""
    from ..shell.base import _CRED_COMMAND, _CRED_COMMAND_VENDOR

    if _CRED_COMMAND.search(text.encode("utf-8", "surrogatepass")) is None:
        return ""
    low = text.lower() + " "
    return next((v for k, v in _CRED_COMMAND_VENDOR if k in low and v), "*command*")


_OPENERS = frozenset({"open", "io.open", "codecs.open", "builtins.open"})
# Calls returning (an open descriptor, its path)
_TEMP_DESCRIPTORS = frozenset({"tempfile.mkstemp"})
_SAVERS = frozenset({"urllib.request.urlretrieve", "urllib.urlretrieve", "wget.download"})


def _write_mode(call: ast.Call) -> bool:
    mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and bool(set(mode.value) & set("wax"))


def _revision_command(arg: ast.AST, lookup) -> bool:
    """`git rev-parse HEAD`, `git describe --tags`: the repository's revision (what a release names), not the host's details."""
    if isinstance(arg, (ast.List, ast.Tuple)):
        words = [const_str(e, lookup) or "" for e in arg.elts[:6]]
    else:
        words = (const_str(arg, lookup) or "").split()[:6]
    words = [w for w in words if w]
    if len(words) < 2 or words[0].rsplit("/", 1)[-1] != "git":
        return False
    verb = next((w for w in words[1:] if not w.startswith("-")), "")
    return verb in ("rev-parse", "describe", "symbolic-ref", "rev-list") or (verb == "branch" and "--show-current" in words)


def _listed_secret_names(flow) -> bool:
    """The script keeps two or more secret environment names as string literals (a list of names to
    read): an environment read through a computed name is then a secret read (issue 14 item 5)."""
    hit = flow.__dict__.get("_listed_secrets")
    if hit is None:
        from ...matching import rx

        global _SECRET_LITERAL
        if _SECRET_LITERAL is None:
            _SECRET_LITERAL = rx(r"['\"]([A-Z][A-Z0-9]*_[A-Z0-9_]+)['\"]")
        n = 0
        for m in _SECRET_LITERAL.finditer(flow.doc.text.encode("utf-8", "surrogatepass")):
            if c.is_secret_env_name(m.group(1).decode("ascii", "replace")):
                n += 1
                if n >= 2:
                    break
        hit = flow.__dict__["_listed_secrets"] = n >= 2
    return hit


_SECRET_LITERAL = None
# An environment read whose variable names the script decodes at run time: a list kept out of a
# reader's sight is the list of secrets (issue 14 item 5's listed names, hidden).
_HIDDEN_NAMES = frozenset({SECRET, "secret-name:*decoded*"})

__all__ = ["Scope", "CAPTURE", "CRED", "DEC", "DL", "ENVDUMP", "HOST", "SECRET", "Confidence"]


# Child expressions of the commonest compound expressions, without the generic field walk.
_KIDS = {
    ast.List: lambda n: n.elts, ast.Tuple: lambda n: n.elts, ast.Set: lambda n: n.elts,
    ast.BinOp: lambda n: (n.left, n.right),
    ast.JoinedStr: lambda n: n.values,
    # `a and b` is b whenever a is truthy (a falsy secret holds nothing); `a or b` may be any of them
    ast.BoolOp: lambda n: n.values[-1:] if isinstance(n.op, ast.And) else n.values,
    ast.FormattedValue: lambda n: (n.value,),
    ast.Dict: lambda n: [*n.keys, *n.values],
    ast.Compare: lambda n: [n.left, *n.comparators],
    ast.UnaryOp: lambda n: (n.operand,),
    ast.Starred: lambda n: (n.value,), ast.Await: lambda n: (n.value,),
    ast.IfExp: lambda n: (n.body, n.orelse),  # the test picks a branch; its value is neither
}
