"""Python scripts read through their syntax tree (ast.parse only; nothing is compiled or run).

A small, flow-ordered taint analysis: names, import aliases, getattr with computed names,
string folding, simple assignments, containers and one level of helper-function summaries
(iterated, so helper chains resolve) are followed far enough to see that a downloaded or
decoded value reaches an interpreter, or a credential reaches the network.
"""
from __future__ import annotations

import ast
from typing import Iterable

from ...models import Confidence, Severity
from .. import common as c
from .. import fact_kinds as K
from . import api
from .consts import const_str, dotted_name
from .callgraph import callees_first as _callees_first
from .callgraph import summaries_read as _summaries_read
from .gc_paused import gc_paused
from .sink_gate import WEAK_METHODS, scope_passes_needed, weak_sink_call
from .walk import FIELDS, NODE_TYPES, fields_of

from .taint import (  # noqa: F401  (re-exported: the labels' old home)
    _MUTATORS, CAPTURE, CRED, DEC, DL, EMPTY, ENVDUMP, FILE, HOST, REAL_SOURCES, SECRET, SOCKET_CONNECTS, UNTRUSTED, Summary)
from .scope import Scope

# run when an object is made: what they put on self (a session, its headers) is there for every other method
_CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__enter__", "__aenter__"})
SUMMARY_PASSES = 1  # functions run callees first, so one pass resolves helper chains; the final pass emits


