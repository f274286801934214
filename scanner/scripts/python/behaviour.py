"""What a Python tool or script does to the machine it runs on, beyond code execution (IG720-IG729,
IG740-IG743 with scanner.scripts.user_data and skill_chain).

The flow analysis (python.flow) follows payloads into interpreters and secrets onto the network.
This pass looks for the other things a hostile MCP server or skill script does from a function
the agent calls: enumerating the host's accounts, processes and mounts; scanning ports and
private address ranges; exhausting memory, threads, descriptors or the CPU; planting web shells
and magic-string backdoors; building LDAP or NoSQL queries from arguments; opening paths it was
handed without a base check; quietly posting tool arguments to a third party.

Cheap substring gates decide whether the file is parsed at all, so ordinary scripts cost one
scan of their text. The syntax tree is only read; nothing is compiled, imported or run.
"""
from __future__ import annotations

import ast
from functools import cached_property

from ...models import Confidence, Severity
from .. import common as c
from .. import flow_facts  # the package has run by the time any of its modules is imported
from . import reach as pr
from .. import skill_chain, user_data
from .consts import const_str
from .flow import node_span, parse_tree, release_tree
from .gc_paused import gc_paused
from .walk import FIELDS, NODE_TYPES, fields_of, walk
from .behaviour_kinds import (  # noqa: F401  (re-exported: the tables' old home)
    STRONG_SYSTEM, WEAK_SYSTEM, SYSTEM_CALLS, PRIVATE_CIDR, WEB_SHELL_TEXT,
    LDAP_FILTER, NET_PREFIXES, NET_ATTRS, SEND_ATTRS, EXEC_SINKS, FILE_SINKS, PATH_METHODS, PATH_GUARDS)

_CACHE_ATTR = "_behaviour_facts"
_GATES = ("/etc/", "/proc", "/sys/", "psutil", "pwd", "grp", "environ", "port", "ip_network", "/8", "/16", "/12",
          "while", "Thread", "Process", "extractall", "decompress", "gzip", "re.", "0000", "**", "$_", "request",
          "ldap", "mongo", "$where", "tool", "exec", "system", "1024", "_000", "def ", "password",
          "unlink", "glob", "remove(")


def behaviour_facts(doc) -> list[c.Fact]:
    cached = doc.__dict__.get(_CACHE_ATTR)
    if cached is None:
        if doc.language == "python":
            python_analyses(doc)
            return doc.__dict__[_CACHE_ATTR]
        cached = doc.__dict__[_CACHE_ATTR] = user_data.text_shapes(doc)
    return cached


@gc_paused
def python_analyses(doc) -> None:
    """Flow facts (scripts.facts_for) and behaviour facts of one Python script, computed back to
    back over one syntax tree while the cyclic collector is paused, then the tree is dropped.

    Both rule families ask for every script, so computing them together costs nothing extra;
    what it saves is the collector: a tree still alive when collection resumes is traversed by
    the young, middle and (often) a full collection of the whole process, a quarter of the
    script analysis's CPU. Freed here, its nodes go by reference counting (they hold no cycles)."""
    try:
        flow_facts(doc)
        if _CACHE_ATTR not in doc.__dict__:
            doc.__dict__[_CACHE_ATTR] = _analyse(doc) + user_data.text_shapes(doc) + skill_chain.chain_facts(doc)
    finally:
        release_tree(doc)


def _analyse(doc) -> list[c.Fact]:
    text = doc.text
    if not any(g in text for g in _GATES):
        return []
    try:
        tree = parse_tree(doc)  # shared with python.flow: each script is parsed once
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return []  # python.flow reports the parse failure and falls back to tokens
    return Behaviour(doc, tree).run()



