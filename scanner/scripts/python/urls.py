"""The host a Python network call goes to, when its URL is built rather than written out.

Used only to decide whether a secret goes to its own vendor (ANTHROPIC_API_KEY to
api.anthropic.com), so it is asked lazily, at a network sink a secret reaches. It follows what
const_str does not: a name bound earlier in the function, a Request(url, ...) object, a local
function that returns the base URL, `os.environ.get("X_BASE_URL", "https://api.vendor.com")`
(the default is where the call goes unless the user points it elsewhere), and a URL whose
path or query holds run-time values (`f"https://api.telegram.org/bot{token}/sendMessage"`).
A run-time value anywhere before the end of the host, or two bindings with different hosts,
leaves the URL unknown: nothing here can vouch for a host it cannot read.
"""
from __future__ import annotations

import ast

from .. import common as c
from . import api
from .consts import const_str

HOLE = "\x00"  # a run-time value inside the URL
_BUILDERS = frozenset({"urllib.request.Request", "urllib2.Request", "requests.Request", "httpx.Request"})
_KEEP = frozenset({"rstrip", "strip", "lower", "lstrip", "format", "format_map"})


class ParamURL(str):
    """The URL is the function's own parameter number `index` (after a constant `prefix`, if any:
    `API + path`): the caller's argument decides it."""
    index: int
    prefix: str = ""


def _assigned(scope, name: str) -> list[ast.AST]:
    root = scope.fn if scope.fn is not None else scope.flow.tree
    out: list[ast.AST] = []
    body = root.body if hasattr(root, "body") else []
    stack = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            out.append(n.value)
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and isinstance(n.target, ast.Name) and n.target.id == name:
            out.append(n.value if not isinstance(n, ast.AugAssign) else None)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _params(fn) -> list[str]:
    if fn is None:
        return []
    a = fn.args
    return [p.arg for p in (a.posonlyargs + a.args)]


def _value(scope, node: ast.AST | None, depth: int) -> str | None:
    """The string node builds, with HOLE for each run-time part; None when nothing is known."""
    if node is None or depth > 12:
        return None
    s = const_str(node, scope.lookup)
    if s is not None:
        return s
    d = depth + 1
    if isinstance(node, ast.Name):
        if scope.fn is not None and node.id in _params(scope.fn) and _params(scope.fn)[0] not in ("self", "cls"):
            p = ParamURL(HOLE)
            p.index = _params(scope.fn).index(node.id)
            return p
        vals = {_value(scope, v, d) for v in _assigned(scope, node.id)}
        if scope.fn is not None and not vals:  # a module-level name read inside a function
            vals = {_value(_Module(scope), v, d) for v in _assigned(_Module(scope), node.id)}
        if len(vals) != 1:
            return None
        v = vals.pop()
        if v is not None and len({c.host_of(v.replace(HOLE, "x"))}) == 1:
            return v
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _value(scope, node.left, d), _value(scope, node.right, d)
        if isinstance(b, ParamURL) and a is not None and not isinstance(a, ParamURL) and HOLE not in a and not b.prefix:
            p = ParamURL(a + HOLE)  # API + path: the caller's argument completes a known prefix
            p.index, p.prefix = b.index, a
            return p
        if isinstance(a, ParamURL) or isinstance(b, ParamURL):
            return None
        return (a if a is not None else HOLE) + (b if b is not None else HOLE)
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            s = _value(scope, v.value if isinstance(v, ast.FormattedValue) else v, d)
            parts.append(HOLE if s is None or isinstance(s, ParamURL) else s)
        return "".join(parts)
    if isinstance(node, ast.Call):
        q = scope.qualname(node.func)
        if q in api.ENV_GETTERS and len(node.args) >= 2:
            return _value(scope, node.args[1], d)  # the default: where the call goes unless the user says otherwise
        if q in _BUILDERS or (q.endswith(".Request") and q.startswith(("urllib", "requests", "httpx"))):
            first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "url"), None)
            if q in ("requests.Request", "httpx.Request") and len(node.args) >= 2:
                first = node.args[1]
            return _value(scope, first, d)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in _KEEP:
            inner = _value(scope, f.value, d)
            if inner is None or isinstance(inner, ParamURL):
                return None
            if f.attr in ("format", "format_map"):
                import re
                return re.sub(r"\{[^{}]*\}", HOLE, inner)
            return inner.rstrip("/") if f.attr == "rstrip" else inner
        if isinstance(f, ast.Name) and f.id in scope.flow.funcs and not node.args and not node.keywords:
            fn = scope.flow.funcs[f.id]
            rets = [r.value for r in ast.walk(fn) if isinstance(r, ast.Return)]
            sub = _Function(scope, fn)
            vals = {_value(sub, r, d) for r in rets}
            if len(vals) == 1 and None not in vals:
                return vals.pop()
    return None


class _Function:
    """A view of the scope for reading a local function's return statements."""
    def __init__(self, scope, fn) -> None:
        self.fn, self.flow, self.qualname = fn, scope.flow, scope.qualname
        self.lookup = scope.lookup


class _Module(_Function):
    def __init__(self, scope) -> None:
        super().__init__(scope, None)


