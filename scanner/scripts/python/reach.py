"""Which code of a Python script an agent can drive, and which names carry its input.

An MCP tool's arguments are chosen by the model, so by any text that steered it. This module
finds the tool functions (decorated `@x.tool()`, `@tool`, `@server.call_tool()`), every function
they reach by name (helpers, methods, nested functions, thread targets), and, per function,
the names that hold a tool argument after simple assignments. Functions are matched by name
only, so a helper called through an alias, an instance or a class is still reached. Nothing
here compiles or runs the scanned code; every pass is linear in the tree.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .walk import walk

_TOOL_DECORATORS = frozenset({"tool", "call_tool", "resource", "read_resource"})
_NOT_INPUT = frozenset({"self", "cls", "ctx", "context"})
# Request objects of web frameworks: a value read from one is attacker-chosen.
REQUEST_NAMES = ("request", "req", "flask_request")
REQUEST_FIELDS = _REQUEST_FIELDS = frozenset({"args", "form", "values", "json", "get_json", "cookies", "headers", "data", "files",
                             "query_params", "GET", "POST", "REQUEST", "body"})
FuncDef = (ast.FunctionDef, ast.AsyncFunctionDef)


def dotted(node: ast.AST, imports: dict[str, str]) -> str:
    """`a.b.c` for an attribute chain, with the first name resolved through the imports."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Call):
        return dotted(node.func, imports) + "()." + ".".join(reversed(parts)) if parts else dotted(node.func, imports) + "()"
    if not isinstance(node, ast.Name):
        return ".".join(reversed(parts))
    parts.append(imports.get(node.id, node.id))
    return ".".join(reversed(parts))


def callee_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in walk(node) if isinstance(n, ast.Name)}


def is_request_read(node: ast.AST) -> bool:
    """`request.args[...]`, `request.form.get(...)`, `request.get_json()` and the like."""
    for n in walk(node):
        if isinstance(n, ast.Attribute) and n.attr in _REQUEST_FIELDS:
            base = n.value
            if isinstance(base, ast.Name) and base.id in REQUEST_NAMES:
                return True
    return False


@dataclass
class Reach:
    imports: dict[str, str]
    funcs: dict[str, list] = field(default_factory=dict)  # name -> every def with that name
    tools: list = field(default_factory=list)
    reached: dict[int, object] = field(default_factory=dict)  # id(def) -> def, tools included
    tainted: dict[int, set[str]] = field(default_factory=dict)  # id(def) -> names holding input
    docstrings: list[str] = field(default_factory=list)  # tool and module docstrings

    def in_reach(self, fn) -> bool:
        return id(fn) in self.reached

    def reached_defs(self) -> list:
        return list(self.reached.values())


def imports_of(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _is_tool(fn, imports: dict[str, str]) -> bool:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = dotted(target, imports).rsplit(".", 1)[-1]
        if name in _TOOL_DECORATORS:
            return True
    return False


def _params(fn) -> list[str]:
    a = fn.args
    return [p.arg for p in (a.posonlyargs + a.args + a.kwonlyargs)] + ([a.vararg.arg] if a.vararg else []) + ([a.kwarg.arg] if a.kwarg else [])


def build(tree: ast.Module, defs: list, imports: dict[str, str]) -> Reach:
    r = Reach(imports)
    for fn in defs:
        r.funcs.setdefault(fn.name, []).append(fn)
        if _is_tool(fn, imports):
            r.tools.append(fn)
            doc = ast.get_docstring(fn)
            if doc:
                r.docstrings.append(doc)
    mod_doc = ast.get_docstring(tree)
    if mod_doc:
        r.docstrings.append(mod_doc)
    if not r.tools:
        return r
    work = list(r.tools)
    for fn in r.tools:
        r.reached[id(fn)] = fn
        r.tainted[id(fn)] = {p for p in _params(fn) if p not in _NOT_INPUT}
    budget = 20 * (len(defs) + 1)  # taint only grows, so this bound is never the limiting factor in practice
    while work and budget > 0:
        budget -= 1
        fn = work.pop()
        local = _local_taint(fn, r.tainted.get(id(fn), set()))
        r.tainted[id(fn)] = local
        for node in walk(fn):
            if isinstance(node, ast.Name) and node.id in r.funcs:  # thread targets, callbacks
                for g in r.funcs[node.id]:
                    if id(g) not in r.reached:
                        r.reached[id(g)] = g
                        r.tainted.setdefault(id(g), set())
                        work.append(g)
            if not isinstance(node, ast.Call):
                continue
            name = callee_name(node)
            for g in r.funcs.get(name, ()):
                params = _params(g)
                if params and params[0] in ("self", "cls") and isinstance(node.func, ast.Attribute):
                    params = params[1:]
                have = r.tainted.setdefault(id(g), set())
                new = set()
                for i, arg in enumerate(node.args):
                    if i < len(params) and names_in(arg) & local:
                        new.add(params[i])
                for kw in node.keywords:
                    if kw.arg in params and names_in(kw.value) & local:
                        new.add(kw.arg)
                if id(g) not in r.reached or not new <= have:
                    r.reached[id(g)] = g
                    have |= new
                    work.append(g)
    return r


def _local_taint(fn, seeds: set[str]) -> set[str]:
    """Names in `fn` that hold input after assignments (two passes reach loop-carried values)."""
    tainted = set(seeds)
    assigns = [n for n in walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor,
                                                          ast.withitem, ast.NamedExpr, ast.comprehension))]
    for _ in range(2):
        for n in assigns:
            if isinstance(n, ast.Assign):
                src, tgts = n.value, n.targets
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                src, tgts = n.value, [n.target]
            elif isinstance(n, ast.withitem):
                src, tgts = n.context_expr, [n.optional_vars] if n.optional_vars is not None else []
            else:
                src, tgts = n.iter, [n.target]
            if src is None:
                continue
            if names_in(src) & tainted or is_request_read(src):
                for t in tgts:
                    tainted |= names_in(t)
    return tainted


def request_tainted(fn) -> set[str]:
    """Names in any function holding a value read from a web request (Flask, Django, Starlette)."""
    return _local_taint(fn, set())