class Behaviour:
    def __init__(self, doc, tree: ast.Module) -> None:
        self.doc, self.tree, self.text = doc, tree, doc.text
        self.facts: dict[tuple[str, int], c.Fact] = {}
        self.calls: list[ast.Call] = []
        self.strings: list[tuple[ast.AST, str]] = []  # (node, text with "\x00" for interpolated parts)
        self.loops: list[ast.AST] = []
        self.dicts: list[ast.Dict] = []
        self.ifs: list[ast.If] = []
        self.defs: list = []
        self.exprs: list[ast.Expr] = []
        self.listed: set[int] = set()  # constants written as elements of a list, tuple or set literal
        self.mults: list[ast.BinOp] = []
        self.tries: list[ast.Try] = []
        self.abs_consts: dict[str, bool] = {}  # names assigned a string literal: is it an absolute path
        self.fn_calls: dict[int, list[ast.Call]] = {}  # id(def) -> calls in its own body (nested defs apart)
        self.self_calls: dict[int, list[ast.Call]] = {}  # id(def) -> calls of itself in its own body
        self.conditional: set[int] = set()  # id(def) whose own body branches or loops somewhere
        self.request_fns: set[int] = set()  # id(def) reading a web request object
        docstrings: set[int] = set()
        consts: dict[str, str] = {}
        imports: dict[str, str] = {}
        # One depth-first pass over the tree, knowing each node's innermost enclosing function:
        # a def pushes an end mark under its children, which gives the outer function back once
        # they are all done (cheaper than a (node, function) pair for every node).
        stack: list = [tree]
        pop, push = stack.pop, stack.append
        leaves, acted, branches, field_cache, pushed = _LEAVES, _ACTED, _BRANCHES, FIELDS, _PUSHED
        Constant, Call, Attribute, Name, Expr, Assign, FunctionDef, AsyncFunctionDef = (
            ast.Constant, ast.Call, ast.Attribute, ast.Name, ast.Expr, ast.Assign, ast.FunctionDef, ast.AsyncFunctionDef)
        strings, calls, fn_calls = self.strings, self.calls, self.fn_calls
        fn = None
        while stack:
            node = pop()
            cls = type(node)
            # The commonest acted-on types are tested first (by identity: parse() builds exact types).
            if cls is Constant:
                if isinstance(node.value, str) and id(node) not in docstrings:
                    strings.append((node, node.value))
                continue
            if cls is Call:
                calls.append(node)
                if fn is not None:
                    fn_calls.setdefault(id(fn), []).append(node)
                    f = node.func
                    if type(f) is Name and f.id == fn.name:
                        self.self_calls.setdefault(id(fn), []).append(node)
            elif cls is Attribute:
                if fn is not None and node.attr in pr.REQUEST_FIELDS and type(node.value) is Name and \
                        node.value.id in pr.REQUEST_NAMES:
                    self.request_fns.add(id(fn))
            elif cls in leaves:
                continue
            elif cls is _DefEnd:
                fn = node.outer
                continue
            elif cls in acted:  # the rest only pass their children on
                if cls in _DOC_OWNERS:
                    body = node.body
                    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                        docstrings.add(id(body[0].value))
                if cls is Expr:
                    self.exprs.append(node)
                elif cls is Assign:
                    if type(node.value) is Constant and isinstance(node.value.value, str):
                        for t in node.targets:
                            if isinstance(t, ast.Name):
                                consts[t.id] = node.value.value
                                self.abs_consts[t.id] = node.value.value.startswith("/")
                elif cls is ast.JoinedStr:
                    strings.append((node, "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "\x00"
                                                  for v in node.values)))
                elif cls is ast.BinOp:
                    if isinstance(node.op, ast.Add):
                        s = const_str(node, consts.get)
                        if s is None:
                            s = _skeleton(node)
                        if s is not None:
                            strings.append((node, s))
                    elif isinstance(node.op, ast.Mult):
                        self.mults.append(node)
                elif cls in _LOOPS:
                    self.loops.append(node)
                elif cls is ast.Dict:
                    self.dicts.append(node)
                elif cls in _SEQUENCES:
                    self.listed.update(id(e) for e in node.elts)
                elif cls is ast.If:
                    self.ifs.append(node)
                elif cls is FunctionDef or cls is AsyncFunctionDef:
                    self.defs.append(node)
                elif cls is ast.Try:
                    self.tries.append(node)
                elif cls is ast.Import:
                    for al in node.names:
                        imports[al.asname or al.name.split(".")[0]] = al.name if al.asname else al.name.split(".")[0]
                elif cls is ast.ImportFrom and node.module:
                    for al in node.names:
                        imports[al.asname or al.name] = f"{node.module}.{al.name}"
            if fn is not None and cls in branches:
                self.conditional.add(id(fn))
            if cls is FunctionDef or cls is AsyncFunctionDef:
                push(_DefEnd(fn))
                fn = node
            fields = field_cache.get(cls)
            for field in fields if fields is not None else fields_of(cls):
                v = getattr(node, field, None)
                if v.__class__ is list:  # leaves are never pushed: they would be popped and dropped
                    for item in reversed(v):  # a loop, not a list comprehension: most lists hold one or two nodes
                        if item.__class__ in pushed:
                            push(item)
                elif v.__class__ in pushed:
                    push(v)
        self.imports = imports
        self.reach = pr.build(tree, self.defs, self.imports)
        self._qual: dict[int, str] = {}

    # -- shared helpers ----------------------------------------------------------------
    @cached_property
    def low_text(self) -> str:
        """The script's text lower-cased, made once for the shapes that test it for words."""
        return self.text.lower()

    def local_consts(self, name: str) -> bool:
        """Whether `name` is assigned an absolute-path literal anywhere in the file."""
        return self.abs_consts.get(name, False)

    def q(self, call: ast.Call) -> str:
        k = id(call)
        if k not in self._qual:
            self._qual[k] = pr.dotted(call.func, self.imports)
        return self._qual[k]

    def emit(self, kind: str, node: ast.AST, message: str, severity: Severity = Severity.MEDIUM,
             confidence: Confidence = Confidence.MEDIUM, **props) -> None:
        start, end = node_span(self.doc, node)
        key = (kind, start)
        if key not in self.facts:
            self.facts[key] = c.Fact(kind, start, end, message, severity, confidence, {"analysis": "python-ast", **props})

    def reached_nodes(self):
        seen: set[int] = set()
        for fn in self.reach.reached_defs():
            for node in walk(fn):
                if id(node) not in seen:
                    seen.add(id(node))
                    yield fn, node

    def is_net(self, call: ast.Call) -> bool:
        q = self.q(call)
        last = q.rsplit(".", 1)[-1]
        if q.startswith(NET_PREFIXES):
            return last in NET_ATTRS or last in SEND_ATTRS or q.startswith("socket.")
        return last in ("connect_ex", "create_connection", "urlopen")

    def net_funcs(self) -> set[str]:
        """Names of module functions that touch the network, directly or through each other."""
        if hasattr(self, "_net_funcs"):
            return self._net_funcs
        direct: dict[str, set[str]] = {}
        names: set[str] = set()
        for fn in self.defs:
            callees = set()
            for n in walk(fn):
                if isinstance(n, ast.Call):
                    if self.is_net(n):
                        names.add(fn.name)
                    callees.add(pr.callee_name(n))
            direct[fn.name] = direct.get(fn.name, set()) | callees
        changed = True
        while changed:
            changed = False
            for name, callees in direct.items():
                if name not in names and callees & names:
                    names.add(name)
                    changed = True
        self._net_funcs = names
        return names

    def run(self) -> list[c.Fact]:
        # Names from modules, not `from . import module`: a package's fromlist costs a Python-level call per script.
        from .exhaustion import resource_exhaustion
        from .shapes import (credential_hoarding, fake_security, hidden_collection, network_scan, path_traversal,
                                    query_injection, system_enumeration, web_shell)

        system_enumeration(self)
        network_scan(self)
        web_shell(self)
        query_injection(self)
        path_traversal(self)
        hidden_collection(self)
        credential_hoarding(self)
        fake_security(self)
        resource_exhaustion(self)
        user_data.python_shapes(self)
        return sorted(self.facts.values(), key=lambda f: (f.start, f.kind))