def url_of(scope, node: ast.AST | None) -> str | int | None:
    """The URL node names, when its host is known: a string (run-time parts shown as {}), the
    index of the parameter that holds it (an int), or None."""
    v = _value(scope, node, 0)
    if isinstance(v, ParamURL):
        return v.index
    out = _known_host_url(v)
    return out if out and c.host_of(out) else None


def _known_host_url(v: str | None) -> str | None:
    """An http(s) URL whose host has no run-time part, its holes shown as {}; None otherwise."""
    if not v or not v.lower().startswith(("https://", "http://")):
        return None
    host_part = v.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    if HOLE in host_part or "@" in host_part or "\\" in host_part:
        return None
    return v.replace(HOLE, "{}")


def _argument(fn, v: "ParamURL", call: ast.Call) -> ast.AST | None:
    """The argument a call of helper `fn` passes for the URL parameter `v` (a method call's
    self/cls not counted), or None."""
    offset = 1 if isinstance(call.func, ast.Attribute) and _params(fn)[:1] in (["self"], ["cls"]) else 0
    k = v.index - offset
    if 0 <= k < len(call.args) and not isinstance(call.args[k], ast.Starred):
        return call.args[k]
    pname = _params(fn)[v.index]
    return next((kw.value for kw in call.keywords if kw.arg == pname), None)


def _calls_of(tree: ast.AST, name: str) -> list[tuple[ast.Call, ast.AST | None]]:
    """Every call of `name` (a function or a method) in the file, with the function it is made in
    (None at module level): one walk of the tree."""
    out: list[tuple[ast.Call, ast.AST | None]] = []
    stack: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    while stack:
        node, owner = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            owner = node
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                out.append((node, owner))
        stack.extend((child, owner) for child in ast.iter_child_nodes(node))
    return out


def resolved_by_callers(scope, node: ast.AST | None) -> list[str] | None:
    """The URLs a helper's network call reaches when its URL is the helper's parameter (or a constant
    prefix and the parameter): one per call of the helper in the file, each completed with the
    caller's argument. None when the URL is no parameter, the helper is never called here, or any
    call leaves the host unknown."""
    v = _value(scope, node, 0)
    fn = scope.fn
    if not isinstance(v, ParamURL) or fn is None or not hasattr(fn, "name"):
        return None
    out: list[str] = []
    module = _Module(scope)
    calls = _calls_of(scope.flow.tree, fn.name)
    for call, owner in calls[:51]:
        arg = _argument(fn, v, call)
        if arg is None:
            return None
        a = _value(module, arg, 0)
        url = _from_response(scope, fn, v, module, owner, arg) if a is None else \
            None if isinstance(a, ParamURL) else _known_host_url(v.prefix + a)
        if url is None:
            return None
        out.append(url)
    return out if out and len(calls) <= 50 else None


_DECODERS = frozenset({"json.loads", "json.load", "orjson.loads", "ujson.loads"})
_RESPONSE_READERS = frozenset({"json", "read", "decode", "text"})


def _root_name(node: ast.AST) -> str | None:
    """`batch["results_url"]`, `batch.get("next")`, `page["links"]["next"]`: the name read from."""
    while True:
        if isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            node = node.func.value
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            break
    return node.id if isinstance(node, ast.Name) else None


def _helper_call_in(node: ast.AST, name: str) -> ast.Call | None:
    """`json.loads(call(...))`, `call(...).json()`, `json.loads(call(...).decode())`, `call(...)`:
    the helper's call whose response the value is, or None when the value is anything else
    (an environment variable, a decoded blob, a file)."""
    for _ in range(4):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                return node
            if isinstance(f, ast.Attribute) and f.attr in _RESPONSE_READERS and not node.args:
                node = f.value
                continue
            qual = f"{f.value.id}.{f.attr}" if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
            if qual in _DECODERS and len(node.args) == 1:
                node = node.args[0]
                continue
        return None
    return None


def _from_response(scope, fn, v: ParamURL, module, owner: ast.AST | None, arg: ast.AST) -> str | None:
    """A URL the vendor's own API handed back (`batch["results_url"]` with every binding of `batch`
    the decoded response of this helper called on a URL of known host): the host that answered,
    since a service's links point at itself. Only responses of the helper count: a value read from
    the environment, a file or a decoded string leaves the URL unknown. `owner`: the function the
    call is made in."""
    root = _root_name(arg)
    if root is None or isinstance(arg, ast.Name):
        return None
    view = _Function(scope, owner) if owner is not None and owner is not fn else module
    bound = _assigned(view, root)
    if not bound:
        return None
    hosts: list[str] = []
    for b in bound:
        inner = _helper_call_in(b, fn.name)
        if inner is None:
            return None
        src = _argument(fn, v, inner)
        if src is not None and not isinstance(src, ast.Name) and _root_name(src) == root:
            continue  # page = fetch(page["next"]): the same responses again, whose hosts the other bindings give
        a = _value(module, src, 0) if src is not None else None
        url = None if a is None or isinstance(a, ParamURL) else _known_host_url(v.prefix + a)
        if url is None:
            return None
        hosts.append(url)
    if not hosts or len({c.host_of(h) for h in hosts}) != 1:
        return None
    return hosts[0]