class PythonFlow:
    def __init__(self, doc, tree: ast.Module) -> None:
        self.doc = doc
        self.tree = tree
        self.facts: dict[tuple[str, int], c.Fact] = {}
        self.emit_on = False
        self.imports: dict[str, str] = {}
        self.funcs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.summaries: dict[str, Summary] = {}
        self.attrs: dict[str, frozenset[str]] = {}  # self.x / cls.x / class attributes
        self.attr_strs: dict[str, str] = {}
        self.attr_types: dict[str, str] = {}  # self.s = requests.Session(): what self.s's methods mean
        self.globals: dict[str, frozenset[str]] = {}
        self.global_strs: dict[str, str] = {}
        self.calls: list[tuple[str, ast.Call]] = []  # every resolved call, for whole-module shapes
        self.cred_clear: set[int] = set()  # string constants no credential-path pattern can match
        self.string_lows: list[str] = []  # the string constants (self.strings), lower-cased
        self.string_index: tuple = (b"", [], set())  # string_lows joined, where each starts, those with a credential key
        self.doc_hosts: frozenset[str] = frozenset(doc_context(doc).get("skill_hosts", ()))

    # -- driver ------------------------------------------------------------------------
    def run(self) -> list[c.Fact]:
        from .sinks import writes_files

        # One walk of the tree collects everything the later passes need.
        self.strings: list[ast.Constant] = []
        self.docstrings: set[int] = set()
        self.writes = False
        self.call_sites: list[tuple[int, str]] = []
        self.loops: list[ast.AST] = []
        self.loop_calls: list[tuple[str, ast.Call]] = []
        discarded: set[int] = set()  # calls that are whole statements: their value is thrown away
        inert: set[int] = set()  # ... and with no positional argument: a callee's summary cannot change them
        attr_writes: list[int] = []  # lines that change self.x / cls.x (what every later scope reads)
        leaf, has_body, loop_types, field_table, pushed = _LEAF_TYPES, _BODY_TYPES, _LOOP_TYPES, FIELDS, _PUSHED
        imports, funcs, strings, call_sites = self.imports, self.funcs, self.strings, self.call_sites
        heads: set[str] = set()  # every Name's id and every attribute's name: what a call can resolve to
        attrs: set[str] = set()
        add_head, add_attr = heads.add, attrs.add
        weak_calls = False  # some call check_call may hand to a query or template sink
        Constant, Expr, Call, Attribute, Subscript, Name, Store = ast.Constant, ast.Expr, ast.Call, ast.Attribute, ast.Subscript, ast.Name, ast.Store
        stack: list[ast.AST] = [self.tree]  # a depth-first walk, inlined: this loop is the analysis's hot path
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            tp = type(node)
            if tp in leaf:  # most nodes: nothing below is about names, contexts or operators
                if tp is Constant and isinstance(node.value, str):
                    strings.append(node)
                continue
            fields = field_table.get(tp)
            for name in fields if fields is not None else fields_of(tp):
                v = getattr(node, name, None)
                if type(v) is list:  # names and tokens are never pushed: popping them would do nothing
                    for x in v:  # a loop, not a list comprehension: most lists hold one or two nodes
                        if type(x) in pushed:
                            push(x)
                        elif type(x) is Name:
                            add_head(x.id)
                elif type(v) in pushed:
                    push(v)
                elif type(v) is Name:
                    add_head(v.id)
            if tp is Expr:
                if type(node.value) is Call:
                    discarded.add(id(node.value))
                continue
            if tp is Call:
                f = node.func
                callee = f.id if type(f) is Name else (f.attr if type(f) is Attribute else "")
                if callee:
                    call_sites.append((node.lineno, callee))
                    if not node.args and id(node) in discarded:
                        inert.add(len(call_sites) - 1)
                    if callee in _MUTATORS and type(f) is Attribute and _self_attr_or_self(f.value):
                        attr_writes.append(node.lineno)
                    if callee in WEAK_METHODS and not weak_calls and type(f) is Attribute:
                        weak_calls = weak_sink_call(node, callee)
                    if callee in _LOOP_CALLS and (callee != "fork" or dotted_name(f) == "os.fork"):
                        self.loop_calls.append((callee, node))
                if not self.writes:
                    self.writes = writes_files(node)
                continue
            if tp is Attribute or tp is Subscript:
                if tp is Attribute:
                    add_attr(node.attr)
                if type(node.ctx) is Store and _self_attr_or_self(node.value):
                    attr_writes.append(node.lineno)
                continue
            if tp in has_body:
                body = node.body
                if isinstance(body, list) and body:
                    st = body[0]
                    if type(st) is Expr and type(st.value) is Constant and isinstance(st.value.value, str):
                        self.docstrings.add(id(st.value))
            if tp in loop_types:
                self.loops.append(node)
            elif tp is ast.Import:
                for a in node.names:
                    if a.asname:
                        imports[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        imports[top] = top
            elif tp is ast.ImportFrom and node.module and not node.level:
                for a in node.names:
                    imports[a.asname or a.name] = f"{node.module}.{a.name}"
            elif tp is ast.FunctionDef or tp is ast.AsyncFunctionDef:
                funcs.setdefault(node.name, node)
        from .sinks import strings_without_credential_keys

        self.cred_clear, self.string_lows, self.string_index = strings_without_credential_keys(strings)
        # The scope passes are most of the analysis; skipped when no call can resolve to anything they act on.
        tool_defs = any(_is_tool(fn) for fn in funcs.values())
        if scope_passes_needed(heads, attrs, {callee for _, callee in call_sites}, imports, tool_defs, weak_calls):
            self.scope_passes(inert, attr_writes)
        self.emit_on = True  # the passes below emit whether or not the scope passes ran
        self.whole_module_shapes()
        from .sinks import constant_shapes

        constant_shapes(self)
        from .sinks import loop_shapes

        loop_shapes(self)
        return sorted(self.facts.values(), key=lambda f: (f.start, f.kind))

    def scope_passes(self, inert: set[int], attr_writes: list[int]) -> None:
        """The flow proper: the module body and every function, a summary pass then the emitting pass."""
        ordered = _callees_first(self.funcs, self.call_sites)
        called = {callee for _, callee in self.call_sites if callee in self.funcs}
        called &= _summaries_read(self.funcs, ordered, self.call_sites, inert, attr_writes)
        for i in range(SUMMARY_PASSES + 1):
            self.emit_on = i == SUMMARY_PASSES
            self.calls = []
            module = Scope(self, dict(self.globals), dict(self.global_strs), None)
            module.block(self.tree.body)
            self.globals, self.global_strs = module.env, module.strs
            for name, fn in ordered:
                if not self.emit_on and name not in called and name not in _CONSTRUCTORS:
                    continue  # no call site reads this summary before the final pass rewrites it: final pass only
                scope = Scope(self, dict(self.globals), dict(self.global_strs), fn)
                tool = _is_tool(fn)
                scope.tool = tool
                for idx, arg in enumerate(_params(fn)):
                    scope.env[arg] = frozenset({f"param:{idx}", UNTRUSTED} if tool else {f"param:{idx}"})
                    scope.strs.pop(arg, None)
                scope.block(fn.body)
                self.summaries[name] = scope.summary()

    # -- facts -------------------------------------------------------------------------
    def span(self, node: ast.AST) -> tuple[int, int]:
        return node_span(self.doc, node)

    def emit(self, kind: str, node: ast.AST, message: str, severity: Severity, confidence: Confidence = Confidence.HIGH,
             url: str = "", **props) -> None:
        if not self.emit_on:
            return
        start, end = self.span(node)
        fact = c.Fact(kind, start, end, message, severity, confidence, {"analysis": "python-ast", **props})
        if kind in (K.REMOTE_EXEC, K.CRED_EXFIL, K.HOST_DATA_EXFIL):
            fact = c.apply_url_context(fact, url, self.doc_hosts)
        key = (kind, start)
        if key not in self.facts or self.facts[key].severity < fact.severity:
            self.facts[key] = fact

    def whole_module_shapes(self) -> None:
        names = [q for q, _ in self.calls]
        connects = [n for q, n in self.calls if q in SOCKET_CONNECTS]
        dup2 = [n for q, n in self.calls if q == "os.dup2"]
        spawns = [n for q, n in self.calls if q in ("pty.spawn",) or (api.is_shell_call(q) and _mentions_shell(n))]
        if connects and spawns and (dup2 or any(_uses_fileno(n) for n in spawns)):
            self.emit_on = True
            self.emit(K.REVERSE_SHELL, (dup2 or spawns)[0], "Socket connected out, its descriptors handed to a shell: a reverse shell",
                      Severity.CRITICAL, calls=sorted(set(q for q in names if q.startswith(("socket", "os.dup2", "pty", "subprocess"))))[:10])


# Node types with no child nodes worth visiting: contexts, operators and leaves (Constant's
# and Name's fields are plain values or a context token).
_LEAF_TYPES = frozenset({ast.Constant, ast.Name, ast.Load, ast.Store, ast.Del, *(
    t for t in vars(ast).values() if isinstance(t, type) and issubclass(t, (ast.operator, ast.unaryop, ast.cmpop, ast.boolop)))})
_LOOP_CALLS = frozenset({"connect_ex", "fork", "unlink", "remove", "rmtree", "rmdir"})


# What the collecting walk pushes: one set lookup stands for `isinstance(x, ast.AST) and type(x) not in <dropped>`
# (parse() builds exact node types, all of them named in the ast module). Dropped: the leaves but Constant, and
# import aliases (python.walk.FIELDS keeps an import's `names`, which nothing here reads).
_PUSHED = NODE_TYPES - (_LEAF_TYPES - {ast.Constant}) - {ast.alias}
_LOOP_TYPES = frozenset({ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp})
_BODY_TYPES = frozenset(t for t in NODE_TYPES if "body" in t._fields)


def _self_attr_or_self(node: ast.AST) -> bool:
    """`self` / `cls`, or `self.x` / `cls.x`: a store into it (or into its item) changes a flow attribute."""
    if type(node) is ast.Attribute:
        node = node.value
    return type(node) is ast.Name and node.id in ("self", "cls")


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    a = fn.args
    names = [p.arg for p in a.posonlyargs + a.args]
    if names and names[0] in ("self", "cls"):
        names = names[1:]
    names += [p.arg for p in a.kwonlyargs]
    return names


def _is_tool(fn) -> bool:
    """An MCP/agent tool: its arguments are chosen by the model, i.e. by whatever text steered it."""
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("tool", "call_tool", "resource", "prompt", "route", "get", "post"):
            return True
    return False


def _mentions_shell(call: ast.Call) -> bool:
    for n in ast.walk(call):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            v = n.value.strip().lower()
            if v in api.SHELL_NAMES or v in ("-i",) or v.endswith(("/sh", "/bash", "/zsh")) or v.startswith(("/bin/sh", "/bin/bash")):
                return True
    return False


def _uses_fileno(call: ast.Call) -> bool:
    return any(k.arg in ("stdin", "stdout", "stderr") and "fileno" in ast.dump(k.value) for k in call.keywords)


def doc_context(doc) -> dict:
    return getattr(doc, "context", None) or {}


def node_span(doc, node: ast.AST) -> tuple[int, int]:
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0)
    end_line = getattr(node, "end_lineno", line) or line
    end_col = getattr(node, "end_col_offset", col) or col
    return _offset(doc, line, col), max(_offset(doc, end_line, end_col), _offset(doc, line, col) + 1)