_BRANCHES = frozenset({ast.If, ast.IfExp, ast.While, ast.For, ast.AsyncFor, ast.Try, ast.BoolOp, ast.Match, ast.comprehension})


class _DefEnd:
    """Behaviour's walk-stack mark under a def's children: popped, it restores the outer function."""
    __slots__ = ("outer",)

    def __init__(self, outer) -> None:
        self.outer = outer


_LEAVES = frozenset({ast.Name, ast.Load, ast.Store, ast.Del, ast.Pass, ast.Break, ast.Continue, ast.alias, ast.Global, ast.Nonlocal})
# What the walk pushes: one set lookup for `isinstance(x, ast.AST) and type(x) not in _LEAVES` (parse() builds exact types).
_PUSHED = NODE_TYPES - _LEAVES
_DOC_OWNERS = frozenset({ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef})
_LOOPS = frozenset({ast.For, ast.AsyncFor, ast.While, ast.comprehension})
_SEQUENCES = frozenset({ast.List, ast.Tuple, ast.Set})
_ACTED = _DOC_OWNERS | {ast.Call, ast.Constant, ast.Attribute, ast.JoinedStr, ast.BinOp, ast.For, ast.AsyncFor, ast.While,
                        ast.comprehension, ast.Dict, ast.List, ast.Tuple, ast.Set, ast.If, ast.Expr, ast.Try, ast.Import,
                        ast.ImportFrom, ast.Assign}  # node types the collecting walk acts on


def _skeleton(node: ast.BinOp) -> str | None:
    """`'(cn=' + user + ')'` as "(cn=\\x00)": literal parts kept, computed parts marked."""
    parts: list[str] = []
    stack: list[ast.AST] = [node]
    while stack and len(parts) < 50:
        n = stack.pop()
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            stack += [n.right, n.left]
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            parts.append(n.value)
        else:
            parts.append("\x00")
    text = "".join(parts)
    return text if not stack and text.replace("\x00", "") else None