def _offset(doc, line: int, byte_col: int) -> int:
    starts = doc.line_starts
    line = min(max(line, 1), len(starts))
    text = doc.lines[line - 1]
    col = len(text.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "ignore"))
    return min(starts[line - 1] + col, len(doc.text))


_TREE_ATTR = "_python_tree"


@gc_paused
def parse_tree(doc) -> ast.Module:
    """The document's syntax tree, parsed once and shared by every Python analysis (parsing is
    a quarter of their cost). A parse failure is remembered and raised again to each caller.
    Callers only read the tree."""
    cached = doc.__dict__.get(_TREE_ATTR)
    if cached is None:
        try:
            cached = ast.parse(doc.text, filename=doc.path)  # syntax tree only: never compiled to code, never run
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
            cached = exc
        doc.__dict__[_TREE_ATTR] = cached
    if isinstance(cached, BaseException):
        raise cached
    return cached


def release_tree(doc) -> None:
    """Drop the document's cached tree once its analyses are done, before the collector resumes
    (see python.behaviour.python_analyses); a later reader parses again. A remembered parse
    failure is kept: it is small and saves every later reader a failing parse."""
    if not isinstance(doc.__dict__.get(_TREE_ATTR), BaseException):
        doc.__dict__.pop(_TREE_ATTR, None)


@gc_paused
def analyze(doc) -> Iterable[c.Fact]:
    return PythonFlow(doc, parse_tree(doc)).run()
